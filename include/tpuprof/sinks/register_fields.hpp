/// The register fields of a decoded command as the vendor's documents name
/// them (bigTpuProfile's RegInfo files and PerfDoc sheets: `des_<field>` for
/// TIU, plain names for DMA), and the decoded operands as CSV columns.
/// Shared by the RegInfo, xlsx and `csv --registers` outputs.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/regs/reg_table.hpp>

namespace tpuprof::sinks {

/// The decoded descriptor of an event, or nullptr (no register image, CDMA,
/// condensed nodes). A decoder's `command(e)` or a lookup built from one.
using command_lookup = std::function<const regs::instruction*(const engine_event&)>;

/// Calls f(name, value) for every field of `ins`'s form, in bit order, with
/// the vendor's spelling (`des_` before TIU fields). Nothing without raw bytes.
template <class F>
void for_each_register_field(const regs::instruction& ins, F&& f) {
  if (!ins.table || ins.raw.empty()) return;
  const bool tiu = ins.eng == engine::tiu;
  std::string name;
  for (const regs::reg_field& fl : ins.table->fields) {
    name.assign(tiu ? "des_" : "");
    name.append(fl.name);
    f(std::string_view(name), regs::read_bits(ins.raw, fl.lo, fl.width));
  }
}

/// The value of field `vendor_name` (as for_each_register_field names it);
/// nullopt when the form has no such field. DMA `src_start_addr` and
/// `dst_start_addr` are composed from their high and low parts as the vendor does.
inline std::optional<std::uint64_t> register_field(const regs::instruction& ins,
                                                   std::string_view vendor_name) {
  if (!ins.table || ins.raw.empty()) return std::nullopt;
  std::string_view n = vendor_name;
  if (ins.eng == engine::tiu) {
    if (!n.starts_with("des_")) return std::nullopt;
    n.remove_prefix(4);
  }
  const regs::reg_view rv(ins.table, ins.raw);
  if (rv.has(n)) return rv.get(n);
  if (ins.eng != engine::tiu && (n == "src_start_addr" || n == "dst_start_addr")) {
    const std::string p(n);
    // The low 32 bits are `_l32` (or `_h32` in some forms, which the vendor
    // renames to `_l32`); the high bits `_h8`, `_h13` (or `_l8`, renamed `_h8`).
    std::optional<std::uint64_t> lo, hi;
    for (const char* s : {"_l32", "_h32"})
      if (!lo && rv.has(p + s)) lo = rv.get(p + s);
    for (const char* s : {"_h8", "_h13", "_l8"})
      if (!hi && rv.has(p + s)) hi = rv.get(p + s);
    if (lo) return (hi.value_or(0) << 32) + *lo;
  }
  return std::nullopt;
}

/// register_field over a fixed list of columns, the field of each column
/// looked up once per command form (a sheet row reads ~70 columns).
class register_columns {
 public:
  explicit register_columns(std::vector<std::string_view> names) : names_(std::move(names)) {}

  const std::vector<std::string_view>& names() const noexcept { return names_; }

  /// Calls f(column index, value) for every column the form of `ins` has.
  template <class F>
  void for_each(const regs::instruction& ins, F&& f) {
    if (!ins.table || ins.raw.empty()) return;
    const std::vector<std::int32_t>& idx = columns_of(ins);
    for (std::size_t c = 0; c < idx.size(); ++c) {
      if (idx[c] >= 0) {
        const regs::reg_field& fl = ins.table->fields[static_cast<std::size_t>(idx[c])];
        f(c, regs::read_bits(ins.raw, fl.lo, fl.width));
      } else if (idx[c] == composite) {
        if (const auto v = register_field(ins, names_[c])) f(c, *v);
      }
    }
  }

 private:
  static constexpr std::int32_t absent = -1, composite = -2;
  const std::vector<std::int32_t>& columns_of(const regs::instruction& ins) {
    for (const auto& [t, v] : cache_)
      if (t == ins.table) return v;
    std::vector<std::int32_t> v(names_.size(), absent);
    const bool tiu = ins.eng == engine::tiu;
    for (std::size_t c = 0; c < names_.size(); ++c) {
      std::string_view n = names_[c];
      if (tiu != n.starts_with("des_")) continue;
      if (tiu) n.remove_prefix(4);
      if (const auto i = ins.table->find(n))
        v[c] = static_cast<std::int32_t>(*i);
      else if (register_field(ins, names_[c]))
        v[c] = composite;
    }
    cache_.emplace_back(ins.table, std::move(v));
    return cache_.back().second;
  }

