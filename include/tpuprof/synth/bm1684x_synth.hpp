/// Synthetic BM1684X dumps (bmprofile_data-N): seedable, any size, with the
/// events they encode, for tests, benchmarks and the demo.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/chips/bm1684x/regs.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/regs/reg_table.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth {

struct bm1684x_options {
  std::uint64_t seed = 1;
  std::size_t layers = 200;  ///< each: 1-3 GDMA loads, 1-4 TIU ops, 0-1 store
  std::uint32_t tpu_freq_mhz = 1000;
  /// Raw cycle counters start this far below 2^32, so large runs wrap.
  std::uint32_t cycles_before_wrap = 50'000'000;
  bool node_lines = true;        ///< write bd/gdma node lines into global.profile
  bool firmware_records = true;  ///< MCU NODE_SET + its GDMA PMU record, as real runtimes do
  /// Two more firmware GDMA commands after the static stream (ids restart at 0),
  /// as in the real BM1684X capture.
  bool firmware_tail = true;
  /// Let a record straddle the first cycle-counter wrap (its end wraps alone).
  /// Off by default: tpu-mlir's tpu_profile.py then leaves that end 2^32 short
  /// (and divides by zero on a GDMA record), see docs/chips/bm1684x.md.
  bool wrap_inside_record = false;
};

/// A generated dump: its files (names + bytes) and the events a correct
/// decoder must produce (hardware events, TIU then GDMA, in PMU order).
struct generated_dump {
  std::vector<std::pair<std::string, std::vector<std::byte>>> files;
  std::vector<engine_event> expected;  ///< op/op_type ids are indexes into `names`
  std::vector<std::string> names;      ///< [0] = ""

  io::dump_files as_files(std::string label = "<synthetic>") const {
    return as_dump_files(files, std::move(label));
  }
  /// Writes every file into `dir` (created), each atomically.
  void write_directory(const std::filesystem::path& dir) const { write_dump_directory(files, dir); }
};

