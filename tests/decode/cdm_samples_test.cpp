// The cdm decoder against the vendor answers: the three synthetic operator-path
// dumps (bigTpuProfile's events, expected.json) and the real BM1690 bmodel capture
// (tpu-mlir PerfAI's events, tests/data/bm1690_vendor_events.csv).
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/cdm/global.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/io/dump_files.hpp>

// Everything below needs the samples: without them (a clone without ../shared)
// the helpers would be unused, which -Werror turns into a failed build.
#ifdef TPUPROF_SAMPLES_DIR

namespace {

using tpuprof::engine;
using tpuprof::engine_event;

/// One event as the vendor prints it, reduced to what both sides carry.
struct row {
  std::string eng;
  unsigned unit = 0;
  std::uint64_t start = 0, end = 0;
  std::uint32_t cmd_id = 0;
  std::string type, name, dir;
  std::uint64_t bytes = 0;
  std::string func;
  long long scope = -1;
  friend bool operator==(const row&, const row&) = default;
};

std::string to_string(const row& r) {
  std::ostringstream o;
  o << r.eng << r.unit << " [" << r.start << ", " << r.end << "] id " << r.cmd_id << " " << r.type
    << "/" << r.name << " " << r.dir << " " << r.bytes << "B " << r.func << "#" << r.scope;
  return o.str();
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return o;
}

/// Our events as rows, keyed by (engine, unit), in events() order.
template <class D>
std::map<std::pair<std::string, unsigned>, std::vector<row>> rows_of(const D& d, bool with_scope) {
  std::map<std::pair<std::string, unsigned>, std::vector<row>> out;
  const auto& n = d.info().names;
  for (const engine_event& e : d.events()) {
    row r;
    r.eng = lower(tpuprof::name(e.engine));
    r.unit = e.unit;
    r.start = e.begin_cycle;
    r.end = e.end_cycle;
    r.cmd_id = e.cmd_id;
    r.type = std::string(n[e.op_type]);
    r.name = std::string(n[e.op]);
    r.dir = std::string(tpuprof::long_name(e.dir()));
    r.bytes = e.has_bytes() ? e.bytes : 0;
    r.func = std::string(n[e.function]);
    r.scope = with_scope && e.function ? e.group : -1;
    out[{r.eng, r.unit}].push_back(r);
  }
  return out;
}

/// Sorts a list the way events() orders a track (stable, by start cycle).
void sort_by_start(std::vector<row>& v) {
  std::stable_sort(v.begin(), v.end(),
                   [](const row& a, const row& b) { return a.start < b.start; });
}

}  // namespace

namespace {

struct expected_dump {
  std::string arch;
  long long mode = 0, cores = 0, ports = 0;
  std::map<std::pair<std::string, unsigned>, std::vector<row>> lists;
  std::size_t total = 0;
};

expected_dump load_expected(const std::string& path) {
  expected_dump x;
  simdjson::dom::parser p;
  simdjson::dom::element doc = p.load(path);
  x.arch = std::string(std::string_view(doc["arch"]));
  x.mode = int64_t(doc["mode"]);
  x.cores = int64_t(doc["cores"]);
  x.ports = int64_t(doc["cdma_ports"]);
  for (simdjson::dom::element l : doc["lists"].get_array()) {
    auto key = std::make_pair(std::string(std::string_view(l["engine"])),
                              static_cast<unsigned>(int64_t(l["id"])));
    auto& v = x.lists[key];
    for (simdjson::dom::array e : l["events"].get_array()) {
      row r;
      r.eng = key.first;
      r.unit = key.second;
      r.start = static_cast<std::uint64_t>(int64_t(e.at(0)));
      r.end = static_cast<std::uint64_t>(int64_t(e.at(1)));
      r.cmd_id = static_cast<std::uint32_t>(int64_t(e.at(2)));
      r.type = std::string(std::string_view(e.at(3)));
      r.name = std::string(std::string_view(e.at(4)));
      r.dir = e.at(5).is_null() ? "" : std::string(std::string_view(e.at(5)));
      r.bytes = e.at(6).is_null() ? 0 : static_cast<std::uint64_t>(int64_t(e.at(6)));
      r.func = e.at(7).is_null() ? "" : std::string(std::string_view(e.at(7)));
      r.scope = e.at(8).is_null() ? -1 : int64_t(e.at(8));
      v.push_back(r);
      ++x.total;
    }
    sort_by_start(v);
  }
  return x;
}

template <class Chip>
void check_synthetic(const std::string& name, std::string_view mode_prefix) {
  const std::string base = std::string(TPUPROF_SAMPLES_DIR) + "/synthetic/" + name;
  auto exp = load_expected(base + "/expected.json");
  auto files = tpuprof::io::dump_files::open_directory(base + "/cdm_profile_data_dev0-0");
  auto det = tpuprof::cdm::detect_cdm(files, tpuprof::chips::all{});
  REQUIRE(det);
  CHECK(det->chip == Chip::cli_name);
  CHECK(exp.arch == Chip::vendor_name);
  tpuprof::cdm::cdm_decoder<Chip> d(files);
  CHECK(d.info().mode.starts_with(mode_prefix));
  CHECK(d.events().size() == exp.total);
  auto ours = rows_of(d, true);
  CHECK(ours.size() == exp.lists.size());
  std::size_t compared = 0, mismatched = 0;
  for (auto& [key, want] : exp.lists) {
    auto it = ours.find(key);
    REQUIRE_MESSAGE(it != ours.end(), key.first << key.second << " missing");
    auto& got = it->second;
    CHECK_MESSAGE(got.size() == want.size(), key.first << key.second);
    for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i, ++compared) {
      if (got[i] == want[i]) continue;
      if (++mismatched <= 5)
        CHECK_MESSAGE(false, "want " << to_string(want[i]) << "\n got " << to_string(got[i]));
    }
  }
  CHECK(compared == exp.total);
  CHECK(mismatched == 0);
}

}  // namespace

