#!/usr/bin/env bash
# Runs two tpuprof binaries over the real captures, the synthetic samples and a
# few generated dumps, and compares every output byte for byte (refactor guard).
# Usage: tools/compare_outputs.sh OLD_BIN NEW_BIN [WORK_DIR]
# Exit 0 when all outputs are equal; prints the differing files otherwise.
set -uo pipefail
old=$1 new=$2 work=${3:-$(mktemp -d)}
root="$(cd "$(dirname "$0")/.." && pwd)"
s="$root/../shared/samples"
mkdir -p "$work/in"
inputs=("$s/bm1684x/bmprofile_data-1" "$s/bm1690/cdm_profile_data_dev0"
        "$s"/synthetic/*/cdm_profile_data_dev0-0)
for spec in "aks 0 2" "aks 1 0" "aks 2 1" "aksv 2 2" "aksv 1 0 --cycle-wrap" "bm1684x 1 0" "bm1684x 1 0 --cycle-wrap"; do
  set -- $spec
  d="$work/in/$1_m$2_c$3${4:-}"
  [ -d "$d" ] || "$old" synth -q --chip "$1" --mode "$2" --cdma-ports "$3" ${4:-} --records 500 --seed 3 -o "$d" >/dev/null
  inputs+=("$d")
done
fail=0
for bin in old new; do
  b=${!bin}
  for i in "${inputs[@]}"; do
    n=$(echo "$i" | sed "s|$s/||; s|$work/in/||; s|/|_|g")
    o="$work/$bin/$n"; mkdir -p "$o"
    "$b" convert -q --perfetto --json --csv --html -o "$o/conv" "$i" >/dev/null 2>"$o/convert.err"; echo $? >"$o/convert.rc"
    for cmd in "info --json" "info" "summary" "summary --format csv" "summary --format json" \
               "top" "top --by bytes --engine gdma" "gaps" "gaps --min 100ns -n 50" "group --by op" \
               "group --by layer --format csv" "group --by function"; do
      f="$o/$(echo "$cmd" | tr ' -' '__').txt"
      "$b" $cmd -q "$i" >"$f" 2>&1; echo "rc=$?" >>"$f"
    done
  done
done
diff -r -q "$work/old" "$work/new" && echo "compare_outputs: all equal ($work)" || { echo "compare_outputs: DIFFERENT ($work)"; fail=1; }
exit $fail