namespace bm1684x_detail {
using synth::byte_sink;
using synth::text_bytes;

/// A field of a register table, looked up at compile time (a typo does not compile).
consteval regs::reg_field fld(const regs::reg_table& t, std::string_view name) {
  for (const auto& f : t.fields)
    if (f.name == name) return f;
  throw "no such field";
}
/// ORs `v` (truncated to the field's width) into a zero-initialized descriptor.
inline void put(std::byte* d, regs::reg_field f, std::uint64_t v) noexcept {
  if (f.width < 64) v &= (std::uint64_t{1} << f.width) - 1;
  unsigned bit = f.lo, left = f.width;
  while (left) {
    const unsigned off = bit % 8, take = std::min(8 - off, left);
    d[bit / 8] |= static_cast<std::byte>((v & ((1u << take) - 1)) << off);
    v >>= take;
    bit += take;
    left -= take;
  }
}
constexpr std::uint64_t align_up(std::uint64_t x, std::uint64_t a) noexcept {
  return (x + a - 1) / a * a;
}
/// Execution units per lane for an element size (BM1684X: 64 bytes per lane).
constexpr std::uint64_t eu_for(unsigned item_size) noexcept {
  return 64 / item_size;
}
/// Precision codes of the TIU registers (tpu-mlir DType) and their sizes.
struct dt {
  unsigned prec, sign, size;
};
inline constexpr dt i8{0, 1, 1}, f16{1, 0, 2}, f32{2, 0, 4}, bf16{5, 0, 2};

/// Local-memory (per-lane) offset of an operand: bank `bank` of the 16 banks
/// of 16 KiB, plus a 64-byte aligned offset inside it.
inline std::uint64_t lmem_addr(unsigned bank, std::uint64_t off64) noexcept {
  return std::uint64_t{bank} * 16384 + (off64 % 64) * 64;
}
/// Strides of an alignEU local tensor (n, c, h, w), in elements.
struct eu_strides {
  std::uint64_t n, c, h, w;
};
inline eu_strides align_eu_strides(std::uint64_t c, std::uint64_t h, std::uint64_t w,
                                   unsigned isz) noexcept {
  const std::uint64_t cs = align_up(h * w, eu_for(isz));
  return {(c + 63) / 64 * cs, cs, w, 1};
}
inline float rate(std::uint64_t alg, std::uint64_t arch) noexcept {
  return static_cast<float>(static_cast<double>(alg) / static_cast<double>(arch));
}

/// TIU op kinds the generator writes (short forms: the vendor converts only those).
enum class tiu_kind : std::uint8_t { conv, add, maxpool, mm2, cast, sys_end };

/// Writes one valid TIU descriptor for `k` (random plausible shapes, dtypes,
/// local-memory operands) into the zeroed `d`; returns alg / arch ops as the
/// vendor's opdef_1684x.py computes them.
template <class Rnd>
float write_tiu(tiu_kind k, std::byte* d, std::uint32_t id, std::uint32_t dep, Rnd&& rnd) {
  namespace R = regs::bm1684x;
  const std::uint64_t npu = 64;
  auto head = [&](unsigned type, unsigned eu) {  // common to every TIU form
    put(d, fld(R::s_ar, "cmd_short"), 1);        // SYSID: rsvd0, ignored
    put(d, fld(R::s_ar, "cmd_id"), id);
    put(d, fld(R::s_ar, "cmd_id_dep"), dep);
    put(d, fld(R::s_ar, "tsk_typ"), type);
    put(d, fld(R::s_ar, "tsk_eu_typ"), eu);
  };
  static constexpr dt floats[] = {f16, bf16};
  static constexpr dt ar_types[] = {f32, f16, bf16, i8};
  switch (k) {
    case tiu_kind::conv: {
      static constexpr auto& T = R::s_conv;
      head(0, 0);
      const dt t = floats[rnd(0, 1)];
      const std::uint64_t n = rnd(1, 2), ic = rnd(1, 128), oc = rnd(1, 128);
      const std::uint64_t kk = rnd(0, 1) ? 3 : 1, st = rnd(1, 2);
      const std::uint64_t oh = rnd(1, 16), ow = rnd(1, 32);
      const std::uint64_t ih = (oh - 1) * st + kk, iw = (ow - 1) * st + kk;
      const auto s0 = align_eu_strides(ic, ih, iw, t.size);
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "opd3_const"), 1);  // padding value: an immediate
      put(d, fld(T, "res_op_x_str"), st);
      put(d, fld(T, "res_op_y_str"), st);
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), oc);
      put(d, fld(T, "res0_h"), oh);
      put(d, fld(T, "res0_w"), ow);
      put(d, fld(T, "opd0_c"), ic);
      put(d, fld(T, "opd0_h"), ih);
      put(d, fld(T, "opd0_w"), iw);
      put(d, fld(T, "opd1_h"), kk);
      put(d, fld(T, "opd1_w"), kk);
      put(d, fld(T, "opd0_n_str"), s0.n);
      put(d, fld(T, "opd0_c_str"), s0.c);
      put(d, fld(T, "opd0_h_str"), s0.h);
      put(d, fld(T, "opd0_w_str"), s0.w);
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      put(d, fld(T, "opd2_addr"), lmem_addr(15, rnd(0, 63)));
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      const std::uint64_t eu = eu_for(t.size);
      const std::uint64_t alg = n * oc * oh * ow * (2 * ic * kk * kk);
      const std::uint64_t arch =
          n * align_up(oc, npu) * align_up(oh * ow, eu) * (2 * align_up(ic, npu) * kk * kk);
      return rate(alg, arch);
    }
    case tiu_kind::add:
    case tiu_kind::cast: {
      static constexpr auto& T = R::s_ar;
      const bool add = k == tiu_kind::add;
      head(3, add ? 2 : 14);
      dt in = ar_types[rnd(0, 3)], out = in;
      if (!add) {
        static constexpr std::array<std::array<dt, 2>, 4> casts{
            {{f32, f16}, {f16, f32}, {f32, bf16}, {i8, f16}}};
        const auto& c = casts[rnd(0, 3)];
        in = c[0];
        out = c[1];
      }
      const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), h = rnd(1, 32), w = rnd(1, 64);
      put(d, fld(T, "tsk_opd_num"), add ? 2 : 1);
      put(d, fld(T, "res0_prec"), out.prec);
      put(d, fld(T, "opd0_prec"), in.prec);
      put(d, fld(T, "opd0_sign"), in.sign);
      put(d, fld(T, "opd2_sign"), out.sign);  // cast: the result's sign
      if (add) {
        put(d, fld(T, "opd1_prec"), in.prec);
        put(d, fld(T, "opd1_sign"), in.sign);
      }
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), c);
      put(d, fld(T, "res0_h"), h);
      put(d, fld(T, "res0_w"), w);
      const auto si = align_eu_strides(c, h, w, in.size), so = align_eu_strides(c, h, w, out.size);
      put(d, fld(T, "res0_n_str"), so.n);
      put(d, fld(T, "res0_c_str"), so.c);
      put(d, fld(T, "res0_h_str"), so.h);
      put(d, fld(T, "res0_w_str"), so.w);
      put(d, fld(T, "opd0_n_str"), si.n);
      put(d, fld(T, "opd0_c_str"), si.c);
      put(d, fld(T, "opd0_h_str"), si.h);
      put(d, fld(T, "opd0_w_str"), si.w);
      if (add) {
        put(d, fld(T, "opd1_n_str"), si.n);
        put(d, fld(T, "opd1_c_str"), si.c);
        put(d, fld(T, "opd1_h_str"), si.h);
        put(d, fld(T, "opd1_w_str"), si.w);
        put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      }
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      return rate(n * c * h * w, n * align_up(c, npu) * align_up(h * w, eu_for(in.size)));
    }
    case tiu_kind::maxpool: {
      static constexpr auto& T = R::s_pord;
      head(1, 4);
      const dt t = rnd(0, 1) ? f16 : i8;
      const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), oh = rnd(1, 32), ow = rnd(1, 32);
      const std::uint64_t kk = rnd(2, 3), st = rnd(1, 2);
      put(d, fld(T, "opd0_sign"), t.sign);
      put(d, fld(T, "opd3_const"), 1);  // padding value
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "res_op_x_str"), st);
      put(d, fld(T, "res_op_y_str"), st);
      put(d, fld(T, "res0_n"), n);
      put(d, fld(T, "res0_c"), c);
      put(d, fld(T, "res0_h"), oh);
      put(d, fld(T, "res0_w"), ow);
      put(d, fld(T, "opd0_h"), (oh - 1) * st + kk);
      put(d, fld(T, "opd0_w"), (ow - 1) * st + kk);
      put(d, fld(T, "opd1_h"), kk);
      put(d, fld(T, "opd1_w"), kk);
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      const std::uint64_t f = kk * kk - 1;
      return rate(n * c * oh * ow * f,
                  n * align_up(c, npu) * align_up(oh * ow, eu_for(t.size)) * f);
    }
    case tiu_kind::mm2: {
      static constexpr auto& T = R::s_mm2;
      head(2, 4);
      const dt t = floats[rnd(0, 1)];
      const std::uint64_t m = rnd(1, 256), kd = rnd(1, 512), nn = rnd(1, 256);
      put(d, fld(T, "res0_prec"), t.prec);
      put(d, fld(T, "opd0_prec"), t.prec);
      put(d, fld(T, "res0_c"), m);
      put(d, fld(T, "res0_w"), nn);
      put(d, fld(T, "opd1_c"), kd);
      put(d, fld(T, "opd1_w"), nn);
      put(d, fld(T, "res0_addr"), lmem_addr(8, rnd(0, 63)));
      put(d, fld(T, "opd0_addr"), lmem_addr(0, rnd(0, 63)));
      put(d, fld(T, "opd1_addr"), lmem_addr(4, rnd(0, 63)));
      return rate(m * nn * (2 * kd - 1),
                  align_up(m, npu) * nn * (2 * align_up(kd, eu_for(t.size)) - 1));
    }
    case tiu_kind::sys_end:
      head(15, 31);
      return 1.0f;
  }
  return 0.0f;
}

