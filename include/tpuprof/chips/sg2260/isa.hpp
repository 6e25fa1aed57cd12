/// SG2260-family command descriptors (AKS = SG2260 = BM1690, AKSV = SG2260E) to
/// instructions: operands, dtypes, memory ranges, alg/arch ops and DMA
/// direction, as tpu-mlir's debugger/target_1690 (opparam.py, opdef.py,
/// memmap.py, context.py) derives them; docs/registers.md lists the
/// deliberate differences. A chip of the family passes its traits as `Chip`:
/// `tiu_table`, `dma_table`, `with_tiu_form`, `with_dma_form` (its register
/// forms) and `has_fp8` (whether its EU tables list fp8 types).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>

#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/chips/sg2260/isa_dma.hpp>
#include <tpuprof/chips/sg2260/isa_memory.hpp>
#include <tpuprof/chips/sg2260/isa_ops.hpp>
#include <tpuprof/chips/sg2260/isa_tiu.hpp>
#include <tpuprof/chips/sg2260/isa_tiu_elementwise.hpp>
#include <tpuprof/chips/sg2260/isa_types.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::regs::sg2260 {

namespace detail {

/// Runs the converter of form T (short TIU forms' converters serve the long
/// forms too, which the vendor leaves without one).
template <const reg_table& T, class Cv>
constexpr Cv convert_tiu_form(unsigned type, unsigned eu, bytes d) noexcept {
  switch (type) {
    case 0:
      return conv_sconv<T, Cv>(d, eu);
    case 1:
      return conv_spord<T, Cv>(d, eu);
    case 2:
      return eu >= 4 ? conv_smm2<T, Cv>(d, eu) : conv_smm<T, Cv>(d);
    case 3:
      return conv_sar<T, Cv>(d, eu);
    case 4:
      return conv_srqdq<T, Cv>(d, eu);
    case 5:
      return conv_scw_sbc<T, Cv>(d, eu);
    case 6:
      return eu >= 17 ? conv_ssgl<T, Cv>(d, eu) : conv_ssg<T, Cv>(d, eu);
    case 9:
      return conv_ssfu<T, Cv>(d, eu);
    case 10:
      return conv_slin<T, Cv>(d, eu);
    case 13:
      return conv_scmp<T, Cv>(d, eu);
    case 14:
      return conv_svc<T, Cv>(d);
    default:
      return Cv{};  // SYS, SYS_TR_ACC, LAR, RAND: no operands
  }
}

template <const reg_table& T, class Cv>
constexpr tiu_facts<Cv> tiu_facts_of(unsigned type, unsigned eu, bytes d) noexcept {
  tiu_facts<Cv> t{convert_tiu_form<T, Cv>(type, eu, d)};
  if (type == 2 && eu == 1) {  // MM: k and n from the registers, m = opd0_n
    std::uint64_t m = field<T, "opd0_n">(d);
    std::uint64_t k = field<T, "opd0_w">(d) * (field<T, "opd0_c">(d) - 1) + field<T, "opd0_w">(d);
    if (field<T, "opt_left_tran">(d)) std::swap(k, m);
    t.aux = m;
    t.kh = k;
    t.kw = field<T, "res0_w">(d) * (field<T, "res0_c">(d) - 1) + field<T, "res0_w">(d);
    t.rc = field<T, "res0_c">(d);
    t.rw = field<T, "res0_w">(d);
  } else if (type == 2) {  // MM2: k = opd1_w, n = opd1_c
    t.kh = field<T, "opd1_w">(d);
    t.kw = field<T, "opd1_c">(d);
    t.rc = field<T, "res0_c">(d);
    t.rw = field<T, "res0_w">(d);
  } else {
    t.kh = field<T, "opd1_h">(d);
    t.kw = field<T, "opd1_w">(d);
    t.aux = field<T, "opd1_n">(d);
  }
  return t;
}

/// Facts of a TIU command through the chip's form dispatch (`Chip::with_tiu_form`
/// calls the lambda with the form as a template argument, so every form gets its
/// own compile-time field offsets); no operands for SYS, SYS_TR_ACC, LAR, RAND.
template <class Chip, class Cv>
tiu_facts<Cv> tiu_facts_for(const reg_table* table, unsigned type, unsigned eu, bytes d) {
  return Chip::with_tiu_form(
      table, [&]<const reg_table & T>() { return tiu_facts_of<T, Cv>(type, eu, d); },
      [] { return tiu_facts<Cv>{}; });
}

template <const reg_table& T>
constexpr converted convert_dma_form(unsigned type, unsigned sf, bytes d) noexcept {
  switch (type) {
    case 0:
      return conv_dma_tensor<T>(d, sf);
    case 1:
      return conv_dma_matrix<T>(d, sf);
    case 3:
      return conv_dma_general<T>(d, sf);
    case 2:
    case 4:
    case 5:
    case 9:
      return conv_dma_nchw<T>(d, type);
    case 7:
    case 8:
      return conv_dma_gather<T>(d);
    default: {
      converted cv;  // sys: no operands; compress, randmask, transfer: no converter
      cv.supported = type == 6;
      return cv;
    }
  }
}

template <class Chip>
converted dma_convert_for(const reg_table* table, unsigned type, unsigned sf, bytes d) {
  return Chip::with_dma_form(
      table, [&]<const reg_table & T>() { return convert_dma_form<T>(type, sf, d); },
      [&] {
        converted cv;
        cv.supported = type == 6;
        return cv;
      });
}

/// Header fields of a command: engine-specific positions (TIU tsk_typ 41..44,
/// eu 45..49, or 45..47 for SYS_TR_ACC; DMA cmd_type 32..36, special function
/// 37..39; short flag bit 0 / bit 3).
struct header {
  unsigned type = 0, eu = 0;
  bool short_form = false;
};
constexpr header read_header(engine eng, bytes d) noexcept {
  header h;
  if (eng == engine::tiu) {
    h.type = static_cast<unsigned>(read_bits(d, 41, 4));
    h.eu = static_cast<unsigned>(read_bits(d, 45, h.type == 12 ? 3 : 5));
    h.short_form = read_bits(d, 0, 1) != 0;
  } else {
    h.type = static_cast<unsigned>(read_bits(d, 32, 5));
    h.eu = static_cast<unsigned>(read_bits(d, 37, 3));
    h.short_form = read_bits(d, 3, 1) != 0;
  }
  return h;
}

}  // namespace detail

