// cdm::stream (core by core, cores on threads) against the materialized
// cdm_decoder: the sink sees the same begin info, events, spans, names,
// diagnostics and properties, on generated AKS/AKSV dumps (modes 0/1/2, CDMA
// ports, wraps, repairs, a missing core) and the SG2260-family samples. Also
// built alone under ThreadSanitizer (tools/tsan.sh).
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/cdm/stream.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/stream.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

namespace {

namespace fs = std::filesystem;

/// Everything a sink sees, with the trace_info as it was at begin and at finish.
struct recording_sink {
  const tpuprof::trace_info* info = nullptr;
  std::vector<tpuprof::track> begin_tracks;
  double begin_ns = -1, end_ns = -1;
  std::size_t begin_calls = 0, finish_calls = 0, writes_after_finish = 0;
  std::vector<tpuprof::engine_event> seen;
  std::vector<std::string> names_at_finish;
  void begin(const tpuprof::trace_info& i) {
    ++begin_calls;
    info = &i;
    begin_tracks = i.tracks;
    begin_ns = i.begin_ns;
    end_ns = i.end_ns;
  }
  void write(const tpuprof::engine_event& e) {
    writes_after_finish += finish_calls;
    // Every name of an event is in the table when the event arrives.
    CHECK(e.op < info->names.size());
    CHECK(e.op_type < info->names.size());
    CHECK(e.function < info->names.size());
    seen.push_back(e);
  }
  void finish() {
    ++finish_calls;
    for (std::size_t k = 0; k < info->names.size(); ++k)
      names_at_finish.emplace_back(info->names[static_cast<tpuprof::name_id>(k)]);
  }
};

bool same_event(const tpuprof::engine_event& a, const tpuprof::engine_event& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;  // bit for bit, NaN uarch rates included
}

bool same_tracks(const std::vector<tpuprof::track>& a, const std::vector<tpuprof::track>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i]) || a[i].freq_mhz != b[i].freq_mhz || a[i].records != b[i].records ||
        a[i].events != b[i].events)
      return false;
  return true;
}

/// Streams `files` with `threads` and `budget`, and checks every call against
/// the materialized decode of the same files.
template <class Chip>
void check_stream(const tpuprof::io::dump_files& files, unsigned threads, std::size_t budget,
                  const tpuprof::cdm::cdm_options& opt = {}) {
  tpuprof::cdm::cdm_options mopt = opt;
  mopt.keep_instructions = false;
  const tpuprof::cdm::cdm_decoder<Chip> d(files, mopt);
  const auto& want = d.info();
  recording_sink s;
  tpuprof::cdm::stream_options so;
  so.threads = threads;
  so.memory_budget = budget;
  const tpuprof::trace_info got = tpuprof::cdm::stream<Chip>(files, s, opt, so);
  CHECK(s.begin_calls == 1);
  CHECK(s.finish_calls == 1);
  CHECK(s.writes_after_finish == 0);
  // What begin() saw is already final: span and tracks.
  CHECK(s.begin_ns == want.begin_ns);
  CHECK(s.end_ns == want.end_ns);
  CHECK(same_tracks(s.begin_tracks, want.tracks));
  CHECK(same_tracks(got.tracks, want.tracks));
  CHECK(got.begin_ns == want.begin_ns);
  CHECK(got.end_ns == want.end_ns);
  CHECK(got.mode == want.mode);
  CHECK(got.chip == want.chip);
  CHECK(got.cores == want.cores);
  CHECK(got.properties == want.properties);
  // Events then spans, bit for bit (name ids included).
  const std::size_t hw = d.events().size();
  REQUIRE(s.seen.size() == hw + d.spans().size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < hw; ++i) bad += !same_event(s.seen[i], d.events()[i]);
  for (std::size_t i = 0; i < d.spans().size(); ++i)
    bad += !same_event(s.seen[hw + i], d.spans()[i]);
  CHECK(bad == 0);
  REQUIRE(s.names_at_finish.size() == want.names.size());
  for (std::size_t k = 0; k < want.names.size(); ++k)
    CHECK(s.names_at_finish[k] == want.names[static_cast<tpuprof::name_id>(k)]);
  for (std::size_t k = 0; k < tpuprof::diag_count; ++k) {
    const auto kind = static_cast<tpuprof::diag>(k);
    CHECK_MESSAGE(got.diagnostics[kind] == want.diagnostics[kind], tpuprof::name(kind));
  }
  const auto &gn = got.diagnostics.notes(), &wn = want.diagnostics.notes();
  REQUIRE(gn.size() == wn.size());
  for (std::size_t i = 0; i < gn.size(); ++i) {
    CHECK(gn[i].kind == wn[i].kind);
    CHECK(gn[i].file == wn[i].file);
    CHECK(gn[i].offset == wn[i].offset);
    CHECK(gn[i].text == wn[i].text);
  }
}

