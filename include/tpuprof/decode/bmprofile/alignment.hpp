/// TIU↔GDMA alignment (§6.6): the two engines count cycles from different origins; a TIU
/// command that waits on a GDMA command starts when that one ends, which gives the shift.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>

namespace tpuprof::bmprofile {

/// Rebased start/end of record k of a list (walks forward from a cache).
template <bmprofile_chip Chip>
struct record_walker {
  const pmu_list* l;
  rebase_state st;
  bool started = false;

  void to(std::size_t k) {
    if (!started || k < st.k) {
      st = {};
      st.fixed = l->fixed0;
      started = true;
      pmu_arrive<Chip>(*l, st);
    }
    while (st.k < k) {
      ++st.k;
      pmu_arrive<Chip>(*l, st);
    }
  }
  std::int64_t start(std::size_t k) {
    to(k);
    return st.rebase(io::load_le<std::uint32_t>(l->bytes.bytes().data() + k * l->record_size),
                     l->first_raw);
  }
  std::int64_t end(std::size_t k) {
    to(k);
    const std::byte* p = l->bytes.bytes().data() + k * l->record_size;
    const auto s = io::load_le<std::uint32_t>(p), e = io::load_le<std::uint32_t>(p + 4);
    if (e < s)
      return to_i64(static_cast<double>(std::int64_t{e} + 4294967296 - l->first_raw) + st.fixed);
    return st.rebase(e, l->first_raw);
  }
};

/// Record index per paired static node (dyn = false) or MCU record (dyn = true).
inline std::unordered_map<std::uint32_t, std::size_t> record_index(const pmu_list& l, bool dyn) {
  std::unordered_map<std::uint32_t, std::size_t> m;
  for (std::size_t k = 0; k < l.count; ++k) {
    const auto p = l.pair[k];
    if (p == no_pair) continue;
    if (((p & dyn_pair_bit) != 0) == dyn) m.emplace(p & ~dyn_pair_bit, k);
  }
  return m;
}

/// The two lists of one iteration with their walkers and clocks.
template <bmprofile_chip Chip>
struct alignment_input {
  const pmu_list& tl;
  const pmu_list& gl;
  double tiu_period, gdma_period;
  record_walker<Chip> tw{&tl, {}, false}, gw{&gl, {}, false};
};

/// Shift from static nodes: the first GDMA node whose waiting TIU node (bd_id + 1, same
/// gdma_id) has a record; 0 when there is none.
template <bmprofile_chip Chip>
std::int64_t shift_from_statics(alignment_input<Chip>& in) {
  const pmu_list &tl = in.tl, &gl = in.gl;
  auto gidx = record_index(gl, false), tidx = record_index(tl, false);
  // first TIU node (with a record) per (bd_id, gdma_id)
  std::unordered_map<std::uint64_t, std::size_t> first_tiu;
  for (std::size_t k = 0; k < tl.nodes->size(); ++k) {
    if (!tidx.count(static_cast<std::uint32_t>(k))) continue;
    const auto& b = (*tl.nodes)[k];
    first_tiu.emplace((std::uint64_t{b.bd_id} << 32) | b.gdma_id, k);
  }
  for (std::size_t gk = 0; gk < gl.nodes->size(); ++gk) {
    auto gi = gidx.find(static_cast<std::uint32_t>(gk));
    if (gi == gidx.end()) continue;
    const auto& g = (*gl.nodes)[gk];
    auto bi = first_tiu.find((std::uint64_t{g.bd_id + 1} << 32) | g.gdma_id);
    if (bi == first_tiu.end()) continue;
    const auto t =
        to_i64(static_cast<double>(in.gw.end(gi->second)) * in.gdma_period / in.tiu_period);
    const std::int64_t o = sat_add(t, -in.tw.start(tidx[static_cast<std::uint32_t>(bi->second)]));
    if (o != 0) return o;
  }
  return 0;
}

/// Shift from MCU NODE_SETs, as shift_from_statics but on the dyn ids, and never before the
/// TIU NODE_SET's own end.
template <bmprofile_chip Chip>
std::int64_t shift_from_mcu(alignment_input<Chip>& in, const std::vector<dyn_event>& dyn_bd,
                            const std::vector<dyn_event>& dyn_gdma) {
  auto gidx = record_index(in.gl, true), tidx = record_index(in.tl, true);
  const auto& L = Chip::node_set;
  for (std::size_t gk = 0; gk < dyn_gdma.size(); ++gk) {
    auto gi = gidx.find(static_cast<std::uint32_t>(gk));
    if (gi == gidx.end()) continue;
    const auto& g = dyn_gdma[gk].rec;
    const auto gb = io::bits(g.id, L.bd_lo, L.bd_width),
               gg = io::bits(g.id, L.gdma_lo, L.gdma_width);
    for (std::size_t bk = 0; bk < dyn_bd.size(); ++bk) {
      const auto& b = dyn_bd[bk];
      auto ti = tidx.find(static_cast<std::uint32_t>(bk));
      if (ti == tidx.end() || io::bits(b.rec.id, L.bd_lo, L.bd_width) != gb + 1 ||
          io::bits(b.rec.id, L.gdma_lo, L.gdma_width) != gg)
        continue;
      const auto t =
          to_i64(static_cast<double>(in.gw.end(gi->second)) * in.gdma_period / in.tiu_period);
      const std::int64_t o = std::max<std::int64_t>(sat_add(t, -in.tw.start(ti->second)),
                                                    to_i64(b.end_us / in.tiu_period));
      if (o != 0) return o;
      break;
    }
  }
  return 0;
}

/// The TIU shift in cycles for one iteration (both lists non-empty).
template <bmprofile_chip Chip>
std::int64_t tiu_shift(const pmu_list& tl, const pmu_list& gl, const std::vector<dyn_event>& dyn_bd,
                       const std::vector<dyn_event>& dyn_gdma, double tiu_period,
                       double gdma_period, const std::string& file, decode_diagnostics& diag) {
  alignment_input<Chip> in{tl, gl, tiu_period, gdma_period};
  const bool statics = tl.nodes && gl.nodes && !tl.nodes->empty() && !gl.nodes->empty();
  if (statics) return shift_from_statics(in);
  if (!dyn_bd.empty() && !dyn_gdma.empty()) return shift_from_mcu(in, dyn_bd, dyn_gdma);
  diag.add(diag::other, file, decode_error::no_offset,
           "no static or MCU commands: TIU and GDMA not aligned");
  return 0;
}

}  // namespace tpuprof::bmprofile
