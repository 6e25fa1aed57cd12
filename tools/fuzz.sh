#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each one with a budget.
# Usage: tools/fuzz.sh [SECS | --time SECS | --runs N | --total-runs N] [--jobs J] [--parallel]
#                      [--no-build] [--bin DIR] [--out DIR] [--timeout S] [TARGET...]
#        tools/fuzz.sh --minimize [--max-kib K] [--bin DIR] [--out DIR] [TARGET...]
#   SECS / --time: seconds per target (default 20; CI runs `tools/fuzz.sh 5`)
#   --runs N:      N executions per target in this run
#   --total-runs N: until the target's runs summed over all its logs in OUT reach N: a campaign
#                  killed and restarted goes on where it was (the 10 M campaign: --total-runs 10000000)
#   --jobs J:      J libFuzzer worker processes per target (default 1)
#   --parallel:    run all targets at once (default: one after the other)
#   --no-build:    run the targets already built (do not configure or build)
#   --bin DIR:     where the fuzz_* binaries are (default build/fuzz/tests/fuzz; implies --no-build)
#   --out DIR:     logs, corpora and crash/timeout/oom artifacts (default build/fuzz)
#   --timeout S:   libFuzzer's per-input time limit, a hang above it (default 10)
#   --minimize:    replace tests/fuzz/corpus/<target>/ by the smallest inputs of OUT/corpus/<target>,
#                  the seeds and the old kept corpus that add coverage edges, at most K KiB
#                  (--max-kib, default 256); runs no fuzzing
#   TARGET:        fuzz_dump, fuzz_cdm, ... (default: every target)
# Prints per target: runs, exec/s (wall), CPU seconds and exec per CPU second (what a loaded
# machine still measures fairly), and the crash/timeout/oom files libFuzzer left.
# Corpora grow in OUT/corpus/<target>; the hand-made seeds (tests/fuzz/seeds/<name>/) and the kept
# minimized corpus of past campaigns (tests/fuzz/corpus/<name>/) are read too. A run restarted on
# the same OUT resumes from its corpus; the previous OUT/<target>.log is kept as <target>.log.N.
# tools/fuzz_status.py OUT prints runs, exec/s and findings of running or finished targets.
set -euo pipefail
cd "$(dirname "$0")/.."
# The whole script is one block that bash reads before running it, so a campaign that runs for
# hours is not derailed when the file is edited meanwhile.
{
budget=(-max_total_time=20) jobs=1 targets=() build=1 parallel=0 timeout=10
bin=build/fuzz/tests/fuzz out=build/fuzz total=0 minimize=0 max_kib=256
while [ $# -gt 0 ]; do
  case $1 in
    --time) budget=(-max_total_time="$2"); shift 2 ;;
    --runs) budget=(-runs="$2"); shift 2 ;;
    --total-runs) total=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --parallel) parallel=1; shift ;;
    --minimize) minimize=1; shift ;;
    --max-kib) max_kib=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --bin) bin=$2 build=0; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    [0-9]*) budget=(-max_total_time="$1"); shift ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ $build = 1 ]; then
  cmake --preset fuzz >/dev/null
  if [ ${#targets[@]} -gt 0 ]; then cmake --build --preset fuzz --target "${targets[@]}"; else cmake --build --preset fuzz; fi
fi
shopt -s nullglob
[ ${#targets[@]} -gt 0 ] || for f in "$bin"/fuzz_*; do [ -x "$f" ] && targets+=("$(basename "$f")"); done

# The read-only input directories of a target: its seeds and its kept corpus.
inputs() {
  local d
  for d in tests/fuzz/seeds/"${1#fuzz_}" tests/fuzz/corpus/"${1#fuzz_}"; do
    [ -d "$d" ] && echo "$d"
  done
}

# Replaces tests/fuzz/corpus/<name>/ by the smallest inputs that add coverage edges (libFuzzer's
# -merge=1 without hit counts, smallest first) up to --max-kib; prints the edges kept of all.
minimize() {
  local name=$1 keep=tests/fuzz/corpus/${1#fuzz_} tmp used=0 size file all kept
  tmp=$(mktemp -d)
  mkdir -p "$tmp/new" "$tmp/chk" "$out/corpus/$name" "$out/minimize"
  # shellcheck disable=SC2046
  "$bin/$name" -merge=1 -use_counters=0 -max_len=65536 -rss_limit_mb=2048 "$tmp/new" \
    "$out/corpus/$name" $(inputs "$name") >"$out/minimize/$name.log" 2>&1
  rm -rf "$keep"
  mkdir -p "$keep"
  while read -r size file; do
    [ $((used + size)) -le $((max_kib * 1024)) ] || break
    cp "$file" "$keep/"
    used=$((used + size))
  done < <(find "$tmp/new" -type f -printf '%s %p\n' | sort -n)
  "$bin/$name" -merge=1 -use_counters=0 "$tmp/chk" "$keep" >"$out/minimize/$name.check.log" 2>&1
  all=$(grep -o '[0-9]* new coverage edges' "$out/minimize/$name.log" | tail -1 | cut -d' ' -f1)
  kept=$(grep -o '[0-9]* new coverage edges' "$out/minimize/$name.check.log" | tail -1 | cut -d' ' -f1)
  echo "-- $name: $(find "$keep" -type f | wc -l) files, $((used / 1024)) KiB in $keep:" \
    "${kept:-?} of the ${all:-?} coverage edges of all inputs"
  rm -rf "$tmp"
}

# Runs one target; its libFuzzer output goes to OUT/<target>.log.
run() {
  local name=$1 f=$bin/$1 corpus=$out/corpus/$1 artifacts=$out/artifacts/$1/ log=$out/$1.log
  mkdir -p "$corpus" "$artifacts"
  if python3 tools/fuzz_status.py --running "$out" "$name"; then
    echo "$name: already running on $out (tools/fuzz_status.py $out)" >&2
    return 1
  fi
  local budget=("${budget[@]}") restarts=0 rc
  while :; do
    if [ "$total" -gt 0 ]; then
      local done_runs
      done_runs=$(python3 tools/fuzz_status.py --runs-done "$out" "$name")
      if [ "$done_runs" -ge "$total" ]; then
        echo "$name: $done_runs runs done over its logs in $out, --total-runs $total reached"
        return 0
      fi
      budget=(-runs=$((total - done_runs)))
    fi
    if [ -s "$log" ]; then # keep the previous run's log: tools/fuzz_status.py sums runs over all
      local k=1
      while [ -e "$log.$k" ]; do k=$((k + 1)); done
      mv "$log" "$log.$k"
    fi
    local extra=() timer=()
    [ "$jobs" -gt 1 ] && extra=(-jobs="$jobs" -workers="$jobs")
    rm -f "$out/$name.cpu"
    [ -x /usr/bin/time ] && timer=(/usr/bin/time -o "$out/$name.cpu" -f "%U %S")
    rc=0
    # shellcheck disable=SC2046
    "${timer[@]}" "$f" "${budget[@]}" "${extra[@]}" -rss_limit_mb=2048 -timeout="$timeout" \
      -max_len=65536 -artifact_prefix="$artifacts" -print_final_stats=1 "$corpus" \
      $(inputs "$name") >"$log" 2>&1 || rc=$?
    # libFuzzer's per-input limit is wall time: a fuzzer paused (SIGSTOP) or starved longer than
    # it exits with a timeout (code 70). A campaign goes on; fuzz_status.py re-runs the unit.
    if [ "$total" -eq 0 ] || [ "$rc" -ne 70 ] || [ "$restarts" -ge 50 ]; then return "$rc"; fi
    restarts=$((restarts + 1))
    echo "$name: timeout exit, restart $restarts (tools/fuzz_status.py re-runs the unit alone)" >&2
  done
}

# Prints what a finished target's log and artifacts say.
report() {
  local name=$1 log=$out/$1.log
  local what="${budget[*]}"
  [ "$total" -gt 0 ] && what="--total-runs $total over all logs"
  echo "-- $name ($what, $jobs job(s))"
  grep -E "^stat::number_of_executed_units|^stat::average_exec_per_sec|ERROR|SUMMARY" "$log" | sort -u | head -5 || true
  local units
  units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s+=$1} END {print s+0}')
  [ -f "$out/$name.cpu" ] && awk -v n="$units" \
    '{c = $1 + $2} END {printf "cpu_s: %.2f  exec_per_cpu_s: %d\n", c, (c > 0 ? n / c : 0)}' "$out/$name.cpu"
  ls "$out/artifacts/$name/" | head -5
}

mkdir -p "$out"
if [ $minimize = 1 ]; then
  for name in "${targets[@]}"; do minimize "$name"; done
  exit 0
fi
(cd "$bin" && pwd) >"$out/bin_dir" || true # where tools/fuzz_status.py finds the binaries to re-run units
status=0
if [ $parallel = 1 ]; then
  pids=()
  for name in "${targets[@]}"; do run "$name" & pids+=($!); done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || status=1; report "${targets[$i]}"; done
else
  for name in "${targets[@]}"; do
    run "$name" || status=1
    report "$name"
  done
fi
exit $status
}
