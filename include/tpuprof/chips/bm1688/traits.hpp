/// BM1688: two cores, TIU + GDMA, `bmprofile_data-N` dumps decoded the way tpu-mlir's PerfAI
/// time mode does (docs/chips/bm1688-notes.md, docs/chips/bm1688.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/bm1688/isa_table.hpp>
#include <tpuprof/chips/bm1688/regs.hpp>
#include <tpuprof/chips/common/perfai_convert.hpp>
#include <tpuprof/chips/common/perfai_uarch.hpp>
#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/chips/isa_entry.hpp>
#include <tpuprof/command_frame.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/node_set_layout.hpp>
#include <tpuprof/pmu_record.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::chips {

/// Facts about the BM1688 used by bmprofile_decoder (bmprofile_chip + indexed_chip).
/// Constants from tpu-mlir include/tpu_mlir/Backend/BM168x/BM1688.h (what the closed
/// libcmodel_bm1688.so would return), clocks from profile_helper/bm1688_defs.py.
struct bm1688 {
  static constexpr std::string_view name = "BM1688";
  static constexpr std::string_view cli_name = "bm1688";
  static constexpr dump_family family = dump_family::bmprofile;
  static constexpr unsigned core_count = 2;
  /// bm1688_defs.py: TIU 900 MHz, GDMA 750 MHz; tpu_freq in global.profile is not used.
  static constexpr double tiu_freq_mhz = 900;
  static constexpr double dma_freq_mhz = 750;
  static constexpr bool period_fixed = true;
  static constexpr bool has_engine(engine e) { return e == engine::tiu || e == engine::gdma; }

  static constexpr int arch_id = 4;
  static constexpr std::string_view arch_name = "BM1688";

  static constexpr std::size_t tiu_record_size = 32;
  static constexpr std::size_t gdma_record_size = 256;
  static constexpr unsigned id_width = 20;
  static constexpr unsigned gdma_inst_id_bits = 20;
  /// No MCU records on this path; the layout is BM1684X's.
  static constexpr bmprofile::node_set_layout node_set{0, 20, 20, 20, 40, 3, 43, 4, 52, 60};
  static constexpr std::array<std::string_view, 16> bd_func_names{
      "CONV", "PorD", "MM",  "AR", "RQ&DQ",      "CW&BC", "SG", "LAR",
      "",     "SFU",  "LIN", "",   "SYS_TR_ACC", "CMP",   "VC", "SYS"};
  static constexpr std::array<std::string_view, 12> gdma_func_names{
      "DMA_tensor",       "DMA_matrix",  "DMA_masked_select", "DMA_general",
      "DMA_cw_transpose", "DMA_nonzero", "sDMA_sys",          "DMA_gather",
      "DMA_scatter",      "DMA_reverse", "DMA_compress",      "DMA_decompress"};

  /// PMU record k is command k of its core's list (no node lines, no MCU matching).
  static constexpr bool pmu_indexed = true;
  static constexpr chips::isa_heads heads{4, false};

