/// Compiled mode (TPUPROF_COMPILED_LIB, as spdlog's SPDLOG_COMPILED_LIB): the
/// decoders of the supported chips are instantiated once in the static library
/// tpuprof::tpuprof_compiled (src/), so a TU that decodes does not instantiate
/// their member functions again. Without the macro this header only includes.
/// Entry level (it names every chip); src/*.cpp hold the matching definitions.
#pragma once

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>

#ifdef TPUPROF_COMPILED_LIB
extern template class tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x>;
extern template class tpuprof::cdm::cdm_decoder<tpuprof::chips::aks>;
extern template class tpuprof::cdm::cdm_decoder<tpuprof::chips::aksv>;
#endif
