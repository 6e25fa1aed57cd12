/// BM1684X: one core, TIU + GDMA, `bmprofile_data-N` dumps (format-bm1684x.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <tpuprof/chip_ceilings.hpp>
#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/bm1684x/isa.hpp>
#include <tpuprof/chips/common/tiu_names.hpp>
#include <tpuprof/command_frame.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/node_set_layout.hpp>

namespace tpuprof::chips {

/// Facts about the BM1684X used by bmprofile_decoder (which checks them against its
/// bmprofile_chip concept). Values and tables from
/// tpu-mlir bm1684x_defs.py / opdef_1684x.py as restated in format-bm1684x.md.
struct bm1684x {
  static constexpr std::string_view name = "BM1684X";
  static constexpr std::string_view cli_name = "bm1684x";
  static constexpr dump_family family = dump_family::bmprofile;
  static constexpr unsigned core_count = 1;
  /// Clocks follow tpu_freq from global.profile; 1000 MHz when absent or 0.
  static constexpr double tiu_freq_mhz = 1000;
  static constexpr double dma_freq_mhz = 1000;
  /// Roofline ceilings at 1 GHz (algo/roofline.hpp). Lanes, EU_BYTES, LMEM_BYTES and
  /// LMEM_BANKS: tpu-mlir include/tpu_mlir/Backend/BM168x/BM1684X.h (NPU_NUM 64, EU_BYTES 64,
  /// 256 KiB, 16 banks). Peak ops: bmprofile's `PeakTops` for conv / matmul (int8 32, 16-bit 16,
  /// fp32 2 "TOPS" of 1024e9 ops/s, format-bm1684x.md section 7.2). DDR: the S2L rate of
  /// bmprofile's `gdmaPTheoTime` (58 GiB/s, same section); the chip has no L2. A conv's input
  /// channels take lanes too: its arch ops pad ic and oc to NPU_NUM (isa_tiu.hpp, opdef_1684x.py).
  static constexpr chip_ceilings ceilings{
      64, 64, 32 * 1024e9, 16 * 1024e9, 2 * 1024e9, 58 * 1073741824.0, 0, 1u << 18, 16, true};
  static constexpr bool period_fixed = false;
  static constexpr bool has_engine(engine e) { return e == engine::tiu || e == engine::gdma; }

  /// `arch=` values in global.profile that name this chip.
  static constexpr int arch_id = 3;
  static constexpr std::string_view arch_name = "BM1684X";

  static constexpr std::size_t tiu_record_size = 32;
  static constexpr std::size_t gdma_record_size = 192;
  /// Width of command ids in node lines and PMU matching (next_id wraps here).
  static constexpr unsigned id_width = 20;
  /// Bits of the GDMA PMU inst_id field (u32 at 0x08).
  static constexpr unsigned gdma_inst_id_bits = 20;
  /// MCU (dyn) NODE_SET id layout.
  static constexpr bmprofile::node_set_layout node_set{0, 20, 20, 20, 40, 3, 43, 4, 52, 60};

  static constexpr std::array<std::string_view, 16> bd_func_names{
      "CONV", "PD",  "MM",  "AR", "RQDQ", "TRANS_BC", "SG", "LAR",
      "",     "SFU", "LIN", "",   "",     "CMP",      "VC", "SYS"};
  static constexpr std::array<std::string_view, 9> gdma_func_names{
      "TENSOR",  "MATRIX", "MASKED_SEL", "GENERAL", "CW_TRANS",
      "NONZERO", "SYS",    "GATHER",     "SCATTER"};
  static constexpr std::array<std::string_view, 4> gdma_dir_names{"S2L", "L2S", "S2S", "L2L"};

