#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each for N seconds (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
shopt -s nullglob
for f in build/fuzz/tests/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  name=$(basename "$f")
  corpus=build/fuzz/corpus/$name
  mkdir -p "$corpus"
  echo "-- $name (${secs}s)"
  "$f" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 "$corpus" tests/fuzz/seeds/"${name#fuzz_}" 2>&1 | tail -2
done