/// Alg and arch ops of a TIU command, without building an instruction (the
/// per-event path of the CDM decoder). Both nullopt when unknown.
struct ops_result {
  decode_status status = decode_status::unknown_opcode;
  std::optional<std::int64_t> alg, arch;
  /// alg / arch; NaN when unknown or arch is 0.
  float uarch_rate() const noexcept { return regs::detail::ops_ratio(alg, arch); }
};

namespace detail {
template <class Cv>
ops_result ops_of_facts(bool fp8, unsigned type, unsigned eu, const tiu_facts<Cv>& facts) {
  ops_result r;
  r.alg = tiu_ops(fp8, type, eu, facts, false);
  r.arch = tiu_ops(fp8, type, eu, facts, true);
  r.status = facts.cv.supported && r.alg && r.arch ? decode_status::ok : decode_status::unsupported;
  return r;
}
}  // namespace detail

/// Ops of the TIU command at the start of `data` (its framed bytes; fields past
/// the end read 0) for chip `Chip` (its forms and `has_fp8`). Never reads past
/// `data`; never throws.
template <class Chip>
ops_result tiu_ops(std::span<const std::byte> data) {
  ops_result r;
  if (data.size() < 16) {
    r.status = decode_status::truncated;
    return r;
  }
  const auto h = detail::read_header(engine::tiu, data);
  const reg_table* table = Chip::tiu_table(h.type, h.eu, h.short_form);
  if (!table) return r;
  return detail::ops_of_facts(
      Chip::has_fp8, h.type, h.eu,
      detail::tiu_facts_for<Chip, detail::op_summary>(table, h.type, h.eu, data));
}

