/// Compiled mode (TPUPROF_COMPILED_LIB, as spdlog's SPDLOG_COMPILED_LIB): the
/// decoders of the supported chips and their heavy stages (the SG2260 ISA's
/// 44-form descriptor decoding, the CDM emit pass) are instantiated once in the
/// static library tpuprof::tpuprof_compiled (src/), so a TU that decodes, or
/// calls tpuprof::open, does not instantiate them again. Without the macro this
/// header only includes. Entry level (it names every chip); include it before
/// the code that uses the decoders. src/*.cpp hold the matching definitions.
#pragma once

#include <cstddef>
#include <span>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>

#ifdef TPUPROF_COMPILED_LIB
namespace tpuprof {
extern template class bmprofile_decoder<chips::bm1684x>;
extern template class bmprofile_decoder<chips::bm1688>;
extern template class bmprofile_decoder<chips::cv184x>;
namespace cdm {
extern template class cdm_decoder<chips::aks>;
extern template class cdm_decoder<chips::aksv>;
extern template void detail::emit<chips::aks>(detail::decode_state&);
extern template void detail::emit<chips::aksv>(detail::decode_state&);
}  // namespace cdm
namespace regs::sg2260 {
extern template decode_status decode<chips::aks>(engine, std::span<const std::byte>, instruction&);
extern template decode_status decode<chips::aksv>(engine, std::span<const std::byte>, instruction&);
extern template ops_result tiu_ops<chips::aks>(std::span<const std::byte>);
extern template ops_result tiu_ops<chips::aksv>(std::span<const std::byte>);
}  // namespace regs::sg2260
}  // namespace tpuprof
#endif
