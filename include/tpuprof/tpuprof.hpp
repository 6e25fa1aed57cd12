/// Umbrella header: everything tpuprof offers. Data flows
/// raw bytes (io/) -> chips/ -> records and events (decode/) -> views/, algo/ -> sinks/.
#pragma once

#include <tpuprof/version.hpp>

// vocabulary
#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>
#include <tpuprof/operand_source.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/ops_math.hpp>
#include <tpuprof/regs/reg_table.hpp>
#include <tpuprof/trace_info.hpp>

// raw bytes
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/io/mapped_file.hpp>

// One call for any supported dump (open.hpp), and the typed decoders of every
// chip (decode.hpp). In compiled mode (TPUPROF_COMPILED_LIB, linking
// tpuprof::tpuprof_compiled) open() is compiled once and the umbrella parses no
// decoder: include <tpuprof/decode.hpp> for the typed decoders there.
#ifdef TPUPROF_COMPILED_LIB
#include <tpuprof/open_options.hpp>
#else
#include <tpuprof/decode.hpp>
#include <tpuprof/open.hpp>
#endif

// views and sinks
#include <tpuprof/algo.hpp>
#include <tpuprof/sinks/any_sink.hpp>
#include <tpuprof/sinks/callback.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/csv.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/sinks/tee.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/views.hpp>

// Outside the umbrella (their compile time is their users' only): the synthetic
// dump generator <tpuprof/synth.hpp>, the HTML report <tpuprof/report/html.hpp>
// and the host-trace reader <tpuprof/io/chrome_json_reader.hpp> (simdjson).
