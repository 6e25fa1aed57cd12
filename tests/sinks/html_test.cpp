// The HTML report: structure and embedded data of the page, and (when Chromium
// and Node are installed) the page itself in headless Chromium, driven by
// tests/browser/check_report.mjs: real captures and a large synthetic session.
#include <simdjson.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks.hpp>
#include <tpuprof/chips/bm1684x.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/sinks/html.hpp>
#include <tpuprof/sinks/write_file.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

#include "sinks/sample_trace.hpp"

using namespace tpuprof;

namespace {

std::string_view between(std::string_view s, std::string_view open, std::string_view close) {
  auto a = s.find(open);
  if (a == std::string_view::npos) return {};
  a += open.size();
  auto b = s.find(close, a);
  return b == std::string_view::npos ? std::string_view{} : s.substr(a, b - a);
}

std::size_t count(std::string_view s, std::string_view what) {
  std::size_t n = 0;
  for (auto p = s.find(what); p != std::string_view::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

std::string meta_of(const std::string& html) {
  return std::string(
      between(html, "<script id=\"tpuprof-meta\" type=\"application/json\">", "</script>"));
}

}  // namespace

TEST_CASE("html report is one self-contained page with the data embedded compactly") {
  auto t = sink_test::sample();
  std::string out;
  sinks::write_html(t, out);
  REQUIRE(out.starts_with("<!DOCTYPE html>"));
  CHECK(out.ends_with("</html>\n"));
  // Inline only: no external script, style sheet, image or URL.
  CHECK(count(out, "<script") == 3);
  CHECK(count(out, "</script>") == 3);
  CHECK(out.find("src=") == std::string::npos);
  CHECK(out.find("<link") == std::string::npos);
  CHECK(out.find("http://") == std::string::npos);
  CHECK(out.find("https://") == std::string::npos);
  // The name with quotes, control characters and invalid UTF-8 is escaped.
  const std::string meta = meta_of(out);
  REQUIRE(!meta.empty());
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  REQUIRE(p.parse(meta).get(doc) == simdjson::SUCCESS);
  CHECK(std::string_view(doc["info"]["chip"]) == "SG2260");
  CHECK(std::int64_t(doc["info"]["events"]) == 17);
  CHECK(std::int64_t(doc["info"]["spans"]) == 3);
  simdjson::dom::array lanes = doc["lanes"];
  // 5 hardware tracks + layer + kernel function lanes of core 0.
  CHECK(lanes.size() == 7);
  std::uint64_t n = 0;
  for (auto l : lanes) n += std::uint64_t(std::int64_t(l["n"]));
  CHECK(n == 20);
  // Core 0 lanes come first, derived rows before the engines.
  CHECK(std::string_view(lanes.at(0)["eng"]) == "FUNCTION");
  CHECK(std::string_view(lanes.at(1)["eng"]) == "LAYER");
  CHECK(std::string_view(lanes.at(2)["eng"]) == "TIU");
  CHECK(std::string_view(lanes.at(6)["eng"]) == "CDMA");
  simdjson::dom::array names = doc["names"];
  bool weird = false;
  for (auto s : names) weird |= std::string_view(s).starts_with("say \"hi\", \\ok\nnew\tline\x01");
  CHECK(weird);
  CHECK(doc["tables"]["top_duration"].get_array().size() == 17);
  CHECK(doc["tables"]["op"].get_array().size() >= 2);
  CHECK(doc["summary"]["cores"].get_array().size() == 2);
  CHECK(doc["bw"]["series"].get_array().size() == 3);  // GDMA 0, SDMA 1, CDMA port 2
  CHECK(doc["gaps"]["lanes"].get_array().size() >= 1);
  // No "</script>" can come out of a name: '<' is written as \u003c.
  auto evil = t;
  evil.meta.names.intern("</script><script>alert(1)</script>");
  std::string out2;
  sinks::write_html(evil, out2);
  CHECK(count(out2, "</script>") == 3);
}

TEST_CASE("html sink and write_html write the same page") {
  auto t = sink_test::sample();
  std::string direct, via_sink;
  sinks::write_html(t, direct);
  sinks::html_sink s(via_sink);
  write_trace(t, s);
  CHECK(direct == via_sink);
  // write_file with the sink and write_html_file agree too.
  auto dir = sink_test::tmp_dir("html");
  sinks::write_file<sinks::html_sink>(dir / "a.html", t);
  sinks::write_html_file(dir / "b.html", t, sinks::html_options{});
  CHECK(sink_test::slurp(dir / "a.html") == direct);
  CHECK(sink_test::slurp(dir / "b.html") == direct);
}

TEST_CASE("html report of events out of track order equals the ordered one") {
  auto t = sink_test::sample();
  std::string ordered;
  sinks::write_html(t, ordered);
  auto shuffled = t;
  std::reverse(shuffled.hw.begin(), shuffled.hw.end());
  std::reverse(shuffled.derived.begin(), shuffled.derived.end());
  std::string out;
  sinks::write_html(shuffled, out);
  // Same lanes and columns; only table tie order may differ.
  CHECK(between(meta_of(out), "\"lanes\":", "\"summary\"") ==
        between(meta_of(ordered), "\"lanes\":", "\"summary\""));
  CHECK(between(out, "type=\"application/octet-stream\">", "</script>") ==
        between(ordered, "type=\"application/octet-stream\">", "</script>"));
}

TEST_CASE("html report options: title and table sizes") {
  auto t = sink_test::sample();
  sinks::html_options o;
  o.title = "A & <B>";
  o.top_n = 3;
  std::string out;
  sinks::write_html(t, out, o);
  CHECK(out.find("<title>A &amp; &lt;B&gt;</title>") != std::string::npos);
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  REQUIRE(p.parse(meta_of(out)).get(doc) == simdjson::SUCCESS);
  CHECK(doc["tables"]["top_duration"].get_array().size() == 3);
}

// ---------------------------------------------------------------- browser

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

bool have(const std::string& cmd) {
  return sink_test::run("command -v " + shell_quote(cmd) + " >/dev/null") == 0;
}

std::string chromium_path() {
  if (const char* c = std::getenv("TPUPROF_CHROMIUM")) return c;
  for (const char* c : {"chromium", "chromium-browser"})
    if (have(c)) return c;
  return {};
}

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::string_view(ci) != "" && std::string_view(ci) != "false" &&
         std::string_view(ci) != "0";
}

/// True when the browser test can run; otherwise says so loudly (and fails in CI).
bool browser_available() {
  const bool node = have("node"), chromium = !chromium_path().empty();
  if (node && chromium) return true;
  const std::string what = std::string(node ? "" : "node ") + (chromium ? "" : "chromium ");
  const std::string msg = "!!! HTML report browser test NOT RUN: missing " + what +
                          "(apt-get install chromium nodejs; tools/install-deps.sh does it)";
  std::fprintf(stderr, "\n%s\n\n", msg.c_str());
  if (in_ci()) FAIL(msg);
  WARN_MESSAGE(false, msg);
  return false;
}

struct probe {
  std::string eng;
  unsigned unit = 0;
  std::uint32_t cmd_id = 0;
  double begin_ns = 0;
  std::vector<std::pair<std::string, std::string>> fields;
};

std::string json_str(std::string_view s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    o += c;
  }
  return o + "\"";
}

