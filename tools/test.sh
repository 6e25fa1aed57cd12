#!/usr/bin/env bash
# The whole test suite: dependencies, format and single-header checks, the dev
# build + tests, the ASan/UBSan build + tests, the single-header tests, the
# release build (CLI, benchmarks smoke run) and short fuzz runs.
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

echo "== single-header tests"
cmake --workflow --preset single-header

echo "== ASan + UBSan tests"
cmake --workflow --preset asan

echo "== dev tests"
cmake --workflow --preset ci
