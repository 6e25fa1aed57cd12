// Send / wait sync messages: the chips' message layouts (hand-built descriptors), the graph's
// pairing on a hand-checked two-core trace, and the generators' ground truth (every wait pairs
// with the send the generator scheduled it after; critical path and idle causes show it).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/open.hpp>
#include <tpuprof/synth/cdm_synth.hpp>
#include <tpuprof/synth/indexed_synth.hpp>

#include "algo/graph_test_util.hpp"

using namespace tpuprof;
using algo::edge_kind;
using algo::idle_cause;

namespace {

/// A zeroed descriptor of `bytes` bytes with `v` (width bits) at bit `lo`.
struct image {
  std::vector<std::byte> d;
  explicit image(std::size_t bytes) : d(bytes) {}
  image& set(unsigned lo, unsigned width, std::uint64_t v) {
    for (unsigned i = 0; i < width; ++i)
      if ((v >> i) & 1) d[(lo + i) / 8] |= static_cast<std::byte>(1u << ((lo + i) % 8));
    return *this;
  }
};

/// TIU SYS (tsk_typ 15 at bits 41-44, eu at 45-49) with `imm` at bits 64-127.
image tiu_sys(unsigned eu, std::uint64_t imm, std::size_t bytes = 16) {
  return std::move(image(bytes).set(41, 4, 15).set(45, 5, eu).set(64, 64, imm));
}

}  // namespace

TEST_CASE("sync messages: AKS and AKSV layouts (tpu-mlir target_1690 / target_1690e)") {
  regs::instruction ins;
  // AKS TIU send_msg: id 300 in imm bits 0-8, count 2 in bits 16-22
  auto a = tiu_sys(8, 300 | (std::uint64_t{2} << 16));
  regs::sg2260::decode<chips::aks>(engine::tiu, a.d, ins);
  CHECK(ins.sync == sync_role::send);
  CHECK(ins.msg_id == 300);
  CHECK(ins.msg_count == 2);
  // AKS GDMA sys_wait (short, cmd_type 6 at 32-36, sp 4 at 37-39): constant_value at bit 96,
  // id 257 in bits 0-8, count 5 in bits 9-15
  auto w = image(16).set(3, 1, 1).set(32, 5, 6).set(37, 3, 4).set(96, 32, 257 | (5u << 9));
  regs::sg2260::decode<chips::aks>(engine::gdma, w.d, ins);
  CHECK(ins.sync == sync_role::wait);
  CHECK(ins.msg_id == 257);
  CHECK(ins.msg_count == 5);
  // AKSV TIU wait_msg: id = imm bits 0-7 | bits 32-33 << 8, count bits 8-14
  auto v = tiu_sys(9, 0x12 | (std::uint64_t{3} << 8) | (std::uint64_t{3} << 32), 40);
  regs::sg2260::decode<chips::aksv>(engine::tiu, v.d, ins);
  CHECK(ins.sync == sync_role::wait);
  CHECK(ins.msg_id == (0x12 | 3 << 8));
  CHECK(ins.msg_count == 3);
  // not a sync command: SYS end, and a DMA sys nop
  auto e = tiu_sys(31, 300);
  regs::sg2260::decode<chips::aks>(engine::tiu, e.d, ins);
  CHECK(ins.sync == sync_role::none);
  CHECK(ins.msg_id == 0);
}

TEST_CASE("sync messages: BM1688 and CV184X layouts (tpu-mlir target_1688 / target_cv184x)") {
  regs::instruction ins;
  chips::perfai::tgcr_state tg;
  // BM1688 TIU SYS (128 bits): id in imm bits 0-6, count in bits 16-18
  auto t = tiu_sys(9, 0x45 | (std::uint64_t{2} << 16));
  chips::bm1688::decode_command(engine::tiu, "SYS", "system.wait_msg", t.d, tg, ins);
  CHECK(ins.sync == sync_role::wait);
  CHECK(ins.msg_id == 0x45);
  CHECK(ins.msg_count == 2);
  // BM1688 sDMA_sys send (cmd_type 32-35, sp 36-38): constant_value bits 0-6 id, 8-14 count
  auto d = image(16).set(3, 1, 1).set(32, 4, 6).set(36, 3, 3).set(96, 32, 0x7F | (4u << 8));
  chips::bm1688::decode_command(engine::gdma, "sDMA_sys", "dma.sys.sys_send", d.d, tg, ins);
  CHECK(ins.sync == sync_role::send);
  CHECK(ins.msg_id == 0x7F);
  CHECK(ins.msg_count == 4);
  // CV184X: the 64-bit TIU SYS form has no imm: role not decoded
  auto c = image(8).set(41, 4, 15).set(45, 5, 8);
  chips::cv184x::decode_command(engine::tiu, "SYS", "system.send_msg", c.d, tg, ins);
  CHECK(ins.sync == sync_role::none);
  // its DMA sys does (cmd_type 32-36, sp 37-39)
  auto cd = image(16).set(3, 1, 1).set(32, 5, 6).set(37, 3, 4).set(96, 32, 9 | (1u << 8));
  chips::cv184x::decode_command(engine::gdma, "sDMA_sys", "dma.sys.sys_wait", cd.d, tg, ins);
  CHECK(ins.sync == sync_role::wait);
  CHECK(ins.msg_id == 9);
  CHECK(ins.msg_count == 1);
}

