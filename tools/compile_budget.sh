#!/usr/bin/env bash
# Compile-time budget (issue #13): the cost of a TU that includes
# <tpuprof/tpuprof.hpp>, against a baseline TU with <fmt/format.h> +
# <range/v3/all.hpp>, measured in the same run on this machine.
#
#   tools/compile_budget.sh [--runs N] [--max-ratio R] [HEADER...]
#
# Each TU (one line: the include) is compiled with the dev build's flags
# (g++ -std=c++20 -O0 -g -Wall -Wextra -Wpedantic -Wshadow -c), N times (3), the
# TUs interleaved so that load on the machine hits them alike; the median wall
# time, CPU time (user + sys) and peak RSS of each are printed with the ratio to
# the baseline. HEADERs (paths under include/, default: tpuprof/tpuprof.hpp and
# every other top-level entry header of tools/check_layers.py) are the TUs; the umbrella
# is also measured in compiled mode (-DTPUPROF_COMPILED_LIB) once it includes
# tpuprof/detail/extern_templates.hpp.
#
# Exit 1 when the umbrella's CPU-time ratio exceeds R (2, the issue's target),
# 2 when a TU does not compile.
# CXX overrides the compiler.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=3
max_ratio=2
headers=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --max-ratio) max_ratio=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) headers+=("$1"); shift ;;
  esac
done
if [ ${#headers[@]} -eq 0 ]; then
  # the umbrella, then every other top-level entry header that tools/check_layers.py lists
  mapfile -t headers < <(python3 -c '
import os, sys
sys.path.insert(0, "tools")
from check_layers import ENTRY_HEADERS
print("tpuprof/tpuprof.hpp")
for h in ENTRY_HEADERS:
    if h != "tpuprof.hpp" and "/" not in h and os.path.exists("include/tpuprof/" + h):
        print("tpuprof/" + h)')
fi

exec python3 - "$runs" "$max_ratio" "${CXX:-g++}" "${headers[@]}" <<'EOF'
import os, resource, statistics, subprocess, sys, tempfile, time

runs, max_ratio, cxx, headers = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
flags = ["-std=c++20", "-O0", "-g", "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Iinclude"]

tus = [("baseline: fmt/format.h + range/v3/all.hpp",
        "#include <fmt/format.h>\n#include <range/v3/all.hpp>\n", [])]
for h in headers:
    tus.append((h, f"#include <{h}>\n", []))
    if h == "tpuprof/tpuprof.hpp" and "detail/extern_templates.hpp" in open("include/" + h).read():
        tus.append((h + " (-DTPUPROF_COMPILED_LIB)", f"#include <{h}>\n",
                    ["-DTPUPROF_COMPILED_LIB"]))

MEASURE = r"""
import resource, subprocess, sys, time
t = time.monotonic()
rc = subprocess.call(sys.argv[1:])
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss)
"""

def measure(src: str, extra: list[str]) -> tuple[float, float, float]:
    """(wall s, cpu s, peak RSS MB) of one compile, in a fresh process so the
    rusage of its children is this compile's alone."""
    with tempfile.TemporaryDirectory() as d:
        cpp = os.path.join(d, "tu.cpp")
        with open(cpp, "w") as f:
            f.write(src)
        cmd = [cxx, *flags, *extra, "-c", cpp, "-o", os.path.join(d, "tu.o")]
        out = subprocess.run([sys.executable, "-c", MEASURE, *cmd], capture_output=True, text=True)
        fields = out.stdout.split()
        if out.returncode or not fields or fields[0] != "0":
            print(f"compile_budget: compile failed: {' '.join(cmd)}\n{out.stderr}", file=sys.stderr)
            sys.exit(2)
        return float(fields[1]), float(fields[2]), int(fields[3]) / 1024

samples = {name: [] for name, _, _ in tus}
for r in range(runs):
    for name, src, extra in tus:
        samples[name].append(measure(src, extra))

def med(name, i):
    return statistics.median(s[i] for s in samples[name])

base = tus[0][0]
bw, bc, bm = med(base, 0), med(base, 1), med(base, 2)
print(f"compile_budget: {cxx} {' '.join(flags)} -c, median of {runs} run(s)")
print(f"{'TU':<58} {'wall s':>7} {'cpu s':>7} {'RSS MB':>7}  {'cpu x':>6} {'RSS x':>6}")
for name, _, _ in tus:
    w, c, m = med(name, 0), med(name, 1), med(name, 2)
    print(f"{name:<58} {w:7.2f} {c:7.2f} {m:7.0f}  {c / bc:6.2f} {m / bm:6.2f}")
umbrella = med("tpuprof/tpuprof.hpp", 1) / bc if "tpuprof/tpuprof.hpp" in samples else 0
if umbrella:
    ok = umbrella <= max_ratio
    print(f"compile_budget: umbrella / baseline = {umbrella:.2f}x CPU time "
          f"(budget {max_ratio:g}x): {'ok' if ok else 'OVER BUDGET'}")
    sys.exit(0 if ok else 1)
EOF
