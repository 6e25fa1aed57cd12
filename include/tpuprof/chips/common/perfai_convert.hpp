/// BM1688 / CV184X descriptors to instructions: the operand converters of tpu-mlir's
/// debugger/target_1688 and target_cv184x opparam.py for the classes the captures use (sCONV,
/// sAR, sPorD, sCW&sBC, sSG, DMA_tensor, DMA_matrix; SYS and SYS_TR_ACC have no operands).
/// Other classes decode without operands (`unsupported`); docs/chips/bm1688.md lists them.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <tpuprof/chips/common/perfai_operands.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::chips::perfai {

/// Why a descriptor decoded only partly (or not at all).
enum class decode_status : std::uint8_t {
  ok,
  unsupported,  ///< a class without a converter here: no operands
  unknown_opcode,
  truncated,
};

/// The TGCR registers SYS_TR_ACC writes and conv / pooling read (opparam.py `tgcr`); the
/// vendor keeps them across the commands of a list, so does the caller.
struct tgcr_state {
  std::array<std::uint32_t, 128> t{};
  constexpr std::uint32_t get(std::size_t i) const noexcept { return i < t.size() ? t[i] : 0; }
  constexpr void set(std::uint64_t i, std::uint64_t v) noexcept {
    if (i < t.size()) t[i] = static_cast<std::uint32_t>(v);
  }
};

struct converted {
  std::array<opd, 6> ops{};
  std::array<opd, 2> res{};
  unsigned nops = 0, nres = 0;
  bool supported = true;
  void add_op(const opd& o) {
    if (nops < ops.size()) ops[nops++] = o;
  }
  void add_res(const opd& o) {
    if (nres < res.size()) res[nres++] = o;
  }
};