TEST_CASE("dependency_graph: a two-core barrier, a reused message id, an unpaired wait") {
  using graph_test::dep;
  using graph_test::ev;
  // core 0 TIU: s0 [10,20], w0 [44,50], s2 [100,110], w2 [114,120], u [130,131]
  // core 1 TIU: s1 [30,40], w1 [44,50], s3 [90,100],  w3 [114,120]
  // barrier 1 (msg 5): the last send is s1 (ends 40), waits begin 44;
  // barrier 2 (msg 5 again): the last send is s2 (begins 100); u waits for msg 6 (no send).
  std::vector<engine_event> e{ev(engine::tiu, 1, 10, 20),     ev(engine::tiu, 2, 44, 50),
                              ev(engine::tiu, 3, 100, 110),   ev(engine::tiu, 4, 114, 120),
                              ev(engine::tiu, 5, 130, 131),   ev(engine::tiu, 1, 30, 40, 1),
                              ev(engine::tiu, 2, 44, 50, 1),  ev(engine::tiu, 3, 90, 100, 1),
                              ev(engine::tiu, 4, 114, 120, 1)};
  std::vector<command_dep> d;
  const sync_role roles[] = {sync_role::send, sync_role::wait, sync_role::send,
                             sync_role::wait, sync_role::wait, sync_role::send,
                             sync_role::wait, sync_role::send, sync_role::wait};
  for (std::size_t i = 0; i < e.size(); ++i) {
    d.push_back(dep(e[i].cmd_id, 0, engine::gdma));
    d.back().role = roles[i];
    d.back().msg_id = i == 4 ? 6 : 5;
  }
  auto g = algo::build_dependency_graph(e, d);
  CHECK(g.counts.sync_pairs == 4);
  CHECK(g.sync[1] == 5);  // w0 <- s1 (the other core's send ended last)
  CHECK(g.sync[6] == 5);  // w1 <- s1 (its own)
  CHECK(g.sync[3] == 2);  // w2 <- s2, not barrier 1's s1 (the id is reused)
  CHECK(g.sync[8] == 2);
  CHECK(g.sync[4] == algo::no_node);
  CHECK(g.counts.backward == 0);
  // core 0 idles [20,44] waiting for s1 (sync); [50,100], [120,130] and [110,114] are
  // dispatch (the last because s2, its own send, ended at the gap's start). Core 1: [100,114]
  // waits for core 0's s2 (sync); [40,44] follows its own send (dispatch).
  auto q = algo::idle_causes(g);
  REQUIRE(q.size() == 2);
  CHECK(q[0].by_cause_ns[static_cast<std::size_t>(idle_cause::sync)] == 24);
  CHECK(q[0].by_cause_ns[static_cast<std::size_t>(idle_cause::dispatch)] == 50 + 4 + 10);
  CHECK(q[1].by_cause_ns[static_cast<std::size_t>(idle_cause::sync)] == 14);
  CHECK(q[1].by_cause_ns[static_cast<std::size_t>(idle_cause::dispatch)] == 4 + 40);
  // the path: s1 -sync-> w0 -> s2 -sync-> w2 -> u (core 1's send into core 0's wait)
  auto cp = algo::critical_path(g);
  CHECK(cp.path_sum_ns() == cp.span_ns());
  REQUIRE(cp.path.size() == 5);
  CHECK(cp.path[0].node == 5);
  CHECK(cp.path[1].via == edge_kind::sync);
  CHECK(cp.path[3].via == edge_kind::sync);
  CHECK(cp.binding_kind[1] == edge_kind::sync);
  CHECK(cp.binding[1] == 5);
  CHECK(cp.binding_kind[6] == edge_kind::sync);
  CHECK(cp.binding_kind[8] == edge_kind::sync);
  CHECK(cp.binding[8] == 2);
}

namespace {

/// Sends and waits of a trace and its graph, by role.
struct sync_view {
  std::vector<std::uint32_t> sends, waits;
};
sync_view roles_of(std::span<const command_dep> d) {
  sync_view v;
  for (std::uint32_t i = 0; i < d.size(); ++i) {
    if (d[i].role == sync_role::send) v.sends.push_back(i);
    if (d[i].role == sync_role::wait) v.waits.push_back(i);
  }
  return v;
}

}  // namespace

