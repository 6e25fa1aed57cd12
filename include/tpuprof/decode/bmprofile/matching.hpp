/// Matching of PMU records to commands (§6.4): command ids unwrapped along the list, then
/// each record paired with the static node or MCU NODE_SET whose id follows its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>

namespace tpuprof::bmprofile {

/// The unwrapped command id of every record of `l`; reports a full buffer, counter and id
/// wraps, and records that never ended.
template <bmprofile_chip Chip>
std::vector<std::uint64_t> unwrap_ids(const pmu_list& l, std::uint64_t cap, const std::string& file,
                                      decode_diagnostics& diag) {
  const std::size_t n = l.count;
  if (cap && n >= cap)
    diag.add(diag::buffer_full, file, l.bytes.base(),
             std::string(name(l.eng)) + " PMU buffer full (" + std::to_string(n) +
                 " records): later commands lost");
  std::vector<std::uint64_t> ids(n);
  rebase_state st;
  std::uint64_t wraps = 0, idwraps = 0, invalid = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::byte* p = l.bytes.bytes().data() + k * l.record_size;
    const auto s = io::load_le<std::uint32_t>(p), e = io::load_le<std::uint32_t>(p + 4);
    st.k = k;
    const double before = st.fixed;
    const auto delta_before = st.id_delta;
    st.template arrive<Chip::id_width>(s, e, pmu_raw_id<Chip>(l, p), pmu_id_bits<Chip>(l));
    if (st.fixed != before) ++wraps;
    if (e < s) ++wraps;
    if (st.id_delta != delta_before) ++idwraps;
    // Not ended: a start never written, or an end of 0xFFFFFFFF on the last
    // record or over half the counter range after its start. An end that is
    // 0xFFFFFFFF because the counter reached it just before wrapping is real.
    if (s == 0xFFFFFFFFu || (e == 0xFFFFFFFFu && (k + 1 == n || e - s >= 0x80000000u))) ++invalid;
    ids[k] = pmu_raw_id<Chip>(l, p) + st.id_delta;
  }
  if (wraps)
    diag.add(diag::cycle_wrap, file, l.bytes.base(),
             std::string(name(l.eng)) + " cycle counter wrapped", wraps);
  if (idwraps)
    diag.add(diag::id_wrap, file, l.bytes.base(), std::string(name(l.eng)) + " command id wrapped",
             idwraps);
  if (invalid)
    diag.add(diag::invalid_record, file, l.bytes.base(),
             std::string(name(l.eng)) + " records not ended", invalid);
  return ids;
}

/// Pairs the records of `l` (ids from unwrap_ids) as the vendor does: MCU NODE_SETs up to
/// the first id 0, then the static nodes in order, then the remaining NODE_SETs.
template <bmprofile_chip Chip>
void pair_records(pmu_list& l, const std::vector<std::uint64_t>& ids, const std::string& file,
                  decode_diagnostics& diag) {
  const std::size_t n = l.count;
  l.pair.assign(n, no_pair);
  const std::uint64_t mask = (std::uint64_t{1} << Chip::id_width) - 1;
  auto next_id = [&](std::uint64_t x) { return (x + 1) & mask; };
  const auto& D = *l.dyns;
  auto dyn_id = [&](const dyn_event& d) {
    const auto& L = Chip::node_set;
    return l.eng == engine::tiu ? io::bits(d.rec.id, L.bd_lo, L.bd_width)
                                : io::bits(d.rec.id, L.gdma_lo, L.gdma_width);
  };
  std::size_t c = 0, stop = 0;
  const bool has_static = l.nodes && !l.nodes->empty();
  if (has_static) {
    bool stopped = false;
    for (std::size_t k = 0; k < D.size() && c < n; ++k) {
      if (ids[c] == 0 && c > 0) {
        stop = k;
        stopped = true;
        break;
      }
      if (dyn_id(D[k]) == next_id(ids[c]))
        l.pair[c++] = dyn_pair_bit | static_cast<std::uint32_t>(k);
    }
    if (!stopped) stop = 0;
    const auto& S = *l.nodes;
    std::size_t matched_nodes = 0, sys_tail = 0;
    for (std::size_t k = 0; k < S.size(); ++k) {
      if (c >= n) break;
      const std::uint64_t nid = l.eng == engine::tiu ? S[k].bd_id : S[k].gdma_id;
      if (nid == next_id(ids[c])) {
        l.pair[c++] = static_cast<std::uint32_t>(k);
        ++matched_nodes;
      }
    }
    // the GDMA SYS end marker never gets a PMU record; not a loss
    if (l.eng == engine::gdma && !S.empty() && Chip::gdma_func_names.size() > 6 &&
        S.back().func == 6)
      sys_tail = 1;
    if (matched_nodes + sys_tail < S.size())
      diag.add(diag::unmatched_command, file, decode_error::no_offset,
               std::to_string(S.size() - matched_nodes - sys_tail) + " static " +
                   std::string(name(l.eng)) + " commands have no PMU record",
               S.size() - matched_nodes - sys_tail);
  }
  for (std::size_t k = stop; k < D.size() && c < n; ++k)
    if (dyn_id(D[k]) == next_id(ids[c])) l.pair[c++] = dyn_pair_bit | static_cast<std::uint32_t>(k);
  const auto unpaired =
      static_cast<std::uint64_t>(std::count(l.pair.begin(), l.pair.end(), no_pair));
  if (unpaired)
    diag.add(
        diag::unmatched_record, file, l.bytes.base(),
        std::to_string(unpaired) + " " + std::string(name(l.eng)) + " PMU records match no command",
        unpaired);
}

/// Expected-vs-decoded for an engine with no MONITOR block in iteration `ib`:
/// its static commands (but the GDMA SYS end marker, which never has a record)
/// are lost, reported at the end of the iteration file.
template <bmprofile_chip Chip>
void report_unmonitored(engine eng, const std::vector<node_info>& S, const iter_blocks& ib,
                        decode_diagnostics& diag) {
  std::size_t n = S.size();
  if (eng == engine::gdma && n && Chip::gdma_func_names.size() > 6 && S.back().func == 6) --n;
  if (n)
    diag.add(diag::unmatched_command, ib.file, ib.end,
             std::to_string(n) + " static " + std::string(name(eng)) +
                 " commands, but the file has no " + std::string(name(eng)) +
                 " MONITOR block: their records are lost",
             n);
}

/// Unwraps and pairs the records of one list.
template <bmprofile_chip Chip>
void match_records(pmu_list& l, std::uint64_t cap, const std::string& file,
                   decode_diagnostics& diag) {
  pair_records<Chip>(l, unwrap_ids<Chip>(l, cap, file, diag), file, diag);
}

}  // namespace tpuprof::bmprofile
