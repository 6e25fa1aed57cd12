// The HTML report's critical path section: its metadata holds the numbers of
// algo::critical_path and algo::idle_causes for a hand-checked trace, and a
// report without a summary is unchanged.
#include <simdjson.h>

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/algo/critical_path.hpp>
#include <tpuprof/algo/dependency_graph.hpp>
#include <tpuprof/algo/idle_causes.hpp>
#include <tpuprof/report/critical_path_summary.hpp>
#include <tpuprof/report/html.hpp>

#include "sample_trace.hpp"

using namespace tpuprof;

TEST_CASE("html report: critical path section and idle causes per engine") {
  // TIU t1 [0,10], t2 [35,50] waits for g1; GDMA g1 [12,30] waits for t1, g2 [31,33].
  materialized_trace t;
  t.meta.chip = "BM1684X";
  t.meta.begin_ns = 0;
  t.meta.end_ns = 50;
  t.hw = {sink_test::ev(0, engine::tiu, 0, 10, 1, 0), sink_test::ev(0, engine::tiu, 35, 50, 2, 0),
          sink_test::ev(0, engine::gdma, 12, 30, 1, 0),
          sink_test::ev(0, engine::gdma, 31, 33, 2, 0)};
  std::vector<command_dep> d(4);
  for (std::uint32_t i = 0; i < 4; ++i) {
    d[i].known = true;
    d[i].self_id = t.hw[i].cmd_id;
    d[i].on = t.hw[i].engine == engine::tiu ? engine::gdma : engine::tiu;
    d[i].id_bits = 20;
  }
  d[1].wait_id = 1;
  d[2].wait_id = 1;
  const auto g = algo::build_dependency_graph(t.hw, d);
  const auto cp = algo::critical_path(g);
  const auto s = report::summarize_critical_path(g, cp, algo::idle_causes(g), t.hw);
  report::html_options opt;
  opt.critical_path = &s;
  std::string page, plain;
  sinks::write_html(t, page, opt);
  sinks::write_html(t, plain);
  const auto meta = [](const std::string& html) {
    const auto a = html.find("<script id=\"tpuprof-meta\" type=\"application/json\">");
    const auto b = html.find("</script>", a);
    return html.substr(a, b - a).substr(html.substr(a).find('>') + 1);
  };
  CHECK(meta(plain).find("\"crit\"") == std::string::npos);
  simdjson::dom::parser p;
  const simdjson::padded_string js(meta(page));
  simdjson::dom::element doc = p.parse(js);
  simdjson::dom::element c = doc["crit"];
  CHECK(double(c["span_ns"]) == 50);
  CHECK(bool(c["data"]));
  CHECK(std::int64_t(c["deps"].at(0)) == 2);  // resolved
  CHECK(std::int64_t(c["deps"].at(1)) == 2);  // none
  CHECK(double(c["latency_ns"]) == 7);        // 0 + 2 + 5
  // Path: t1 (start), g1 (dependency), t2 (dependency); lanes in display order TIU, GDMA.
  simdjson::dom::array path = c["path"];
  REQUIRE(path.size() == 3);
  const std::int64_t tiu = doc["lanes"].at(0)["eng"] == std::string_view("TIU") ? 0 : 1;
  const std::int64_t want[3][3] = {{tiu, 0, 0}, {1 - tiu, 0, 2}, {tiu, 1, 2}};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < 3; ++k) CHECK(std::int64_t(path.at(i).at(k)) == want[i][k]);
  // Idle: TIU 25 ns ([10,35) waiting for g1: dependency), GDMA 30 ns ([0,12) edge,
  // [30,31) dispatch, [33,50) edge). Rows: dev, unit, engine, total, by cause.
  simdjson::dom::array idle = c["idle"];
  REQUIRE(idle.size() == 2);
  CHECK(std::string_view(idle.at(0).at(2)) == "TIU");
  CHECK(double(idle.at(0).at(3)) == 25);
  CHECK(double(idle.at(0).at(4)) == 25);  // dependency
  CHECK(std::string_view(idle.at(1).at(2)) == "GDMA");
  CHECK(double(idle.at(1).at(3)) == 30);
  CHECK(double(idle.at(1).at(6)) == 1);   // dispatch
  CHECK(double(idle.at(1).at(7)) == 29);  // edge
  // The page outside the metadata is the same.
  CHECK(page.size() > plain.size());
  CHECK(page.find("critPathSection") != std::string::npos);
}
