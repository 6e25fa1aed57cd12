/// The "Instr World" table bigTpuProfile writes next to its workbook
/// (`PerfDoc/<OUT>.csv`): every command of every engine of one device in one
/// table, ordered by start cycle, end cycle, command id and engine id; the
/// columns are the TIU sheet's, then the DMA sheet's that TIU lacks
/// (docs/sinks.md, "PerfDoc workbook").
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/sinks/detail/perfdoc_columns.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/reginfo.hpp>
#include <tpuprof/sinks/register_fields.hpp>

namespace tpuprof::sinks {

/// Writes the Instr World CSV of device `device` of `t`. Holds one pointer
/// per command (to sort them), not the rows.
template <decoded_trace T>
void write_instr_world(byte_output out, const T& t, const command_lookup& command,
                       std::uint8_t device = 0) {
  const trace_info& info = t.info();
  std::vector<const engine_event*> rows;
  for (const engine_event& e : t.events())
    if (e.device == device && is_hardware(e.engine)) rows.push_back(&e);
  auto key = [](const engine_event* e) {
    return std::tuple(e->begin_cycle, e->end_cycle, e->cmd_id, vendor_engine_id(e->engine));
  };
  std::stable_sort(rows.begin(), rows.end(), [&](auto* a, auto* b) { return key(a) < key(b); });
  // Columns: TIU keys and the first TIU command's register fields, then the
  // DMA keys and the first DMA command's fields that are not there yet.
  std::vector<std::string_view> cols;
  auto add = [&](std::string_view c) {
    if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
  };
  auto add_regs = [&](bool tiu) {
    for (const engine_event* e : rows) {
      if ((e->engine == engine::tiu) != tiu) continue;
      const regs::instruction* ins = command ? command(*e) : nullptr;
      if (!ins || ins->raw.empty()) continue;
      for (std::string_view n : tiu ? std::span<const std::string_view>(detail::xlsx_tiu_regs)
                                    : std::span<const std::string_view>(detail::xlsx_dma_regs))
        if (register_field(*ins, n)) add(n);
      return;
    }
  };
  for (std::string_view k : detail::xlsx_tiu_keys) add(k);
  add_regs(true);
  for (std::string_view k : detail::xlsx_dma_keys) add(k);
  add_regs(false);
  std::string buf;
  for (std::size_t i = 0; i < cols.size(); ++i)
    fmt::format_to(std::back_inserter(buf), "{}{}", i ? "," : "", cols[i]);
  buf += '\n';
  std::vector<std::string> cell(cols.size());
  register_columns reg_cols(cols);  // the key columns are no field of any form
  auto set = [&](std::string_view c, std::string v) {
    const auto it = std::find(cols.begin(), cols.end(), c);
    if (it != cols.end()) cell[static_cast<std::size_t>(it - cols.begin())] = std::move(v);
  };
  auto text = [&](name_id id) { return std::string(id ? info.names[id] : std::string_view{}); };
  for (const engine_event* e : rows) {
    for (auto& c : cell) c.clear();
    const regs::instruction* ins = command ? command(*e) : nullptr;
    const std::uint64_t cyc = e->cycles() + 1;
    set("Engine Id", fmt::format("{}", vendor_engine_id(e->engine)));
    set("Core Id", fmt::format("{}", e->unit));
    set("Cmd Id", fmt::format("{}", e->cmd_id));
    if (e->layer_id >= 0) set("Layer Id", fmt::format("{}", e->layer_id));
    set("Function Type", text(e->op_type));
    set("Function Name", text(e->op));
    set("Asic Cycle", fmt::format("{}", cyc));
    set("Start Cycle", fmt::format("{}", e->begin_cycle));
    set("End Cycle", fmt::format("{}", e->end_cycle));
    if (e->engine == engine::tiu) {
      const auto alg = ins ? ins->alg_ops : std::nullopt, arch = ins ? ins->arch_ops : std::nullopt;
      set("Alg Ops", fmt::format("{}", alg.value_or(0)));
      set("uArch Ops", fmt::format("{}", arch.value_or(0)));
      set("uArch Rate", uarch_rate_text(alg, arch));
    } else {
      const direction d = ins && ins->dir != direction::none ? ins->dir : e->dir();
      set("Direction", std::string(direction_text(d)));
      set("DMA data size(B)", fmt::format("{}", e->has_bytes() ? e->bytes : 0));
    }
    if (ins)
      reg_cols.for_each(*ins, [&](std::size_t i, std::uint64_t v) {
        cell[i] = hex_register_column(cols[i]) ? hex_text(v) : fmt::format("{}", v);
      });
    for (std::size_t i = 0; i < cols.size(); ++i) {
      if (i) buf += ',';
      const bool quote = cell[i].find_first_of(",\"\n") != std::string::npos;
      if (!quote) {
        buf += cell[i];
        continue;
      }
      buf += '"';
      for (char ch : cell[i]) buf.append(ch == '"' ? 2 : 1, ch);
      buf += '"';
    }
    buf += '\n';
    if (buf.size() >= (std::size_t{1} << 20)) {
      out.write(buf.data(), buf.size());
      buf.clear();
    }
  }
  out.write(buf.data(), buf.size());
}

}  // namespace tpuprof::sinks
