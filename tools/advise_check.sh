#!/usr/bin/env bash
# Advise ground truth (issue #16): for every injected rule and seeds 1..N, generates a
# dependency-scheduled dump with one known fault (`tpuprof synth --inject RULE`, BM1684X and
# SG2260 mode 2; the fault's cost in DIR/inject.json = span(faulted) - span(clean, same seed))
# and runs `tpuprof advise --format json` on it. Per rule and chip: how often the injected rule
# is ranked first, and the error of its recoverable_ns against the cost (mean, max). Clean dumps
# (no --inject) must have no finding above info. Exit 1 when a rule is ranked first in fewer
# than 90 % of the dumps, its mean error is above 10 %, or a clean dump has a warn / error.
#   tools/advise_check.sh [CLI] [N] [WORKDIR]
#   tools/advise_check.sh build/h/examples/tpuprof 20
set -euo pipefail
T=${1:-build/dev/examples/tpuprof}
N=${2:-20}
W=${3:-$(mktemp -d)}
RULES=${RULES:-"starved-tiu serial-dma lane-underuse bank-conflict small-dma core-imbalance dispatch"}
CHIPS=${CHIPS:-"bm1684x aks"}
mkdir -p "$W"
rows=$W/rows.tsv
: > "$rows"
for chip in $CHIPS; do
  case $chip in
    bm1684x) gen=(--chip bm1684x --records 2000) ;;
    aks) gen=(--chip aks --mode 2 --records 1000 --cores 2) ;;
  esac
  for seed in $(seq 1 "$N"); do
    for rule in clean $RULES; do
      # core-imbalance needs several cores (BM1684X has one)
      [ "$chip" = bm1684x ] && [ "$rule" = core-imbalance ] && continue
      d=$W/${chip}_${rule}_s${seed}
      inj=()
      [ "$rule" = clean ] || inj=(--inject "$rule")
      "$T" synth -q "${gen[@]}" --seed "$seed" --deps "${inj[@]}" -o "$d"
      "$T" advise -q --format json "$d" > "$d.advise.json"
      python3 - "$chip" "$rule" "$seed" "$d" >> "$rows" <<'PY'
import json, sys
chip, rule, seed, d = sys.argv[1:5]
a = json.load(open(d + ".advise.json"))
f = a["findings"]
top = f[0]["rule"] if f else "-"
worst = max([{"info": 0, "warn": 1, "error": 2}[x["severity"]] for x in f] or [0])
if rule == "clean":
    print(chip, rule, seed, top, 0, 0, worst, sep="\t")
else:
    cost = json.load(open(d + "/inject.json"))["cost_ns"]
    rec = sum(x["recoverable_ns"] for x in f if x["rule"] == rule)
    print(chip, rule, seed, top, cost, rec, worst, sep="\t")
PY
    done
  done
done
python3 - "$rows" <<'PY'
import sys, collections
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
by = collections.defaultdict(list)
for chip, rule, seed, top, cost, rec, worst in rows:
    by[(rule, chip)].append((top, float(cost), float(rec), int(worst)))
bad = 0
print(f"{'rule':<15} {'chip':<8} {'dumps':>5} {'rank1_%':>8} {'mean_err_%':>10} {'max_err_%':>9}")
for (rule, chip), v in sorted(by.items()):
    if rule == "clean":
        above = sum(1 for x in v if x[3] > 0)
        print(f"{'clean':<15} {chip:<8} {len(v):>5} {'':>8} {'':>10} {'':>9}  above info: {above}")
        bad |= above > 0
        continue
    r1 = 100 * sum(1 for x in v if x[0] == rule) / len(v)
    errs = [abs(x[2] - x[1]) / x[1] * 100 if x[1] > 0 else 0.0 for x in v]
    me, mx = sum(errs) / len(errs), max(errs)
    print(f"{rule:<15} {chip:<8} {len(v):>5} {r1:>8.1f} {me:>10.2f} {mx:>9.2f}")
    bad |= r1 < 90 or me > 10
sys.exit(1 if bad else 0)
PY
