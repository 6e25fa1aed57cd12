/// cdm bmodel path: the rules of tpu-mlir PerfAI for bmodel captures
/// (BLOCK_DES_* command buffers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <tpuprof/decode/cdm/align.hpp>
#include <tpuprof/decode/cdm/matcher.hpp>
#include <tpuprof/decode/cdm/normalize.hpp>
#include <tpuprof/decode/cdm/state.hpp>

namespace tpuprof::cdm::detail {

/// tpu-mlir's trimming of system commands at both ends of a list.
inline void omit_system_bmodel(list& r, std::uint8_t code) {
  auto sys = [&](pmu_ref x) { return x.cmd() && x.cmd()->tsk == code; };
  std::size_t e = r.size(), cut = r.size();
  while (e > 0 && sys(r[e - 1])) {
    --e;
    if (r[e].id() == 0) cut = e;
  }
  std::size_t b = 0;
  while (b < cut && sys(r[b])) ++b;
  r.keep(b, cut);
}

inline void align_and_shift_bmodel(decode_state& st) {
  // Same arithmetic as the operator path; there are no CDMA ports.
  st.ports.clear();
  align_and_shift(st);
}

/// One core of the bmodel path: repairs, anchor (and the vendor's per-engine
/// shift), init records dropped, matching, system commands trimmed.
template <class Chip>
void bmodel_core(decode_state& st, core_data& cd) {
  auto& dg = st.info.diagnostics;
  const unsigned init = Chip::init_cmd_num;
  for (int k = 0; k < 3; ++k) {
    auto& l = cd.pmu[k];
    count(st, diag::id_wrap, unwrap_ids(l), cd.file, "id wrap");
    count(st, diag::cycle_wrap, unwrap_cycles(l), cd.file, "cycle wrap");
    if (k == 2)
      count(st, diag::out_of_order, adjust_sdma_order_bmodel(l), cd.file, "SDMA order repaired");
  }
  if (cd.pmu[0].size() >= init && init > 0) {
    cd.anchor = cd.pmu[0][init - 1].end();
    if (st.opt.time == time_base::vendor)
      for (int k = 1; k < 3; ++k)
        if (cd.pmu[k].size() >= init)
          shift_cycles(cd.pmu[k], cd.pmu[k][init - 1].end() - *cd.anchor);
  } else {
    dg.add(diag::other, cd.file, decode_error::no_offset,
           "fewer TIU records than init records: core not aligned");
  }
  for (int k = 0; k < 3; ++k) {
    cd.pmu[k].drop_front(init);
    auto none = [](const command&) -> const std::vector<command>* { return nullptr; };
    st.stats[key(pmu_kind(k), cd.core)] = pair_sections(cd.pmu[k], cd.des_lists[k], false, none);
    omit_system_bmodel(cd.pmu[k], k == 0 ? tiu_sys_code : dma_sys_code);
  }
}

/// The bmodel path (tpu-mlir PerfAI rules): records paired with the decoded
/// BLOCK_DES_* commands, system commands trimmed at both ends.
template <class Chip>
void run_bmodel(decode_state& st) {
  st.info.mode = "bmodel";
  for (auto& cd : st.cores) bmodel_core<Chip>(st, cd);
  align_and_shift_bmodel(st);
}

}  // namespace tpuprof::cdm::detail
