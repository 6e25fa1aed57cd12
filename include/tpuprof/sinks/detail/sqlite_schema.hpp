/// The tables and indexes of sqlite_sink (documented in docs/sinks.md,
/// "SQLite"). Plain SQL text so it needs no SQLite header: tests and tools can
/// print it. `IF NOT EXISTS` everywhere: several runs go into one database.
#pragma once

#include <string_view>

namespace tpuprof::sinks::detail {

inline constexpr std::string_view sqlite_schema = R"sql(
CREATE TABLE IF NOT EXISTS runs(
  run_id INTEGER PRIMARY KEY, source TEXT, chip TEXT, mode TEXT, devices INTEGER,
  cores INTEGER, call INTEGER, label TEXT, begin_ns REAL, end_ns REAL, origin_ns REAL);
CREATE TABLE IF NOT EXISTS run_properties(run_id INTEGER, key TEXT, value TEXT);
CREATE TABLE IF NOT EXISTS tracks(
  run_id INTEGER, device INTEGER, core INTEGER, port INTEGER, engine TEXT,
  freq_mhz REAL, records INTEGER, events INTEGER);
CREATE TABLE IF NOT EXISTS events(
  run_id INTEGER, device INTEGER, core INTEGER, port INTEGER, engine TEXT,
  cmd_id INTEGER, start_cycle INTEGER, end_cycle INTEGER, start_ns REAL, end_ns REAL,
  dur_ns REAL, op TEXT, op_type TEXT, bytes INTEGER, direction TEXT, ddr_gbps REAL,
  l2m_gbps REAL, uarch_rate REAL, layer_id INTEGER, function TEXT, grp INTEGER,
  matched INTEGER, invalid INTEGER);
CREATE TABLE IF NOT EXISTS spans(
  run_id INTEGER, device INTEGER, core INTEGER, kind TEXT, name TEXT,
  start_cycle INTEGER, end_cycle INTEGER, start_ns REAL, end_ns REAL, dur_ns REAL,
  layer_id INTEGER, function TEXT, grp INTEGER, cmd_id INTEGER);
CREATE TABLE IF NOT EXISTS summary(
  run_id INTEGER, device INTEGER, core INTEGER, parallelism REAL, total_ns REAL,
  tiu_working_ratio REAL, tiu_cycles INTEGER, uarch_rate REAL, gdma_working_cycles INTEGER,
  gdma_ddr_gbps REAL, gdma_l2_gbps REAL, sdma_working_cycles INTEGER, sdma_ddr_gbps REAL,
  tiu_events INTEGER, gdma_events INTEGER, sdma_events INTEGER);
CREATE TABLE IF NOT EXISTS diagnostics(run_id INTEGER, kind TEXT, count INTEGER, data_loss INTEGER);
CREATE TABLE IF NOT EXISTS diagnostic_notes(
  run_id INTEGER, kind TEXT, file TEXT, offset INTEGER, text TEXT);
CREATE INDEX IF NOT EXISTS events_by_track ON events(run_id, device, engine, core, port, start_ns);
CREATE INDEX IF NOT EXISTS events_by_op ON events(op, dur_ns);
CREATE INDEX IF NOT EXISTS events_by_layer ON events(run_id, layer_id);
CREATE INDEX IF NOT EXISTS spans_by_kind ON spans(run_id, kind, start_ns);
)sql";

}  // namespace tpuprof::sinks::detail
