#!/usr/bin/env bash
# The whole test suite: dependencies, format and single-header freshness, the
# layer, chip-name and size checks (known violations in tools/*_allowlist.txt),
# the compile-time budget, the
# release build (CLI, benchmarks smoke run), short fuzz runs (not in CI), then the
# ASan/UBSan build + tests (which include a program built against the single
# header alone). ctest's summary is the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

echo "== single header is fresh"
python3 tools/amalgamate.py --check

echo "== HTML report assets are embedded (tools/embed_assets.py)"
python3 tools/embed_assets.py --check

echo "== format (clang-format-16)"
clang-format-16 --dry-run --Werror $(git ls-files '*.hpp' '*.cpp' | grep -v '^single_include/')

echo "== layering: include direction and chip names (tools/check_layers.py)"
python3 tools/check_layers.py --allowlist tools/layer_allowlist.txt
python3 tools/check_layers.py --chip-names --allowlist tools/chip_names_allowlist.txt

echo "== room sizes: files <= 600 lines, functions <= 150 lines (tools/check_sizes.py)"
python3 tools/check_sizes.py --allowlist tools/size_allowlist.txt

echo "== compile-time budget: umbrella <= 2x fmt + range-v3 in compiled mode (tools/compile_budget.sh)"
if [[ ${CI:-} == true ]]; then
  # GGC totals are the same every run: one is enough; CI measures the gated umbrella only.
  tools/compile_budget.sh --runs 1 tpuprof/tpuprof.hpp
else
  tools/compile_budget.sh --runs 1
fi

if [[ ${CI:-} == true ]]; then
  # CI has 2 cores and 30 minutes: the release build (-O3 warnings) of the CLI
  # only; the examples build in the test build, and the benchmarks build and
  # smoke-run everywhere else.
  echo "== release build (CLI at build/bin/tpuprof; examples and benchmarks skipped in CI)"
  # A check of the -O3 warnings: in unity batches of 4 files (CMake's UNITY_BUILD) and with the
  # decoders compiled once in tpuprof_compiled (src/), 465 instead of 685 CPU seconds.
  # Ninja (CI only; the presets use Makefiles): objects of a target compile while the targets
  # it links are still building, where make waits for them (the library's TU ran alone for 3 min).
  cmake --preset release -G Ninja -DTPUPROF_BUILD_BENCH=OFF -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_UNITY_BUILD_BATCH_SIZE=4 -DTPUPROF_COMPILED_LIB=ON
  cmake --build --preset release --target tpuprof_cli
else
  echo "== release build (CLI at build/bin/tpuprof, benchmarks)"
  cmake --workflow --preset release
  tools/bench-smoke.sh
fi

if [[ ${CI:-} != true ]]; then
  # CI replays the seeds and kept corpora under ASan + UBSan instead (ctest fuzz.replay.*,
  # tests/fuzz/replay_main.cpp): the clang build of the fuzzers costs CI ~390 CPU seconds
  # for 5 s of fuzzing per target. Campaigns: docs/testing.md.
  echo "== fuzz (short runs)"
  tools/fuzz.sh 5
fi

echo "== ThreadSanitizer: parallel decoding (tools/tsan.sh)"
tools/tsan.sh

# One test build: the ASan + UBSan one runs every test the plain debug build
# (`cmake --workflow --preset ci`) runs; building both cost CI ~7 minutes.
echo "== ASan + UBSan tests"
if [[ ${CI:-} == true ]]; then
  # Line tables only (-g1): ASan and UBSan reports keep file:line, and CI
  # compiles and links less debug information.
  cmake --preset asan -G Ninja -DCMAKE_CXX_FLAGS_DEBUG=-g1
  cmake --build --preset asan
  ctest --preset asan
else
  cmake --workflow --preset asan
fi
