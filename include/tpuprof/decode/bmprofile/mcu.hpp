/// MCU (dyn) records of an iteration: times on the subnet's timeline, the NODE_SETs per
/// engine that PMU records pair with, the monitor start (§6.3) and their derived rows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <tpuprof/decode/bmprofile/blocks.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/time.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::bmprofile {

/// The MCU records of one iteration (core 0).
struct mcu_timeline {
  std::unique_ptr<std::vector<dyn_event>> bd = std::make_unique<std::vector<dyn_event>>();
  std::unique_ptr<std::vector<dyn_event>> gdma = std::make_unique<std::vector<dyn_event>>();
  std::vector<dyn_event> all;
  double monitor_start_us = 0;  ///< end of the first NODE_SET
};

/// Reads the iteration's DYN_DATA block: record 0 gives the tick length, record 1 the origin.
template <bmprofile_chip Chip>
mcu_timeline read_mcu_timeline(const iter_blocks& ib, decode_diagnostics& diag) {
  mcu_timeline t;
  if (ib.dyn_data.empty()) return t;
  auto recs = read_dyn_records(ib.dyn_data[0], diag);
  if (recs.empty()) return t;
  const std::uint64_t ns = recs[0].end;
  const std::uint64_t base = recs.size() >= 2 ? recs[1].begin : recs[0].begin;
  for (std::size_t i = 1; i < recs.size(); ++i) {
    const auto& r = recs[i];
    dyn_event d{r, 0, 0};
    d.begin_us = mcu_us(r.begin, base, ns);
    d.end_us =
        (r.end == 0 || r.end == ~std::uint64_t{0}) ? d.begin_us + 0.01 : mcu_us(r.end, base, ns);
    const auto type = r.type & 0xFFu;
    if (type == static_cast<std::uint32_t>(dyn_type::node_set)) {
      if (t.monitor_start_us == 0) t.monitor_start_us = d.end_us;
      const auto eng = io::bits(r.id, Chip::node_set.engine_lo, Chip::node_set.engine_width);
      if (eng == 0)
        t.bd->push_back(d);
      else if (eng == 1)
        t.gdma->push_back(d);
    }
    t.all.push_back(d);
  }
  return t;
}

/// The row name of an MCU record ("set_BD", "wait", ...); unknown types are reported.
template <bmprofile_chip Chip>
std::string mcu_op_name(const dyn_record& rec, const std::string& file, decode_diagnostics& diag) {
  const auto type = rec.type & 0xFFu;
  switch (type) {
    case 0:
      return "func";
    case 1:
      return io::bits(rec.id, Chip::node_set.engine_lo, Chip::node_set.engine_width) == 0
                 ? "set_BD"
                 : "set_GDMA";
    case 2:
      return "wait";
    case 3:
      return "cdma";
    case 4:
      return "gde";
    case 5:
      return "sort";
    case 6:
      return "nms";
    case 100:
      return "custom";
    default:
      diag.add(diag::unknown_enum, file, decode_error::no_offset,
               "unknown MCU record type " + std::to_string(type));
      return "type_" + std::to_string(type);
  }
}

/// Appends the derived rows of an iteration's MCU records to `spans`.
template <bmprofile_chip Chip>
void add_mcu_spans(const std::vector<dyn_event>& all, double base_ns, std::size_t it,
                   double tiu_mhz, const std::string& file, name_table& names,
                   decode_diagnostics& diag, std::vector<engine_event>& spans) {
  for (const auto& d : all) {
    const std::string op = mcu_op_name<Chip>(d.rec, file, diag);
    auto ev = span_event(engine::mcu, base_ns + d.begin_us * 1000.0, base_ns + d.end_us * 1000.0,
                         op, tiu_mhz, names);
    ev.group = static_cast<std::uint16_t>(it);
    ev.cmd_id = d.rec.profile_id;
    spans.push_back(ev);
  }
}

}  // namespace tpuprof::bmprofile
