// Compiled mode (TPUPROF_COMPILED_LIB): the SG2260-family decoders and their
// heavy stages, compiled once; include/tpuprof/detail/extern_templates.hpp
// declares them extern.
#include <tpuprof/detail/extern_templates.hpp>

namespace tpuprof {
namespace cdm {
template class cdm_decoder<chips::aks>;
template class cdm_decoder<chips::aksv>;
template void detail::emit<chips::aks>(detail::decode_state&);
template void detail::emit<chips::aksv>(detail::decode_state&);
}  // namespace cdm
namespace regs::sg2260 {
template decode_status decode<chips::aks>(engine, std::span<const std::byte>, instruction&);
template decode_status decode<chips::aksv>(engine, std::span<const std::byte>, instruction&);
template ops_result tiu_ops<chips::aks>(std::span<const std::byte>);
template ops_result tiu_ops<chips::aksv>(std::span<const std::byte>);
}  // namespace regs::sg2260
}  // namespace tpuprof