  /// Frames one TIU command of a cmd_*.dat buffer (§5.2.1); nullopt when the
  /// (type, eu) pair has no known encoding (the rest cannot be framed).
  static constexpr std::optional<bmprofile::command_frame> frame_tiu(std::uint64_t w0) noexcept {
    using bmprofile::command_frame;
    const bool short_form = (w0 & 1) != 0;
    const auto type = static_cast<unsigned>(io::bits(w0, 41, 4));
    const auto eu = static_cast<unsigned>(io::bits(w0, 45, 5));
    const auto id = static_cast<std::uint32_t>(io::bits(w0, 1, 20));
    const auto dep = static_cast<std::uint32_t>(io::bits(w0, 21, 20));
    auto pick = [&](std::string_view nm, unsigned long_len,
                    unsigned short_len) -> std::optional<command_frame> {
      if (nm.empty()) return std::nullopt;
      return command_frame{short_form ? short_len : long_len, nm, id, dep, type, eu};
    };
    switch (type) {
      case 0:
        return pick(table(conv_names, eu), 128, 64);
      case 1:
        return pick(table(pd_names, eu), 128, 64);
      case 2:
        return eu >= 4 ? pick(table(mm_names, eu), 128, 32) : pick(table(mm_names, eu), 128, 48);
      case 3:
        return pick(table(ar_names, eu), 128, 64);
      case 4:
        return pick(table(rqdq_names, eu), 128, 32);
      case 5:
        return pick(table(tsbc_names, eu), 128, 32);
      case 6:
        return pick(table(sg_names, eu), 128, 48);
      case 7:  // LAR: fixed 16 bytes; the vendor names it by the bare eu number (we prefix "lar.")
        if (eu > 30) return std::nullopt;
        return command_frame{16, table(lar_names, eu), 0, 0, type, eu};
      case 9:
        return pick(table(sfu_names, eu), 128, 32);
      case 10:
        return pick(table(lin_names, eu), 128, 32);
      case 13:
        return pick(table(cmp_names, eu), 128, 48);
      case 14:
        return pick(table(vc_names, eu), 128, 48);
      case 15: {
        auto nm = table(sys_names, eu);
        if (nm.empty()) return std::nullopt;
        return command_frame{16, nm, id, dep, type, eu};
      }
      default:
        return std::nullopt;
    }
  }

  /// Frames one GDMA command; `w0` = bytes 0..7, `w1` = bytes 8..15.
  static constexpr std::optional<bmprofile::command_frame> frame_gdma(std::uint64_t w0,
                                                                      std::uint64_t w1) noexcept {
    using bmprofile::command_frame;
    const bool short_form = io::bits(w0, 3, 1) != 0;
    const auto type = static_cast<unsigned>(io::bits(w0, 32, 4));
    const auto sf = static_cast<unsigned>(io::bits(w0, 36, 3));
    const auto id = static_cast<std::uint32_t>(io::bits(w0, 9, 20));
    const auto dep = static_cast<std::uint32_t>(io::bits(w1, 0, 20));
    auto pick = [&](std::string_view nm, unsigned long_len,
                    unsigned short_len) -> std::optional<command_frame> {
      unsigned len = short_form ? short_len : long_len;
      if (nm.empty() || len == 0) return std::nullopt;
      return command_frame{len, nm, id, dep, type, sf};
    };
    switch (type) {
      case 0:
        return pick(table(tensor_names, sf), 96, 0);
      case 1:
        return pick(table(matrix_names, sf), 96, 64);
      case 2:
        return pick("dma.masked_select", 96, 64);
      case 3:
        return pick(table(general_names, sf), 96, 48);
      case 4:
        return pick("dma.cw_transpose", 96, 0);
      case 5:
        return pick("dma.nonzero", 96, 48);
      case 6:
        return pick(table(dma_sys_names, sf), 0, 16);
      case 7:
        return pick("gdma.gather", 96, 0);
      case 8:
        return pick("gdma.scatter", 96, 0);
      default:
        return std::nullopt;
    }
  }

  /// Local memory per lane in equal banks (the LOCAL MEM chart's partitions).
  static constexpr std::uint64_t local_bank_size = regs::bm1684x_isa::bank_size;
  static constexpr unsigned local_banks = 16;

  /// Full descriptor decoding (register tables in chips/bm1684x/regs.hpp):
  /// operands, memory ranges, alg/arch ops, DMA direction. See chips/bm1684x/isa.hpp.
  static regs::bm1684x_isa::decode_status decode_command(engine e, std::span<const std::byte> data,
                                                         regs::instruction& out) {
    const auto st = regs::bm1684x_isa::decode(e, data, out);
    if (out.table && data.size() >= 16) {
      const auto w0 = io::load_le<std::uint64_t>(data.data());
      const auto w1 = io::load_le<std::uint64_t>(data.data() + 8);
      const auto f = e == engine::tiu ? frame_tiu(w0) : frame_gdma(w0, w1);
      if (f) out.op = f->op;
    }
    return st;
  }

  /// Commands after which the buffer re-aligns to 128 bytes.
  static constexpr bool realigns_after(std::string_view op) noexcept {
    return op == "dma.sys" || op == "sys.end";
  }

