// Runs the tpuprof CLI binary and checks its outputs (numbers, not just exit codes).
#include <simdjson.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "test_util.hpp"

#if defined(TPUPROF_CLI)
namespace fs = std::filesystem;
namespace {

using result = test_util::shell_result;
using test_util::run_cli;
result run(const std::string& args) {
  return run_cli(args);
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  std::string l;
  while (std::getline(ss, l)) v.push_back(l);
  return v;
}

std::vector<std::string> cells(const std::string& line, char sep = '|') {
  std::vector<std::string> v;
  std::stringstream ss(line);
  std::string c;
  while (std::getline(ss, c, sep)) {
    auto b = c.find_first_not_of(' '), e = c.find_last_not_of(' ');
    v.push_back(b == std::string::npos ? "" : c.substr(b, e - b + 1));
  }
  return v;
}

fs::path tmp(const std::string& name) {
  auto p = fs::path(TPUPROF_TEST_TMP) / ("cli_" + name);
  fs::remove_all(p);
  return p;
}

}  // namespace

TEST_CASE("cli: exit codes for usage errors, bad input and output failures") {
  CHECK(run("--version").code == 0);
  CHECK(run("--version").out.find("aksv") != std::string::npos);
  CHECK(run("").code == 2);
  CHECK(run("info").code == 2);
  CHECK(run("top . --by nonsense").code == 2);
  auto r = run("info /no/such/dir");
  CHECK(r.code == 1);
  CHECK(r.out.find("/no/such/dir: no such file or directory") != std::string::npos);
  auto empty = tmp("empty");
  fs::create_directories(empty);
  r = run("info " + empty.string());
  CHECK(r.code == 1);
  CHECK(r.out.find("no dump here") != std::string::npos);
  auto unknown = tmp("unknown_arch");
  fs::create_directories(unknown);
  std::ofstream(unknown / "global.profile") << "arch=9\n";
  r = run("info " + unknown.string());
  CHECK(r.code == 1);
  CHECK(
      r.out.find(
          "global.profile: at byte 0: arch=9 is not a supported chip (bm1684x, aks, aksv, bm1688, "
          "cv184x); use --chip bm1684x|aks|aksv|bm1688|cv184x") != std::string::npos);
}

TEST_CASE("cli: every subcommand is registered, in the table's order, with its own help") {
  const auto r = run("--help");
  CHECK(r.code == 0);
  std::size_t at = 0;
  for (const char* sub :
       {"info", "convert", "summary", "top", "gaps", "group", "report", "diff", "synth"}) {
    CAPTURE(sub);
    const auto p = r.out.find(std::string("\n  ") + sub + " ", at);
    CHECK(p != std::string::npos);  // listed after the previous one
    if (p != std::string::npos) at = p;
    const auto h = run(std::string(sub) + " --help");
    CHECK(h.code == 0);
    CHECK(h.out.find(std::string(" ") + sub + " [OPTIONS]") != std::string::npos);
  }
  // only the decoding subcommands take the common options
  CHECK(run("info --help").out.find("--num-core") != std::string::npos);
  CHECK(run("synth --help").out.find("--num-core") == std::string::npos);
}

TEST_CASE("cli: the --chip hint comes with detection errors only") {
  auto noarch = tmp("noarch");
  fs::create_directories(noarch);
  std::ofstream(noarch / "global.profile") << "net_name=x\n";
  auto r = run("info " + noarch.string());
  CHECK(r.code == 1);
  CHECK(r.out ==
        "tpuprof: " + noarch.string() +
            "/global.profile: at byte 11: no arch= line before the end of the file: cannot "
            "tell the chip (give it explicitly); "
            "use --chip bm1684x|aks|aksv|bm1688|cv184x\n");
  r = run("info --chip aks " + noarch.string());  // chip given: the decoder's own error
  CHECK(r.code == 1);
  CHECK(r.out.find("use --chip") == std::string::npos);
  CHECK(r.out.find("global.profile") != std::string::npos);
}

TEST_CASE("cli: synth writes a dump that info reads back, for every chip") {
  for (const char* chip : {"aks", "aksv", "bm1684x"}) {
    CAPTURE(chip);
    auto d = tmp(std::string("synth_") + chip);
    auto r =
        run(std::string("synth --chip ") + chip + " --records 300 -o " + d.string() + " --seed 3");
    REQUIRE(r.code == 0);
    const auto written = r.out;  // "wrote DIR (chip, N hardware events)"
    const auto p = written.find("chip, ");
    REQUIRE(p != std::string::npos);
    const auto n = std::stoul(written.substr(p + 6));
    r = run("info --json -q " + d.string());
    REQUIRE(r.code == 0);
    simdjson::dom::parser parser;
    auto doc = parser.parse(r.out);
    CHECK(doc["events"].get_uint64().value() == n);
    CHECK(doc["data_loss"].get_bool().value() == false);
  }
}

