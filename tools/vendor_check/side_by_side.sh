#!/usr/bin/env bash
# Side by side, in one run: tpuprof against the vendor tools it replaces (issue #15 targets:
# >= 1000x bigTpuProfile at 180 k and 1.8 M records, >= 100x tpu_profile.py on the real
# BM1684X capture). NOT run in CI: the vendor tools are not installable; they are rebuilt
# locally from their public sources as docs/testing.md ("Vendor acceptance") describes.
#
# Usage: tools/vendor_check/side_by_side.sh TPUPROF_CLI VENDOR_DIR
#   VENDOR_DIR/btp/run_btp.py         bigTpuProfile driver: the vendor main.py's default job
#                                     (ProfileParser().parse, SummaryExporter, PerfettoExporter;
#                                     docs/testing.md, "AKS / AKSV: bigTpuProfile")
#   VENDOR_DIR/tpu-mlir/python/       tpu-mlir's python/ tree (tools/tpu_profile.py)
# Environment (defaults):
#   RECORDS="10000 100000"  `tpuprof synth --chip aks --records N --seed 7` sizes
#                           (10000 -> 180 k PMU records, 100000 -> 1.8 M)
#   REPS=7                  tpuprof runs per input (half before the vendor run, half after)
#   VENDOR_REPS=1           bigTpuProfile runs per input (a 1.8 M run takes minutes)
#   BTP_FULL_MAX=10000      up to this size bigTpuProfile runs its whole default job (parse,
#                           summary, Perfetto) and, for the split, also without the Perfetto
#                           export; above it only without (the export holds the whole trace
#                           as protobuf objects: ~7.9 kB/event, 14 GB at 1.8 M records)
#   TPU_PROFILE_REPS=3      tpu_profile.py runs on the BM1684X capture
#   BM1684X=<repo>/../shared/samples/bm1684x/bmprofile_data-1
#   PYTHON=/usr/bin/python3 (Debian's, with python3-numpy/-pandas/-bs4/-tqdm/-protobuf)
# Wall time and user+system CPU are the kernel's rusage of each run (wait4: what /usr/bin/time
# prints, here at microsecond resolution); peak RSS of the tpuprof rows from one more run
# under /usr/bin/time (%M). Prints Markdown tables; ratios are vendor / tpuprof (CPU:
# user+sys), the vendor's median against tpuprof's median and best.
set -euo pipefail
[[ $# -eq 2 ]] || { sed -n '2,27p' "$0"; exit 2; }
cli=$(realpath "$1")
vendor=$(realpath "$2")
here=$(cd "$(dirname "$0")/../.." && pwd)
records=${RECORDS:-10000 100000}
reps=${REPS:-7}
vendor_reps=${VENDOR_REPS:-1}
full_max=${BTP_FULL_MAX:-10000}
tp_reps=${TPU_PROFILE_REPS:-3}
bm1684x=${BM1684X:-$here/../shared/samples/bm1684x/bmprofile_data-1}
py=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/side_by_side.XXXXXX")
trap 'rm -rf "$work"' EXIT
tm=$vendor/tpu-mlir/python
export PYTHONHASHSEED=0

# run LABEL CMD...: one timed run, appends "LABEL wall user sys maxrss_kb" to $work/times.
# Wall, user and system CPU: the kernel's rusage of the child (wait4), at microsecond
# resolution. Its maxrss is at least this python's own RSS (a forked child starts with the
# parent's pages as its high-water mark), so small commands also get one run of
# `peak LABEL CMD...` under /usr/bin/time, whose %M is the command's own peak RSS.
run() {
  local label=$1
  shift
  python3 - "$label" "$@" >> "$work/times" <<'PY'
import os, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, ru = os.wait4(p.pid, 0)
wall = time.perf_counter() - t0
if status != 0:
    sys.exit(f"{label}: {' '.join(cmd)} failed ({status})")
print(label, f"{wall:.6f}", f"{ru.ru_utime:.6f}", f"{ru.ru_stime:.6f}", ru.ru_maxrss)
PY
}
peak() {
  local label=$1
  shift
  /usr/bin/time -f "$label %M" -a -o "$work/peaks" "$@" > /dev/null 2>&1
}

# tpuprof_reps LABEL N DUMP: N timed `tpuprof convert` runs (Perfetto + summary, the default job)
tpuprof_reps() {
  local i
  for ((i = 0; i < $2; i++)); do
    rm -rf "$work/out_t"
    run "$1" "$cli" convert "$3" -o "$work/out_t" -q
  done
  rm -rf "$work/out_t"
  peak "$1" "$cli" convert "$3" -o "$work/out_t" -q
}

: > "$work/times"
: > "$work/inputs"
: > "$work/peaks"
echo "uptime at start: $(uptime)"
for ((i = 0; i < reps; i++)); do run "startup:tpuprof --version" "$cli" --version; done
for ((i = 0; i < reps; i++)); do run "startup:/bin/true" /bin/true; done
peak "startup:tpuprof --version" "$cli" --version
peak "startup:/bin/true" /bin/true

for n in $records; do
  in=$work/aks_$n
  "$cli" synth --chip aks --records "$n" --seed 7 -o "$in" -q > /dev/null
  ev=$("$cli" info "$in" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
  echo "aks_$n $ev $(du -sb "$in" | cut -f1)" >> "$work/inputs"
  cat "$in"/* > /dev/null # every run reads from the page cache
  tpuprof_reps "aks_$n:tpuprof" $((reps / 2)) "$in"
  for ((i = 0; i < vendor_reps; i++)); do
    if ((n <= full_max)); then
      rm -rf "$work/out_v"
      run "aks_$n:bigTpuProfile" "$py" "$vendor/btp/run_btp.py" "$in" - "$work/out_v"
    fi
    rm -rf "$work/out_v"
    run "aks_$n:bigTpuProfile w/o Perfetto" "$py" "$vendor/btp/run_btp.py" "$in" - "$work/out_v" --no-perfetto
  done
  tpuprof_reps "aks_$n:tpuprof" $((reps - reps / 2)) "$in"
  rm -rf "$in" "$work/out_t" "$work/out_v"
done

ev=$("$cli" info "$bm1684x" --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
echo "bm1684x $ev $(du -sb "$bm1684x" | cut -f1)" >> "$work/inputs"
tpuprof_reps "bm1684x:tpuprof" $((reps / 2)) "$bm1684x"
for ((i = 0; i < tp_reps; i++)); do
  rm -rf "$work/out_v"
  PYTHONPATH=$tm:$tm/tools:$tm/profile_helper:$tm/debugger:$tm/PerfAI \
    run "bm1684x:tpu_profile.py" "$py" "$tm/tools/tpu_profile.py" --arch bm1684x "$bm1684x" "$work/out_v"
done
tpuprof_reps "bm1684x:tpuprof" $((reps - reps / 2)) "$bm1684x"
echo "uptime at end:   $(uptime)"
echo

python3 - "$work/times" "$work/inputs" "$work/peaks" <<'PY'
import statistics, sys
peaks = {l.rsplit(None, 1)[0]: int(l.rsplit(None, 1)[1]) for l in open(sys.argv[3])}
runs = {}
for line in open(sys.argv[1]):
    label, wall, user, sys_, rss = line.rsplit(None, 4)
    runs.setdefault(label, []).append((float(wall), float(user) + float(sys_), int(rss)))
inputs = {l.split()[0]: l.split()[1:] for l in open(sys.argv[2])}

def stats(label):
    r = runs[label]
    walls, cpus = sorted(x[0] for x in r), sorted(x[1] for x in r)
    return dict(n=len(r), wall_best=walls[0], wall_med=statistics.median(walls),
                cpu_best=cpus[0], cpu_med=statistics.median(cpus),
                rss=peaks.get(label, max(x[2] for x in r)))

def ms(s):
    return f"{s * 1000:.1f} ms" if s < 10 else f"{s:.1f} s"

print("| input | events | tool | runs | wall median (best) | CPU median (best) | peak RSS MB |")
print("|---|---|---|---|---|---|---|")
for label in runs:
    inp, tool = label.split(":", 1)
    s = stats(label)
    ev = inputs.get(inp, ["", ""])[0]
    print(f"| {inp} | {ev} | {tool} | {s['n']} | {ms(s['wall_med'])} ({ms(s['wall_best'])}) | "
          f"{ms(s['cpu_med'])} ({ms(s['cpu_best'])}) | {s['rss'] / 1024:.0f} |")
print()
print("| input | vendor tool | CPU ratio vs median (vs best) | wall ratio vs median (vs best) | target |")
print("|---|---|---|---|---|")
for inp, vtool, target in (("aks_", "bigTpuProfile", 1000), ("bm1684x", "tpu_profile.py", 100)):
    for key, vlabel in sorted({tuple(l.split(":", 1)) for l in runs
                               if l.startswith(inp) and l.split(":", 1)[1].startswith(vtool)},
                              key=lambda k: (len(k[0]), k)):
        v, t = stats(f"{key}:{vlabel}"), stats(f"{key}:tpuprof")
        cpu_m, cpu_b = v["cpu_med"] / t["cpu_med"], v["cpu_med"] / t["cpu_best"]
        wall_m, wall_b = v["wall_med"] / t["wall_med"], v["wall_med"] / t["wall_best"]
        met = "met" if cpu_m >= target else f"not met ({cpu_m / target:.2f} of it)"
        print(f"| {key} | {vlabel} | {cpu_m:.0f}x ({cpu_b:.0f}x) | {wall_m:.0f}x ({wall_b:.0f}x) | "
              f"{target}x: {met} |")
PY
