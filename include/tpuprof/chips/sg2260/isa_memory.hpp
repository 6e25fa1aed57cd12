/// sg2260 ISA, values and memory: tensor references (memory kind, strides) and
/// the memory range each operand covers (tpu-mlir memmap.py).
#pragma once

#include <algorithm>

#include <tpuprof/chips/sg2260/isa_types.hpp>

namespace tpuprof::regs::sg2260::detail {

// ---------------------------------------------------------------- values and memory

/// tpu-mlir MemRef: memory kind from the address; local operands get their
/// stride from the layout (memmap.local_layout_to_stride).
inline tensor_ref make_value(const opd& o) {
  tensor_ref t;
  t.type = o.type;
  if (o.is_const) {
    t.kind = mem_kind::constant;
    t.address = o.address;
    return t;
  }
  t.address = o.address;
  t.kind = o.dma ? dma_kind_of(o.address) : mem_kind::local;
  t.lay = o.lay;
  t.rank = o.rank;
  t.shape = o.shape;
  t.stride_rank = o.srank;
  t.stride = o.stride;
  t.lane_mask = o.mask;
  t.layout_w = o.w;
  if (t.kind != mem_kind::local || t.lay == layout::stride) return t;
  const i128 bits = bit_size(t.type);
  const i128 off = static_cast<i128>(t.address & 0x3FFFFFF) / lane_size;
  const bool four = t.rank == 4;
  const i128 c = t.shape[1], h = t.shape[2], w = t.shape[3];
  const i128 eu = bits > 0 ? eu_base * 8 / bits : 0;
  auto set = [&](i128 a, i128 b, i128 cc, i128 dd) {
    t.stride_rank = 4;
    t.stride = {sat64(a), sat64(b), sat64(cc), sat64(dd)};
  };
  switch (t.lay) {
    case layout::align_eu:
      if (four && eu) {
        const i128 cs = align_up(w * h, eu);
        set(div_up(c + off, npu_num) * cs, cs, w, 1);
      }
      break;
    case layout::compact:
      if (four) set(div_up(c + off, npu_num) * w * h, w * h, w, 1);
      break;
    case layout::offset:
      set(0, 1, 0, 0);
      break;
    case layout::align_line:
      if (four && eu) {
        const i128 hs = align_up(w, eu);
        set(h * hs * div_up(c + off, npu_num), h * hs, hs, 1);
      }
      break;
    case layout::t4:
      if (four && eu) set(0, 0, align_up(w, eu), 1);
      break;
    case layout::t5:
      if (four && eu && bits) set(lane_size / bits, align_up(w, eu), w, 1);
      break;
    case layout::dma_stride:
      if (t.lane_mask == ~std::uint64_t{0}) t.lay = layout::stride;
      break;
    default:
      break;
  }
  return t;
}

/// One memory range: device address and covered size outside local memory;
/// inside local memory the offset in one lane and the size covered in that
/// lane (channels per lane = ceil((c + first lane) / 64)), as for BM1684X.
inline mem_operand mem_record(const tensor_ref& t, bool write, std::uint8_t index) {
  mem_operand m;
  m.kind = t.kind;
  m.write = write;
  m.index = index;
  const i128 bits = bit_size(t.type);
  auto bytes_of = [&](i128 elems) { return clamp_size((elems * bits + 7) / 8); };
  i128 elems = 1;
  if (t.stride_rank) {
    for (unsigned i = 0; i < t.rank && i < t.stride_rank; ++i)
      elems += (static_cast<i128>(t.shape[i]) - 1) * static_cast<i128>(t.stride[i]);
  } else {
    for (unsigned i = 0; i < t.rank; ++i) elems *= static_cast<i128>(t.shape[i]);
  }
  m.data_size = bytes_of(elems);
  if (t.kind != mem_kind::local) {
    m.address = t.address;
    m.size = m.data_size;
    return m;
  }
  const i128 raddr = static_cast<i128>(t.address & 0x3FFFFFF);
  m.address = static_cast<std::uint64_t>(raddr % lane_size);
  const i128 off = raddr / lane_size;
  std::array<i128, 4> dd{1, 1, 1, 1};
  for (unsigned i = 0; i < t.rank && i < 4; ++i) dd[i] = static_cast<i128>(t.shape[i]);
  const i128 n = dd[0], c = dd[1], h = dd[2], w = dd[3];
  auto cnum = [&](i128 x) { return div_up(x + off, npu_num); };
  const i128 eu = bits > 0 ? eu_base * 8 / bits : 1;
  std::array<i128, 4> ls{n, cnum(c), h, w}, lst{};
  i128 lanes = c;  // the dimension cnum() spreads over the lanes
  unsigned lsrank = 4;
  auto eu_stride = [&](i128 cc, i128 hh, i128 ww) {
    const i128 cs = align_up(ww * hh, eu);
    lst = {cnum(cc) * cs, cs, ww, 1};
  };
  switch (t.lay) {
    case layout::align_ic: {
      const i128 cube = cube_num(t.type, true);  // the vendor reads the AKS table here
      lanes = n < npu_num ? n : npu_num;
      ls = {1, cnum(lanes), 1, div_up(n, npu_num) * h * w * align_up(c, cube)};
      eu_stride(n < npu_num ? n : npu_num, 1, ls[3]);
      break;
    }
    case layout::matrix: {
      const i128 mw = t.layout_w, cols = mw > 0 ? div_up(c, mw) : 0;
      lanes = cols;
      ls = {n, cnum(cols), 1, mw};
      eu_stride(cols, 1, mw);
      break;
    }
    case layout::matrix2:
      lanes = n;
      ls = {1, cnum(n), 1, c};
      eu_stride(n, 1, c);
      break;
    case layout::dma_matrix: {
      const i128 mw = t.layout_w;
      lanes = mw > 0 ? div_up(c, mw) : 0;
      ls = {n, cnum(lanes), 1, mw};
      lsrank = t.stride_rank;
      for (unsigned i = 0; i < 4; ++i) lst[i] = t.stride[i];
      break;
    }
    case layout::dma_linear:
      m.size = m.data_size;
      return m;
    default:
      lsrank = t.stride_rank;
      for (unsigned i = 0; i < 4; ++i) lst[i] = t.stride[i];
      break;
  }
  m.lane_dim = static_cast<std::uint32_t>(std::clamp<i128>(lanes, 0, 0xFFFFFFFF));
  if (lsrank == 0) {
    m.size = m.data_size;
    return m;
  }
  i128 s = 1;
  for (unsigned i = 0; i < 4 && i < lsrank; ++i) s += (ls[i] - 1) * lst[i];
  m.size = bytes_of(s);
  return m;
}

}  // namespace tpuprof::regs::sg2260::detail