namespace detail {

struct regs_of {
  regs::reg_view v;
  std::uint64_t operator()(std::string_view n) const noexcept { return v.get(n); }
  std::int64_t s(std::string_view n) const noexcept { return static_cast<std::int64_t>(v.get(n)); }
};

inline opd tensor(std::uint64_t addr, regs::dtype t, regs::layout l,
                  std::initializer_list<std::uint64_t> shape, bool is_const = false) {
  opd o;
  o.address = addr;
  o.type = t;
  o.lay = l;
  o.is_const = is_const;
  o.set_shape(shape);
  return o;
}

/// `<p>_n_str` ... `<p>_w_str` (p = "opd0", "res0", ...).
inline void set_reg_strides(const regs_of& r, opd& o, char p0, char p1, char p2, char p3) {
  const char a[] = {p0, p1, p2, p3, '_', 'n', '_', 's', 't', 'r'};
  std::array<char, 10> k{};
  auto get = [&](char d) {
    for (std::size_t i = 0; i < 10; ++i) k[i] = a[i];
    k[5] = d;
    return r.s(std::string_view(k.data(), 10));
  };
  o.set_stride({get('n'), get('c'), get('h'), get('w')});
}

/// restore_org_shape: stride-layout dims with stride 0 have size 1.
inline void restore_org_shape(opd& o) {
  if (o.lay != regs::layout::stride) return;
  for (unsigned i = 0; i < o.rank && i < o.srank; ++i)
    if (o.stride[i] == 0) o.shape[i] = 1;
}

inline converted conv(const regs_of& r, const mem_consts& k, const tgcr_state& tg) {
  using L = regs::layout;
  converted cv;
  const auto c = r("res0_c"), p0 = r("opt_opd0_prec");
  opd o0 = tensor(r("opd0_addr"), dtype_of(p0, r("opt_opd0_sign")), layout_of(r("short_opd0_str")),
                  {r("res0_n"), r("opd0_c"), r("opd0_h"), r("opd0_w")});
  set_reg_strides(r, o0, 'o', 'p', 'd', '0');
  cv.add_op(o0);
  cv.add_op(tensor(r("opd1_addr"), dtype_of(p0, r("opt_opd1_sign")), L::align_ic,
                   {c, r("opd0_c"), r("opd1_h"), r("opd1_w")}, r("opt_opd1_const") != 0));
  cv.add_op(tensor(r("opd2_addr"), dtype_of(4, r("opt_opd2_sign")), L::compact, {1, c, 1, 1},
                   r("opt_opd2_const") != 0));
  opd o3 = tensor(r("opd3_addr"), dtype_of(p0, r("opt_opd0_sign")), L::compact, {1, c, 1, 2},
                  r("opt_opd3_const") != 0);
  if (p0 == k.conv_small_prec && r("opt_opd1_prec") == k.conv_small_prec) {
    o3.set_shape({1, c, 1, 1});
    o3.type = regs::dtype::si8;
  }
  cv.add_op(o3);
  if (r("opt_rq")) {
    if (!r("opt_opd4_const"))
      cv.add_op(tensor(tg.get(5), regs::dtype::si16, L::compact, {1, c, 1, 1}));
    if (!r("opt_opd5_const"))
      cv.add_op(tensor(tg.get(6), regs::dtype::si32, L::compact, {1, c, 1, 2}));
  }
  const bool sign = r("opt_opd0_sign") || r("opt_opd1_sign") || r("opt_opd2_sign");
  cv.add_res(tensor(r("res0_addr"), dtype_of(r("opt_res0_prec"), sign ? 1 : 0), L::align_eu,
                    {r("res0_n"), c, r("res0_h"), r("res0_w")}));
  return cv;
}

inline converted ar(const regs_of& r) {
  converted cv;
  const auto n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w");
  auto operand = [&](char i) {
    const char f[] = {'o', 'p', 't', '_', 'o', 'p', 'd', i, '_', 'p', 'r', 'e', 'c'};
    const char g[] = {'o', 'p', 't', '_', 'o', 'p', 'd', i, '_', 's', 'i', 'g', 'n'};
    const char a[] = {'o', 'p', 'd', i, '_', 'a', 'd', 'd', 'r'};
    const char l[] = {'s', 'h', 'o', 'r', 't', '_', 'o', 'p', 'd', i, '_', 's', 't', 'r'};
    const char k[] = {'o', 'p', 't', '_', 'o', 'p', 'd', i, '_', 'c', 'o', 'n', 's', 't'};
    const std::string_view prec(f, sizeof f), sg(g, sizeof g), ad(a, sizeof a), ly(l, sizeof l),
        cs(k, sizeof k);
    opd o = tensor(r(ad), dtype_of(r(prec), r(sg)), layout_of(r(ly)), {n, c, h, w}, r(cs) != 0);
    set_reg_strides(r, o, 'o', 'p', 'd', i);
    restore_org_shape(o);
    return o;
  };
  const opd o0 = operand('0'), o1 = operand('1');
  const opd o2 = tensor(r("opd2_addr"), dtype_of(r("opt_opd2_prec"), r("opt_opd2_sign")),
                        regs::layout::compact, {1, c, 1, 1}, r("opt_opd2_const") != 0);
  const opd all[] = {o0, o1, o2};
  for (std::uint64_t i = 0; i < r("tsk_opd_num") && i < 3; ++i) cv.add_op(all[i]);
  const std::uint64_t sign = r("tsk_eu_typ") == 14                        ? r("opt_opd2_sign")
                             : (r("opt_opd0_sign") || r("opt_opd1_sign")) ? 1
                                                                          : 0;
  opd res = tensor(r("res0_addr"), dtype_of(r("opt_res0_prec"), sign),
                   layout_of(r("short_res0_str")), {n, c, h, w});
  set_reg_strides(r, res, 'r', 'e', 's', '0');
  cv.add_res(res);
  return cv;
}

inline converted pord(const regs_of& r, const tgcr_state& tg) {
  using L = regs::layout;
  converted cv;
  const auto n = r("res0_n"), c = r("res0_c"), p0 = r("opt_opd0_prec"), eu = r("tsk_eu_typ");
  const opd o0 = tensor(r("opd0_addr"), dtype_of(p0, r("opt_opd0_sign")), L::align_eu,
                        {n, c, r("opd0_h"), r("opd0_w")});
  const opd o1 = tensor(r("opd1_addr"), dtype_of(p0, r("opt_opd1_sign")), L::compact,
                        {1, c, r("opd1_h"), r("opd1_w")}, r("opt_opd1_const") != 0);
  const opd o2 = tensor(r("opd2_addr"), dtype_of(p0, r("opt_opd2_sign")), L::compact, {1, c, 1, 1},
                        r("opt_opd2_const") != 0);
  opd o3 = tensor(r("opd3_addr"), dtype_of(p0, r("opt_opd0_sign")), L::compact, {1, c, 1, 2},
                  r("opt_opd3_const") != 0);
  const bool with5 = r("opt_rq") && !r("opt_opd5_const");
  const opd o5 = tensor(tg.get(6), regs::dtype::si32, L::compact, {1, c, 1, 2});
  if (eu == 0 || eu == 1 || eu == 3 || eu == 4) {
    cv.add_op(o0);
    if (eu <= 1) cv.add_op(o1);
    if (eu == 0) cv.add_op(o2);
  } else {
    o3.set_shape({1, c, 1, 4});
    o3.type = regs::dtype::ui16;
    cv.add_op(o0);
    if (eu == 5 || eu == 6) cv.add_op(o1);
    cv.add_op(o2);
  }
  cv.add_op(o3);
  if (with5) cv.add_op(o5);
  cv.add_res(tensor(r("res0_addr"), dtype_of(r("opt_res0_prec"), r("opt_opd0_sign")), L::align_eu,
                    {n, c, r("res0_h"), r("res0_w")}));
  return cv;
}

inline converted cw_bc(const regs_of& r) {
  using L = regs::layout;
  converted cv;
  const auto n = r("res0_n"), c = r("res0_c"), h = r("res0_h"), w = r("res0_w"),
             eu = r("tsk_eu_typ");
  const auto t = dtype_of(r("opt_res0_prec"));
  opd o0 = tensor(r("opd0_addr"), t, L::align_eu, {n, c, h, w});
  opd res = tensor(r("res0_addr"), t, L::align_eu, {n, c, h, w});
  if (eu <= 1) {
    o0.set_shape({n, w, h, c});
    if (eu == 0) o0.lay = L::align_line;
  } else if (eu == 3) {
    o0.set_shape({n, 1, h, w});
  } else if (eu == 4) {
    res.set_shape({1, c, 1, w});
  } else if (eu == 5) {
    res.set_shape({1, c, 1, 1});
    res.lay = L::compact;
  }
  cv.add_op(o0);
  cv.add_res(res);
  return cv;
}

inline converted sg(const regs_of& r) {
  using L = regs::layout;
  converted cv;
  const auto n = r("res0_n"), c = r("res0_c"), eu = r("tsk_eu_typ");
  // opd1 at opd0_addr, as the vendor writes it
  opd o0 = tensor(r("opd0_addr"), dtype_of(r("opt_opd0_prec")), layout_of(r("short_opd0_str")), {});
  opd o1 = tensor(r("opd0_addr"), dtype_of(r("opt_opd1_prec"), 0), L::align_eu, {});
  const opd res = tensor(r("res0_addr"), dtype_of(r("opt_res0_prec")), L::align_eu,
                         {n, c, r("res0_h"), r("res0_w")});
  const opd res1 = tensor(r("res1_addr"), regs::dtype::si16, L::compact, {n, c, 1, 1});
  const bool t4 = r("short_opd0_str") != 0;
  bool two = false, one_op = false;
  if (eu == 0 || eu == 3 || eu == 1 || eu == 4) {
    o0.set_shape({n, c, eu == 0 || eu == 3 ? 1 : r("opd0_h"), r("opd0_w")});
    o1.set_shape({1, r("opd1_c"), 1, 1});
    o1.lay = L::compact;
  } else if (eu == 5 || eu == 6 || eu == 13 || eu == 14 || eu == 8 || eu == 15) {
    const bool idx = eu == 8 || eu == 15;
    o0.set_shape({1, c, idx ? 1 : r("opd0_h"), r("opd0_w")});
    if (t4) o0.lay = L::t4;
    o1.set_shape({n, c, 1, r("opd1_w")});
    two = idx;
  } else if (eu == 9 || eu == 16) {
    o0.set_shape({n, c, 1, r("opd0_w")});
    one_op = two = true;
  } else {
    cv.supported = false;
    return cv;
  }
  cv.add_op(o0);
  if (!one_op) cv.add_op(o1);
  cv.add_res(res);
  if (two) cv.add_res(res1);
  return cv;
}

/// (high << 32) | low of a 40/45-bit DMA address split over two fields. BM1688's DMA_matrix
/// names its low word `_h32` and its high byte `_l8`.
inline std::uint64_t dma_address(const regs_of& r, bool src) {
  const std::string_view hi13 = src ? "src_start_addr_h13" : "dst_start_addr_h13",
                         hi8 = src ? "src_start_addr_h8" : "dst_start_addr_h8",
                         l32 = src ? "src_start_addr_l32" : "dst_start_addr_l32",
                         l8 = src ? "src_start_addr_l8" : "dst_start_addr_l8",
                         h32 = src ? "src_start_addr_h32" : "dst_start_addr_h32";
  if (r.v.has(hi13)) return r(hi13) << 32 | r(l32);
  if (r.v.has(hi8)) return r(hi8) << 32 | r(l32);
  return r(l8) << 32 | r(h32);
}

/// dma_reg_fmt_base: source and destination as the registers give them.
inline void dma_base(const regs_of& r, opd& src, opd& dst) {
  const auto t = dtype_of(r("src_data_format"));
  src = tensor(dma_address(r, true), t, regs::layout::dma_stride,
               {r("src_nsize"), r("src_csize"), r("src_hsize"), r("src_wsize")});
  src.set_stride({r.s("src_nstride"), r.s("src_cstride"), r.s("src_hstride"), r.s("src_wstride")});
  dst = tensor(dma_address(r, false), t, regs::layout::dma_stride,
               {r("dst_nsize"), r("dst_csize"), r("dst_hsize"), r("dst_wsize")});
  dst.set_stride({r.s("dst_nstride"), r.s("dst_cstride"), r.s("dst_hstride"), r.s("dst_wstride")});
  if (r("nchw_copy")) {
    dst.rank = src.rank;
    dst.shape = src.shape;
  }
}

inline converted dma_tensor(const regs_of& r) {
  converted cv;
  opd s, d;
  dma_base(r, s, d);
  const auto sf = r("cmd_special_function");
  const auto sh = s.shape;
  if (sf == 3)
    d.set_shape({d.shape[0], r("src_csize"), d.shape[2], d.shape[3]});
  else if (sf == 1)
    d.set_shape({sh[1], sh[0], sh[2], sh[3]});
  else if (sf == 2 || sf == 4)
    d.set_shape({sh[0], sh[3], sh[2], sh[1]});
  if (sf != 0) s.stride[3] = d.stride[3] = 1;
  if (sf == 3 || sf == 4) s.lay = d.lay = regs::layout::stride;
  if (r("fill_constant_en")) s = tensor(r("constant_value"), s.type, {}, {}, true);
  cv.add_op(s);
  cv.add_res(d);
  return cv;
}

/// DMA_matrix: the local side is an (H, W) matrix of rows `wsize` wide. The vendor tests the
/// raw source address against the local range; here the source's memory kind (the same on
/// BM1688; CV184X's tagged local addresses never fall in the vendor's range).
inline converted dma_matrix(const regs_of& r, const mem_consts& k) {
  converted cv;
  opd s, d;
  dma_base(r, s, d);
  const bool trans = r("cmd_special_function") == 1;
  const bool fill = r("fill_constant_en") != 0;
  auto flat = [](opd& g) {  // the global side: (1, 1, H, W), strides (0, 0, h, 1)
    g.set_shape({1, 1, g.shape[2], g.shape[3]});
    g.set_stride({0, 0, g.stride[2], 1});
  };
  auto matrix = [&](opd& l, std::uint64_t hh, std::uint64_t ww, std::uint64_t wsize) {
    if (trans) std::swap(hh, ww);
    l.set_shape({hh, ww});
    l.set_stride({l.stride[0], l.stride[1], 0, 1});
    l.lay = regs::layout::dma_matrix;
    l.w = static_cast<std::uint32_t>(wsize);
  };
  if (kind_of(k, s.address) == regs::mem_kind::local && !fill) {
    const auto hh = d.shape[2], ww = d.shape[3];
    flat(d);
    matrix(s, hh, ww, r("src_wsize"));
  } else {
    const auto hh = s.shape[2], ww = s.shape[3];
    flat(s);
    matrix(d, hh, ww, r("dst_wsize"));
  }
  if (fill) s = tensor(r("constant_value"), s.type, {}, {}, true);
  cv.add_op(s);
  cv.add_res(d);
  return cv;
}

/// The converter of a class ("sAR", "DMA_tensor"); `supported` false where there is none.
inline converted convert(std::string_view cls, const regs_of& r, const mem_consts& k,
                         tgcr_state& tg) {
  if (cls == "sCONV") return conv(r, k, tg);
  if (cls == "sAR") return ar(r);
  if (cls == "sPorD") return pord(r, tg);
  if (cls == "sCW&sBC") return cw_bc(r);
  if (cls == "sSG") return sg(r);
  if (cls == "DMA_tensor") return dma_tensor(r);
  if (cls == "DMA_matrix") return dma_matrix(r, k);
  converted none;
  if (cls == "SYS_TR_ACC") {
    const auto imm1 = r("imm1");
    tg.set(r("reg_idx0"), r("imm0"));
    tg.set(r("reg_idx1"), imm1 & 0xFFFFFFFFu);
    tg.set(r("reg_idx2"), imm1 >> 32);
  }
  none.supported = cls == "SYS" || cls == "SYS_TR_ACC" || cls == "sDMA_sys";
  return none;
}

/// The register table of a class: exact sheet name, else the sheet the class name starts
/// ("DMA_tensor" -> "DMA_tensor（0x000）").
template <std::size_t N>
constexpr const regs::reg_table* table_of(const std::array<const regs::reg_table*, N>& all,
                                          std::string_view cls) noexcept {
  for (const auto* t : all)
    if (t->sheet == cls) return t;
  for (const auto* t : all)
    if (t->sheet.size() > cls.size() && t->sheet.substr(0, cls.size()) == cls &&
        static_cast<unsigned char>(t->sheet[cls.size()]) >= 0x80)
      return t;
  return nullptr;
}

}  // namespace detail

