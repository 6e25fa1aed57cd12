/// The typed decoders and what they need, for code that knows its chip (or
/// dispatches itself): every chip's traits (chips::all), bmprofile_decoder,
/// cdm::cdm_decoder, detect_dump, merge_devices. Entry header; in compiled mode
/// (TPUPROF_COMPILED_LIB) the decoders are instantiated in tpuprof_compiled.
#pragma once

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/all.hpp>
#include <tpuprof/chips/bm1684x/isa.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm/global.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/decode/merge.hpp>
#include <tpuprof/detail/extern_templates.hpp>
