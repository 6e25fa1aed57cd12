// Issue #17, expected-vs-decoded accounting: clean generated dumps of every
// chip, mode, wrap and size report no loss; a known loss injected into them is
// counted exactly (kind and number), with the file and byte offset.
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include <tpuprof/chips/aks/traits.hpp>
#include <tpuprof/chips/aksv/traits.hpp>
#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/synth/bm1684x_synth.hpp>
#include <tpuprof/synth/cdm_synth.hpp>

using tpuprof::decode_diagnostics;
using tpuprof::diag;
namespace synth = tpuprof::synth;

namespace {

/// Every data-loss count, by kind, as "kind=n ..." (readable in failures).
std::string losses(const decode_diagnostics& d) {
  std::string s;
  for (std::size_t i = 0; i < tpuprof::diag_count; ++i) {
    const auto k = static_cast<diag>(i);
    if (tpuprof::is_data_loss(k) && d[k])
      s += std::string(tpuprof::name(k)) + "=" + std::to_string(d[k]) + " ";
  }
  return s;
}

/// True when the first note of kind `k` names `file` (a suffix) and a byte offset.
bool note_locates(const decode_diagnostics& d, diag k, const std::string& file) {
  for (const auto& n : d.notes())
    if (n.kind == k) return n.file.ends_with(file) && n.offset != tpuprof::decode_error::no_offset;
  return false;
}

template <class Chip>
decode_diagnostics cdm_diags(const synth::cdm_synth_result& r) {
  tpuprof::cdm::cdm_decoder<Chip> d(synth::as_dump_files(r, "g"));
  return d.info().diagnostics;
}

decode_diagnostics bm_diags(const synth::generated_dump& g) {
  tpuprof::bmprofile_decoder<tpuprof::chips::bm1684x> d(g.as_files("g"));
  return d.info().diagnostics;
}

std::vector<std::byte>& file_of(synth::generated_dump& g, std::string_view prefix,
                                std::string_view suffix = "") {
  for (auto& [n, b] : g.files)
    if (n.starts_with(prefix) && n.ends_with(suffix)) return b;
  FAIL("no file " << prefix);
  throw;
}

/// `key=<n>` of a text file, by a plain scan (independent of the decoders).
std::uint64_t text_value(const std::vector<std::byte>& f, const std::string& key) {
  const std::string t(reinterpret_cast<const char*>(f.data()), f.size());
  const auto p = t.find("\n" + key + "=");
  REQUIRE(p != std::string::npos);
  return std::stoull(t.substr(p + key.size() + 2));
}

struct tlv {
  std::size_t offset;
  std::uint32_t type, len;
};
std::vector<tlv> blocks_of(const std::vector<std::byte>& f) {
  std::vector<tlv> v;
  for (std::size_t o = 0; o + 8 <= f.size();) {
    std::uint32_t t, l;
    std::memcpy(&t, f.data() + o, 4);
    std::memcpy(&l, f.data() + o + 4, 4);
    v.push_back({o, t, l});
    o += 8 + l;
  }
  return v;
}

template <class Chip>
void clean_cdm_dumps() {
  for (unsigned mode : {0u, 1u, 2u})
    for (bool wrap : {false, true})
      for (unsigned records : {8u, 200u, 3000u})
        for (unsigned ports : {0u, 2u}) {
          CAPTURE(mode);
          CAPTURE(wrap);
          CAPTURE(records);
          CAPTURE(ports);
          synth::cdm_synth_options o;
          o.cores = 2;
          o.mode = mode;
          o.cycle_wrap = wrap;
          o.records = records;
          o.cdma_ports = ports;
          o.seed = 7 + records;
          CHECK(losses(cdm_diags<Chip>(synth::synthesize_cdm<Chip>(o))) == "");
        }
}

}  // namespace

TEST_CASE("clean generated dumps report no loss: every chip, mode, wrap and size") {
  clean_cdm_dumps<tpuprof::chips::aks>();
  clean_cdm_dumps<tpuprof::chips::aksv>();
  for (std::size_t layers : {1u, 20u, 400u})
    for (std::uint32_t before_wrap : {50'000'000u, 5000u}) {
      CAPTURE(layers);
      CAPTURE(before_wrap);
      synth::bm1684x_options o;
      o.layers = layers;
      o.cycles_before_wrap = before_wrap;
      CHECK(losses(bm_diags(synth::bm1684x_dump(o))) == "");
    }
}