TEST_CASE("synth bm1688 --cores 2: every barrier wait pairs with the barrier's last send") {
  synth::indexed_options so;
  so.cores = 2;
  so.barriers = 2;
  so.layers = 60;
  for (std::uint64_t seed : {1, 2, 3}) {
    CAPTURE(seed);
    so.seed = seed;
    const auto dump = synth::indexed_dump<chips::bm1688>(so);
    open_options oo;
    oo.dependencies = true;
    const auto t = tpuprof::open(dump.as_files(), oo);
    const auto ev = t.events();
    const auto dep = t.dependencies();
    const auto v = roles_of(dep);
    // first barrier: its sends are dropped (vendor), its waits remain; two barriers inside
    CHECK(v.sends.size() == 4);
    CHECK(v.waits.size() == 6);
    const auto g = algo::build_dependency_graph(t);
    CHECK(g.counts.sync_pairs == 4);
    CHECK(g.counts.backward == 0);
    // per core, the k-th kept send belongs to barrier k; its waits pair with the barrier's
    // send that began last, which ended before they began
    std::map<std::uint8_t, std::vector<std::uint32_t>> sends, waits;
    for (auto i : v.sends) sends[ev[i].unit].push_back(i);
    for (auto i : v.waits) waits[ev[i].unit].push_back(i);
    for (std::size_t k = 0; k < 3; ++k)
      for (std::uint8_t c = 0; c < 2; ++c) {
        const auto w = waits[c][k];
        CHECK(dep[w].msg_id == (k == 0 ? 3u : 5u));
        if (k == 0) {
          CHECK(g.sync[w] == algo::no_node);
          continue;
        }
        const auto a = sends[0][k - 1], b = sends[1][k - 1];
        const auto last = ev[a].begin_ns > ev[b].begin_ns ? a : b;
        CHECK(g.sync[w] == last);
        CHECK(ev[last].end_ns <= ev[w].begin_ns);
      }
    // the core that waited shows it: sync idle time and a sync binding into its wait
    const auto cp = algo::critical_path(g);
    double sync_idle = 0;
    for (const auto& q : algo::idle_causes(g))
      sync_idle += q.by_cause_ns[static_cast<std::size_t>(idle_cause::sync)];
    CHECK(sync_idle > 0);
    std::size_t bound = 0;
    for (auto w : v.waits) bound += cp.binding_kind[w] == edge_kind::sync ? 1 : 0;
    CHECK(bound == 4);
  }
}

TEST_CASE("synth aks / aksv --mode 2 --deps, several cores: each sys_wait pairs with its send") {
  double sync_idle = 0;
  std::size_t sync_bound = 0;
  for (int chip = 0; chip < 2; ++chip)
    for (std::uint64_t seed : {1, 2, 3}) {
      CAPTURE(chip);
      CAPTURE(seed);
      synth::cdm_synth_options so;
      so.mode = 2;
      so.cores = 2;
      so.records = 2000;
      so.seed = seed;
      so.deps.enabled = true;
      const auto r = chip == 0 ? synth::synthesize_cdm<chips::aks>(so)
                               : synth::synthesize_cdm<chips::aksv>(so);
      open_options oo;
      oo.dependencies = true;
      const auto t = tpuprof::open(synth::as_dump_files(r), oo);
      const auto ev = t.events();
      const auto dep = t.dependencies();
      const auto v = roles_of(dep);
      REQUIRE_FALSE(v.waits.empty());
      const auto g = algo::build_dependency_graph(t);
      const auto cp = algo::critical_path(g);
      std::size_t paired = 0;
      for (auto w : v.waits) {
        CHECK(ev[w].engine == engine::gdma);
        if (dep[w].msg_id == 0) {  // the generator's "no send before it": no send has id 0
          CHECK(g.sync[w] == algo::no_node);
          continue;
        }
        // the send it was generated for: its core's, same id (unique across cores), the last to
        // begin before the wait
        std::uint32_t want = algo::no_node;
        for (auto s : v.sends)
          if (ev[s].unit == ev[w].unit && dep[s].msg_id == dep[w].msg_id &&
              ev[s].begin_ns <= ev[w].begin_ns &&
              (want == algo::no_node || ev[s].begin_ns > ev[want].begin_ns))
            want = s;
        REQUIRE(want != algo::no_node);
        CHECK(ev[want].engine == engine::tiu);
        CHECK(g.sync[w] == want);
        // scheduled after it: began at least the sync latency (4 cycles) after it ended
        CHECK(ev[w].begin_ns >= ev[want].end_ns + 4);
        sync_bound += cp.binding_kind[w] == edge_kind::sync ? 1 : 0;
        ++paired;
      }
      CHECK(g.counts.sync_pairs == paired);
      CHECK(paired > 0);
      CHECK(g.counts.violations == 0);
      CHECK(g.counts.backward == 0);
      for (const auto& q : algo::idle_causes(g))
        sync_idle += q.by_cause_ns[static_cast<std::size_t>(idle_cause::sync)];
    }
  // some waits did wait for their send: their idle gap is `sync` and the send bound them
  CHECK(sync_idle > 0);
  CHECK(sync_bound > 0);
}
