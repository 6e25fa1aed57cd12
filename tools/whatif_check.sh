#!/usr/bin/env bash
# What-if ground truth: for seeds 1..N, generates dependency-scheduled dumps (BM1684X and SG2260
# mode 2) and the same dumps with a 2x faster GDMA (--scale gdma=0.5) and a half-speed TIU
# (--scale tiu=2), and prints the measured span of each (first start to last end over the
# hardware events of `tpuprof convert --csv`). A what-if prediction from the base dump must come
# within 2 % of the scaled dump's span (issue #18). When the CLI has `tpuprof whatif`, its
# prediction (`predicted_span_ns` of --format json) is printed too and checked; exit 1 when one
# is off by more than 2 %. See docs/testing.md, "What-if ground truth".
#   tools/whatif_check.sh [CLI] [N] [WORKDIR]
#   tools/whatif_check.sh build/h/examples/tpuprof 3
set -euo pipefail
T=${1:-build/dev/examples/tpuprof}
N=${2:-3}
W=${3:-$(mktemp -d)}
mkdir -p "$W"
has_whatif=0
case "$("$T" --help)" in *$'\n  whatif '*) has_whatif=1 ;; esac

# span_ns DUMP: last end - first start of TIU/GDMA/SDMA/CDMA events, in ns.
span_ns() {
  "$T" convert -q --csv --no-summary -o "$1.out" "$1" > /dev/null
  awk -F, 'NR > 1 && $3 ~ /^(TIU|GDMA|SDMA|CDMA)$/ {
             if (lo == "" || $7 + 0 < lo) lo = $7 + 0; if ($8 + 0 > hi) hi = $8 + 0 }
           END { printf "%.0f", hi - lo }' "$1.out/events.csv"
}

printf '%-8s %4s %-9s %14s %14s %7s' chip seed scale base_span_ns scaled_span_ns ratio
[ "$has_whatif" = 1 ] && printf ' %17s %7s' predicted_span_ns err_%
printf '\n'
bad=0
for seed in $(seq 1 "$N"); do
  for chip in bm1684x aks; do
    case $chip in
      bm1684x) gen=(--chip bm1684x --records 2000) ;;
      aks) gen=(--chip aks --mode 2 --records 1000 --cores 2) ;;
    esac
    base=$W/${chip}_s${seed}
    "$T" synth -q "${gen[@]}" --seed "$seed" --deps -o "$base"
    b=$(span_ns "$base")
    for scale in gdma=0.5 tiu=2; do
      d=$W/${chip}_s${seed}_${scale/=/}
      "$T" synth -q "${gen[@]}" --seed "$seed" --deps --scale "$scale" -o "$d"
      s=$(span_ns "$d")
      printf '%-8s %4s %-9s %14s %14s %7.4f' "$chip" "$seed" "$scale" "$b" "$s" \
        "$(awk -v a="$b" -v b="$s" 'BEGIN { print b / a }')"
      if [ "$has_whatif" = 1 ]; then
        p=$("$T" whatif -q "$base" --scale "$scale" --format json |
          python3 -c 'import json, sys; print(json.load(sys.stdin)["predicted_span_ns"])')
        e=$(awk -v p="$p" -v s="$s" 'BEGIN { e = (p - s) / s * 100; print (e < 0 ? -e : e) }')
        printf ' %17.0f %7.3f' "$p" "$e"
        awk -v e="$e" 'BEGIN { exit !(e > 2) }' && bad=1
      fi
      printf '\n'
    done
  done
done
echo "dumps in $W"
exit $bad
