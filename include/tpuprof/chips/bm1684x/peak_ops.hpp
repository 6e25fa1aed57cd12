/// BM1684X peak ops/s per TIU command, for the roofline's attainable ops (algo/roofline.hpp;
/// docs/analysis.md, "Roofline"). Kept out of traits.hpp: only the advisor's callers need it.
#pragma once

namespace tpuprof::chips {

/// Peak ops/s at 1 GHz of a BM1684X TIU command of class `tsk_typ` (bd_func_names) whose input
/// has `bits`-bit elements, in bmprofile's units of 1024e9 ops/s (`PeakTops`, format-bm1684x.md
/// section 7.2, where it is a layer's class; here a command's): CONV and MM run on the cube,
/// 32 / 16 / 2 for 8-, 16- and 32-bit data (the higher of the vendor's matmul and fc figures, so
/// that the ceiling stays an upper bound); PD (pool) 8 / 4 / 2; every other class 4 / 2 / 1,
/// which is lanes x EUs x clock: 64 NPUs x (EU_BYTES 64 / bytes per element) x 1 GHz = 4096e9,
/// 2048e9, 1024e9 ops/s. 0 (unknown) for SYS and for other element widths.
inline double bm1684x_peak_ops_per_s(unsigned tsk_typ, unsigned bits) noexcept {
  const int w = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
  if (w < 0 || tsk_typ == 15) return 0;
  const double cube[] = {32, 16, 2}, pool[] = {8, 4, 2}, vec[] = {4, 2, 1};
  const double* t = tsk_typ == 0 || tsk_typ == 2 ? cube : tsk_typ == 1 ? pool : vec;
  return t[w] * 1024e9;
}

}  // namespace tpuprof::chips
