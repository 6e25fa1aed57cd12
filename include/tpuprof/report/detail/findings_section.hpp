/// The "findings" member of the HTML report's metadata (report_findings.js
/// draws the section and the timeline highlight from it): written only when
/// html_options::findings is set. "list" holds each finding in the schema of
/// `tpuprof advise --format json`; "at" the same findings' commands as
/// [lane, index in the lane, ...] of the page's timeline.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include <tpuprof/engine.hpp>
#include <tpuprof/report/detail/html_text.hpp>
#include <tpuprof/report/findings_summary.hpp>

namespace tpuprof::detail::html {

/// `lane_pos`: the page's lane of a track, nullopt when the page has none.
inline void write_findings(out_buffer& o, const report::findings_summary& s,
                           const std::function<std::optional<std::size_t>(track_key)>& lane_pos) {
  o.append("\"findings\":{\"span_ns\":");
  put_num(o, s.span_ns);
  o.append(s.dependency_data ? ",\"data\":true" : ",\"data\":false");
  o.append(",\"list\":[");
  bool first = true;
  for (const auto& f : s.findings) {
    json_comma(o, first);
    o.append("{\"id\":");
    put_str(o, f.id);
    o.append(",\"rule\":");
    put_str(o, f.rule);
    o.append(",\"severity\":");
    put_str(o, f.severity);
    o.append(",\"recoverable_ns\":");
    put_num(o, f.recoverable_ns);
    o.append(",\"bucket_ns\":");
    put_num(o, f.bucket_ns);
    o.append(",\"layers\":[");
    for (std::size_t i = 0; i < f.layers.size(); ++i) {
      if (i) o.put(',');
      put_int(o, f.layers[i]);
    }
    o.append("],\"commands\":[");
    for (std::size_t i = 0; i < f.commands.size(); ++i) {
      const auto& c = f.commands[i];
      std::string en(name(c.eng));
      for (char& ch : en) ch = static_cast<char>(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
      o.append(i ? ",{\"engine\":" : "{\"engine\":");
      put_str(o, en);
      o.append(",\"core\":");
      put_int(o, c.core);
      o.append(",\"cmd_id\":");
      put_int(o, c.cmd_id);
      o.append(",\"layer_id\":");
      put_int(o, c.layer_id);
      o.append(",\"begin_ns\":");
      put_num(o, c.begin_ns);
      o.append(",\"end_ns\":");
      put_num(o, c.end_ns);
      o.put('}');
    }
    o.append("],\"message\":");
    put_str(o, f.message);
    o.put('}');
  }
  o.append("],\"at\":[");
  first = true;
  for (const auto& f : s.findings) {
    json_comma(o, first);
    o.put('[');
    bool f1 = true;
    for (const auto& c : f.commands) {
      const auto lane = lane_pos(c.track);
      if (!lane) continue;
      json_comma(o, f1);
      put_int(o, *lane);
      o.put(',');
      put_int(o, c.index);
    }
    o.put(']');
  }
  o.append("]}");
}

}  // namespace tpuprof::detail::html