/// Writes one long dma.tensor descriptor (96 bytes) moving an n·c·h·w tensor
/// between DDR and local memory (`load`: DDR → local); returns its bytes.
template <class Rnd>
std::uint64_t write_dma_tensor(std::byte* d, std::uint32_t id, std::uint32_t dep, bool load,
                               Rnd&& rnd) {
  static constexpr auto& T = regs::bm1684x::dma_tensor;
  static constexpr unsigned formats[] = {0, 1, 2, 5};  // i8, f16, f32, bf16
  static constexpr unsigned sizes[] = {1, 2, 4, 2};
  const auto fi = rnd(0, 3);
  const unsigned isz = sizes[fi];
  const std::uint64_t n = rnd(1, 2), c = rnd(1, 128), h = rnd(1, 16), w = rnd(1, 64);
  put(d, fld(T, "stride_enable"), 1);
  put(d, fld(T, "cmd_id"), id);
  put(d, fld(T, "src_data_format"), formats[fi]);
  put(d, fld(T, "cmd_id_dep"), dep);
  const auto lo = align_eu_strides(c, h, w, isz);
  const std::uint64_t g[4] = {c * h * w, h * w, w, 1};
  const std::uint64_t l[4] = {lo.n, lo.c, lo.h, lo.w};
  const std::uint64_t* src = load ? g : l;
  const std::uint64_t* dst = load ? l : g;
  put(d, fld(T, "src_nstride"), src[0]);
  put(d, fld(T, "src_cstride"), src[1]);
  put(d, fld(T, "src_hstride"), src[2]);
  put(d, fld(T, "src_wstride"), src[3]);
  put(d, fld(T, "dst_nstride"), dst[0]);
  put(d, fld(T, "dst_cstride"), dst[1]);
  put(d, fld(T, "dst_hstride"), dst[2]);
  put(d, fld(T, "dst_wstride"), dst[3]);
  for (auto f : {fld(T, "src_nsize"), fld(T, "dst_nsize")}) put(d, f, n);
  for (auto f : {fld(T, "src_csize"), fld(T, "dst_csize")}) put(d, f, c);
  for (auto f : {fld(T, "src_hsize"), fld(T, "dst_hsize")}) put(d, f, h);
  for (auto f : {fld(T, "src_wsize"), fld(T, "dst_wsize")}) put(d, f, w);
  const std::uint64_t ddr = 0x100000000ull + 0x1000000ull + rnd(0, 0xFFFFF) * 64;
  const std::uint64_t lmem = lmem_addr(static_cast<unsigned>(rnd(0, 7)), rnd(0, 63));
  const std::uint64_t s = load ? ddr : lmem, t = load ? lmem : ddr;
  put(d, fld(T, "src_start_addr_l32"), s & 0xFFFFFFFFu);
  put(d, fld(T, "src_start_addr_h8"), s >> 32);
  put(d, fld(T, "dst_start_addr_l32"), t & 0xFFFFFFFFu);
  put(d, fld(T, "dst_start_addr_h8"), t >> 32);
  put(d, fld(T, "localmem_mask_l32"), 0xFFFFFFFFu);
  put(d, fld(T, "localmem_mask_h32"), 0xFFFFFFFFu);
  return n * c * h * w * isz;
}
}  // namespace bm1684x_detail