/// Decodes one framed command (class `cls`, op name `op`) of a chip whose register tables are
/// `all`. Never reads past `data`; never throws for bad input.
template <std::size_t N>
decode_status decode(const std::array<const regs::reg_table*, N>& all, std::string_view cls,
                     std::string_view op, engine eng, std::span<const std::byte> data,
                     const mem_consts& k, tgcr_state& tg, regs::instruction& out) {
  out = regs::instruction{};
  out.eng = eng;
  out.op = op;
  const regs::reg_table* table = detail::table_of(all, cls);
  if (!table) return decode_status::unknown_opcode;
  out.table = table;
  out.length = table->bytes();
  if (data.size() < out.length) return decode_status::truncated;
  out.raw = data.first(out.length);
  const detail::regs_of r{regs::reg_view(table, data.first(out.length))};
  out.type = static_cast<unsigned>(eng == engine::tiu ? r("tsk_typ") : r("cmd_type"));
  out.eu = static_cast<unsigned>(eng == engine::tiu ? r("tsk_eu_typ") : r("cmd_special_function"));
  out.short_form = cls.starts_with("s") || r("cmd_short") != 0;
  out.cmd_id = static_cast<std::uint32_t>(r("cmd_id"));
  out.dep_id = static_cast<std::uint32_t>(r("cmd_id_dep"));
  const converted cv = detail::convert(cls, r, k, tg);
  for (unsigned i = 0; i < cv.nops; ++i) out.operands.push_back(make_value(k, cv.ops[i]));
  for (unsigned i = 0; i < cv.nres; ++i) out.results.push_back(make_value(k, cv.res[i]));
  for (std::size_t i = 0; i < out.operands.size(); ++i)
    if (!out.operands[i].is_const())
      out.memory.push_back(mem_record(k, out.operands[i], false, static_cast<std::uint8_t>(i)));
  for (std::size_t i = 0; i < out.results.size(); ++i)
    out.memory.push_back(mem_record(k, out.results[i], true, static_cast<std::uint8_t>(i)));
  if (eng != engine::tiu && !out.operands.empty() && !out.results.empty()) {
    const auto& s = out.operands[0];
    const auto& d = out.results[0];
    out.dir = regs::direction_of(s.kind, d.kind);
    out.bytes = regs::detail::clamp_size(static_cast<regs::detail::i128>(d.elements()) *
                                         regs::bit_size(d.type) / 8);
  }
  return cv.supported ? decode_status::ok : decode_status::unsupported;
}

}  // namespace tpuprof::chips::perfai