/// perfetto_sink counting the parts join() used; forkable itself.
struct counted_perfetto {
  tpuprof::sinks::perfetto_sink s;
  std::size_t joins = 0, used = 0;
  explicit counted_perfetto(std::string& out) : s(out) {}
  void begin(const tpuprof::trace_info& i) { s.begin(i); }
  void write(const tpuprof::engine_event& e) { s.write(e); }
  void finish() { s.finish(); }
  auto fork(std::uint8_t device, std::uint8_t unit, const tpuprof::trace_info& names) const {
    return s.fork(device, unit, names);
  }
  void join(tpuprof::sinks::perfetto_sink::part&& p,
            std::span<const tpuprof::engine_event> events) {
    ++joins;
    used += s.join(std::move(p), events);
  }
};
static_assert(tpuprof::forkable_sink<counted_perfetto>);

/// Streams `files` into a Perfetto sink whose cores are formatted on the
/// workers (fork_records 0: every core) and checks the bytes against the
/// materialized trace's; returns how many cores' parts were used.
template <class Chip>
std::size_t check_perfetto_parts(const tpuprof::io::dump_files& files, unsigned threads) {
  tpuprof::cdm::cdm_options mopt;
  mopt.keep_instructions = false;
  const tpuprof::cdm::cdm_decoder<Chip> d(files, mopt);
  std::string want, got;
  {
    tpuprof::sinks::perfetto_sink s(want);
    tpuprof::write_trace(d, s);
  }
  counted_perfetto c(got);
  tpuprof::cdm::stream_options so;
  so.threads = threads;
  so.memory_budget = std::size_t{1} << 30;
  so.fork_records = 0;
  tpuprof::cdm::stream<Chip>(files, c, {}, so);
  CHECK(got == want);
  std::size_t core_files = 0;  // a part per core file, joined in order
  for (auto n : files.names()) core_files += n.starts_with("cdmlib");
  CHECK(c.joins == core_files);
  CHECK(c.used <= c.joins);
  return c.used;
}

template <class Chip>
void check_generated(const tpuprof::synth::cdm_synth_options& o) {
  const auto gen = tpuprof::synth::synthesize_cdm<Chip>(o);
  const auto files = tpuprof::synth::as_dump_files(gen);
  check_stream<Chip>(files, 1, std::size_t{1} << 30);  // one thread, decoded once
  check_stream<Chip>(files, 3, std::size_t{1} << 30);  // three cores in flight
  check_stream<Chip>(files, 3, 1);                     // budget: one core at a time, decoded twice
  check_perfetto_parts<Chip>(files, 3);
}

}  // namespace

