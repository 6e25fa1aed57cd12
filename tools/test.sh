#!/usr/bin/env bash
# The whole test suite: dependencies, format and single-header freshness, the
# release build (CLI, benchmarks smoke run), short fuzz runs, then the
# ASan/UBSan build + tests and the dev build + tests (which include a program
# built against the single header alone). ctest's summary is the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

echo "== single header is fresh"
python3 tools/amalgamate.py --check

echo "== HTML report assets are embedded (tools/embed_assets.py)"
python3 tools/embed_assets.py --check

echo "== format (clang-format-16)"
clang-format-16 --dry-run --Werror $(git ls-files '*.hpp' '*.cpp' | grep -v '^single_include/')

echo "== release build (CLI at build/bin/tpuprof, benchmarks)"
cmake --workflow --preset release
tools/bench-smoke.sh

echo "== fuzz (short runs)"
tools/fuzz.sh 20

echo "== ASan + UBSan tests"
cmake --workflow --preset asan

echo "== dev tests"
cmake --workflow --preset ci
