#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each one with a budget.
# Usage: tools/fuzz.sh [SECS | --time SECS | --runs N] [--jobs J] [--no-build] [TARGET...]
#   SECS / --time: seconds per target (default 20; CI runs `tools/fuzz.sh 10`)
#   --runs N:      N executions per target (the 10 M campaign: --runs 10000000)
#   --jobs J:      J libFuzzer worker processes per target (default 1)
#   --no-build:    run the targets already in build/fuzz (do not configure or build)
#   TARGET:        fuzz_dump, fuzz_cdm, ... (default: every target)
# Prints per target: runs, exec/s (wall), CPU seconds and exec per CPU second (what a loaded
# machine still measures fairly), and the crash/timeout/oom files libFuzzer left.
# Corpora grow in build/fuzz/corpus/<target>; seeds are read from tests/fuzz/seeds/.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=(-max_total_time=20) jobs=1 targets=() build=1
while [ $# -gt 0 ]; do
  case $1 in
    --time) budget=(-max_total_time="$2"); shift 2 ;;
    --runs) budget=(-runs="$2"); shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    [0-9]*) budget=(-max_total_time="$1"); shift ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ $build = 1 ]; then
  cmake --preset fuzz >/dev/null
  if [ ${#targets[@]} -gt 0 ]; then cmake --build --preset fuzz --target "${targets[@]}"; else cmake --build --preset fuzz; fi
fi
shopt -s nullglob
[ ${#targets[@]} -gt 0 ] || for f in build/fuzz/tests/fuzz/fuzz_*; do [ -x "$f" ] && targets+=("$(basename "$f")"); done
status=0
for name in "${targets[@]}"; do
  f=build/fuzz/tests/fuzz/$name
  corpus=build/fuzz/corpus/$name artifacts=build/fuzz/artifacts/$name/
  mkdir -p "$corpus" "$artifacts"
  echo "-- $name (${budget[*]}, $jobs job(s))"
  log=build/fuzz/$name.log
  extra=()
  [ "$jobs" -gt 1 ] && extra=(-jobs="$jobs" -workers="$jobs")
  timer=() && rm -f build/fuzz/$name.cpu
  [ -x /usr/bin/time ] && timer=(/usr/bin/time -o build/fuzz/$name.cpu -f "%U %S")
  if ! "${timer[@]}" "$f" "${budget[@]}" "${extra[@]}" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
      -artifact_prefix="$artifacts" -print_final_stats=1 "$corpus" tests/fuzz/seeds/"${name#fuzz_}" \
      >"$log" 2>&1; then
    status=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|ERROR|SUMMARY" "$log" | sort -u | head -5 || true
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s+=$1} END {print s+0}')
  [ -f build/fuzz/$name.cpu ] && awk -v n="$units" \
    '{c = $1 + $2} END {printf "cpu_s: %.2f  exec_per_cpu_s: %d\n", c, (c > 0 ? n / c : 0)}' build/fuzz/$name.cpu
  ls "$artifacts" | head -5
done
exit $status
