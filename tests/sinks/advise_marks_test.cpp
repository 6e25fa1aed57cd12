// Findings as annotations (issue #16), library side: slice_marks notes in the
// Perfetto and Chrome JSON sinks (read back with the test reader), and the
// report's findings_summary of a hand-made advice (JSON in the page, lanes).
#include <simdjson.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/report/findings_summary.hpp>
#include <tpuprof/report/html.hpp>
#include <tpuprof/sinks/chrome_json.hpp>
#include <tpuprof/sinks/perfetto.hpp>

#include "perfetto_reader.hpp"
#include "sample_trace.hpp"

using namespace tpuprof;

namespace {

// TIU t1 [0,10], t2 [35,50]; GDMA g1 [12,30], g2 [31,33]. Finding F1 blames g1 and t2,
// F2 blames t2 (already F1's: its slice keeps F1) and g2.
struct advised_trace {
  std::vector<engine_event> e{
      sink_test::ev(0, engine::tiu, 0, 10, 1, 0), sink_test::ev(0, engine::tiu, 35, 50, 2, 0),
      sink_test::ev(0, engine::gdma, 12, 30, 1, 0), sink_test::ev(0, engine::gdma, 31, 33, 2, 0)};
  trace_info info;
  sinks::slice_marks marks;
  advised_trace() {
    marks.notes.push_back(
        {"F1", "serial-dma", "warn", "loads wait. Try: double-buffer", 12.5, 12, 50});
    marks.notes.push_back({"F2", "small-dma", "info", "small \"transfers\"", 2, 31, 50});
    marks.at(e[2]).note = 1;
    marks.at(e[1]).note = 1;
    marks.at(e[3]).note = 2;
  }
  template <class Sink, class Opt>
  std::string encode(const Opt& o) const {
    std::string out;
    Sink s(out, o);
    s.begin(info);
    write_events(e, s);
    s.finish();
    return out;
  }
};

}  // namespace

TEST_CASE("advise marks: perfetto args on the commands and a track per finding") {
  const advised_trace h;
  sinks::perfetto_options o;
  o.marks = &h.marks;
  const auto t = sink_test::pf::read(h.encode<sinks::perfetto_sink>(o));
  std::map<std::pair<std::string, std::int64_t>, const sink_test::pf::slice*> by;
  for (const auto& s : t.slices) by[{t.tracks.at(s.track).name, s.ts}] = &s;
  const auto* g1 = by.at({"GDMA", 12});
  CHECK(std::get<std::string>(g1->args.at("debug.advise.finding_id")) == "F1");
  CHECK(std::get<std::string>(g1->args.at("debug.advise.rule")) == "serial-dma");
  CHECK(std::get<std::string>(g1->args.at("debug.advise.severity")) == "warn");
  CHECK(std::get<double>(g1->args.at("debug.advise.recoverable_ns")) == 12.5);
  CHECK(std::get<std::string>(by.at({"TIU", 35})->args.at("debug.advise.finding_id")) == "F1");
  CHECK(std::get<std::string>(by.at({"GDMA", 31})->args.at("debug.advise.finding_id")) == "F2");
  CHECK(by.at({"TIU", 0})->args.count("debug.advise.finding_id") == 0);
  // The findings' own tracks, under "Findings (tpuprof advise)", one slice each.
  const auto* f1 = by.at({"F1 serial-dma (warn)", 12});
  CHECK(f1->name == "F1 serial-dma");
  CHECK(f1->dur == 38);
  CHECK(std::get<std::string>(f1->args.at("debug.advise.message")) ==
        "loads wait. Try: double-buffer");
  const auto* f2 = by.at({"F2 small-dma (info)", 31});
  CHECK(f2->dur == 19);
  CHECK(t.tracks.at(t.tracks.at(f1->track).parent).name == "Findings (tpuprof advise)");
  CHECK(t.slices.size() == 6);
  // Without notes the marks add nothing.
  sinks::slice_marks none;
  none.at(h.e[2]);
  sinks::perfetto_options plain;
  sinks::perfetto_options empty_marks;
  empty_marks.marks = &none;
  CHECK(h.encode<sinks::perfetto_sink>(plain) == h.encode<sinks::perfetto_sink>(empty_marks));
}

TEST_CASE("advise marks: chrome json args and a thread per finding") {
  const advised_trace h;
  sinks::chrome_json_options o;
  o.marks = &h.marks;
  const std::string js = h.encode<sinks::chrome_json_sink>(o);
  simdjson::dom::parser p;
  const simdjson::padded_string ps(js);
  std::map<std::string, int> by_id;
  int own = 0;
  for (simdjson::dom::element ev : simdjson::dom::array(p.parse(ps)["traceEvents"])) {
    if (std::string_view(ev["ph"]) != "X") continue;
    simdjson::dom::element id;
    if (ev["args"]["advise.finding_id"].get(id)) continue;
    ++by_id[std::string(std::string_view(id))];
    if (std::string_view(ev["cat"]) == "advise") {
      ++own;
      if (std::string_view(id) == "F2") {
        CHECK(std::string_view(ev["args"]["advise.message"]) == "small \"transfers\"");
        CHECK(double(ev["ts"]) == doctest::Approx(0.031));
        CHECK(double(ev["dur"]) == doctest::Approx(0.019));
      }
    }
  }
  CHECK(own == 2);
  CHECK(by_id == std::map<std::string, int>{{"F1", 3}, {"F2", 2}});
}

TEST_CASE("findings_summary: advise's findings by lane for the report") {
  const advised_trace h;
  // Track-ordered as the report reads them: TIU t1, t2, then GDMA g1, g2.
  const std::vector<engine_event> ev{h.e[0], h.e[1], h.e[2], h.e[3]};
  const auto g = algo::build_dependency_graph(ev);
  algo::advice a;
  a.span_ns = 50;
  algo::finding f;
  f.id = "F1";
  f.rule = "serial-dma";
  f.severity = algo::severity::warn;
  f.recoverable_ns = 12.5;
  f.bucket_ns = 20;
  f.layers = {3};
  f.commands = {2, 1};  // g1, t2
  f.message = "loads wait";
  a.findings.push_back(f);
  const auto s = report::summarize_findings(g, a, ev, 2);
  REQUIRE(s.findings.size() == 1);
  const auto& c = s.findings[0].commands;
  REQUIRE(c.size() == 2);
  CHECK(c[0].eng == engine::gdma);
  CHECK(c[0].index == 0);      // first GDMA event
  CHECK(c[0].begin_ns == 10);  // 12 - origin 2
  CHECK(c[1].index == 1);      // second TIU event
  CHECK(s.findings[0].severity == "warn");
  CHECK(!s.dependency_data);

  report::html_options opt;
  opt.findings = &s;
  std::string page;
  report::write_html(h.info, ev, std::vector<engine_event>{}, sinks::byte_output(page), opt);
  CHECK(page.find(R"("findings":{"span_ns":50,"data":false,"list":[{"id":"F1","rule":"serial-dma",)"
                  R"("severity":"warn","recoverable_ns":12.5,"bucket_ns":20,"layers":[3],)"
                  R"("commands":[{"engine":"gdma","core":0,"cmd_id":1,"layer_id":-1,)"
                  R"("begin_ns":10,"end_ns":28})") != std::string::npos);
  // "at": the lanes are TIU (0) then GDMA (1) in display order.
  CHECK(page.find(R"("at":[[1,0,0,1]]})") != std::string::npos);
  std::vector<engine_event> other = ev;
  other[1].cmd_id = 9;
  CHECK_THROWS_AS(report::summarize_findings(g, a, other, 0), std::invalid_argument);
}
