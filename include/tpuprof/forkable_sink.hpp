/// forkable_sink: a sink that formats the events of one unit (a core) on a
/// worker thread and joins them in order; streaming decoders use it to format
/// cores in parallel (perfetto_sink is one). Vocabulary, so that decoders can
/// test for it without depending on sinks/.
#pragma once

#include <cstdint>
#include <span>

#include <tpuprof/event.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof {

/// An event sink (write, finish) whose `auto p = s.fork(device, unit, info)`
/// (on the sink's thread, after begin) gives a part with `p.write(e)` for any
/// one thread (names looked up in `info`, a copy of the table that nobody
/// extends meanwhile), and `s.join(std::move(p), events)` (on the sink's
/// thread) gives the output of `s.write(e)` for every e of `events`, exactly
/// what p was given. Between fork and join the sink takes no event of that unit.
template <class S>
concept forkable_sink = requires(S& s, std::uint8_t u, const engine_event& e,
                                 const trace_info& info, std::span<const engine_event> events) {
  s.write(e);
  s.finish();
  s.fork(u, u, info).write(e);
  s.join(s.fork(u, u, info), events);
};

}  // namespace tpuprof