  static constexpr std::optional<bmprofile::command_frame> frame_tiu(std::uint64_t w0) noexcept {
    return frame_of(tiu_class(bm1688_isa::tiu_entries, heads, w0));
  }
  static constexpr std::optional<bmprofile::command_frame> frame_gdma(std::uint64_t w0,
                                                                      std::uint64_t) noexcept {
    return frame_of(gdma_class(bm1688_isa::gdma_entries, heads, w0));
  }
  /// Register class name ("sAR", "DMA_matrix") of a command head.
  static constexpr std::string_view command_class(engine e, std::uint64_t w0) noexcept {
    const auto c = e == engine::tiu ? tiu_class(bm1688_isa::tiu_entries, heads, w0)
                                    : gdma_class(bm1688_isa::gdma_entries, heads, w0);
    return c ? c->cls : std::string_view{};
  }
  /// alg / uArch ops of a TIU command as the vendor computes them (NPU_NUM, EU_BYTES and
  /// IC_PARALLEL from the compiler header); NaN for classes not covered.
  static float uarch_rate(std::string_view cls, std::string_view op,
                          std::span<const std::byte> cmd) {
    return perfai_uarch_rate(table_named(regs::bm1688::all_tables, cls), op, cmd, {32, 16, 32});
  }
  /// Operand decoding (chips/common/perfai_convert.hpp) with the address map and constants of
  /// BM1688.h: 32 lanes of 128 KiB, EU_BYTES 16; GMEM tag bit 39; conv INT4.
  static constexpr perfai::mem_consts mem{32, std::uint64_t{1} << 17, 16, false, 6};
  using tgcr_state = perfai::tgcr_state;
  static perfai::decode_status decode_command(engine e, std::string_view cls, std::string_view op,
                                              std::span<const std::byte> cmd, tgcr_state& tg,
                                              regs::instruction& out) {
    const auto st = perfai::decode(regs::bm1688::all_tables, cls, op, e, cmd, mem, tg, out);
    common::read_message(messages, out);
    return st;
  }
  /// Sync messages (tpu-mlir target_1688/opparam.py SYS_converter, sDMA_sys_converter):
  /// TIU `imm` bits 0-6 id, 16-18 count; DMA `constant_value` bits 0-6 id, 8-14 count.
  static constexpr common::msg_layout messages{{7, 0, 0, 16, 3}, {7, 0, 0, 8, 7}};
  /// Commands are packed back to back.
  static constexpr bool realigns_after(std::string_view) noexcept { return false; }
  /// The last command of a list (what follows is zero padding).
  static constexpr bool ends_list(std::string_view op) noexcept {
    return op == "system.end" || op == "dma.sys.chain_end";
  }
  /// Core synchronisation commands: a leading send is dropped, cores align on the first wait.
  static constexpr std::string_view send_msg_op = "system.send_msg";
  static constexpr std::string_view wait_msg_op = "system.wait_msg";

  /// TIU 32 B (start, end, u64 id:16 | load:48, counters); GDMA 256 B, id bits 0-19 of the
  /// u32 at 8; bytes = max(DDR ports aw + ar, local memory aw + ar) as the vendor counts.
  static bmprofile::pmu_record read_pmu(engine e, const std::byte* p) noexcept {
    const auto u = [p](std::size_t o) { return std::uint64_t{io::load_le<std::uint32_t>(p + o)}; };
    bmprofile::pmu_record r;
    r.start = static_cast<std::uint32_t>(u(0));
    r.end = static_cast<std::uint32_t>(u(4));
    if (e == engine::tiu) {
      r.id = static_cast<std::uint32_t>(u(8) & 0xFFFFu);
    } else {
      r.id = static_cast<std::uint32_t>(u(8) & 0xFFFFFu);
      const std::uint64_t gmem = u(0x0C) + u(0x18) + u(0x14) + u(0x20);
      const std::uint64_t lmem = u(0x24) + u(0x2C);
      r.bytes = gmem > lmem ? gmem : lmem;
      r.has_bytes = true;
    }
    return r;
  }
  /// Source and destination from the GMEM tag bit 39 of the 40-bit addresses (descriptor bits
  /// 512-551 / 576-615); sDMA_sys has no addresses.
  static direction gdma_direction(std::span<const std::byte> cmd) noexcept {
    if (cmd.size() < 80) return direction::none;
    const bool src_ddr = (std::to_integer<unsigned>(cmd[68]) & 0x80u) != 0;
    const bool dst_ddr = (std::to_integer<unsigned>(cmd[76]) & 0x80u) != 0;
    return src_ddr ? (dst_ddr ? direction::s2s : direction::s2l)
                   : (dst_ddr ? direction::l2s : direction::l2l);
  }

  /// Local memory: 128 KiB per lane in 16 banks, 32 lanes (BM1688.h).
  static constexpr unsigned lanes = 32;
  static constexpr unsigned local_banks = 16;
  static constexpr std::uint64_t local_bank_size = (std::uint64_t{1} << 17) / local_banks;
};

static_assert(chip_traits<bm1688>);

}  // namespace tpuprof::chips
