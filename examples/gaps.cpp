// example_gaps: idle gaps (a lazy view), utilization, group_stats_by and the
// summary (eager algorithms) on a small in-memory trace (no arguments
// needed). Prints checkable numbers, as ns after the track layout's origin.
#include <cstdio>
#include <string>
#include <vector>

#include <tpuprof/algo.hpp>
#include <tpuprof/sinks/summary_format.hpp>
#include <tpuprof/views.hpp>

using namespace tpuprof;

namespace {
engine_event make(engine eng, unsigned core, double b, double e, name_id op,
                  std::uint64_t bytes = 0) {
  engine_event x;
  x.engine = eng;
  x.unit = static_cast<std::uint8_t>(core);
  x.begin_ns = b;
  x.end_ns = e;
  x.begin_cycle = static_cast<std::uint64_t>(b);  // 1 GHz: 1 cycle = 1 ns
  x.end_cycle = static_cast<std::uint64_t>(e);
  x.op = op;
  if (bytes) {
    x.bytes = bytes;
    x.set_flag(engine_event::flag_has_bytes);
    x.set_dir(direction::s2l);
  }
  return x;
}
}  // namespace

int main() {
  trace_info info;
  info.cores = 1;
  const name_id conv = info.names.intern("conv"), mm = info.names.intern("MM2_NN"),
                load = info.names.intern("tensorLd");
  // Grouped by track, time ordered: the decoder contract.
  const std::vector<engine_event> events{
      make(engine::tiu, 0, 0, 400, conv),        make(engine::tiu, 0, 400, 700, mm),
      make(engine::tiu, 0, 1500, 1900, conv),    make(engine::tiu, 0, 1950, 2000, mm),
      make(engine::gdma, 0, 0, 300, load, 6000), make(engine::gdma, 0, 800, 1400, load, 30000),
  };

  info.begin_ns = 0;
  info.end_ns = 2000;
  const track_layout layout(info);  // the one time origin every output uses (here 0)
  std::printf("idle gaps >= 100 ns:\n");
  for (const idle_gap& g : events | views::idle_gaps(100))
    std::printf("  %s core %u: %lld..%lld ns (%.0f ns) after %s, before %s\n",
                std::string(name(g.track.eng)).c_str(), g.track.unit,
                static_cast<long long>(layout.rel_ns(g.begin_ns)),
                static_cast<long long>(layout.rel_ns(g.end_ns)), g.dur_ns(),
                std::string(info.names[g.prev.op]).c_str(),
                std::string(info.names[g.next.op]).c_str());

  const auto u = events | algo::utilization();
  for (const core_utilization& c : u.cores)
    std::printf("core %u: compute %.0f ns, transfer %.0f ns, overlap %.0f ns (%.1f%%)\n", c.core,
                c.compute_ns, c.transfer_ns, c.overlap_ns, 100 * c.overlap_ratio());

  std::printf("by op:\n");
  for (const group_stats& g : events | algo::group_stats_by(group_key::op))
    std::printf("  %-9s n=%llu sum=%.0f p50=%.0f max=%.0f ns\n",
                std::string(info.names[static_cast<name_id>(g.id)]).c_str(),
                static_cast<unsigned long long>(g.count), g.sum_ns, g.p50_ns, g.max_ns);

  std::printf("%s", format_summary_txt(events | algo::summary({&info})).c_str());
  return 0;
}
