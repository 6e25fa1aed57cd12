/// What the generic generator of position-paired dumps (indexed_synth.hpp) must know of a chip
/// beyond its traits: its register and ISA tables, how its PMU records are laid out for
/// writing (the traits only read them), DDR/local address tags and the codes its runtime and
/// the vendor tool accept. One specialization per chip; the generator itself is generic.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <tpuprof/chips/bm1688/traits.hpp>
#include <tpuprof/chips/cv184x/traits.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth {

template <class Chip>
struct indexed_layout;

/// BM1688 (docs/chips/bm1688-notes.md §3, the real capture's records).
template <>
struct indexed_layout<chips::bm1688> {
  static constexpr const auto& tables = regs::bm1688::all_tables;
  static constexpr const auto& tiu_isa = chips::bm1688_isa::tiu_entries;
  static constexpr const auto& gdma_isa = chips::bm1688_isa::gdma_entries;
  /// NPU_NUM, EU_BYTES, IC_PARALLEL of BM1688.h (the vendor's uArch formulas).
  static constexpr unsigned npu = 32, eu_bytes = 16, ic_parallel = 32;
  static constexpr std::string_view tpu_freq = "0";  ///< as the real capture
  /// Firmware GDMA records before the network (ids 0..n-1); two more follow it (ids 0, 1).
  static constexpr unsigned firmware_before = 1;
  static constexpr std::uint64_t bd_base = 0x12406e000, gdma_base = 0x124071000;
  static constexpr std::string_view src_hi = "src_start_addr_h8", dst_hi = "dst_start_addr_h8";
  /// DDR carries the GMEM tag bit 39 (0xA000000000 + offset as the compiler's gaddr).
  static constexpr std::uint64_t ddr(std::uint64_t off) noexcept { return 0xA000000000ull + off; }
  /// src_data_format codes: INT8, FP16, FP32, BF16 and their sizes.
  static constexpr std::array<unsigned, 4> dma_formats{0, 1, 2, 5};
  /// opt_*_prec codes of TIU operands: FP16, FP32, BF16.
  static constexpr std::array<unsigned, 3> tiu_precs{1, 2, 5};

  /// 32 B: start, end, u64 id:16 | load:48, num_read, stall, write, reserved = id.
  static void tiu_record(byte_sink& b, std::uint32_t id, std::uint32_t s, std::uint32_t e) {
    const std::uint32_t load = e - s + 1;
    b.u32(s);
    b.u32(e);
    b.u64((id & 0xFFFFu) | (std::uint64_t{load} << 16));
    b.u32(load);
    b.u32(load);
    b.u32(load);
    b.u32(id & 0xFFFFu);
  }
  /// 256 B: DDR traffic split over the two ports, local memory traffic in fmem.
  static void gdma_record(byte_sink& b, std::uint32_t id, std::uint32_t s, std::uint32_t e,
                          std::uint64_t bytes, direction d) {
    std::uint32_t w[64] = {};
    w[0] = s;
    w[1] = e;
    w[2] = id & 0xFFFFFu;
    const auto n = static_cast<std::uint32_t>(bytes), h = n / 2, r = n - n / 2;
    const bool read_ddr = d == direction::s2l || d == direction::s2s;
    const bool write_ddr = d == direction::l2s || d == direction::s2s;
    if (read_ddr) {  // d0_ar, d1_ar
      w[0x14 / 4] = h;
      w[0x20 / 4] = r;
    }
    if (write_ddr) {  // d0_aw, d0_wr, d1_aw, d1_wr
      w[0x0C / 4] = w[0x10 / 4] = h;
      w[0x18 / 4] = w[0x1C / 4] = r;
    }
    if (d == direction::s2l) w[0x24 / 4] = w[0x28 / 4] = n;  // fmem_aw, fmem_wr
    if (d == direction::l2s) w[0x2C / 4] = n;                // fmem_ar
    b.put(w, sizeof w);
  }
};

/// CV184X (docs/chips/bm1688-notes.md §3).
template <>
struct indexed_layout<chips::cv184x> {
  static constexpr const auto& tables = regs::cv184x::all_tables;
  static constexpr const auto& tiu_isa = chips::cv184x_isa::tiu_entries;
  static constexpr const auto& gdma_isa = chips::cv184x_isa::gdma_entries;
  static constexpr unsigned npu = 8, eu_bytes = 16, ic_parallel = 16;
  static constexpr std::string_view tpu_freq = "1000";
  static constexpr unsigned firmware_before = 4;
  static constexpr std::uint64_t bd_base = 0x8564d000, gdma_base = 0x8564f000;
  static constexpr std::string_view src_hi = "src_start_addr_h13", dst_hi = "dst_start_addr_h13";
  /// DDR is 0x80000000 and up in the low 32 bits (0x20080000000 + offset as the capture).
  static constexpr std::uint64_t ddr(std::uint64_t off) noexcept { return 0x20080000000ull + off; }
  /// INT8, FP32, BF16: the vendor has no FP16 name for CV184X GDMA and stops on it
  /// (bm1688-notes.md §7.8).
  static constexpr std::array<unsigned, 3> dma_formats{0, 2, 5};
  static constexpr std::array<unsigned, 2> tiu_precs{2, 5};

  /// 16 B: u32 id:20, u32 thread/bank conflict, start, end.
  static void tiu_record(byte_sink& b, std::uint32_t id, std::uint32_t s, std::uint32_t e) {
    b.u32(id & 0xFFFFFu);
    b.u32(0);
    b.u32(s);
    b.u32(e);
  }
  /// 64 B: local-memory writes in gif_mem_w, DDR writes in axi_d0_w.
  static void gdma_record(byte_sink& b, std::uint32_t id, std::uint32_t s, std::uint32_t e,
                          std::uint64_t bytes, direction d) {
    std::uint32_t w[16] = {};
    w[0] = s;
    w[1] = e;
    w[2] = id;
    const auto n = static_cast<std::uint32_t>(bytes);
    if (d == direction::s2l) w[0x28 / 4] = n;                         // gif_mem_w_cntr
    if (d == direction::l2s || d == direction::s2s) w[0x14 / 4] = n;  // axi_d0_w_cntr
    b.put(w, sizeof w);
  }
};

}  // namespace tpuprof::synth
