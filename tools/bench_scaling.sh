#!/usr/bin/env bash
# Whole-process scaling of `tpuprof convert` (Perfetto + summary, the default
# job) on generated AKS dumps: wall and CPU time, peak RSS, page faults, bytes
# per event, output bytes per slice, and `cp -r` of the same dump in the same
# run (the memory-speed yardstick of issue #15). Prints a Markdown table.
# Usage: tools/bench_scaling.sh TPUPROF_BINARY [RECORDS...]   (default 10000 175000 700000)
# Needs ~3 GB free in $TMPDIR for 700000 records. docs/performance.md has results.
set -euo pipefail
bin=$(realpath "$1")
shift
sizes=(10000 175000 700000)
[[ $# -gt 0 ]] && sizes=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/tpuprof_scaling.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "| records/engine/core | hardware events | cp -r s | convert wall s | CPU s (user+sys) | x cp -r | peak RSS MB | peak B/event | minor faults | output MB | B/slice |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
  "$bin" synth --chip aks --records "$n" --seed 7 -o "$work/in" -q > /dev/null
  sync
  ev=$("$bin" info "$work/in" --format json | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["events"], j["spans"])')
  hw=${ev% *}
  spans=${ev#* }
  cat "$work/in"/* > /dev/null  # both runs read from the page cache
  t0=$(date +%s.%N)
  cp -r "$work/in" "$work/copy"
  sync -f "$work/copy" 2> /dev/null || true
  t1=$(date +%s.%N)
  rm -rf "$work/copy"
  /usr/bin/time -f "%e %U %S %M %R" -o "$work/time" "$bin" convert "$work/in" -o "$work/out" -q
  read -r wall user sys rss_kb minflt < "$work/time"
  out=$(stat -c %s "$work/out/trace.pftrace")
  python3 - "$n" "$hw" "$spans" "$t0" "$t1" "$wall" "$user" "$sys" "$rss_kb" "$minflt" "$out" <<'PY'
import sys
n, hw, spans = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
t0, t1, wall, user, sys_, rss_kb, minflt, out = map(float, sys.argv[4:])
cp = t1 - t0
print(f"| {n} | {hw/1e6:.2f} M | {cp:.3f} | {wall:.2f} | {user+sys_:.2f} | {wall/cp:.1f} | "
      f"{rss_kb/1024:.0f} | {rss_kb*1024/hw:.0f} | {int(minflt)} | {out/1e6:.0f} | {out/(hw+spans):.1f} |")
PY
  rm -rf "$work/in" "$work/out"
done
