// The HTML report: structure and embedded data of the page, and (when Chromium
// and Node are installed) the page itself in headless Chromium, driven by
// tests/browser/check_report.mjs: real captures and a large synthetic session.
#include <simdjson.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/report/html.hpp>
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
  // The sample's gaps are all shorter than the default threshold (1 us).
  CHECK(double(doc["gaps"]["min_gap_ns"]) == tpuprof::default_min_gap_ns);
  CHECK(doc["gaps"]["lanes"].get_array().size() == 0);
  CHECK(double(doc["info"]["origin_ns"]) == 0);  // the one time origin (docs/views.md)
  CHECK(double(doc["info"]["begin_ns"]) == 900);
  {
    sinks::html_options all;
    all.min_gap_ns = 0;
    std::string page;
    sinks::write_html(t, page, all);
    const std::string m = meta_of(page);
    simdjson::dom::parser p2;
    simdjson::dom::element d2;
    REQUIRE(p2.parse(m).get(d2) == simdjson::SUCCESS);
    CHECK(d2["gaps"]["lanes"].get_array().size() >= 1);
  }
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

// ---------------------------------------------------------------- memory charts

namespace {

/// Operands by cmd id, with two local banks and one global buffer.
struct fake_operands {
  std::map<std::uint32_t, std::vector<regs::mem_operand>> by_id;
  std::vector<regs::mem_operand> operands(const engine_event& e) const {
    auto it = by_id.find(e.cmd_id);
    return it == by_id.end() ? std::vector<regs::mem_operand>{} : it->second;
  }
  std::vector<regs::memory_region> memory_regions() const {
    return {{regs::mem_kind::local, 0, 16384, "BANK[0]"},
            {regs::mem_kind::local, 16384, 16384, "BANK[1]"},
            {regs::mem_kind::ddr, 0x100000000, 1 << 20, "neuron"}};
  }
};

regs::mem_operand operand(regs::mem_kind k, std::uint64_t addr, std::uint64_t size, bool write,
                          std::uint8_t index) {
  regs::mem_operand m;
  m.kind = k;
  m.address = addr;
  m.size = m.data_size = size;
  m.write = write;
  m.index = index;
  return m;
}

std::vector<std::uint8_t> unbase64(std::string_view s) {
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (v < 0) continue;
    acc = acc << 6 | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

/// (event index, address, size, flags) rows of one lane's stream.
std::vector<std::array<std::uint64_t, 4>> mem_rows(const std::vector<std::uint8_t>& b,
                                                   std::size_t off, std::size_t n) {
  std::size_t p = off;
  auto varint = [&] {
    std::uint64_t z = 0;
    for (int sh = 0;; sh += 7) {
      const std::uint8_t c = b.at(p++);
      z |= std::uint64_t{c & 0x7Fu} << sh;
      if (!(c & 0x80)) return z;
    }
  };
  std::vector<std::array<std::uint64_t, 4>> rows;
  std::uint64_t ev = 0, addr = 0;
  for (std::size_t i = 0; i < n; ++i) {
    ev += varint();
    const std::uint64_t z = varint();
    addr += (z >> 1) ^ (~(z & 1) + 1);
    const std::uint64_t size = varint(), fl = varint();
    rows.push_back({ev, addr, size, fl});
  }
  return rows;
}

}  // namespace

TEST_CASE("html report with memory operands embeds the LOCAL and GLOBAL MEM charts") {
  auto t = sink_test::sample();
  using K = regs::mem_kind;
  fake_operands ops;
  ops.by_id[10] = {operand(K::constant, 5, 0, false, 1)};  // an immediate: not drawn
  ops.by_id[11] = {operand(K::local, 0x100, 64, false, 0), operand(K::local, 0x4000, 128, true, 0)};
  ops.by_id[13] = {operand(K::local, 0x80, 32, false, 1)};
  ops.by_id[102] = {operand(K::ddr, 0x100000000, 4096, false, 0),
                    operand(K::local, 0x200, 4096, true, 0)};
  std::string out;
  sinks::write_html(t, ops, out);
  CHECK(count(out, "<script") == 4);
  const std::string meta = meta_of(out);
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  REQUIRE(p.parse(meta).get(doc) == simdjson::SUCCESS);
  CHECK(std::int64_t(doc["mem"]["dropped"]) == 0);
  CHECK(std::string_view(doc["mem"]["kinds"].at(4)) == "ddr");
  simdjson::dom::array panels = doc["mem"]["panels"];
  REQUIRE(panels.size() == 2);
  simdjson::dom::element lp = panels.at(0), gp = panels.at(1);
  CHECK(std::string_view(lp["name"]) == "LOCAL MEM");
  CHECK(std::int64_t(lp["n"]) == 4);
  CHECK(std::int64_t(gp["n"]) == 1);
  CHECK(lp["bands"].get_array().size() == 2);  // both banks, BANK[1] unused
  CHECK(std::string_view(lp["bands"].at(1).at(2)) == "BANK[1]");
  REQUIRE(gp["bands"].get_array().size() == 1);
  CHECK(std::string_view(gp["bands"].at(0).at(2)) == "neuron");
  CHECK(std::int64_t(gp["bands"].at(0).at(0)) == 0x100000000);
  // lanes: [lane position, operands, offset, bytes]; core 0 TIU is lane 2, GDMA lane 3
  simdjson::dom::array ll = lp["lanes"], gl = gp["lanes"];
  REQUIRE(ll.size() == 2);
  REQUIRE(gl.size() == 1);
  CHECK(std::int64_t(ll.at(0).at(0)) == 2);
  CHECK(std::int64_t(ll.at(0).at(1)) == 3);
  CHECK(std::int64_t(ll.at(1).at(0)) == 3);
  CHECK(std::int64_t(gl.at(0).at(0)) == 3);
  const auto bytes = unbase64(
      between(out, "<script id=\"tpuprof-mem\" type=\"application/octet-stream\">", "</script>"));
  auto lane = [&](simdjson::dom::element l) {
    CHECK(std::uint64_t(std::int64_t(l.at(2))) + std::uint64_t(std::int64_t(l.at(3))) <=
          bytes.size());
    return mem_rows(bytes, std::size_t(std::int64_t(l.at(2))), std::size_t(std::int64_t(l.at(1))));
  };
  using row = std::array<std::uint64_t, 4>;
  // flags: kind (local 1, ddr 4) | write << 3 | operand << 4
  CHECK(lane(ll.at(0)) ==
        std::vector<row>{{1, 0x100, 64, 1}, {1, 0x4000, 128, 9}, {3, 0x80, 32, 17}});
  CHECK(lane(ll.at(1)) == std::vector<row>{{2, 0x200, 4096, 9}});
  CHECK(lane(gl.at(0)) == std::vector<row>{{2, 0x100000000, 4096, 4}});

  // The sink given the same operands writes the same page.
  std::string via_sink;
  sinks::html_sink s(via_sink, ops);
  write_trace(t, s);
  CHECK(via_sink == out);

  // Without operands: no memory data; over the limit: counted, not drawn.
  std::string plain;
  sinks::write_html(t, plain);
  CHECK(meta_of(plain).find("\"mem\":null") != std::string::npos);
  CHECK(count(plain, "<script") == 3);
  sinks::html_options o;
  o.max_memory_rects = 3;
  std::string capped;
  sinks::write_html(t, ops, capped, o);
  simdjson::dom::element doc2;
  REQUIRE(p.parse(meta_of(capped)).get(doc2) == simdjson::SUCCESS);
  CHECK(std::int64_t(doc2["mem"]["dropped"]) == 2);
  CHECK(std::int64_t(doc2["mem"]["panels"].at(0)["n"]) == 3);
}

#ifdef TPUPROF_SAMPLES_DIR
// Expected counts: tests/data/bm1684x_vendor_mem.csv (403 local, 176 global records).
TEST_CASE("html report of the real BM1684X capture has its memory charts") {
  bmprofile_decoder<chips::bm1684x> d(io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) + "/bm1684x/bmprofile_data-1"));
  std::string out;
  sinks::write_html(d, d, out);
  simdjson::dom::parser p;
  simdjson::dom::element doc;
  REQUIRE(p.parse(meta_of(out)).get(doc) == simdjson::SUCCESS);
  simdjson::dom::array panels = doc["mem"]["panels"];
  REQUIRE(panels.size() == 2);
  CHECK(std::int64_t(panels.at(0)["n"]) == 403);
  CHECK(std::int64_t(panels.at(1)["n"]) == 176);
  CHECK(panels.at(0)["bands"].get_array().size() == 16);
  // the global.profile buffers in use, and the static memory TIU command 4 reads
  simdjson::dom::array gb = panels.at(1)["bands"];
  REQUIRE(gb.size() == 3);
  CHECK(std::string_view(gb.at(0).at(2)) == "0x90005c0-0x90005d4");
  CHECK(std::string_view(gb.at(1).at(2)) == "coeff");
  CHECK(std::string_view(gb.at(2).at(2)) == "neuron_mem");
}
#endif

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