TEST_CASE("AKS mode-1 synthetic dump: every event equals bigTpuProfile's") {
  check_synthetic<tpuprof::chips::aks>("aks_mode1_seed1", "mode 1");
}

TEST_CASE("AKSV mode-0 dump with two CDMA ports: every event equals bigTpuProfile's") {
  check_synthetic<tpuprof::chips::aksv>("aksv_mode0_cdma2_seed1", "mode 0");
}

TEST_CASE("AKS dump with a 32-bit cycle wrap and a CDMA port: every event equals bigTpuProfile's") {
  check_synthetic<tpuprof::chips::aks>("aks_mode1_cyclewrap_seed1", "mode 1");
  auto files = tpuprof::io::dump_files::open_directory(
      std::string(TPUPROF_SAMPLES_DIR) +
      "/synthetic/aks_mode1_cyclewrap_seed1/cdm_profile_data_dev0-0");
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files);
  CHECK(d.info().diagnostics[tpuprof::diag::cycle_wrap] > 0);
  CHECK(d.info().diagnostics[tpuprof::diag::deleted_record] == 0);
  CHECK(d.info().find_track(0, 0, engine::cdma) != nullptr);
  CHECK(d.spans().size() > 0);
}

TEST_CASE("BM1690 bmodel capture equals tpu-mlir PerfAI: 85 TIU, 168 GDMA, 5 SDMA events") {
  // Vendor rows from the checked-in CSV (see its header for how they were made).
  std::ifstream in(std::string(TPUPROF_SOURCE_DIR) + "/tests/data/bm1690_vendor_events.csv");
  REQUIRE(in);
  std::map<std::pair<std::string, unsigned>, std::vector<row>> want;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::vector<std::string> f;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) f.push_back(cell);
    while (f.size() < 9) f.emplace_back();
    row r;
    r.eng = lower(f[0]);
    r.unit = 0;
    r.cmd_id = static_cast<std::uint32_t>(std::stoul(f[2]));
    r.start = std::stoull(f[3]);
    r.end = std::stoull(f[4]);
    r.type = f[5];
    r.name = f[6];
    r.dir = f[7];
    r.bytes = f[8].empty() ? 0 : std::stoull(f[8]);
    want[{r.eng, 0}].push_back(r);
  }
  CHECK(want[{"tiu", 0}].size() == 85);
  CHECK(want[{"gdma", 0}].size() == 168);
  CHECK(want[{"sdma", 0}].size() == 5);
  for (auto& [k, v] : want) sort_by_start(v);

  auto files = tpuprof::io::dump_files::open_directory(std::string(TPUPROF_SAMPLES_DIR) +
                                                       "/bm1690/cdm_profile_data_dev0");
  auto det = tpuprof::cdm::detect_cdm(files, tpuprof::chips::all{});
  REQUIRE(det);
  CHECK(det->chip == "aks");
  CHECK(det->bmodel);
  tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> d(files);
  CHECK(d.bmodel_path());
  CHECK(d.info().mode == "bmodel");
  auto got = rows_of(d, false);
  REQUIRE(got.size() == 3);
  for (auto& [k, v] : want) {
    auto& g = got[k];
    REQUIRE(g.size() == v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      CHECK_MESSAGE(g[i] == v[i], to_string(v[i]) << " vs " << to_string(g[i]));
  }
  // 4 TIU + 7 GDMA + 4 SDMA records match no descriptor; they are kept (named unknown).
  CHECK(d.info().diagnostics[tpuprof::diag::unmatched_record] == 15);
  CHECK(d.pmu_tail_cycle() == 486661);

  SUBCASE("without the tpu-mlir re-phase GDMA and SDMA keep the shared counter's phase") {
    tpuprof::cdm::cdm_options o;
    o.time = tpuprof::time_base::shared_counter;
    tpuprof::cdm::cdm_decoder<tpuprof::chips::aks> raw(files, o);
    auto r = rows_of(raw, false);
    // t0 is now the first GDMA record (raw 11566) instead of the re-phased SDMA one
    // (raw 11732 + 145 = 11877): TIU moves by +311, GDMA by 311 - 435, SDMA by 311 - 145.
    auto& rt = r[{"tiu", 0}];
    for (std::size_t i = 0; i < rt.size(); ++i)
      CHECK(rt[i].start == want[{"tiu", 0}][i].start + 311);
    CHECK(r[{"gdma", 0}][0].start == 0);
    CHECK(r[{"gdma", 0}][3].start + 435 - 311 == want[{"gdma", 0}][3].start);
    CHECK(r[{"sdma", 0}][0].start == 166);
  }
}

#endif  // TPUPROF_SAMPLES_DIR
