/// tpuprof::stream_trace: a dump straight into a sink, with bounded memory
/// where the chip's decoder can stream (SG2260 family: cdm::stream, core by
/// core, cores on worker threads); other inputs are opened whole and written
/// with write_trace. Entry header (dispatches over chips, like open.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/cdm/stream.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/sinks/perfetto_part.hpp>
#include <tpuprof/sinks/sink.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// Writes the dump at `input` into `sink` (begin, events, spans, finish) and
/// returns its trace_info. The sink sees the same calls with the same values
/// as `write_trace(open(input, o), sink)`. A single SG2260-family dump (and no
/// open_options::num_core) is streamed: memory is a few cores, not the dump,
/// and open_options::threads cores decode at once. Anything else (several
/// dumps, other chips) goes through open(). Operands and dependencies are
/// never kept. Throws what open() throws.
template <class Chips = detail::open_chips, event_sink S>
trace_info stream_trace(const std::filesystem::path& input, S& sink, const open_options& o = {},
                        std::size_t memory_budget = cdm::stream_options{}.memory_budget) {
  if (o.num_core == 0 && detail::is_dump_dir(input)) {
    auto files = io::dump_files::open_directory(input);
    const std::string chip = detail::chip_of<Chips>(files, o);
    bool streamed = false;
    trace_info info;
    with_chip(Chips{}, chip, [&]<class C>() {
      if constexpr (!bmprofile::bmprofile_chip<C>) {
        cdm::cdm_options opt;
        opt.tiu_freq_mhz = o.tiu_freq_mhz;
        opt.dma_freq_mhz = o.dma_freq_mhz;
        opt.uarch = o.uarch;
        opt.time = o.time;
        cdm::stream_options so;
        so.threads = o.threads;
        so.memory_budget = memory_budget;
        info = cdm::stream<C>(files, sink, opt, so);
        streamed = true;
      }
    });
    if (streamed) return info;
  }
  open_options whole = o;
  whole.keep_operands = false;
  whole.dependencies = false;
  const trace t = open<Chips>(input, whole);
  write_trace(t, sink);
  return t.info();
}

}  // namespace tpuprof