TEST_CASE("cli: a parent of several dumps is read as several devices") {
  auto parent = tmp("multi");
  REQUIRE(run("synth --chip aks --records 100 --cores 2 -o " +
              (parent / "cdm_profile_data_dev0-0").string())
              .code == 0);
  REQUIRE(run("synth --chip aks --records 100 --cores 2 --seed 9 -o " +
              (parent / "cdm_profile_data_dev1-0").string())
              .code == 0);
  auto r = run("info --json " + parent.string());
  REQUIRE(r.code == 0);
  simdjson::dom::parser parser;
  auto doc = parser.parse(r.out);
  CHECK(doc["devices"].get_uint64().value() == 2);
  std::map<std::uint64_t, int> per_device;
  for (auto t : doc["tracks"].get_array()) per_device[t["device"].get_uint64().value()]++;
  CHECK(per_device.size() == 2);
  CHECK(per_device[0] == per_device[1]);
}

TEST_CASE("cli: diff of a run with itself changes nothing; with another run it adds up") {
  auto a = tmp("diff_a"), b = tmp("diff_b");
  REQUIRE(run("synth -q --chip aksv --records 200 --seed 1 -o " + a.string()).code == 0);
  REQUIRE(run("synth -q --chip aksv --records 300 --seed 2 -o " + b.string()).code == 0);
  auto same = lines_of(run("diff -q --by engine " + a.string() + " " + a.string()).out);
  std::size_t rows = 0;
  for (const auto& l : same)
    if (l.rfind("TIU ", 0) == 0 || l.rfind("GDMA ", 0) == 0 || l.rfind("SDMA ", 0) == 0) {
      ++rows;
      CHECK(l.find("+0.000") != std::string::npos);
      CHECK(l.find("1.000") != std::string::npos);
    }
  CHECK(rows == 3);
  // counts per engine in B minus A equal the difference of `info --json` track events
  simdjson::dom::parser pa, pb;
  auto ja = pa.parse(run("info --json -q " + a.string()).out);
  auto jb = pb.parse(run("info --json -q " + b.string()).out);
  std::map<std::string, std::uint64_t> ca, cb;
  for (auto t : ja["tracks"].get_array())
    ca[std::string(t["engine"].get_string().value())] += t["events"].get_uint64().value();
  for (auto t : jb["tracks"].get_array())
    cb[std::string(t["engine"].get_string().value())] += t["events"].get_uint64().value();
  for (const auto& l : lines_of(run("diff -q --by engine " + a.string() + " " + b.string()).out)) {
    auto c = cells(l, ' ');
    std::vector<std::string> f;
    for (auto& x : c)
      if (!x.empty()) f.push_back(x);
    if (f.size() == 7 && (f[0] == "TIU" || f[0] == "GDMA")) {
      CHECK(std::stoull(f[1]) == ca[f[0]]);
      CHECK(std::stoull(f[2]) == cb[f[0]]);
    }
  }
}

#ifdef TPUPROF_SAMPLES_DIR
namespace {
const std::string samples = TPUPROF_SAMPLES_DIR;
const std::string bm1684x = samples + "/bm1684x/bmprofile_data-1";
}  // namespace

TEST_CASE("cli: info on the real BM1684X capture") {
  auto r = run("info " + bm1684x);
  CHECK(r.code == 0);
  CHECK(r.out.find("BM1684X") != std::string::npos);
  CHECK(r.out.find("253 hardware") != std::string::npos);
  CHECK(r.out.find("unmatched_command    3") != std::string::npos);
  // --strict: the capture lost 3 TIU records (nodes without PMU record)
  CHECK(run("info -q --strict " + bm1684x).code == 4);
  r = run("info --json " + bm1684x);
  simdjson::dom::parser parser;
  auto doc = parser.parse(r.out);
  CHECK(std::string(doc["chip"].get_string().value()) == "BM1684X");
  CHECK(doc["begin_ns"].get_double().value() == 10960);
  CHECK(doc["end_ns"].get_double().value() == 224479);
  CHECK(doc["diagnostics"]["unmatched_command"].get_uint64().value() == 3);
}