/// The tooltip fields report.js shows for `e` (the ones the test checks).
probe probe_of(const engine_event& e, const trace_info& info) {
  probe p;
  p.eng = std::string(name(e.engine));
  p.unit = e.unit;
  p.cmd_id = e.cmd_id;
  p.begin_ns = e.begin_ns;
  p.fields.emplace_back("op", e.op ? std::string(info.names[e.op]) : "unknown");
  p.fields.emplace_back("cmd id", std::to_string(e.cmd_id));
  p.fields.emplace_back("cycles", std::to_string(e.cycles()) + " (");
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ns", e.dur_ns());
  p.fields.emplace_back("duration", buf);
  if (e.op_type) p.fields.emplace_back("op type", std::string(info.names[e.op_type]));
  if (e.layer_id >= 0) p.fields.emplace_back("layer", std::to_string(e.layer_id));
  if (e.function) p.fields.emplace_back("function", std::string(info.names[e.function]));
  if (e.has_bytes()) {
    std::string b = std::to_string(e.bytes), grouped;
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (i && (b.size() - i) % 3 == 0) grouped += ',';
      grouped += b[i];
    }
    p.fields.emplace_back("bytes", grouped + " (");
    std::snprintf(buf, sizeof buf, "%.3f GB/s", e.bandwidth_gbps());
    p.fields.emplace_back("bandwidth", buf);
  }
  if (e.dir() != direction::none) p.fields.emplace_back("direction", std::string(name(e.dir())));
  return p;
}