/// An operand of the memory charts whose tooltip the browser test checks.
struct mem_probe {
  unsigned panel = 0;  // 0 LOCAL MEM, 1 GLOBAL MEM
  probe event;         // its event: lane, cmd id, begin; fields of the operand
  std::uint64_t address = 0;
};
struct mem_expect {
  std::vector<std::pair<std::string, std::uint64_t>> panels;  // name, operands
  std::vector<mem_probe> probes;
};

#ifdef TPUPROF_SAMPLES_DIR  // used by the sample tests only
std::string grouped(std::uint64_t v) {
  std::string b = std::to_string(v), g;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i && (b.size() - i) % 3 == 0) g += ',';
    g += b[i];
  }
  return g;
}
#endif

void put_fields(std::ofstream& f, const std::vector<std::pair<std::string, std::string>>& fields) {
  f << '{';
  bool first = true;
  for (const auto& [k, v] : fields) {
    if (!first) f << ',';
    first = false;
    f << json_str(k) << ':' << json_str(v);
  }
  f << '}';
}

/// Renders `trace` (with the memory charts of `ops` when given) to
/// build/.../tmp/html/<label>.html and checks it in Chromium.
template <decoded_trace T, class Ops = std::nullptr_t>
void check_in_browser(const T& trace, const std::string& label, const probe& p, double max_draw_ms,
                      const Ops* ops = nullptr, const mem_expect* mem = nullptr) {
  auto dir = std::filesystem::path(TPUPROF_TEST_TMP) / "html";
  std::filesystem::create_directories(dir);
  const auto html = dir / (label + ".html"), png = dir / (label + ".png"),
             expect = dir / (label + ".expect.json");
  if constexpr (operand_source<Ops>)
    sinks::write_html_file(html, trace, *ops);
  else
    sinks::write_html_file(html, trace);
  {
    std::ofstream f(expect);
    f << "{\"lane\":{\"eng\":" << json_str(p.eng) << ",\"unit\":" << p.unit
      << ",\"dev\":0},\"cmd_id\":" << p.cmd_id << ",\"begin_ns\":" << p.begin_ns
      << ",\"max_draw_ms\":" << max_draw_ms << ",\"fields\":";
    put_fields(f, p.fields);
    if (mem) {
      f << ",\"mem_panels\":{";
      for (std::size_t i = 0; i < mem->panels.size(); ++i)
        f << (i ? "," : "") << json_str(mem->panels[i].first) << ':' << mem->panels[i].second;
      f << "},\"mem\":[";
      for (std::size_t i = 0; i < mem->probes.size(); ++i) {
        const mem_probe& m = mem->probes[i];
        f << (i ? "," : "") << "{\"panel\":" << m.panel
          << ",\"lane\":{\"eng\":" << json_str(m.event.eng) << ",\"unit\":" << m.event.unit
          << ",\"dev\":0},\"cmd_id\":" << m.event.cmd_id << ",\"begin_ns\":" << m.event.begin_ns
          << ",\"address\":" << m.address << ",\"fields\":";
        put_fields(f, m.event.fields);
        f << '}';
      }
      f << ']';
    }
    f << '}';
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
  // A TIU command with an op, an op type and a layer (a copy: the decoder's
  // events are made on the fly).
  const engine_event e = first_where(d.events(), [](const engine_event& x) {
    return x.engine == engine::tiu && x.op && x.op_type && x.layer_id >= 0 && x.cycles() > 100;
  });
  // Memory operands whose tooltips are checked: per chart one that no other
  // operand comes near (in time, and within its own size in address).
  const std::vector<engine_event> ev = materialize(d).hw;
  const memory_map_report mm = algo::memory_map(ev, d);
  mem_expect mem;
  mem.panels = {{"LOCAL MEM", 403}, {"GLOBAL MEM", 176}};  // tests/data/bm1684x_vendor_mem.csv
  for (unsigned panel = 0; panel < 2; ++panel) {
    for (const memory_rect& r : mm.rects) {
      if (static_cast<unsigned>(panel_of(r.kind)) != panel || r.size < 1024) continue;
      const double dur = r.end_ns - r.begin_ns;
      if (dur < 50) continue;
      bool alone = true;
      for (const memory_rect& o : mm.rects)
        if (&o != &r && panel_of(o.kind) == panel_of(r.kind) && o.begin_ns < r.end_ns + dur &&
            o.end_ns > r.begin_ns - dur && o.address < r.end() + r.size &&
            o.end() + r.size > r.address)
          alone = false;
      if (!alone) continue;
      const engine_event& x = ev[r.event];
      mem_probe m;
      m.panel = panel;
      m.address = r.address;
      m.event.eng = std::string(name(x.engine));
      m.event.unit = x.unit;
      m.event.cmd_id = x.cmd_id;
      m.event.begin_ns = x.begin_ns;
      char hex[32];
      std::snprintf(hex, sizeof hex, "0x%llx (", static_cast<unsigned long long>(r.address));
      m.event.fields = {{"address", hex},
                        {"size", grouped(r.size) + " B"},
                        {"access", r.write ? "write" : "read"},
                        {"cmd id", std::to_string(x.cmd_id)},
                        {"memory", std::string(regs::name(r.kind))}};
      mem.probes.push_back(m);
      break;
    }
  }
  REQUIRE(mem.probes.size() == 2);
  check_in_browser(d, "bm1684x", probe_of(e, d.info()), 2000, &d, &mem);
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
  // Three memory operands per event (2.4 M rectangles): the memory charts
  // must stay as fast as the timeline (drawn as a density raster).
  struct synthetic_operands {
    std::array<regs::mem_operand, 3> operands(const engine_event& x) const {
      std::array<regs::mem_operand, 3> m{};
      const std::uint64_t k = x.cmd_id;
      m[0] = operand(regs::mem_kind::local, (k * 4096) % (1 << 18), 2048, false, 0);
      m[1] = operand(regs::mem_kind::local, (k * 4096 + 8192) % (1 << 18), 4096, true, 0);
      m[2] = operand(regs::mem_kind::ddr, 0x100000000 + (k % 1000) * 65536, 65536,
                     x.engine != engine::tiu, 1);
      return m;
    }
  };
  const synthetic_operands ops;
  mem_expect mem;
  mem.panels = {{"LOCAL MEM", 2 * t.hw.size()}, {"GLOBAL MEM", t.hw.size()}};
  check_in_browser(t, "synthetic_800k", probe_of(e, t.meta), 5000, &ops, &mem);
}
