#!/usr/bin/env bash
# The tests of parallel decoding (tests/open/parallel_open_test.cpp,
# tests/open/ordered_window_test.cpp, tests/decode/cdm_stream_test.cpp) built alone
# under ThreadSanitizer: open() with threads must be free of data races.
# The four TUs compile side by side (one compiler per core), the doctest main once.
# Usage: tools/tsan.sh [build-dir]   (default build/tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/tsan}
mkdir -p "$out"
samples=$(cd .. && pwd)/shared/samples
defs=()
[[ -d $samples ]] && defs+=("-DTPUPROF_SAMPLES_DIR=\"$samples\"")
flags=(-std=c++20 -O0 -g -fsanitize=thread -Wall -Wextra -Werror -Iinclude "${defs[@]}")
srcs=(tests/main.cpp tests/open/parallel_open_test.cpp tests/open/ordered_window_test.cpp
      tests/decode/cdm_stream_test.cpp)
jobs=${TSAN_JOBS:-$(nproc)}
pids=()
for src in "${srcs[@]}"; do
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
  g++ "${flags[@]}" -c "$src" -o "$out/$(basename "$src" .cpp).o" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done  # set -e: a failed compile stops here
g++ -fsanitize=thread "$out/main.o" "$out/parallel_open_test.o" "$out/ordered_window_test.o" \
  -lfmt -lsimdjson -o "$out/parallel_open_test"
g++ -fsanitize=thread "$out/main.o" "$out/cdm_stream_test.o" -lfmt -lsimdjson -o "$out/cdm_stream_test"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/parallel_open_test"
# cdm::stream: cores decoded on worker threads, consumed in order (tests/decode/cdm_stream_test.cpp).
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/cdm_stream_test"
