/// The "crit" member of the HTML report's metadata (report.js draws the
/// section and the timeline outline from it): written only when
/// html_options::critical_path is set.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>

#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/engine.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/report/detail/html_text.hpp>

namespace tpuprof::detail::html {

/// `lane_pos`: the page's lane of a track, nullopt when the page has none.
inline void write_critical_path(
    out_buffer& o, const report::critical_path_summary& s,
    const std::function<std::optional<std::size_t>(track_key)>& lane_pos) {
  o.append("\"crit\":{\"span_ns\":");
  put_num(o, s.span_ns);
  o.append(s.dependency_data ? ",\"data\":true" : ",\"data\":false");
  o.append(",\"deps\":[");
  put_int(o, s.counts.resolved);
  o.put(',');
  put_int(o, s.counts.none);
  o.put(',');
  put_int(o, s.counts.unresolved);
  o.put(',');
  put_int(o, s.counts.violations);
  o.append("],\"by_engine\":[");
  bool first = true;
  for (std::size_t e = 0; e < engine_count; ++e) {
    if (!(s.by_engine_ns[e] > 0)) continue;
    json_comma(o, first);
    o.put('[');
    put_str(o, name(static_cast<engine>(e)));
    o.put(',');
    put_num(o, s.by_engine_ns[e]);
    o.put(']');
  }
  o.append("],\"latency_ns\":");
  put_num(o, s.latency_ns);
  o.append(",\"path\":[");  // [lane, event index in the lane, via]
  first = true;
  for (const auto& st : s.path) {
    const auto lane = lane_pos(st.track);
    if (!lane) continue;
    json_comma(o, first);
    o.put('[');
    put_int(o, *lane);
    o.put(',');
    put_int(o, st.index);
    o.put(',');
    put_int(o, static_cast<unsigned>(st.via));
    o.put(']');
  }
  o.append("],\"idle\":[");  // [dev, unit, engine, total, by cause...]
  first = true;
  for (const auto& q : s.idle) {
    json_comma(o, first);
    o.put('[');
    put_int(o, unsigned{q.track.device});
    o.put(',');
    put_int(o, unsigned{q.track.unit});
    o.put(',');
    put_str(o, name(q.track.eng));
    o.put(',');
    put_num(o, q.total_ns);
    for (double v : q.by_cause_ns) {
      o.put(',');
      put_num(o, v);
    }
    o.put(']');
  }
  o.append("]}");
}

}  // namespace tpuprof::detail::html
