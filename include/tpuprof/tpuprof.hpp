/// Umbrella header: everything tpuprof offers.
#pragma once

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/bm1684x.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/decoded_trace.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/io/mapped_file.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/version.hpp>
#include <tpuprof/views.hpp>