TEST_CASE_TEMPLATE("SG2260 family: injected losses are counted exactly", Chip, tpuprof::chips::aks,
                   tpuprof::chips::aksv) {
  synth::cdm_synth_options o;
  o.cores = 2;
  o.records = 100;
  o.cdma_ports = 1;
  for (unsigned mode : {0u, 1u, 2u}) {
    CAPTURE(mode);
    o.mode = mode;
    SUBCASE("a core file truncated to 0 bytes: its records, as global.profile counts them") {
      o.cdma_ports = 0;  // CDMA records would also lose the commands that core's file held
      auto r = synth::synthesize_cdm<Chip>(o);
      const auto& g = r.files.at("global.profile");
      const std::uint64_t want = text_value(g, "core1_tiu_record") +
                                 text_value(g, "core1_gdma_record") +
                                 text_value(g, "core1_sdma_record");
      std::string core1;
      for (const auto& [n, b] : r.files)
        if (n.starts_with("cdmlib") && n.ends_with("_1.profile")) core1 = n;
      REQUIRE(!core1.empty());
      r.files[core1].clear();
      const auto d = cdm_diags<Chip>(r);
      CHECK(losses(d) == "truncated_tail=" + std::to_string(want) + " ");
      CHECK(note_locates(d, diag::truncated_tail, core1));
    }
    SUBCASE("a CDMA port file truncated to 0 bytes") {
      auto r = synth::synthesize_cdm<Chip>(o);
      const std::uint64_t want = text_value(r.files.at("global.profile"), "cdma_port0_record");
      std::string port;
      for (const auto& [n, b] : r.files)
        if (n.starts_with("cdma")) port = n;
      REQUIRE(!port.empty());
      r.files[port].clear();
      CHECK(losses(cdm_diags<Chip>(r)) == "truncated_tail=" + std::to_string(want) + " ");
    }
    SUBCASE("the records of a MONITOR block cut short by k records") {
      auto r = synth::synthesize_cdm<Chip>(o);
      std::string core0;
      for (const auto& [n, b] : r.files)
        if (n.starts_with("cdmlib") && n.ends_with("_0.profile")) core0 = n;
      auto& f = r.files[core0];
      // the TIU MONITOR block (type 1 in cdm_format) loses its last 3 records (k * 16 bytes)
      for (const auto& b : blocks_of(f))
        if (b.type == static_cast<std::uint32_t>(tpuprof::cdm::block_type::monitor_bd)) {
          const std::uint32_t cut = 3 * 16, len = b.len - cut;
          std::memcpy(f.data() + b.offset + 4, &len, 4);
          f.erase(f.begin() + static_cast<std::ptrdiff_t>(b.offset + 8 + len),
                  f.begin() + static_cast<std::ptrdiff_t>(b.offset + 8 + b.len));
          break;
        }
      const auto d = cdm_diags<Chip>(r);
      CHECK(d[diag::truncated_tail] == 3);
      CHECK(note_locates(d, diag::truncated_tail, core0));
    }
    SUBCASE(
        "a missing core file (below a present one: global.profile of the generator does not "
        "count a missing core's records)") {
      o.cores = 3;
      o.cdma_ports = 0;
      o.missing_core = 1;
      const auto d = cdm_diags<Chip>(synth::synthesize_cdm<Chip>(o));
      CHECK(losses(d) == "missing_file=1 ");
    }
  }
}

TEST_CASE("BM1684X: injected losses are counted exactly") {
  synth::bm1684x_options o;
  o.layers = 30;
  o.firmware_records = false;  // every GDMA record is then a static command's
  o.firmware_tail = false;
  const auto clean = synth::bm1684x_dump(o);
  std::uint64_t tiu = 0, gdma = 0;
  for (const auto& e : clean.expected) (e.engine == tpuprof::engine::tiu ? tiu : gdma) += 1;
  REQUIRE(losses(bm_diags(clean)) == "");
  enum : std::uint32_t { monitor_bd = 3, monitor_gdma = 4 };

  SUBCASE("a corrupted block-type word drops that engine's MONITOR block") {
    for (std::uint32_t type : {monitor_bd, monitor_gdma}) {
      CAPTURE(type);
      auto g = clean;
      auto& it = file_of(g, "iter0.profile");
      for (const auto& b : blocks_of(it))
        if (b.type == type) {
          const std::uint32_t bad = 99;
          std::memcpy(it.data() + b.offset, &bad, 4);
        }
      const auto d = bm_diags(g);
      CHECK(losses(d) ==
            "unmatched_command=" + std::to_string(type == monitor_bd ? tiu : gdma) + " ");
      CHECK(note_locates(d, diag::unmatched_command, "iter0.profile"));
    }
  }
  SUBCASE("iter0.profile cut exactly at each block boundary") {
    const auto blocks = blocks_of(file_of(const_cast<synth::generated_dump&>(clean), "iter0"));
    for (const auto& cut : blocks) {
      CAPTURE(cut.offset);
      auto g = clean;
      auto& it = file_of(g, "iter0.profile");
      bool lost_tiu = false, lost_gdma = false;
      for (const auto& b : blocks)
        if (b.offset >= cut.offset) {
          lost_tiu = lost_tiu || b.type == monitor_bd;
          lost_gdma = lost_gdma || b.type == monitor_gdma;
        }
      it.resize(cut.offset);
      if (!lost_tiu && !lost_gdma) continue;  // a block without records (SUMMARY, logs)
      try {
        const auto d = bm_diags(g);
        CHECK(d[diag::unmatched_command] >= (lost_tiu ? tiu : 0) + (lost_gdma ? gdma : 0));
        CHECK(d.data_loss());
      } catch (const tpuprof::decode_error& e) {
        CHECK(e.offset() != tpuprof::decode_error::no_offset);  // an error that says where
      }
    }
  }
  SUBCASE("a truncated TIU command buffer: the commands past the cut") {
    auto g = clean;
    auto& cmd = file_of(g, "cmd_", "_0.dat");
    const std::size_t cut = cmd.size() / 2;
    // commands that still end before the cut, framed from the clean buffer
    const tpuprof::io::byte_reader full(cmd, "cmd");
    decode_diagnostics scratch;
    std::uint64_t whole = 0;
    for (const auto& f : tpuprof::bmprofile::frame_commands<tpuprof::chips::bm1684x>(
             full, tpuprof::engine::tiu, 0, tiu, scratch))
      whole += f.offset + f.frame.length <= cut;
    cmd.resize(cut);
    const auto d = bm_diags(g);
    CHECK(d[diag::truncated_tail] + d[diag::unmatched_command] == tiu - whole);
    CHECK(d.data_loss());
  }
  SUBCASE("a missing command buffer") {
    auto g = clean;
    std::erase_if(g.files, [](const auto& f) { return f.first.ends_with("_1.dat"); });
    const auto d = bm_diags(g);
    CHECK(d[diag::missing_file] == 1);
    CHECK(d.data_loss());
  }
}