TEST_CASE("cli: info and convert on the real BM1688 and CV184X captures, --chip bm1688|cv184x") {
  const std::string b = samples + "/bm1688/bmprofile_data-1";
  const std::string c = samples + "/cv184x/bmprofile_data-1";
  auto r = run("info " + b);
  CHECK(r.code == 0);
  CHECK(r.out.find("chip      BM1688") != std::string::npos);
  CHECK(r.out.find("cores 1") != std::string::npos);
  CHECK(r.out.find("303 hardware") != std::string::npos);
  r = run("info --chip bm1688 " + b);
  CHECK(r.code == 0);
  CHECK(run("info --chip cv184x " + c).out.find("341 hardware") != std::string::npos);
  CHECK(run("info -q --chip cv184x " + b).code == 1);  // arch=4 is not CV184X
  const auto out = std::string(TPUPROF_TEST_TMP) + "/cli_bm1688_csv";
  CHECK(run("convert -q --csv -o " + out + " " + b).code == 0);
  const auto csv = test_util::read_text(out + "/events.csv");
  CHECK(csv.rfind("device,core,engine,cmd_id,", 0) == 0);
  CHECK(csv.find("\n0,0,TIU,0,5926,6192,") != std::string::npos);  // the vendor's first TIU row
}

// Expected numbers: bigTpuProfile's summary.txt for the same dumps
// (shared/samples/synthetic/*/vendor_summary.txt). Every cell must match,
// except uArchURate, which the vendor prints as 100.00% without knowing it.
TEST_CASE("cli: summary equals bigTpuProfile's summary.txt on the synthetic AKS and AKSV dumps") {
  for (const char* s : {"aks_mode1_seed1", "aksv_mode0_cdma2_seed1", "aks_mode1_cyclewrap_seed1"}) {
    CAPTURE(s);
    const auto dir = samples + "/synthetic/" + s;
    auto r = run("summary -q " + dir + "/cdm_profile_data_dev0-0");
    REQUIRE(r.code == 0);
    auto ours = lines_of(r.out);
    auto theirs = lines_of(test_util::read_text(dir + "/vendor_summary.txt"));
    REQUIRE(ours.size() == theirs.size());
    std::size_t rows = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
      auto a = cells(ours[i]), b = cells(theirs[i]);
      REQUIRE(a.size() == b.size());
      for (std::size_t c = 0; c < a.size(); ++c) {
        if (c == 5 && b[c] == "100.00%") {
          CHECK(a[c] == "unknown");
          continue;
        }
        CHECK(a[c] == b[c]);
      }
      rows += a.size() == 11;
    }
    CHECK(rows >= 3);
  }
}

TEST_CASE("cli: summary as csv and json carries the same numbers") {
  const auto dir = samples + "/synthetic/aks_mode1_seed1/cdm_profile_data_dev0-0";
  auto csv = lines_of(run("summary -q --format csv " + dir).out);
  REQUIRE(csv.size() == 9);  // header + 8 cores
  auto c0 = cells(csv[1], ',');
  CHECK(c0[2] == "164.30");
  CHECK(c0[5] == "300802");
  CHECK(c0[6] == "");  // uArch rate unknown
  simdjson::dom::parser parser;
  auto doc = parser.parse(run("summary -q --format json " + dir).out);
  CHECK(doc["cores"].get_array().size() == 8);
  CHECK(doc["cores"].at(0)["total_tiu_cycle"].get_uint64().value() == 300802);
  CHECK(doc["cores"].at(0)["uarch_rate_pct"].is_null());
}