/// cmd_id_dep (TIU bits 17-39, DMA bits 64-84): bit 20 enables the wait and the
/// low 20 bits name the awaited command (1-based, on the other engine); 0 = none.
constexpr std::uint32_t dep_id_of(std::uint64_t field) noexcept {
  return (field >> 20 & 1) != 0 ? static_cast<std::uint32_t>(field & 0xFFFFF) : 0;
}

/// Decodes one command at the start of `data` (`eng` = tiu, gdma or sdma) into
/// `out`: form, op fields, operands, memory ranges, TIU ops, DMA direction and
/// bytes. Fields past the end of `data` read 0 (the CDM framing may be shorter
/// than a vendor form, see docs/registers.md). Never throws for bad input.
template <class Chip>
decode_status decode(engine eng, std::span<const std::byte> data, instruction& out) {
  out = instruction{};
  out.eng = eng;
  if (data.size() < 16) return decode_status::truncated;
  const auto h = detail::read_header(eng, data);
  out.type = h.type;
  out.eu = h.eu;
  out.short_form = h.short_form;
  const bool tiu = eng == engine::tiu;
  const reg_table* table =
      tiu ? Chip::tiu_table(h.type, h.eu, h.short_form) : Chip::dma_table(h.type);
  if (!table) return decode_status::unknown_opcode;
  out.table = table;
  out.length =
      static_cast<std::uint32_t>(data.size() < table->bytes() ? data.size() : table->bytes());
  out.raw = data.first(out.length);
  const reg_view rv(table, data.first(out.length));
  out.dep_id = dep_id_of(rv.get("cmd_id_dep"));
  detail::tiu_facts<> facts;
  if (tiu)
    facts = detail::tiu_facts_for<Chip, detail::converted>(table, h.type, h.eu, data);
  else
    facts.cv = detail::dma_convert_for<Chip>(table, h.type, h.eu, data);
  const auto& cv = facts.cv;
  for (unsigned i = 0; i < cv.nops; ++i) out.operands.push_back(detail::make_value(cv.ops[i]));
  for (unsigned i = 0; i < cv.nres; ++i) out.results.push_back(detail::make_value(cv.res[i]));
  for (std::size_t i = 0; i < out.operands.size(); ++i)
    if (!out.operands[i].is_const())
      out.memory.push_back(
          detail::mem_record(out.operands[i], false, static_cast<std::uint8_t>(i)));
  for (std::size_t i = 0; i < out.results.size(); ++i)
    if (!out.results[i].is_const())
      out.memory.push_back(detail::mem_record(out.results[i], true, static_cast<std::uint8_t>(i)));
  if (tiu) {
    out.alg_ops = detail::tiu_ops(Chip::has_fp8, h.type, h.eu, facts, false);
    out.arch_ops = detail::tiu_ops(Chip::has_fp8, h.type, h.eu, facts, true);
    if (!out.alg_ops || !out.arch_ops) out.alg_ops = out.arch_ops = std::nullopt;
  } else if (!out.operands.empty() && !out.results.empty()) {
    out.dir = direction_of(out.operands[0].kind, out.results[0].kind);
    const auto& d = out.results[0];
    out.bytes =
        detail::clamp_size((static_cast<detail::i128>(d.elements()) * bit_size(d.type)) / 8);
  }
  chips::common::read_message(Chip::messages, out);
  const bool ok = cv.supported && (!tiu || out.alg_ops.has_value());
  return ok ? decode_status::ok : decode_status::unsupported;
}

}  // namespace tpuprof::regs::sg2260
