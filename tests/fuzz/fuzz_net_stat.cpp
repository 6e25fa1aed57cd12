// libFuzzer target: net_stat.sim (the compiler's text estimate) must parse or
// throw decode_error, never crash.
#include <cstddef>
#include <cstdint>

#include <tpuprof/decode/bmprofile/net_stat.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tpuprof::io::byte_reader r({reinterpret_cast<const std::byte*>(data), size},
                                   "net_stat.sim");
  tpuprof::decode_diagnostics diag;
  try {
    const auto ns = tpuprof::bmprofile::parse_net_stat(r, diag);
    std::size_t n = ns.tiu.size() + ns.gdma.size();
    (void)n;
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
