/// Synthetic position-paired dumps (BM1688, CV184X `bmprofile_data-N`), one generator for every
/// chip with an indexed_layout: seedable, any size, 1 or 2 cores (send_msg / wait_msg barrier),
/// real command encodings, firmware GDMA records, optional 32-bit counter wraps, and the events
/// they encode. The stages are in synth/indexed/.
#pragma once

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/generated_dump.hpp>
#include <tpuprof/synth/indexed/expected.hpp>
#include <tpuprof/synth/indexed/iter_profile.hpp>
#include <tpuprof/synth/indexed/layout.hpp>
#include <tpuprof/synth/indexed/options.hpp>
#include <tpuprof/synth/indexed/program.hpp>

namespace tpuprof::synth {

/// Generates a dump of `Chip` (one with an indexed_layout). Throws std::invalid_argument for a
/// core count the chip does not have.
template <class Chip>
generated_dump indexed_dump(const indexed_options& o = {}) {
  namespace D = indexed_detail;
  using L = indexed_layout<Chip>;
  if (o.cores < 1 || o.cores > Chip::core_count)
    throw std::invalid_argument(std::string(Chip::name) + " has " +
                                std::to_string(Chip::core_count) + " core(s)");
  std::mt19937_64 rng(o.seed);
  auto rnd = [&](std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  generated_dump g;
  g.names.push_back("");
  const D::program p = D::make_program<Chip>(o, rnd);
  g.files.push_back({"global.profile", text_bytes(p.lines)});
  for (unsigned c = 0; c < o.cores; ++c) {
    g.files.push_back({D::cmd_file(L::bd_base + c * 0x100000ull, c, 0), p.cores[c].tcmd.data});
    g.files.push_back({D::cmd_file(L::gdma_base + c * 0x100000ull, c, 1), p.cores[c].gcmd.data});
  }
  const D::counters k = D::place_counters<Chip>(p, o, rnd);
  g.files.push_back({"iter0.profile", D::iter_profile<Chip>(p, k)});
  g.expected = D::expected_events(p, k, g.names);
  return g;
}

}  // namespace tpuprof::synth