TEST_CASE("cdm::stream equals the materialized decode: generated AKS and AKSV dumps") {
  for (unsigned mode = 0; mode <= 2; ++mode) {
    CAPTURE(mode);
    tpuprof::synth::cdm_synth_options o;
    o.mode = mode;
    o.records = 300;
    o.seed = 7 + mode;
    check_generated<tpuprof::chips::aks>(o);
    o.cdma_ports = 2;
    check_generated<tpuprof::chips::aksv>(o);
    o.cdma_ports = 1;
    o.cycle_wrap = true;
    o.out_of_order = true;
    o.id_offset = 65400;
    check_generated<tpuprof::chips::aks>(o);
    o.cores = 3;
    o.missing_core = 1;
    check_generated<tpuprof::chips::aksv>(o);
  }
}

TEST_CASE("cdm::stream: cores formatted on the workers, joined in order, used when valid") {
  tpuprof::synth::cdm_synth_options o;
  o.records = 4000;
  o.seed = 11;
  const auto gen = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o);
  const auto files = tpuprof::synth::as_dump_files(gen);
  // Generated engines never overlap themselves: no lane is added, every part is used.
  CHECK(check_perfetto_parts<tpuprof::chips::aks>(files, 2) == tpuprof::chips::aks::core_count);
  CHECK(check_perfetto_parts<tpuprof::chips::aks>(files, 3) == tpuprof::chips::aks::core_count);
}

TEST_CASE("cdm::stream: kernel-function scopes past 65535 and the vendor time base") {
  tpuprof::synth::cdm_synth_options o;
  o.records = 2000;
  o.cores = 2;
  o.cdma_ports = 2;
  o.function_ratio = 1.0;
  const auto gen = tpuprof::synth::synthesize_cdm<tpuprof::chips::aks>(o);
  const auto files = tpuprof::synth::as_dump_files(gen);
  tpuprof::cdm::cdm_options opt;
  opt.time = tpuprof::time_base::shared_counter;
  check_stream<tpuprof::chips::aks>(files, 2, std::size_t{1} << 30, opt);
  opt.uarch = false;
  check_stream<tpuprof::chips::aks>(files, 2, 1, opt);
}

#ifdef TPUPROF_SAMPLES_DIR
TEST_CASE("cdm::stream equals the materialized decode: SG2260-family samples") {
  const fs::path root(TPUPROF_SAMPLES_DIR);
  std::vector<fs::path> dumps;
  for (const char* d : {"synthetic/aks_mode1_seed1", "synthetic/aks_mode1_cyclewrap_seed1",
                        "synthetic/aksv_mode0_cdma2_seed1", "bm1690/cdm_profile_data_dev0"})
    if (fs::exists(root / d / "global.profile")) dumps.push_back(root / d);
  REQUIRE(!dumps.empty());
  for (const auto& dir : dumps) {
    CAPTURE(dir.string());
    const auto files = tpuprof::io::dump_files::open_directory(dir);
    const auto det = tpuprof::detect_dump(files, tpuprof::chips::all{});
    tpuprof::with_chip(tpuprof::chips::all{}, det.chip, [&]<class C>() {
      if constexpr (!tpuprof::bmprofile::bmprofile_chip<C>) {
        check_stream<C>(files, 1, std::size_t{1} << 30);  // decoded once (cores kept)
        check_stream<C>(files, 2, std::size_t{1} << 30);
        check_stream<C>(files, 2, 1);  // decoded twice, one core at a time
      }
    });
  }
}

TEST_CASE("stream_trace: a dump directory gives what write_trace(open()) gives") {
  const fs::path dir = fs::path(TPUPROF_SAMPLES_DIR) / "synthetic/aksv_mode0_cdma2_seed1";
  const tpuprof::trace t = tpuprof::open(dir);
  recording_sink s;
  tpuprof::open_options o;
  o.threads = 2;
  const auto info = tpuprof::stream_trace(dir, s, o);
  REQUIRE(s.seen.size() == t.events().size() + t.spans().size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < t.events().size(); ++i) bad += !same_event(s.seen[i], t.events()[i]);
  CHECK(bad == 0);
  CHECK(info.diagnostics.total() == t.diagnostics().total());
  CHECK(same_tracks(info.tracks, t.info().tracks));
}
#endif
