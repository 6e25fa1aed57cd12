/// BM1684X command descriptors (cmd_*.dat) to instructions: operands, dtypes,
/// shapes, memory ranges, alg/arch ops and DMA direction, as tpu-mlir's
/// profile_helper (opparam_1684x.py, opdef_1684x.py, bm1684x_defs.py) derives
/// them; deliberate differences are listed in docs/registers.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include <tpuprof/chips/bm1684x/isa_dma.hpp>
#include <tpuprof/chips/bm1684x/isa_operands.hpp>
#include <tpuprof/chips/bm1684x/isa_tiu.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::regs::bm1684x_isa {

/// Why a descriptor decoded only partly (or not at all).
enum class decode_status : std::uint8_t {
  ok,
  unsupported,  ///< a form the vendor's tables do not convert (e.g. LAR, RQ eu 2): no operands/ops
  unknown_opcode,
  truncated,  ///< fewer bytes than the form's length
};

/// Decodes one command at the start of `data`. `eng` is tiu or gdma; `op` and
/// the identity come from framing (chips::bm1684x::frame_tiu / frame_gdma).
/// Never reads past `data`; never throws for bad input.
inline decode_status decode(engine eng, std::span<const std::byte> data, instruction& out) {
  out = instruction{};
  out.eng = eng;
  if (data.size() < 16) return decode_status::truncated;
  const std::uint64_t w0 = read_bits(data, 0, 64);
  const regs::reg_table* table = nullptr;
  if (eng == engine::tiu) {
    out.type = static_cast<unsigned>(read_bits(data, 41, 4));
    out.eu = static_cast<unsigned>(read_bits(data, 45, 5));
    out.short_form = (w0 & 1) != 0;
    table = detail::tiu_table(out.type, out.eu, out.short_form);
  } else {
    out.type = static_cast<unsigned>(read_bits(data, 32, 4));
    out.eu = static_cast<unsigned>(read_bits(data, 36, 3));
    out.short_form = read_bits(data, 3, 1) != 0;
    table = detail::dma_table(out.type, out.short_form);
  }
  if (!table) return decode_status::unknown_opcode;
  out.table = table;
  out.length = table->bytes();
  if (data.size() < out.length) return decode_status::truncated;
  out.raw = data.first(out.length);
  const detail::regs_of r{reg_view(table, data.first(out.length))};
  out.cmd_id = static_cast<std::uint32_t>(r("cmd_id"));
  out.dep_id = static_cast<std::uint32_t>(r("cmd_id_dep"));
  const detail::converted cv = eng == engine::tiu ? detail::convert_tiu(r, out.type, out.eu)
                                                  : detail::convert_dma(r, out.type, out.eu);
  for (unsigned i = 0; i < cv.nops; ++i) out.operands.push_back(detail::make_value(cv.ops[i]));
  for (unsigned i = 0; i < cv.nres; ++i) out.results.push_back(detail::make_value(cv.res[i]));
  for (std::size_t i = 0; i < out.operands.size(); ++i)
    if (!out.operands[i].is_const())
      out.memory.push_back(
          detail::mem_record(out.operands[i], false, static_cast<std::uint8_t>(i)));
  for (std::size_t i = 0; i < out.results.size(); ++i)
    if (!out.results[i].is_const())
      out.memory.push_back(detail::mem_record(out.results[i], true, static_cast<std::uint8_t>(i)));
  if (eng == engine::tiu) {
    if (cv.supported) {
      out.alg_ops = detail::tiu_ops(out.type, out.eu, r, cv, out, false);
      out.arch_ops = detail::tiu_ops(out.type, out.eu, r, cv, out, true);
    }
  } else if (!out.operands.empty() && !out.results.empty()) {
    const auto& s = out.operands[0];
    const auto& d = out.results[0];
    out.dir = direction_of(s.kind, d.kind);
    out.bytes = detail::clamp_size(static_cast<detail::i128>(d.elements()) * item_size(d.type));
  }
  return cv.supported ? decode_status::ok : decode_status::unsupported;
}

}  // namespace tpuprof::regs::bm1684x_isa