/// Generates a BM1684X dump: one static subnet, `layers` layer groups of GDMA
/// loads, TIU ops (each waiting on the last load) and stores, with TIU/DMA
/// overlap, gaps, cycle-counter and 16-bit id wraps at scale.
inline generated_dump bm1684x_dump(const bm1684x_options& o = {}) {
  using bm1684x_detail::tiu_kind;
  struct op_kind {
    const char* op;
    const char* type;
    unsigned tsk, eu, len;
    const char* layer;
    tiu_kind kind;
  };
  static constexpr op_kind tiu_ops[] = {
      {"conv.normal", "CONV", 0, 0, 64, "Conv2D", tiu_kind::conv},
      {"arith.add", "AR", 3, 2, 64, "Add", tiu_kind::add},
      {"pord.maxpooling", "PD", 1, 4, 64, "MaxPool", tiu_kind::maxpool},
      {"mm2.nn", "MM", 2, 4, 32, "MatMul", tiu_kind::mm2},
      {"arith.cast", "AR", 3, 14, 64, "Cast", tiu_kind::cast}};
  std::mt19937_64 rng(o.seed);
  auto rnd = [&](std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); };

  generated_dump g;
  auto intern = [&](const std::string& s) -> name_id {
    for (std::size_t i = 0; i < g.names.size(); ++i)
      if (g.names[i] == s) return static_cast<name_id>(i);
    g.names.push_back(s);
    return static_cast<name_id>(g.names.size() - 1);
  };
  g.names.push_back("");

  struct cmd {
    engine eng;
    std::uint32_t bd_id, gdma_id;  // node line ids (own id + waited id)
    std::uint64_t begin, end;      // intended cycles (device timeline)
    std::uint64_t bytes;
    direction dir;
    const op_kind* kind;
    std::int32_t layer_id;
    float rate;  // TIU: alg / arch ops of the descriptor
  };
  std::vector<cmd> tiu, gdma;
  // Command buffers (cmd_*.dat), written as the commands are generated:
  // valid descriptors that both decoders convert (operands, dtypes, shapes).
  bm1684x_detail::byte_sink tcmd, gcmd;
  tcmd.data.reserve(o.layers * 160 + 256);  // ~2.5 TIU commands of <= 64 B per layer
  gcmd.data.reserve(o.layers * 240 + 256);  // ~2.3 GDMA commands of 96 B per layer
  tiu.reserve(o.layers * 5 / 2 + 1);
  gdma.reserve(o.layers * 7 / 3 + 1);
  const auto nan = std::numeric_limits<float>::quiet_NaN();
  std::string lines =
      "[bmprofile] arch=3\n[bmprofile] net_name=synthetic_net\n[bmprofile] tpu_freq=" +
      std::to_string(o.tpu_freq_mhz) + "\n[bmprofile] is_mlir=1\n...Start Profile Log...\n" +
      "[bmprofile] start to run subnet_id=0\n";
  const std::uint64_t mon_start = 10960;  // monitor start: MCU tick 274 x 40 ns
  std::uint64_t gdma_free = mon_start + 12000, tiu_free = 0;
  std::uint32_t bd_id = 0, gdma_id = 0;
  std::int32_t layer_id = 0;

  // firmware GDMA command before the static stream (paired with the NODE_SET)
  struct fw_rec {
    std::uint64_t begin, end, bytes;
  };
  std::vector<fw_rec> fw;
  if (o.firmware_records) fw.push_back({mon_start, mon_start + 7124, 196608});

  for (std::size_t L = 0; L < o.layers; ++L) {
    // loads
    const auto loads = rnd(1, 3);
    std::uint64_t ready = 0;
    for (std::uint64_t k = 0; k < loads; ++k) {
      ++gdma_id;
      const std::uint64_t bytes = bm1684x_detail::write_dma_tensor(gcmd.grow(96), gdma_id & 0xFFFFF,
                                                                   bd_id & 0xFFFFF, true, rnd);
      const std::uint64_t dur = 60 + bytes / rnd(20, 60);
      const std::uint64_t begin = gdma_free + rnd(0, 40);
      gdma.push_back({engine::gdma, bd_id, gdma_id, begin, begin + dur, bytes, direction::s2l,
                      nullptr, layer_id, nan});
      lines += "[bmprofile] local_layer: layer_id=" + std::to_string(layer_id) +
               " layer_type=Load layer_name=\n";
      lines += "[bmprofile] gdma cmd_id bd_id=" + std::to_string(bd_id & 0xFFFFF) +
               " gdma_id=" + std::to_string(gdma_id & 0xFFFFF) + " gdma_dir=0 gdma_func=0\n";
      gdma_free = begin + dur + 1;
      ready = begin + dur;
      ++layer_id;
    }
    // compute: the first op waits for the last load and starts when it ends
    const op_kind& kind = tiu_ops[rnd(0, std::size(tiu_ops) - 1)];
    lines += "[bmprofile] local_layer: layer_id=" + std::to_string(layer_id) +
             " layer_type=" + kind.layer + " layer_name=\n";
    const auto ops = rnd(1, 4);
    for (std::uint64_t k = 0; k < ops; ++k) {
      const std::uint64_t begin = k == 0 ? std::max(ready, tiu_free) : tiu_free + rnd(0, 30);
      const std::uint64_t dur = rnd(4, 3000);
      ++bd_id;
      const float r = bm1684x_detail::write_tiu(kind.kind, tcmd.grow(kind.len), bd_id & 0xFFFFF,
                                                gdma_id & 0xFFFFF, rnd);
      tiu.push_back({engine::tiu, bd_id, gdma_id, begin, begin + dur, 0, direction::none, &kind,
                     layer_id, r});
      lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(bd_id & 0xFFFFF) +
               " gdma_id=" + std::to_string(gdma_id & 0xFFFFF) +
               " bd_func=" + std::to_string(kind.tsk) + "\n";
      tiu_free = begin + dur + 1;
    }
    const std::uint64_t compute_end = tiu_free;
    ++layer_id;
    // store, after the compute (the GDMA waits for the last TIU op)
    if (rnd(0, 2) == 0) {
      ++gdma_id;
      const std::uint64_t bytes = bm1684x_detail::write_dma_tensor(gcmd.grow(96), gdma_id & 0xFFFFF,
                                                                   bd_id & 0xFFFFF, false, rnd);
      const std::uint64_t dur = 60 + bytes / rnd(20, 50);
      const std::uint64_t begin = std::max(gdma_free, compute_end) + rnd(0, 40);
      gdma.push_back({engine::gdma, bd_id, gdma_id, begin, begin + dur, bytes, direction::l2s,
                      nullptr, layer_id, nan});
      lines += "[bmprofile] local_layer: layer_id=" + std::to_string(layer_id) +
               " layer_type=Store layer_name=\n";
      lines += "[bmprofile] gdma cmd_id bd_id=" + std::to_string(bd_id & 0xFFFFF) +
               " gdma_id=" + std::to_string(gdma_id & 0xFFFFF) + " gdma_dir=1 gdma_func=0\n";
      gdma_free = begin + dur + 1;
      ++layer_id;
    }
  }
  std::vector<fw_rec> tail;
  if (o.firmware_records && o.firmware_tail) {
    const std::uint64_t t = std::max(tiu_free, gdma_free) + 16000;
    tail.push_back({t, t + 2542, 57344});
    tail.push_back({t + 2546, t + 2993, 3584});
  }
  // end markers: TIU sys.end (has a PMU record), GDMA SYS (has none)
  {
    const std::uint64_t begin = std::max(tiu_free, gdma_free);
    ++bd_id;
    static constexpr op_kind sys_end{"sys.end", "SYS", 15, 31, 16, "End", tiu_kind::sys_end};
    const float r =
        bm1684x_detail::write_tiu(tiu_kind::sys_end, tcmd.grow(16), bd_id & 0xFFFFF, 0, rnd);
    tiu.push_back(
        {engine::tiu, bd_id, 0, begin, begin + 4, 0, direction::none, &sys_end, layer_id, r});
    lines += "[bmprofile] global_layer: layer_id=" + std::to_string(layer_id) +
             " layer_type=End layer_name=end\n";
    lines += "[bmprofile] bd cmd_id bd_id=" + std::to_string(bd_id & 0xFFFFF) +
             " gdma_id=0 bd_func=15\n";
    lines += "[bmprofile] gdma cmd_id bd_id=0 gdma_id=" + std::to_string(gdma_id + 1) +
             " gdma_dir=0 gdma_func=6\n";
    lines += "[bmprofile] end to run subnet_id=0\n[bmprofile] core_list=0,\n";
  }
  const std::uint64_t tiu_cap = std::max<std::uint64_t>(1u << 20, tiu.size() + 1);
  const std::uint64_t gdma_cap = std::max<std::uint64_t>(1u << 20, gdma.size() + 4);
  lines += "[bmprofile] mtype=1 addr=4901421056 size=" + std::to_string(32 * tiu_cap) +
           " alloc=1 free=2 desc=bdc_perf_monitor\n";
  lines += "[bmprofile] mtype=1 addr=4952035328 size=" + std::to_string(256 * gdma_cap) +
           " alloc=1 free=2 desc=gdma_perf_monitor\n";
  g.files.push_back({"global.profile", bm1684x_detail::text_bytes(lines)});

  // Command buffers: TIU then GDMA, each ending with its sys command + 128-B alignment.
  tcmd.zeros((128 - tcmd.data.size() % 128) % 128);
  gcmd.u64(8 | (std::uint64_t{(gdma_id + 1) & 0xFFFFF} << 9) |
           (std::uint64_t{6} << 32));  // dma.sys, short
  gcmd.u64(bd_id & 0xFFFFF);
  gcmd.zeros((128 - gcmd.data.size() % 128) % 128);
  g.files.push_back({"cmd_12425c000_0_0.dat", tcmd.data});
  g.files.push_back({"cmd_12425e000_0_1.dat", gcmd.data});

  // iter0.profile
  bm1684x_detail::byte_sink it;
  {
    bm1684x_detail::byte_sink s;
    s.u32(0);
    s.u32(0);
    s.u32(0);
    s.u64(1764051392744510);
    s.u64(1764051392744510 + 1000 + std::max(tiu_free, gdma_free) / o.tpu_freq_mhz);
    s.u64(0);
    it.block(1, s.data);
    bm1684x_detail::byte_sink c;
    c.u64(0x12425e000);
    c.u64(0);
    c.u64(0x12425c000);
    c.u64(0);
    c.u32(1);
    c.u32(static_cast<std::uint32_t>(gdma.size() + 1));
    c.u32(static_cast<std::uint32_t>(tiu.size()));
    it.block(8, c.data);
  }
  // Raw counters: independent origins (clocks are not synchronized), near 2^32.
  std::uint32_t tiu_origin =
      static_cast<std::uint32_t>(0x100000000ull - o.cycles_before_wrap - rnd(0, 1000));
  std::uint32_t gdma_origin =
      static_cast<std::uint32_t>(0x100000000ull - o.cycles_before_wrap + rnd(0, 1000));
  const std::uint64_t tiu_t0 = tiu.empty() ? 0 : tiu.front().begin;
  const std::uint64_t gdma_t0 = fw.empty() ? gdma.front().begin : fw.front().begin;
  // Unless asked otherwise, move the first wrap into the gap after the record
  // it would fall in (commands of one engine are >= 1 cycle apart).
  auto wrap_in_gap = [&](std::uint32_t& origin, std::uint64_t t0, std::uint64_t begin,
                         std::uint64_t end) {
    const std::uint64_t rb = origin + (begin - t0), re = origin + (end - t0);
    if ((rb >> 32) == (re >> 32)) return false;
    origin = static_cast<std::uint32_t>(0x100000000ull - (end + 1 - t0));
    return true;
  };
  if (!o.wrap_inside_record) {
    for (const auto& c : tiu)
      if (wrap_in_gap(tiu_origin, tiu_t0, c.begin, c.end)) break;
    bool moved = false;
    for (const auto& r : fw)
      if (!moved) moved = wrap_in_gap(gdma_origin, gdma_t0, r.begin, r.end);
    for (std::size_t k = 0; k < gdma.size() && !moved; ++k)
      moved = wrap_in_gap(gdma_origin, gdma_t0, gdma[k].begin, gdma[k].end);
    for (std::size_t k = 0; k < tail.size() && !moved; ++k)
      moved = wrap_in_gap(gdma_origin, gdma_t0, tail[k].begin, tail[k].end);
  }
  {
    bm1684x_detail::byte_sink b;
    for (std::size_t k = 0; k < tiu.size(); ++k) {
      const auto& c = tiu[k];
      b.u32(static_cast<std::uint32_t>(tiu_origin + (c.begin - tiu_t0)));
      b.u32(static_cast<std::uint32_t>(tiu_origin + (c.end - tiu_t0)));
      const std::uint64_t load = c.end - c.begin + 1;
      b.u64(((c.bd_id - 1) & 0xFFFFu) | (load << 16));
      b.u32(static_cast<std::uint32_t>(load));
      b.u32(static_cast<std::uint32_t>(load));
      b.u32(static_cast<std::uint32_t>(load));
      b.u32((c.bd_id - 1) & 0xFFFFu);
    }
    it.block(3, b.data);
  }
  {
    bm1684x_detail::byte_sink b;
    auto rec = [&](std::uint64_t begin, std::uint64_t end, std::uint32_t inst, std::uint64_t bytes,
                   direction d) {
      std::uint32_t f[48] = {};
      f[0] = static_cast<std::uint32_t>(gdma_origin + (begin - gdma_t0));
      f[1] = static_cast<std::uint32_t>(gdma_origin + (end - gdma_t0));
      f[2] = inst & 0xFFFFFu;
      const auto n = static_cast<std::uint32_t>(bytes);
      if (d == direction::l2s) {
        f[0x2C / 4] = n;  // gif_ar
        f[0x0C / 4] = n;  // d0_aw
        f[0x10 / 4] = n;  // d0_wr
      } else {            // s2l
        f[0x14 / 4] = n;  // d0_ar
        f[0x24 / 4] = n;  // gif_aw
        f[0x28 / 4] = n;  // gif_wr
      }
      b.put(f, sizeof f);
    };
    for (const auto& r : fw) rec(r.begin, r.end, 0, r.bytes, direction::s2l);
    for (const auto& c : gdma) rec(c.begin, c.end, c.gdma_id - 1, c.bytes, c.dir);
    for (std::size_t k = 0; k < tail.size(); ++k)
      rec(tail[k].begin, tail[k].end, static_cast<std::uint32_t>(k), tail[k].bytes, direction::s2l);
    it.block(4, b.data);
  }
  {
    bm1684x_detail::byte_sink b;
    const std::uint64_t mcu0 = 21382603606345;
    b.u32(0);
    b.u32(0xFFFFFFFFu);
    b.u64(0);
    b.u64(mcu0 - 3743);
    b.u64(40);  // init record: 40 ns per MCU tick
    if (o.firmware_records) {
      b.u32(1);
      b.u32(1);  // NODE_SET, version 1, engine GDMA, func GENERAL, gdma_id 1
      b.u64((std::uint64_t{1} << 60) | (std::uint64_t{3} << 43) | (std::uint64_t{1} << 40) |
            (std::uint64_t{1} << 20));
      b.u64(mcu0);
      b.u64(mcu0 + mon_start / 40);
    }
    for (std::size_t k = 0; k < tail.size(); ++k) {  // NODE_SETs: SYS gdma_id 1, GENERAL gdma_id 2
      b.u32(static_cast<std::uint32_t>(2 + k));
      b.u32(1);
      b.u64((std::uint64_t{1} << 60) | (std::uint64_t{k == 0 ? 6u : 3u} << 43) |
            (std::uint64_t{1} << 40) | (std::uint64_t{k + 1} << 20));
      const std::uint64_t t0 = mcu0 + tail[k].begin / 40;
      b.u64(t0 - 20);
      b.u64(t0);
    }
    it.block(5, b.data);
  }
  g.files.push_back({"iter0.profile", it.data});

  // What a decoder must yield. Rebasing follows the vendor's double arithmetic
  // literally: fixed = monitor_start_us / period (+ 2^32 per wrap, added one
  // at a time), cycle = trunc(double(raw - first) + fixed).
  const double period = 1.0 / o.tpu_freq_mhz;
  const double mon_us =
      static_cast<double>(static_cast<std::int64_t>(mon_start / 40) * 40) / 1000.0;
  const double fixed0 = o.firmware_records ? mon_us / period : 0.0;
  auto rebase = [&](std::uint32_t origin, std::uint64_t rel, std::uint64_t start_rel) {
    const std::uint64_t raw = std::uint64_t{origin} + rel;
    const std::uint64_t wraps = (std::uint64_t{origin} + start_rel) >> 32;
    double fixed = fixed0;
    for (std::uint64_t w = 0; w < wraps; ++w) fixed += 4294967296.0;
    const auto ip =
        static_cast<std::int64_t>(raw - (wraps << 32)) - static_cast<std::int64_t>(origin);
    return static_cast<std::int64_t>(static_cast<double>(ip) + fixed);
  };
  const name_id tensor = intern("dma.tensor"), tensor_t = intern("TENSOR"),
                general_t = intern("GENERAL");
  std::vector<engine_event> tiu_ev, gdma_ev;
  auto add_gdma = [&](std::uint64_t b, std::uint64_t e, std::uint32_t id, std::uint64_t bytes,
                      direction d, name_id op, name_id type, std::int32_t layer) {
    engine_event ev;
    ev.engine = engine::gdma;
    ev.begin_cycle = static_cast<std::uint64_t>(rebase(gdma_origin, b - gdma_t0, b - gdma_t0));
    ev.end_cycle = static_cast<std::uint64_t>(rebase(gdma_origin, e - gdma_t0, b - gdma_t0));
    ev.cmd_id = id;
    ev.bytes = bytes;
    ev.set_flag(engine_event::flag_has_bytes);
    ev.set_flag(engine_event::flag_matched);
    ev.set_dir(d);
    ev.op = op;
    ev.op_type = type;
    ev.layer_id = layer;
    gdma_ev.push_back(ev);
  };
  for (const auto& r : fw) add_gdma(r.begin, r.end, 0, r.bytes, direction::s2l, 0, general_t, -1);
  for (const auto& c : gdma)
    add_gdma(c.begin, c.end, c.gdma_id - 1, c.bytes, c.dir, tensor, tensor_t, c.layer_id);
  for (std::size_t k = 0; k < tail.size(); ++k)
    add_gdma(tail[k].begin, tail[k].end, static_cast<std::uint32_t>(k), tail[k].bytes,
             direction::s2l, 0, k == 0 ? intern("SYS") : general_t, -1);
  // TIU: shifted so that the first TIU command waiting on a GDMA command
  // (bd_id = g.bd_id + 1, gdma_id = g.gdma_id) starts when that GDMA ends.
  std::int64_t shift = 0;
  for (std::size_t k = 0; k < gdma.size() && shift == 0; ++k)
    for (const auto& b : tiu)
      if (b.bd_id == gdma[k].bd_id + 1 && b.gdma_id == gdma[k].gdma_id) {
        const auto t = static_cast<std::int64_t>(
            static_cast<double>(gdma_ev[fw.size() + k].end_cycle) * period / period);
        shift = t - rebase(tiu_origin, b.begin - tiu_t0, b.begin - tiu_t0);
        break;
      }
  for (const auto& c : tiu) {
    engine_event ev;
    ev.engine = engine::tiu;
    ev.begin_cycle =
        static_cast<std::uint64_t>(rebase(tiu_origin, c.begin - tiu_t0, c.begin - tiu_t0) + shift);
    ev.end_cycle =
        static_cast<std::uint64_t>(rebase(tiu_origin, c.end - tiu_t0, c.begin - tiu_t0) + shift);
    ev.cmd_id = c.bd_id - 1;
    ev.set_flag(engine_event::flag_matched);
    ev.op = intern(c.kind->op);
    ev.op_type = intern(c.kind->type);
    ev.layer_id = c.layer_id;
    ev.uarch_rate = c.rate;
    tiu_ev.push_back(ev);
  }
  for (auto* v : {&tiu_ev, &gdma_ev})
    for (auto& ev : *v) {
      ev.begin_ns = static_cast<double>(ev.begin_cycle) * 1000.0 / o.tpu_freq_mhz;
      ev.end_ns = static_cast<double>(ev.end_cycle) * 1000.0 / o.tpu_freq_mhz;
      g.expected.push_back(ev);
    }
  return g;
}

}  // namespace tpuprof::synth
