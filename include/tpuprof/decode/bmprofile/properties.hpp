/// The trace's description of a bmprofile dump: mode, properties for `tpuprof info`, and
/// the diagnostic for a dump without PMU data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/net_stat.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/trace_info.hpp>

namespace tpuprof::bmprofile {

inline void describe_trace(const global_profile& g, const std::vector<iter_blocks>& iters,
                           const std::optional<net_stat>& ns, const std::vector<pmu_list>& lists,
                           const std::string& label, trace_info& info) {
  info.mode = iters[0].summary.extra ? "dynamic" : "static";
  info.properties.emplace_back("net_name", g.net_name);
  info.properties.emplace_back("arch", g.arch.value_or(""));
  info.properties.emplace_back(
      "tpu_freq_mhz",
      g.tpu_freq_mhz ? std::to_string(static_cast<long long>(*g.tpu_freq_mhz)) : "");
  info.properties.emplace_back("iterations", std::to_string(iters.size()));
  info.properties.emplace_back("subnets", std::to_string(g.subnets.size()));
  info.properties.emplace_back("tiu_shift_cycles",
                               lists.empty() ? "0" : std::to_string(lists.front().shift));
  if (ns) {
    info.properties.emplace_back("net_stat_sim", std::to_string(ns->tiu.size()) + " TIU + " +
                                                     std::to_string(ns->gdma.size()) +
                                                     " GDMA estimated commands");
    if (ns->flops) info.properties.emplace_back("flops", std::to_string(ns->flops));
  }
  bool any_pmu = false;
  for (const auto& l : lists) any_pmu = any_pmu || l.count > 0;
  if (!any_pmu) {
    info.mode += ns ? ", no PMU data (net_stat.sim estimate available)" : ", no PMU data";
    info.diagnostics.add(diag::empty_block, label, decode_error::no_offset,
                         "no TIU or GDMA PMU records in any iteration");
    // Expected-vs-decoded: the node lines' static commands have no record
    // (unless a missing MONITOR block already counted them).
    std::uint64_t nodes = 0;
    for (const auto& s : g.subnets) nodes += s.tiu_nodes.size() + s.gdma_nodes.size();
    if (nodes && !info.diagnostics[diag::unmatched_command])
      info.diagnostics.add(
          diag::unmatched_command, iters[0].file, iters[0].end,
          std::to_string(nodes) + " static commands in global.profile, no PMU record for any",
          nodes);
    // net_stat.sim is then the only timing data: without it, nothing is left
    if (!ns)
      info.diagnostics.add(diag::missing_file, label + "/net_stat.sim", decode_error::no_offset,
                           "no PMU data and no net_stat.sim: the dump has no timing at all");
  }
}

}  // namespace tpuprof::bmprofile
