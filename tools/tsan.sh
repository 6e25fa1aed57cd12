#!/usr/bin/env bash
# The tests of parallel decoding (tests/open/parallel_open_test.cpp,
# tests/open/ordered_window_test.cpp, tests/decode/cdm_stream_test.cpp) built alone
# under ThreadSanitizer: open() with threads must be free of data races.
# Usage: tools/tsan.sh [build-dir]   (default build/tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/tsan}
mkdir -p "$out"
samples=$(cd .. && pwd)/shared/samples
defs=()
[[ -d $samples ]] && defs+=("-DTPUPROF_SAMPLES_DIR=\"$samples\"")
g++ -std=c++20 -O0 -g -fsanitize=thread -Wall -Wextra -Werror -Iinclude "${defs[@]}" \
  tests/main.cpp tests/open/parallel_open_test.cpp tests/open/ordered_window_test.cpp \
  -lfmt -lsimdjson -o "$out/parallel_open_test"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/parallel_open_test"
# cdm::stream: cores decoded on worker threads, consumed in order (tests/decode/cdm_stream_test.cpp).
g++ -std=c++20 -O0 -g -fsanitize=thread -Wall -Wextra -Werror -Iinclude "${defs[@]}" \
  tests/main.cpp tests/decode/cdm_stream_test.cpp -lfmt -lsimdjson -o "$out/cdm_stream_test"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" "$out/cdm_stream_test"