 private:
  template <std::size_t N>
  static constexpr std::string_view table(const std::array<std::string_view, N>& t,
                                          unsigned i) noexcept {
    return i < N ? t[i] : std::string_view{};
  }
  static constexpr std::array<std::string_view, 3> conv_names{"conv.normal", "conv.wrq",
                                                              "conv.wrqrelu"};
  static constexpr std::array<std::string_view, 8> pd_names{
      "pord.depthwise",  "pord.avgpooling",   "pord.depthwiserelu", "",
      "pord.maxpooling", "pord.roiDepthwise", "pord.roiavgpooling", "pord.roimaxpooling"};
  static constexpr std::array<std::string_view, 7> mm_names{
      "", "mm.normal", "mm.wrq", "mm.wrqrelu", "mm2.nn", "mm2.nt", "mm2.tt"};
  static constexpr std::array<std::string_view, 31> ar_names{
      "arith.mul",         "arith.not",         "arith.add",
      "arith.sub",         "arith.max",         "arith.min",
      "arith.logicShift",  "arith.and",         "arith.or",
      "arith.xor",         "arith.selectGreat", "arith.selectEqual",
      "arith.div",         "arith.selectLess",  "arith.cast",
      "arith.adds",        "arith.subs",        "",
      "arith.mac",         "arith.copy",        "arith.muls",
      "arith.ashift",      "arith.cshift",      "arith.mulDHR",
      "arith.euIdxGen",    "arith.npuIdxGen",   "arith.abs",
      "arith.fsubabs",     "arith.copyMb",      "arith.getFirstOne",
      "arith.getFirstZero"};
  static constexpr std::array<std::string_view, 6> rqdq_names{
      "quant.rq0", "quant.rq1", "quant.rq2", "quant.dq0", "quant.dq1", "quant.dq2"};
  static constexpr std::array<std::string_view, 6> tsbc_names{
      "tsbc.cw_ts", "tsbc.wc_ts", "tsbc.l_copy", "tsbc.l_bc", "tsbc.s_bc", "tsbc.s_distribute"};
  static constexpr std::array<std::string_view, 19> sg_names{
      "sg.pl_gather_d1coor",    "sg.pl_gather_d2coor",       "sg.pl_gather_rec",
      "sg.pl_scatter_d1coor",   "sg.pl_scatter_d2coor",      "sg.pe_s_gather_d1coor",
      "sg.pe_s_scatter_d1coor", "sg.pe_m_gather_d1coor",     "sg.pe_s_mask_select",
      "sg.pe_s_nonzero",        "sg.pe_s_scatter_pp_d1coor", "sg.pl_gather_perw",
      "sg.pl_scatter_perw",     "sg.pe_s_gather_hzd",        "sg.pe_s_scatter_hzd",
      "sg.pe_s_mask_selhzd",    "sg.pe_s_nonzero_hzd",       "sgl.pe_s_gather_line",
      "sgl.pe_s_scatter_line"};
  static constexpr std::array<std::string_view, 31> lar_names{
      "lar.0",  "lar.1",  "lar.2",  "lar.3",  "lar.4",  "lar.5",  "lar.6",  "lar.7",
      "lar.8",  "lar.9",  "lar.10", "lar.11", "lar.12", "lar.13", "lar.14", "lar.15",
      "lar.16", "lar.17", "lar.18", "lar.19", "lar.20", "lar.21", "lar.22", "lar.23",
      "lar.24", "lar.25", "lar.26", "lar.27", "lar.28", "lar.29", "lar.30"};
  static constexpr std::array<std::string_view, 18> sfu_names{"",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "sfu.taylor_4x",
                                                              "sfu.taylor",
                                                              "",
                                                              "sfu.normalize",
                                                              "",
                                                              "sfu.rsqrt"};
  static constexpr std::array<std::string_view, 22> lin_names{"",
                                                              "lin.mac",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "lin.square_sum",
                                                              "lin.square_diff"};
  static constexpr std::array<std::string_view, 27> cmp_names{"",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "cmp.gt_and_sel",
                                                              "cmp.sel_gt",
                                                              "cmp.sel_eq",
                                                              "cmp.lt_and_sel",
                                                              "cmp.sel_lt"};
  /// The VC names are the same on every chip that has VC commands.
  static constexpr const auto& vc_names = common::vc_op_names;
  static constexpr std::array<std::string_view, 32> sys_names{"sys.intr_barrier",
                                                              "sys.spb",
                                                              "sys.swr",
                                                              "sys.swr_from_lmem",
                                                              "sys.swr_collect_from_lmem",
                                                              "sys.data_barrier",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "",
                                                              "sys.nop",
                                                              "sys.end"};
  static constexpr std::array<std::string_view, 7> tensor_names{"dma.tensor",
                                                                "dma.tensor.transpose",
                                                                "dma.tensor.collect",
                                                                "dma.tensor.broadcast",
                                                                "dma.tensor.distribute",
                                                                "dma.tensor.4bank_copy",
                                                                "dma.tensor.4bank_broadcast"};
  static constexpr std::array<std::string_view, 2> matrix_names{"dma.matrix",
                                                                "dma.matrix.transpose"};
  static constexpr std::array<std::string_view, 2> general_names{"dma.general",
                                                                 "dma.general.broadcast"};
  static constexpr std::array<std::string_view, 2> dma_sys_names{"dma.sys", "dma.sys.nop"};
};

static_assert(chip_traits<bm1684x>);

}  // namespace tpuprof::chips
