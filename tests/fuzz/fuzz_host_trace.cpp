// libFuzzer target: the Chrome JSON host-trace reader must either return
// spans or throw decode_error, never crash or leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <tpuprof/io/chrome_json_reader.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto h = tpuprof::io::parse_chrome_json(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
    h.align_by_tail(1000, 1'000'000);
    for (const auto& s : h.spans)
      if (s.dur_ns < 0) __builtin_trap();
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
