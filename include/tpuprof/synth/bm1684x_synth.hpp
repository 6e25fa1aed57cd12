/// Synthetic BM1684X dumps (bmprofile_data-N): seedable, any size, with the
/// events they encode, for tests, benchmarks and the demo. The stages are in
/// synth/bm1684x/: descriptors, the command stream (program.hpp), iter0.profile
/// and the expected events.
#pragma once

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/synth/bm1684x/expected.hpp>
#include <tpuprof/synth/bm1684x/iter_profile.hpp>
#include <tpuprof/synth/bm1684x/options.hpp>
#include <tpuprof/synth/bm1684x/program.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/generated_dump.hpp>

namespace tpuprof::synth {

/// Generates a BM1684X dump: one static subnet, `layers` layer groups of GDMA
/// loads, TIU ops (each waiting on the last load) and stores, with TIU/DMA
/// overlap, gaps, cycle-counter and 16-bit id wraps at scale. With `o.inject`, `injected`
/// (when given) receives the commands and layers the fault touched.
inline generated_dump bm1684x_dump(const bm1684x_options& o = {},
                                   inject_record* injected = nullptr) {
  namespace D = bm1684x_detail;
  std::mt19937_64 rng(o.seed);
  auto rnd = [&](std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  generated_dump g;
  g.names.push_back("");
  D::program p = D::make_program(o, rnd);
  if (injected) *injected = p.injected;
  g.files.push_back({"global.profile", text_bytes(p.lines)});
  D::finish_command_buffers(p);
  g.files.push_back({"cmd_12425c000_0_0.dat", p.tcmd.data});
  g.files.push_back({"cmd_12425e000_0_1.dat", p.gcmd.data});
  const D::counter_origins org = D::place_origins(p, o, rnd);
  g.files.push_back({"iter0.profile", D::iter_profile(p, o, org)});
  g.expected = D::expected_events(p, o, org, g.names);
  return g;
}

}  // namespace tpuprof::synth
