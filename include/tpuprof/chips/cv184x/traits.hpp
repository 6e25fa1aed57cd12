/// CV184X: one core, TIU + GDMA, `bmprofile_data-N` dumps decoded the way tpu-mlir's PerfAI
/// time mode does (docs/chips/bm1688-notes.md, docs/chips/cv184x.md).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/common/perfai_convert.hpp>
#include <tpuprof/chips/common/perfai_uarch.hpp>
#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/chips/cv184x/isa_table.hpp>
#include <tpuprof/chips/cv184x/regs.hpp>
#include <tpuprof/chips/isa_entry.hpp>
#include <tpuprof/command_frame.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/node_set_layout.hpp>
#include <tpuprof/pmu_record.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::chips {

/// Facts about the CV184X used by bmprofile_decoder (bmprofile_chip + indexed_chip).
/// Constants from tpu-mlir include/tpu_mlir/Backend/CV18xx/CV184X.h (what the closed
/// libcmodel_cv184x.so would return), clocks from profile_helper/cv184x_defs.py.
struct cv184x {
  static constexpr std::string_view name = "CV184X";
  static constexpr std::string_view cli_name = "cv184x";
  static constexpr dump_family family = dump_family::bmprofile;
  static constexpr unsigned core_count = 1;
  /// cv184x_defs.py FREQ_MAP at the default compute ability 0.75: TIU 750 MHz, GDMA 650 MHz
  /// (tpu_freq in global.profile is not used). The capture's dependencies fit GDMA 750 better
  /// (docs/chips/cv184x.md); 650 is kept to match the vendor, --dma-freq 750 corrects it.
  static constexpr double tiu_freq_mhz = 750;
  static constexpr double dma_freq_mhz = 650;
  static constexpr bool period_fixed = true;
  static constexpr bool has_engine(engine e) { return e == engine::tiu || e == engine::gdma; }

  static constexpr int arch_id = 8;
  /// Older runtimes wrote 7 (tpu-mlir bmprofile_common.py Arch._missing_).
  static constexpr std::array<int, 1> arch_ids{7};
  static constexpr std::string_view arch_name = "CV184X";

  static constexpr std::size_t tiu_record_size = 16;
  static constexpr std::size_t gdma_record_size = 64;
  static constexpr unsigned id_width = 20;
  static constexpr unsigned gdma_inst_id_bits = 20;
  /// No MCU records on this path; the layout is BM1684X's.
  static constexpr bmprofile::node_set_layout node_set{0, 20, 20, 20, 40, 3, 43, 4, 52, 60};
  static constexpr std::array<std::string_view, 16> bd_func_names{
      "CONV", "PorD", "MM",  "AR", "RQ&DQ",      "CW&BC", "SG", "LAR",
      "",     "SFU",  "LIN", "",   "SYS_TR_ACC", "CMP",   "VC", "SYS"};
  static constexpr std::array<std::string_view, 17> gdma_func_names{
      "DMA_tensor",         "DMA_matrix",           "DMA_masked_select",
      "DMA_general",        "DMA_cw_transpose",     "DMA_nonzero",
      "sDMA_sys",           "DMA_gather",           "DMA_scatter",
      "DMA_reverse",        "DMA_compress",         "DMA_decompress",
      "DMA_lossy_compress", "DMA_lossy_decompress", "",
      "DMA_randmask",       "DMA_transfer"};

  /// PMU record k is command k of its core's list (no node lines, no MCU matching).
  static constexpr bool pmu_indexed = true;
  static constexpr chips::isa_heads heads{5, true};

