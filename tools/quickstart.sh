#!/usr/bin/env bash
# The README's first command: installs missing Debian packages, builds the CLI
# (Release, build/bin/tpuprof) and runs the main job on a synthetic AKS dump:
# synth -> convert (Perfetto trace + summary) -> summary table.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh
cmake --preset cli >/dev/null
cmake --build --preset cli
T=build/bin/tpuprof
D=build/demo/cdm_profile_data_dev0-0
"$T" synth --chip aks --records 20000 --cdma-ports 1 --seed 1 -o "$D"
"$T" info "$D"
"$T" convert "$D" -o build/demo/out
"$T" summary "$D"
echo
echo "Open build/demo/out/trace.pftrace in https://ui.perfetto.dev (offline: the Perfetto UI's 'Open trace file')."