// Cross-checked against the vendor's per-event values (tests/data/bm1684x_vendor_events.csv).
TEST_CASE("cli: top, gaps and group on the real BM1684X capture") {
  auto vendor = test_util::read_csv(std::string(TPUPROF_SOURCE_DIR) +
                                    "/tests/data/bm1684x_vendor_events.csv");
  vendor.erase(vendor.begin());
  std::uint64_t longest = 0, longest_cmd = 0, tensor_count = 0;
  for (const auto& v : vendor) {
    const auto dur = std::stoull(v[3]) - std::stoull(v[2]);
    if (dur > longest) longest = dur, longest_cmd = std::stoull(v[1]);
    tensor_count += v[7] == "dma.tensor";
  }
  auto top = lines_of(run("top -q -n 3 " + bm1684x).out);
  REQUIRE(top.size() == 4);
  auto first = cells(top[1], ' ');
  std::vector<std::string> f;
  for (auto& c : first)
    if (!c.empty()) f.push_back(c);
  CHECK(std::stoull(f[4]) == longest_cmd);
  CHECK(std::stoull(f[7]) == longest);

  auto group = lines_of(run("group -q --by op --format csv " + bm1684x).out);
  bool found = false;
  for (const auto& l : group)
    if (l.rfind("dma.tensor,", 0) == 0) {
      found = true;
      CHECK(cells(l, ',')[1] == std::to_string(tensor_count));
    }
  CHECK(found);

  // mean uArch rate per op: the vendor's per-command uArch rates (instruction.csv, 4 decimals)
  double conv_sum = 0;
  int conv_n = 0;
  for (const auto& v : vendor)
    if (v[7] == "conv.normal") conv_sum += std::stod(v[11]), ++conv_n;
  REQUIRE(conv_n > 0);
  found = false;
  for (const auto& l : group)
    if (l.rfind("conv.normal,", 0) == 0) {
      found = true;
      CHECK(std::stod(cells(l, ',')[9]) == doctest::Approx(conv_sum / conv_n).epsilon(1e-3));
    }
  CHECK(found);

  // the longest TIU idle gap, computed from the vendor's TIU rows
  std::uint64_t gap = 0, prev_end = 0;
  bool have = false;
  for (const auto& v : vendor) {
    if (v[0] != "TIU") continue;
    if (have && std::stoull(v[2]) > prev_end)
      gap = std::max<std::uint64_t>(gap, std::stoull(v[2]) - prev_end);
    prev_end = std::max<std::uint64_t>(prev_end, std::stoull(v[3]));
    have = true;
  }
  auto r = run("gaps -q --min 1us -n 1 " + bm1684x);
  CHECK(r.code == 0);
  CHECK(r.out.find(" " + std::to_string(gap) + "  ") != std::string::npos);
}

TEST_CASE("cli: convert writes the chosen outputs atomically into the output directory") {
  auto out = tmp("convert");
  auto r = run("convert -q --perfetto --json --csv -o " + out.string() + " " + bm1684x);
  REQUIRE(r.code == 0);
  for (const char* f :
       {"trace.pftrace", "trace.json", "events.csv", "summary.csv", "summary.txt"}) {
    CAPTURE(f);
    CHECK(fs::file_size(out / f) > 0);
  }
  auto csv = test_util::read_csv((out / "events.csv").string());
  CHECK(csv.size() == 254);  // header + 90 TIU + 163 GDMA
  for (const auto& e : fs::directory_iterator(out))
    CHECK(e.path().string().find(".tmp.") == std::string::npos);
  // default: Perfetto + summary only
  auto out2 = tmp("convert_default");
  REQUIRE(run("convert -q -o " + out2.string() + " " + bm1684x).code == 0);
  CHECK(fs::exists(out2 / "trace.pftrace"));
  CHECK(fs::exists(out2 / "summary.txt"));
  CHECK_FALSE(fs::exists(out2 / "trace.json"));
  // the HTML report: one self-contained file
  auto html = tmp("report.html");
  REQUIRE(run("report -q -o " + html.string() + " " + bm1684x).code == 0);
  const auto page = test_util::read_text(html.string());
  CHECK(page.find("canvas") != std::string::npos);  // the timeline, drawn by the inline script
  CHECK(page.find("<script src") == std::string::npos);
  CHECK(page.find("blazeface") != std::string::npos);
  // with the memory charts of the descriptors' operands (403 local, 176 global:
  // tests/data/bm1684x_vendor_mem.csv)
  CHECK(page.find("<script id=\"tpuprof-mem\"") != std::string::npos);
  CHECK(page.find("\"name\":\"LOCAL MEM\",") != std::string::npos);
  CHECK(page.find("\"n\":403}") != std::string::npos);
  CHECK(page.find("\"n\":176}") != std::string::npos);
  // convert --html writes the same report
  auto out3 = tmp("convert_html");
  REQUIRE(run("convert -q --html -o " + out3.string() + " " + bm1684x).code == 0);
  CHECK(test_util::read_text((out3 / "report.html").string()) == page);
  // an output path that cannot be created is an I/O error (exit 3)
  CHECK(run("convert -q -o /proc/tpuprof_no_such_dir " + bm1684x).code == 3);
}
#endif
#endif
