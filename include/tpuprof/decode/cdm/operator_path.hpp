/// cdm operator path: the rules of bigTpuProfile for DYN_DATA captures (modes
/// 0, 1, 2): repair, CDMA attachment, matching, system-command removal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/align.hpp>
#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/matcher.hpp>
#include <tpuprof/decode/cdm/normalize.hpp>
#include <tpuprof/decode/cdm/state.hpp>

namespace tpuprof::cdm::detail {

/// Decoded commands of a DES reference (lazily, once per buffer and engine).
template <class Chip>
const std::vector<command>* resolve_des(decode_state& st, core_data& cd, const command& d,
                                        cmd_engine e) {
  const auto k = std::make_tuple(d.offset, d.cmd_num, e);
  if (auto it = cd.kv_decoded.find(k); it != cd.kv_decoded.end()) return &it->second;
  auto raw = cd.kv.find(std::make_pair(d.offset, d.cmd_num));
  if (raw == cd.kv.end()) return nullptr;
  auto dec = decode_buffer<Chip>(raw->second, e);
  if (!dec.error.empty())
    st.info.diagnostics.add(diag::unknown_enum, cd.file, dec.error_offset, dec.error);
  return &cd.kv_decoded.emplace(k, std::move(dec.cmds)).first->second;
}

/// bigTpuProfile omit_system_commands.
inline bool is_sys(pmu_ref r, std::uint8_t code) {
  const command* c = r.cmd();
  return (c && c->tsk == code) || r.is_sys_labelled();
}
inline void omit_system_op(list& r, std::uint8_t code, bool remain) {
  // Narrow the window [b, e), then keep it.
  std::size_t b = 0, e = r.size();
  for (;;) {
    const std::size_t n = e - b;
    if (n >= 3 && r[e - 1].id() - r[e - 2].id() == 1 && r[e - 2].id() <= r[e - 3].id() &&
        is_sys(r[e - 2], code)) {
      e -= 2;
    } else if (n >= 3 && r[b + 1].id() - r[b].id() == 1 && r[b + 2].id() <= r[b + 1].id() &&
               is_sys(r[b], code)) {
      b += 2;
    } else {
      break;
    }
  }
  r.keep(b, e);
  if (!remain && r.size() <= 2) {  // drop the sys records, keeping the order of the rest
    std::size_t w = 0;
    for (std::size_t i = 0; i < r.size(); ++i)
      if (!is_sys(r[i], code)) {
        if (w != i) r.slot(w) = r.slot(i);
        ++w;
      }
    r.keep(0, w);
  }
}

/// bigTpuProfile's repairs of a CDMA port list (first step of the operator path).
inline void repair_port(decode_state& st, port_data& pd) {
  count(st, diag::id_wrap, unwrap_ids(pd.pmu), pd.file, "CDMA id wrap");
  count(st, diag::out_of_order, adjust_send_retire_order(pd.pmu), pd.file,
        "CDMA send/retire order repaired");
  count(st, diag::cycle_wrap, unwrap_cycles(pd.pmu), pd.file, "CDMA cycle wrap");
  count(st, diag::out_of_order, adjust_command_order(pd.pmu), pd.file, "CDMA id order repaired");
}

/// One core of the operator path: id and cycle repair, its anchor, the init
/// records dropped; with `attach`, the CDMA ports not yet `attached` are
/// aligned to its SDMA and matched with its CDMA commands; then its engines
/// are matched with their commands.
template <class Chip>
void operator_core(decode_state& st, core_data& cd, bool attach, std::vector<bool>& attached) {
  auto& dg = st.info.diagnostics;
  const unsigned init = Chip::init_cmd_num;
  for (int k = 0; k < 3; ++k) {
    auto& l = cd.pmu[k];
    count(st, diag::id_wrap, unwrap_ids(l), cd.file, "id wrap");
    if (k == 2)
      count(st, diag::out_of_order, adjust_send_retire_order(l), cd.file,
            "SDMA send/retire order repaired");
    count(st, diag::cycle_wrap, unwrap_cycles(l), cd.file, "cycle wrap");
    if (k == 2)
      count(st, diag::out_of_order, adjust_command_order(l), cd.file, "SDMA id order repaired");
  }
  if (cd.pmu[0].size() >= init && init > 0)
    cd.anchor = cd.pmu[0][init - 1].end();
  else
    dg.add(diag::other, cd.file, decode_error::no_offset,
           "fewer TIU records than init records: core not aligned");
  for (int k = 0; k < 3; ++k) cd.pmu[k].drop_front(init);
  cd.cmd[0] = drop_front(cd.cmds.tiu, init);
  cd.cmd[1] = drop_front(cd.cmds.gdma, init);
  cd.cmd[2] = drop_front(cd.cmds.sdma, init);

  auto resolver_for = [&cd, &st](cmd_engine e) {
    return [&cd, &st, e](const command& d) { return resolve_des<Chip>(st, cd, d, e); };
  };
  if (attach) {
    for (std::size_t pi = 0; pi < st.ports.size(); ++pi) {
      auto& pd = st.ports[pi];
      if (attached[pi] || pd.pmu.size() <= 1) continue;
      attached[pi] = true;
      const std::int64_t wait_end = pd.pmu[0].end();
      std::int64_t offset = 0;
      if (!cd.pmu[2].empty())
        offset = wait_end - cd.pmu[2][0].end();
      else
        dg.add(diag::other, pd.file, decode_error::no_offset, "no SDMA record to align CDMA with");
      pd.pmu.drop_front(init);
      const auto cmds = drop_front(cd.cmds.cdma[pd.port], init);
      shift_cycles(pd.pmu, offset);
      cd.pmu[2].drop_front(1);  // the VSDMA send of the C2C barrier
      cd.cmd[2] = drop_front(cd.cmd[2], 1);
      st.stats[key(pmu_kind::cdma, pd.port)] =
          pair_sections(pd.pmu, cmds, true, resolver_for(cmd_engine::cdma));
      pd.core = cd.core;
    }
  }
  for (int k = 0; k < 3; ++k)
    st.stats[key(pmu_kind(k), cd.core)] = pair_sections(
        cd.pmu[k], cd.cmd[k], true, resolver_for(k == 0 ? cmd_engine::tiu : cmd_engine::dma));
}

/// Ports no core took: a note when they had records to align, else emptied.
inline void unattached_ports(decode_state& st, const std::vector<bool>& attached) {
  for (std::size_t pi = 0; pi < st.ports.size(); ++pi)
    if (!attached[pi] && st.ports[pi].pmu.size() > 1)
      st.info.diagnostics.add(diag::other, st.ports[pi].file, decode_error::no_offset,
                              "CDMA port not attached to a core");
    else if (!attached[pi])
      st.ports[pi].pmu.clear();
}

/// The "mode N" of trace_info from what the core files hold.
inline std::string operator_mode(bool any_dyn, bool any_dyn_extra) {
  if (any_dyn_extra) return "mode 2 (detailed commands)";
  return any_dyn ? "mode 1 (condensed commands)" : "mode 0 (PMU only)";
}

/// The operator path (bigTpuProfile rules): id and cycle repair, CDMA
/// attachment, matching of records with DYN_DATA commands, alignment and
/// system-command removal.
template <class Chip>
void run_operator(decode_state& st) {
  for (auto& pd : st.ports) repair_port(st, pd);
  // Core that attaches CDMA when none carries CDMA commands: the last core
  // (the vendor says CORE_NUM-1 of the file order).
  const unsigned last_core = st.cores.back().core;
  std::vector<bool> attached(st.ports.size(), false);
  for (auto& cd : st.cores)
    operator_core<Chip>(st, cd, cd.cmds.any_cdma() || cd.core == last_core, attached);
  unattached_ports(st, attached);

  align_and_shift(st);
  // System-command removal: CDMA first, then the core engines.
  bool remain = false;
  for (auto& pd : st.ports) {
    omit_system_op(pd.pmu, cdma_sys_code, false);
    remain = remain || !pd.pmu.empty();
  }
  for (auto& cd : st.cores) {
    omit_system_op(cd.pmu[0], tiu_sys_code, remain);
    omit_system_op(cd.pmu[1], dma_sys_code, remain);
    omit_system_op(cd.pmu[2], dma_sys_code, remain);
  }
  bool any_dyn = false, any_extra = false;
  for (auto& cd : st.cores) {
    any_dyn = any_dyn || cd.has_dyn;
    any_extra = any_extra || (cd.has_dyn && cd.has_extra);
  }
  st.info.mode = operator_mode(any_dyn, any_extra);
}

}  // namespace tpuprof::cdm::detail
