// libFuzzer target: the input is one cdmlib core file of an AKS dump (fixed
// global.profile); decode_error is the only acceptable failure.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/detail/extern_templates.hpp>  // compiled mode: decoders from tpuprof_compiled
#include <tpuprof/io/dump_files.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static constexpr std::string_view global = "arch=5\ntpu_freq=1000\nmax_record_num=4194304\n";
  const auto* g = reinterpret_cast<const std::byte*>(global.data());
  const auto* d = reinterpret_cast<const std::byte*>(data);
  // An odd input size selects the bmodel rules, an even one the operator path.
  tpuprof::cdm::cdm_options opt;
  if (size & 1) opt.path = tpuprof::cdm::capture_path::bmodel;
  auto files = tpuprof::io::dump_files::from_memory(
      {{"global.profile", std::span<const std::byte>(g, global.size())},
       {"cdmlib0_0.profile", std::span<const std::byte>(d, size)}},
      "fuzz");
  try {
    tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> dec(files, opt);
    (void)dec.events().size();
  } catch (const tpuprof::decode_error&) {
  }
  return 0;
}
