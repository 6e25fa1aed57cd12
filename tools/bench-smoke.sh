#!/usr/bin/env bash
# Runs every benchmark once, briefly: proves they build and run (timings are not asserted).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
for b in build/bin/bench_*; do
  echo "-- $b"
  "$b" --benchmark_min_time=0.01 >/dev/null
done