  static constexpr std::optional<bmprofile::command_frame> frame_tiu(std::uint64_t w0) noexcept {
    return frame_of(tiu_class(cv184x_isa::tiu_entries, heads, w0));
  }
  static constexpr std::optional<bmprofile::command_frame> frame_gdma(std::uint64_t w0,
                                                                      std::uint64_t) noexcept {
    return frame_of(gdma_class(cv184x_isa::gdma_entries, heads, w0));
  }
  /// Register class name ("sAR", "DMA_matrix") of a command head.
  static constexpr std::string_view command_class(engine e, std::uint64_t w0) noexcept {
    const auto c = e == engine::tiu ? tiu_class(cv184x_isa::tiu_entries, heads, w0)
                                    : gdma_class(cv184x_isa::gdma_entries, heads, w0);
    return c ? c->cls : std::string_view{};
  }
  /// alg / uArch ops of a TIU command as the vendor computes them (NPU_NUM, EU_BYTES and
  /// IC_PARALLEL from the compiler header); NaN for classes not covered.
  static float uarch_rate(std::string_view cls, std::string_view op,
                          std::span<const std::byte> cmd) {
    return perfai_uarch_rate(table_named(regs::cv184x::all_tables, cls), op, cmd, {8, 16, 16});
  }
  /// Operand decoding (chips/common/perfai_convert.hpp) with the address map and constants of
  /// CV184X.h: 8 lanes of 64 KiB, EU_BYTES 16; 5-bit tag at bit 40; conv INT8.
  static constexpr perfai::mem_consts mem{8, 65536, 16, true, 0};
  using tgcr_state = perfai::tgcr_state;
  static perfai::decode_status decode_command(engine e, std::string_view cls, std::string_view op,
                                              std::span<const std::byte> cmd, tgcr_state& tg,
                                              regs::instruction& out) {
    const auto st = perfai::decode(regs::cv184x::all_tables, cls, op, e, cmd, mem, tg, out);
    common::read_message(messages, out);
    return st;
  }
  /// Sync messages (tpu-mlir target_cv184x/opparam.py): the 64-bit TIU SYS form has no `imm`
  /// (the vendor's SYS_converter has its msg_id lines commented out), so TIU send / wait stay
  /// undecoded; DMA `constant_value` bits 0-6 id, 8-14 count (sDMA_sys_converter).
  static constexpr common::msg_layout messages{{}, {7, 0, 0, 8, 7}};
  /// Commands are packed back to back.
  static constexpr bool realigns_after(std::string_view) noexcept { return false; }
  /// The last command of a list (what follows is zero padding).
  static constexpr bool ends_list(std::string_view op) noexcept {
    return op == "system.end" || op == "dma.sys.chain_end";
  }
  /// Core synchronisation commands: a leading send is dropped, cores align on the first wait.
  static constexpr std::string_view send_msg_op = "system.send_msg";
  static constexpr std::string_view wait_msg_op = "system.wait_msg";

  /// TIU 16 B (u32 id:20, u32 thread/bank conflict, start, end); GDMA 64 B (start, end, u32
  /// id); bytes = gif_mem_w_cntr + axi_d0_w_cntr as the vendor counts.
  static bmprofile::pmu_record read_pmu(engine e, const std::byte* p) noexcept {
    const auto u = [p](std::size_t o) { return std::uint64_t{io::load_le<std::uint32_t>(p + o)}; };
    bmprofile::pmu_record r;
    if (e == engine::tiu) {
      r.id = static_cast<std::uint32_t>(u(0) & 0xFFFFFu);
      r.start = static_cast<std::uint32_t>(u(8));
      r.end = static_cast<std::uint32_t>(u(12));
    } else {
      r.start = static_cast<std::uint32_t>(u(0));
      r.end = static_cast<std::uint32_t>(u(4));
      r.id = static_cast<std::uint32_t>(u(8));
      r.bytes = u(0x28) + u(0x14);
      r.has_bytes = true;
    }
    return r;
  }
  /// Source and destination from bit 31 of the low address words (descriptor bits 512-543 /
  /// 576-607; DDR is 0x80000000 and up); sDMA_sys has no addresses.
  static direction gdma_direction(std::span<const std::byte> cmd) noexcept {
    if (cmd.size() < 80) return direction::none;
    const bool src_ddr = (std::to_integer<unsigned>(cmd[67]) & 0x80u) != 0;
    const bool dst_ddr = (std::to_integer<unsigned>(cmd[75]) & 0x80u) != 0;
    return src_ddr ? (dst_ddr ? direction::s2s : direction::s2l)
                   : (dst_ddr ? direction::l2s : direction::l2l);
  }

  /// Local memory: 64 KiB per lane in 16 banks, 8 lanes (CV184X.h).
  static constexpr unsigned lanes = 8;
  static constexpr unsigned local_banks = 16;
  static constexpr std::uint64_t local_bank_size = 65536 / local_banks;
};

static_assert(chip_traits<cv184x>);

}  // namespace tpuprof::chips