  std::vector<std::string_view> names_;
  std::vector<std::pair<const regs::reg_table*, std::vector<std::int32_t>>> cache_;
};

/// A column is shown in hex by the vendor when its name holds "addr" or "mask".
constexpr bool hex_register_column(std::string_view name) noexcept {
  return name.find("addr") != std::string_view::npos || name.find("mask") != std::string_view::npos;
}

/// `0x..` as Python's hex() writes it.
inline std::string hex_text(std::uint64_t v) {
  return fmt::format("0x{:x}", v);
}

/// "DDR->LMEM" (the vendor's spelling); "" when the direction is not a known transfer.
constexpr std::string_view direction_text(direction d) noexcept {
  const auto i = static_cast<std::size_t>(d);
  if (d == direction::none || d == direction::unknown || i >= direction_count) return "";
  return direction_long_names[i];
}

/// One side of direction_text ("DDR" of "DDR->LMEM").
constexpr std::string_view direction_side(direction d, bool source) noexcept {
  const std::string_view t = direction_text(d);
  const auto arrow = t.find("->");
  if (arrow == std::string_view::npos) return "";
  return source ? t.substr(0, arrow) : t.substr(arrow + 2);
}

// ---- `convert --csv --registers`: decoded operands as columns ----

/// The operand slots of the CSV columns: results then operands.
inline constexpr std::array<std::string_view, 6> register_csv_slots{"res0", "res1", "opd0",
                                                                    "opd1", "opd2", "opd3"};
inline constexpr std::array<std::string_view, 11> register_csv_parts{
    "mem", "addr", "dtype", "n", "c", "h", "w", "n_str", "c_str", "h_str", "w_str"};

/// The extra header text (starts with ','): tsk_typ, tsk_eu_typ, cmd_short,
/// cmd_id_dep, alg_ops, arch_ops, then per slot its memory, address, dtype,
/// shape and stride (in elements).
inline std::string register_csv_header() {
  std::string h = ",tsk_typ,tsk_eu_typ,cmd_short,cmd_id_dep,alg_ops,arch_ops";
  for (auto s : register_csv_slots)
    for (auto p : register_csv_parts) fmt::format_to(std::back_inserter(h), ",{}_{}", s, p);
  return h;
}

/// Appends the register columns of one row (each starts with ','); all empty
/// when `ins` is null.
inline void append_register_csv(std::string& out, const regs::instruction* ins) {
  const std::size_t n = 6 + register_csv_slots.size() * register_csv_parts.size();
  if (!ins) {
    out.append(n, ',');
    return;
  }
  auto num = [&](std::uint64_t v) { fmt::format_to(std::back_inserter(out), ",{}", v); };
  num(ins->type);
  num(ins->eu);
  num(ins->short_form ? 1 : 0);
  num(ins->dep_id);
  out += ',';
  if (ins->alg_ops) fmt::format_to(std::back_inserter(out), "{}", *ins->alg_ops);
  out += ',';
  if (ins->arch_ops) fmt::format_to(std::back_inserter(out), "{}", *ins->arch_ops);
  auto slot = [&](const regs::tensor_ref* t) {
    if (!t) {
      out.append(register_csv_parts.size(), ',');
      return;
    }
    fmt::format_to(std::back_inserter(out), ",{},0x{:x},{}", regs::name(t->kind), t->address,
                   t->is_const() ? std::string_view{} : regs::name(t->type));
    for (unsigned i = 0; i < 4; ++i) {
      out += ',';
      if (!t->is_const() && i < t->rank) fmt::format_to(std::back_inserter(out), "{}", t->shape[i]);
    }
    for (unsigned i = 0; i < 4; ++i) {
      out += ',';
      if (!t->is_const() && i < t->stride_rank)
        fmt::format_to(std::back_inserter(out), "{}", t->stride[i]);
    }
  };
  for (std::size_t i = 0; i < 2; ++i) slot(i < ins->results.size() ? &ins->results[i] : nullptr);
  for (std::size_t i = 0; i < 4; ++i) slot(i < ins->operands.size() ? &ins->operands[i] : nullptr);
}

}  // namespace tpuprof::sinks
