/// Real command encodings for the generic generator of position-paired dumps: the head of a
/// command from the chip's ISA table (class, op), every other field by name through the chip's
/// generated register tables, and the alg / uArch ops the vendor's opdef.py computes for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include <tpuprof/chips/isa_entry.hpp>
#include <tpuprof/regs/reg_table.hpp>
#include <tpuprof/synth/bit_writer.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/indexed/layout.hpp>

namespace tpuprof::synth::indexed_detail {

/// The register table of class `cls` (a sheet name may carry its code: "DMA_tensor（0x000）");
/// std::logic_error when the chip has none (a generator bug).
template <class L>
const regs::reg_table& table(std::string_view cls) {
  for (const auto* t : L::tables)
    if (t->sheet.substr(0, t->sheet.find("（")) == cls) return *t;
  throw std::logic_error("synth: no register table " + std::string(cls));
}

/// The ISA entry of (class, op) of engine TIU (`tiu`) or GDMA.
template <class L>
chips::isa_entry isa(bool tiu, std::string_view cls, std::string_view op) {
  const auto find = [&](const auto& entries) {
    for (const auto& e : entries)
      if (e.cls == cls && e.op == op) return e;
    throw std::logic_error("synth: no ISA entry " + std::string(cls) + " " + std::string(op));
  };
  return tiu ? find(L::tiu_isa) : find(L::gdma_isa);
}

/// A command being written into zeroed bytes: fields set by name.
struct cmd_writer {
  std::byte* d;
  const regs::reg_table* t;
  bool has(std::string_view f) const { return t->find(f).has_value(); }
  void set(std::string_view f, std::uint64_t v) const {
    const auto i = t->find(f);
    if (!i)
      throw std::logic_error("synth: no field " + std::string(f) + " in " + std::string(t->sheet));
    put(d, t->fields[*i], v);
  }
};

/// Appends a command of (class, op) to `out` with its head (short bit, type, sub type) and
/// dependency set; the caller fills the rest right away (the pointer lives until the next append).
template <class L>
cmd_writer begin_cmd(byte_sink& out, bool tiu, std::string_view cls, std::string_view op,
                     std::uint32_t dep) {
  const auto e = isa<L>(tiu, cls, op);
  cmd_writer w{out.grow(e.length), &table<L>(cls)};
  if (w.has("cmd_short")) w.set("cmd_short", e.short_code == 1 ? 1 : 0);
  w.set(tiu ? "tsk_typ" : "cmd_type", e.type);
  w.set(tiu ? "tsk_eu_typ" : "cmd_special_function", e.sub);
  w.set("cmd_id_dep", dep);
  return w;
}

/// Bytes per element of a precision / data-format code (0 INT8, 1 FP16, 2 FP32, 5 BF16).
constexpr unsigned elem_size(unsigned code) noexcept {
  return code == 0 ? 1 : code == 2 ? 4 : 2;
}
/// Execution units per lane for a precision (EU_BYTES / element size).
template <class L>
constexpr std::uint64_t eu_num(unsigned prec) noexcept {
  return L::eu_bytes / elem_size(prec);
}
inline float ops_rate(double alg, double arch) noexcept {
  return static_cast<float>(alg / arch);
}

/// The TIU ops the generator writes (short forms, as the compiler emits them).
enum class tiu_kind : std::uint8_t { add, max, copy, cast, maxpool, conv, send, wait, end };
struct tiu_op {
  tiu_kind kind;
  std::string_view cls, op, layer;
};
inline constexpr tiu_op tiu_ops[] = {{tiu_kind::add, "sAR", "arith.add", "Add"},
                                     {tiu_kind::max, "sAR", "arith.max", "Max"},
                                     {tiu_kind::copy, "sAR", "arith.copy", "Copy"},
                                     {tiu_kind::cast, "sAR", "arith.cast", "Cast"},
                                     {tiu_kind::maxpool, "sPorD", "pord.maxpooling", "MaxPool"},
                                     {tiu_kind::conv, "sCONV", "conv.normal", "Conv2D"}};
inline constexpr tiu_op send_op{tiu_kind::send, "SYS", "system.send_msg", "CoreSync"};
inline constexpr tiu_op wait_op{tiu_kind::wait, "SYS", "system.wait_msg", "CoreSync"};
inline constexpr tiu_op end_op{tiu_kind::end, "SYS", "system.end", "End"};

/// Local-memory offset: bank `bank` plus a 64-byte aligned offset inside it.
template <class Chip>
std::uint64_t lmem(unsigned bank, std::uint64_t off64) noexcept {
  return bank * Chip::local_bank_size + (off64 * 64) % Chip::local_bank_size;
}

/// Writes one TIU command of `o` (random plausible shapes and precisions); returns alg / uArch
/// ops as the vendor computes them (1 for SYS).
template <class Chip, class Rnd>
float write_tiu(byte_sink& out, const tiu_op& o, std::uint32_t dep, std::uint64_t imm, Rnd&& rnd) {
  using L = indexed_layout<Chip>;
  const cmd_writer w = begin_cmd<L>(out, true, o.cls, o.op, dep);
  if (o.cls == "SYS") {
    // send / wait: message id and count in the chip's layout (Chip::messages; CV184X's SYS
    // form has no imm)
    if (o.kind != tiu_kind::end && w.has("imm")) w.set("imm", imm);
    return 1.0f;
  }
  const unsigned prec = L::tiu_precs[rnd(0, L::tiu_precs.size() - 1)];
  const std::uint64_t n = rnd(1, 2), c = rnd(1, 128);
  const std::uint64_t ac = align_up(c, L::npu), eu = eu_num<L>(prec);
  w.set("opt_opd0_prec", prec);
  w.set("res0_n", n);
  w.set("res0_c", c);
  w.set("res0_addr", lmem<Chip>(8, rnd(0, 255)));
  w.set("opd0_addr", lmem<Chip>(0, rnd(0, 255)));
  if (o.cls == "sAR") {
    const std::uint64_t h = rnd(1, 16), wd = rnd(1, 64);
    const bool two = o.kind == tiu_kind::add || o.kind == tiu_kind::max;
    const unsigned out_prec = o.kind == tiu_kind::cast ? (prec == 2 ? 5u : 2u) : prec;
    w.set("opt_res0_prec", out_prec);
    w.set("tsk_opd_num", two ? 2 : 1);
    w.set("res0_h", h);
    w.set("res0_w", wd);
    if (two) {
      w.set("opt_opd1_prec", prec);
      w.set("opd1_addr", lmem<Chip>(4, rnd(0, 255)));
    }
    return ops_rate(static_cast<double>(n * c * h * wd),
                    static_cast<double>(n * ac * align_up(h * wd, eu)));
  }
  if (o.cls == "sPorD") {
    const std::uint64_t oh = rnd(1, 16), ow = rnd(1, 32), k = rnd(2, 3), st = rnd(1, 2);
    w.set("opt_res0_prec", prec);
    w.set("opt_opd3_const", 1);  // padding value: an immediate
    w.set("res_op_x_str", st);
    w.set("res_op_y_str", st);
    w.set("res0_h", oh);
    w.set("res0_w", ow);
    w.set("opd0_h", (oh - 1) * st + k);
    w.set("opd0_w", (ow - 1) * st + k);
    w.set("opd1_h", k);
    w.set("opd1_w", k);
    const double per = 2.0 * static_cast<double>(k * k) - 1;
    return ops_rate(static_cast<double>(n * c * oh * ow) * per,
                    static_cast<double>(n * ac * align_up(oh * ow, eu)) * per);
  }
  // sCONV: oc = res0_c, no bias (opt_opd2_const 0)
  const std::uint64_t ic = rnd(1, 64), oh = rnd(1, 16), ow = rnd(1, 32);
  const std::uint64_t k = rnd(0, 1) ? 3 : 1, st = rnd(1, 2);
  w.set("opt_res0_prec", prec);
  w.set("opt_opd1_prec", prec);
  w.set("opt_opd3_const", 1);
  w.set("res_op_x_str", st);
  w.set("res_op_y_str", st);
  w.set("res0_h", oh);
  w.set("res0_w", ow);
  w.set("opd0_c", ic);
  w.set("opd0_h", (oh - 1) * st + k);
  w.set("opd0_w", (ow - 1) * st + k);
  w.set("opd1_h", k);
  w.set("opd1_w", k);
  w.set("opd1_addr", lmem<Chip>(4, rnd(0, 255)));
  w.set("opd2_addr", lmem<Chip>(12, rnd(0, 255)));
  std::uint64_t aic = ic, align_hw = 4;  // CubeOutputHeightWidthAlignNum
  if (prec == 2)
    align_hw = eu;
  else
    aic = align_up(ic, L::ic_parallel / elem_size(prec));
  const double per = static_cast<double>(2 * ic * k * k) - 1;
  const double aper = static_cast<double>(2 * aic * k * k) - 1;
  return ops_rate(static_cast<double>(n * c * oh * ow) * per,
                  static_cast<double>(n * ac * align_up(oh * ow, align_hw)) * aper);
}

/// Writes one dma.tensor moving an n·c·h·w tensor between DDR and local memory (`load`: DDR to
/// local); returns its bytes.
template <class Chip, class Rnd>
std::uint64_t write_dma_tensor(byte_sink& out, std::uint32_t dep, bool load, Rnd&& rnd) {
  using L = indexed_layout<Chip>;
  const cmd_writer w = begin_cmd<L>(out, false, "DMA_tensor", "dma.tensor", dep);
  const unsigned fmt = L::dma_formats[rnd(0, L::dma_formats.size() - 1)];
  const std::uint64_t n = rnd(1, 2), c = rnd(1, 64), h = rnd(1, 16), wd = rnd(1, 64);
  w.set("stride_enable", 1);
  w.set("src_data_format", fmt);
  const std::uint64_t cs = align_up(h * wd, eu_num<L>(fmt));
  const std::uint64_t g[4] = {c * h * wd, h * wd, wd, 1};
  const std::uint64_t l[4] = {(c + L::npu - 1) / L::npu * cs, cs, wd, 1};
  const std::uint64_t* src = load ? g : l;
  const std::uint64_t* dst = load ? l : g;
  static constexpr std::string_view dims[4] = {"n", "c", "h", "w"};
  const std::uint64_t size[4] = {n, c, h, wd};
  for (int i = 0; i < 4; ++i) {
    w.set("src_" + std::string(dims[i]) + "stride", src[i]);
    w.set("dst_" + std::string(dims[i]) + "stride", dst[i]);
    w.set("src_" + std::string(dims[i]) + "size", size[i]);
    w.set("dst_" + std::string(dims[i]) + "size", size[i]);
  }
  const std::uint64_t ddr = L::ddr(rnd(0, 0xFFFFF) * 64);
  const std::uint64_t lm = lmem<Chip>(static_cast<unsigned>(rnd(0, 7)), rnd(0, 255));
  const std::uint64_t s = load ? ddr : lm, t = load ? lm : ddr;
  w.set("src_start_addr_l32", s & 0xFFFFFFFFu);
  w.set(L::src_hi, s >> 32);
  w.set("dst_start_addr_l32", t & 0xFFFFFFFFu);
  w.set(L::dst_hi, t >> 32);
  w.set("localmem_mask_l32", 0xFFFFFFFFu);
  w.set("localmem_mask_h32", 0xFFFFFFFFu);
  return n * c * h * wd * elem_size(fmt);
}

}  // namespace tpuprof::synth::indexed_detail