/// Renders `trace` to build/.../tmp/html/<label>.html and checks it in Chromium.
template <decoded_trace T>
void check_in_browser(const T& trace, const std::string& label, const probe& p,
                      double max_draw_ms) {
  auto dir = std::filesystem::path(TPUPROF_TEST_TMP) / "html";
  std::filesystem::create_directories(dir);
  const auto html = dir / (label + ".html"), png = dir / (label + ".png"),
             expect = dir / (label + ".expect.json");
  sinks::write_html_file(html, trace);
  {
    std::ofstream f(expect);
    f << "{\"lane\":{\"eng\":" << json_str(p.eng) << ",\"unit\":" << p.unit
      << ",\"dev\":0},\"cmd_id\":" << p.cmd_id << ",\"begin_ns\":" << p.begin_ns
      << ",\"max_draw_ms\":" << max_draw_ms << ",\"fields\":{";
    bool first = true;
    for (const auto& [k, v] : p.fields) {
      if (!first) f << ',';
      first = false;
      f << json_str(k) << ':' << json_str(v);
    }
    f << "}}";
  }
  std::string cmd = "node " + shell_quote(TPUPROF_SOURCE_DIR "/tests/browser/check_report.mjs") +
                    " --html " + shell_quote(html.string()) + " --screenshot " +
                    shell_quote(png.string()) + " --expect " + shell_quote(expect.string()) +
                    " --chromium " + shell_quote(chromium_path()) + " --timeout 240000";
  std::string output;
  const int rc = sink_test::run(cmd, &output);
  INFO(label, ": ", output);
  CHECK(rc == 0);
  CHECK(output.find("\"ok\":true") != std::string::npos);
  CHECK(std::filesystem::exists(png));
  MESSAGE("HTML report ", label, ": ", std::filesystem::file_size(html), " bytes, screenshot ",
          png.string());
}

template <class R>
const engine_event& first_where(const R& events, auto pred) {
  for (const engine_event& e : events)
    if (pred(e)) return e;
  FAIL("no event matches");
  static engine_event none;
  return none;
}

}  // namespace

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("html report of the real BM1684X capture works in headless Chromium") {
  if (!browser_available()) return;
  bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1"));
  // A TIU command with an op, an op type and a layer.
  const engine_event& e = first_where(d.events(), [](const engine_event& x) {
    return x.engine == engine::tiu && x.op && x.op_type && x.layer_id >= 0 && x.cycles() > 100;
  });
  check_in_browser(d, "bm1684x", probe_of(e, d.info()), 2000);
}

TEST_CASE("html report of the real BM1690 capture works in headless Chromium") {
  if (!browser_available()) return;
  cdm::cdm_decoder<chips::aks> d(io::dump_files::open_directory(std::string(TPUPROF_SAMPLES_DIR) +
                                                                "/bm1690/cdm_profile_data_dev0"));
  // A matched GDMA transfer: bytes, bandwidth, direction.
  const engine_event& e = first_where(d.events(), [](const engine_event& x) {
    return x.engine == engine::gdma && x.matched() && x.has_bytes() && x.dur_ns() > 0 && x.op;
  });
  check_in_browser(d, "bm1690", probe_of(e, d.info()), 2000);
}
#endif

TEST_CASE("html report of a large synthetic session works in headless Chromium") {
  if (!browser_available()) return;
  // 8 cores x (TIU, GDMA: 40000, SDMA: 20000) = 800 k events, kernel functions.
  synth::cdm_synth_options o;
  o.records = 40000;
  o.sdma_records = 20000;
  o.seed = 7;
  const auto gen = synth::synthesize_cdm<chips::aks>(o);
  const materialized_trace& t = gen.expected;
  REQUIRE(t.hw.size() > 700000);
  const engine_event& e = first_where(t.hw, [](const engine_event& x) {
    return x.engine == engine::sdma && x.unit == 5 && x.function && x.has_bytes() &&
           x.cmd_id > 5000;
  });
  check_in_browser(t, "synthetic_800k", probe_of(e, t.meta), 5000);
}
