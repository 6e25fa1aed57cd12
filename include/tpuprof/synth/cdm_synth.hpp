/// cdm_synth: a seedable generator of SG2260-family (AKS, AKSV) operator-path
/// dumps: global.profile, cdmlib0_N.profile per core and cdma_P.profile per
/// port, plus the events a correct decoder must produce from them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/decode/cdm/pmu.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/synth/cdm_tiu_images.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth {

/// What to generate.
struct cdm_synth_options {
  unsigned cores = 0;          ///< 0 = all cores of the chip
  unsigned records = 200;      ///< PMU records per core for TIU and GDMA (>= 8)
  unsigned sdma_records = 0;   ///< SDMA records per core; 0 = a quarter of `records`
  unsigned cdma_ports = 0;     ///< CDMA ports with a cdma_P.profile (0 = none)
  unsigned cdma_records = 25;  ///< PMU records per CDMA port
  unsigned mode = 1;           ///< 0 PMU only, 1 condensed commands, 2 detailed commands
  std::uint64_t seed = 1;
  /// Cycle counter value at the first init record; default leaves 4 s before the
  /// 32-bit wrap. cycle_wrap places the wrap inside the run instead.
  std::uint64_t counter_base = 289545018;
  bool cycle_wrap = false;
  /// Added to every TIU/GDMA/SDMA PMU id (e.g. 65400 puts a 16-bit id wrap
  /// inside a short run; long runs wrap by themselves past 65536 records).
  std::uint32_t id_offset = 0;
  bool out_of_order = false;    ///< write some SDMA records swapped with their successor
  int missing_core = -1;        ///< core whose file is not written (-1 = none)
  double function_ratio = 0.6;  ///< share of commands inside kernel functions
};

/// Generated dump: file name -> bytes, and the events a decoder must yield
/// (hardware events in track order; names interned in expected.meta.names).
struct cdm_synth_result {
  std::map<std::string, std::vector<std::byte>> files;
  materialized_trace expected;
};

namespace detail {

/// A little-endian bit image of one command (fields set by bit position).
struct bit_image {
  std::vector<std::uint64_t> w;
  explicit bit_image(unsigned bits) : w(bits / 64, 0) {}
  void set(unsigned lo, unsigned width, std::uint64_t v) {
    for (unsigned i = 0; i < width; ++i)
      if ((v >> i) & 1) w[(lo + i) / 64] |= std::uint64_t{1} << ((lo + i) % 64);
  }
  std::vector<std::byte> bytes() const {
    byte_sink s;
    for (auto x : w) s.u64(x);
    return s.data;
  }
};

/// One generated command with its PMU record, in true (unwrapped) cycles.
struct gen_cmd {
  std::int64_t start = 0, end = 0;
  std::uint64_t id = 0;  // PMU id (unwrapped; CDMA 1-based)
  std::uint64_t bytes = 0;
  std::uint8_t tsk = 0, eu = 0;
  cdm::mem_kind src = cdm::mem_kind::ddr, dst = cdm::mem_kind::ddr;
  std::uint8_t dtype = 1;
  bool sys = false;        // PMU sys heuristic holds
  bool has_node = true;    // appears in DYN_DATA
  bool dropped = false;    // trimmed by the decoder (init / CDMA send)
  std::int32_t func = -1;  // index into function names
  std::int32_t scope = -1;
  unsigned seq = 0;  // dispatch order key
};

}  // namespace detail

/// Generates a dump for chip `Chip`. Deterministic for equal options.
template <cdm::cdm_chip Chip>
cdm_synth_result synthesize_cdm(cdm_synth_options o) {
  using namespace detail;
  using cdm::mem_kind;
  constexpr std::int64_t two32 = std::int64_t{1} << 32;
  const unsigned ncores = o.cores == 0 || o.cores > Chip::core_count ? Chip::core_count : o.cores;
  const unsigned nports = std::min(o.cdma_ports, Chip::cdma_port_count);
  const unsigned n_tg = std::max(8u, o.records);
  const unsigned n_sdma = std::max(8u, o.sdma_records ? o.sdma_records : n_tg / 4) +
                          nports;  // + one VSDMA send per CDMA port
  const unsigned n_cdma = std::max(8u, o.cdma_records);
  const unsigned cdma_core = ncores - 1;  // carries the CDMA nodes (and their SDMA sends)
  if (nports && o.missing_core == static_cast<int>(cdma_core)) o.missing_core = -1;
  std::mt19937_64 rng(o.seed);
  auto uni = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  // Mode-2 image shapes draw from their own stream, so every mode draws the
  // same commands, times and functions for a seed.
  std::mt19937_64 img_rng(o.seed ^ 0x6D6F646532696D67ull);
  auto img_rnd = [&](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(img_rng);
  };
  const std::vector<std::string> func_names{"embedding_lookup", "softmax_kernel", "silu_mul",
                                            "rms_norm",         "attention_qk",   "gemm_kernel"};
  // Expected run length, to place the cycle wrap inside the run.
  const std::int64_t run_estimate = static_cast<std::int64_t>(n_tg) * 3000;
  const std::int64_t base =
      o.cycle_wrap ? two32 - run_estimate / 3 : static_cast<std::int64_t>(o.counter_base);

  struct core_gen {
    std::vector<gen_cmd> eng[3];  // tiu, gdma, sdma
    std::int64_t anchor = 0;
  };
  std::vector<core_gen> cores(ncores);
  std::vector<std::vector<gen_cmd>> ports(nports);

  // TIU ops used (tsk, eu): valid short classes on AKS and AKSV.
  const std::uint8_t tiu_ops[][2] = {{2, 4},  {2, 5},  {0, 0}, {3, 2}, {3, 0}, {3, 14},
                                     {3, 19}, {9, 13}, {4, 0}, {5, 0}, {1, 1}, {14, 2}};
  for (unsigned c = 0; c < ncores; ++c) {
    auto& cg = cores[c];
    const std::int64_t L = base + uni(0, 3000);
    // Init handshake: GDMA send -> BD wait, twice; SDMA likewise. All sys records.
    auto init = [&](std::vector<gen_cmd>& v, std::int64_t t, std::uint8_t tsk, std::uint8_t eu0) {
      for (unsigned k = 0; k < 2; ++k) {
        gen_cmd g;
        g.start = t + 550 * k;
        g.end = g.start + 11 + 25 * k;
        g.tsk = tsk;
        g.eu = static_cast<std::uint8_t>(eu0 + (tsk == cdm::tiu_sys_code ? 0 : k));
        g.sys = true;
        g.dropped = true;
        v.push_back(g);
      }
    };
    init(cg.eng[1], L, cdm::dma_sys_code, 3);
    init(cg.eng[0], L + 440, cdm::tiu_sys_code, 9);
    init(cg.eng[2], L + 280, cdm::dma_sys_code, 3);
    cg.anchor = cg.eng[0][1].end;
    // Data commands.
    for (int e = 0; e < 3; ++e) {
      auto& v = cg.eng[e];
      std::int64_t t = cg.anchor + uni(20, 400);
      const unsigned n = e == 2 ? n_sdma : n_tg;
      if (e == 2 && c == cdma_core)
        for (unsigned p = 0; p < nports; ++p) {  // VSDMA sends of the C2C barrier
          gen_cmd g;
          g.start = t;
          g.end = t + 40;
          g.tsk = cdm::dma_sys_code;
          g.eu = 3;
          g.sys = true;
          g.dropped = true;
          v.push_back(g);
          t = g.end + uni(5, 50);
        }
      while (v.size() < n) {
        gen_cmd g;
        const bool sys_pair = e < 2 && uni(0, 30) == 0;
        if (e == 0) {
          const auto& op = tiu_ops[uni(0, static_cast<std::int64_t>(std::size(tiu_ops)) - 1)];
          g.tsk = sys_pair ? cdm::tiu_sys_code : op[0];
          g.eu = sys_pair ? 8 : op[1];
          g.dtype = static_cast<std::uint8_t>(uni(0, 2));
          g.end = 0;
          g.start = t;
          g.end = t + (sys_pair ? uni(5, 40) : uni(50, 8000));
        } else {
          g.start = t;
          if (sys_pair) {
            g.tsk = cdm::dma_sys_code;
            g.eu = 4;
            g.end = t + uni(5, 200);
          } else {
            const int kind = static_cast<int>(uni(0, 9));
            g.dtype = static_cast<std::uint8_t>(uni(0, 2));
            if (e == 2) {  // SDMA: DDR-side traffic
              g.tsk = kind < 5 ? 3 : 0;
              g.src = kind == 9 ? mem_kind::l2m : mem_kind::ddr;
              g.dst = kind == 8 ? mem_kind::l2m : mem_kind::ddr;
            } else {
              g.tsk = kind < 6 ? 0 : kind < 8 ? 1 : kind == 8 ? 3 : 7;
              const mem_kind m[3] = {mem_kind::ddr, mem_kind::l2m, mem_kind::lmem};
              g.src = kind < 4 ? mem_kind::ddr : m[uni(0, 2)];
              g.dst = kind < 4 ? mem_kind::lmem : m[uni(0, 2)];
            }
            g.end = t + uni(300, e == 2 ? 30000 : 8000);
            g.bytes = static_cast<std::uint64_t>((g.end - g.start) * uni(8, 120) / 64 * 64 + 64);
          }
        }
        g.sys = sys_pair;
        v.push_back(g);
        t = g.end + uni(1, 3000);
      }
    }
  }
  // CDMA ports: wait + nop init records, then transfers; aligned on the CDMA
  // core's VSDMA send p (the wait ends when the send ends).
  for (unsigned p = 0; p < nports; ++p) {
    auto& v = ports[p];
    const auto& send = cores[cdma_core].eng[2][2 + p];
    std::int64_t t = send.end - 30;
    for (unsigned k = 0; k < 2; ++k) {
      gen_cmd g;
      g.start = t;
      g.end = k == 0 ? send.end : t + 20;
      g.tsk = cdm::cdma_sys_code;
      g.eu = k == 0 ? 4 : 1;
      g.sys = true;
      g.dropped = true;
      v.push_back(g);
      t = g.end + 10;
    }
    while (v.size() < n_cdma) {
      gen_cmd g;
      g.start = t + uni(100, 20000);
      g.end = g.start + uni(5000, 90000);
      g.tsk = static_cast<std::uint8_t>(uni(0, 3));
      g.bytes = static_cast<std::uint64_t>((g.end - g.start) * uni(8, 40) / 64 * 64 + 64);
      v.push_back(g);
      t = g.end;
    }
  }
  // PMU ids: TIU/GDMA/SDMA 0-based (+ id_offset), CDMA 1-based.
  for (auto& cg : cores)
    for (auto& v : cg.eng)
      for (std::size_t i = 0; i < v.size(); ++i) v[i].id = o.id_offset + i;
  for (auto& v : ports)
    for (std::size_t i = 0; i < v.size(); ++i) v[i].id = i + 1;

  // Kernel functions: the per-core dispatch order (by start) is cut into runs;
  // a run is inside a function with probability function_ratio. Scopes are
  // numbered across core files in file order, as the vendor does.
  std::int32_t next_scope = 0;
  cdm_synth_result res;
  auto& names = res.expected.meta.names;
  std::vector<std::vector<std::uint32_t>> dyn_words(ncores);
  std::vector<std::vector<std::vector<std::byte>>> extras(ncores);
  for (unsigned c = 0; c < ncores; ++c) {
    const bool present = static_cast<int>(c) != o.missing_core;
    auto& cg = cores[c];
    struct ref {
      int eng;  // 0..2 core engines, 3 cdma
      unsigned port;
      std::size_t idx;
      std::int64_t start;
      int pri;
    };
    std::vector<ref> order;
    for (int e = 0; e < 3; ++e)
      for (std::size_t i = 0; i < cg.eng[e].size(); ++i)
        order.push_back({e, 0, i, cg.eng[e][i].start, cg.eng[e][i].dropped ? 0 : 1});
    if (c == cdma_core)
      for (unsigned p = 0; p < nports; ++p)
        for (std::size_t i = 0; i < ports[p].size(); ++i)
          order.push_back({3, p, i, ports[p][i].start, ports[p][i].dropped ? 0 : 1});
    std::stable_sort(order.begin(), order.end(), [](const ref& a, const ref& b) {
      return a.pri != b.pri ? a.pri < b.pri : a.start < b.start;
    });
    auto at = [&](const ref& r) -> gen_cmd& {
      return r.eng == 3 ? ports[r.port][r.idx] : cg.eng[r.eng][r.idx];
    };
    auto& words = dyn_words[c];
    std::int32_t cur_func = -1, cur_scope = -1;
    std::size_t run_left = 0;
    for (const auto& r : order) {
      gen_cmd& g = at(r);
      if (!g.dropped && o.mode > 0) {
        if (run_left == 0) {
          if (cur_func >= 0) words.push_back(cdm::dyn_word::make(15, 0, 0, 0, 0).raw);
          cur_func = -1;
          cur_scope = -1;
          run_left = static_cast<std::size_t>(uni(5, 60));
          if (std::uniform_real_distribution<double>(0, 1)(rng) < o.function_ratio) {
            cur_func =
                static_cast<std::int32_t>(uni(0, static_cast<std::int64_t>(func_names.size()) - 1));
            if (present) cur_scope = next_scope++;
            const auto& fn = func_names[static_cast<std::size_t>(cur_func)];
            words.push_back(static_cast<std::uint32_t>(fn.size()) << 7 | 0u);
            for (std::size_t k = 0; k < fn.size(); k += 4) {
              std::uint32_t w = 0;
              for (std::size_t b = 0; b < 4 && k + b < fn.size(); ++b)
                w |= static_cast<std::uint32_t>(static_cast<unsigned char>(fn[k + b])) << (8 * b);
              words.push_back(w);
            }
          }
        }
        --run_left;
        g.func = cur_func;
        g.scope = cur_scope;
      }
      if (o.mode == 0) continue;
      // The NODE_SET word of this command.
      const auto& E = Chip::dyn_engines;
      const int eng = r.eng == 0 ? E.bd : r.eng == 1 ? E.gdma : r.eng == 2 ? E.sdma : E.cdma;
      std::uint32_t extra = 0;
      if (r.eng == 0)
        extra = g.dtype;
      else if (r.eng == 3)
        extra = r.port << 8;
      else if (g.tsk != cdm::dma_sys_code)
        extra = static_cast<std::uint32_t>(g.dtype) | static_cast<std::uint32_t>(g.src) << 4 |
                static_cast<std::uint32_t>(g.dst) << 6;
      words.push_back(
          cdm::dyn_word::make(1, static_cast<std::uint32_t>(eng), g.tsk, g.eu, extra).raw);
      if (o.mode == 2) {
        // Raw register image of the command (DYN_EXTRA), one per non-RVT node.
        std::vector<std::byte> img;
        if (r.eng == 0) {
          img = cdm_images::write_tiu<Chip>(g.tsk, g.eu, g.dtype, img_rnd).bytes;
        } else if (r.eng == 3) {
          bit_image b(128);
          b.set(4, 4, g.tsk);
          img = b.bytes();
        } else {
          const bool sys = g.tsk == cdm::dma_sys_code;
          bit_image b(sys ? 128 : 768);
          b.set(3, 1, sys);
          b.set(32, 5, g.tsk);
          b.set(37, 3, g.eu);
          b.set(41, 4, sys ? 0 : g.dtype);  // sys: dtype 0, as its DYN_DATA word says
          if (!sys) {
            auto tag = [](mem_kind m) -> std::uint64_t {
              return m == mem_kind::lmem ? 31 : m == mem_kind::l2m ? 30 : 1;
            };
            b.set(544, 13, tag(g.src) << 8);
            b.set(608, 13, tag(g.dst) << 8);
          }
          img = b.bytes();
        }
        extras[c].push_back(std::move(img));
      }
    }
    if (cur_func >= 0 && o.mode > 0) words.push_back(cdm::dyn_word::make(15, 0, 0, 0, 0).raw);
  }

  // Out-of-order SDMA records (file order only): swap pairs away from both
  // wraps; the decoder's send/retire repair restores them.
  std::vector<std::vector<std::size_t>> file_order_sdma(ncores);
  for (unsigned c = 0; c < ncores; ++c) {
    auto& v = cores[c].eng[2];
    auto& ord = file_order_sdma[c];
    ord.resize(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) ord[i] = i;
    if (!o.out_of_order) continue;
    for (std::size_t i = 4 + nports; i + 3 < v.size(); i += 7) {
      const auto lo = v[i - 1].end, hi = v[i + 2].start;
      if (lo / two32 != (hi + 1) / two32 || v[i - 1].end / two32 != v[i - 1].start / two32)
        continue;
      bool near_id_wrap = false;
      for (std::size_t k = i - 1; k <= i + 2; ++k)
        near_id_wrap = near_id_wrap || v[k].id % 65536 == 0;
      if (near_id_wrap) continue;
      std::swap(ord[i], ord[i + 1]);
    }
  }

  // ---- files
  auto pmu_block = [&](const std::vector<gen_cmd>& v, const std::vector<std::size_t>* ord,
                       cdm::pmu_kind kind) {
    byte_sink s;
    for (std::size_t k = 0; k < v.size(); ++k) {
      const gen_cmd& g = v[ord ? (*ord)[k] : k];
      const auto st = static_cast<std::uint32_t>(g.start & 0xFFFFFFFF);
      const auto en = static_cast<std::uint32_t>(g.end & 0xFFFFFFFF);
      s.u32(st);
      s.u32(en);
      if (kind == cdm::pmu_kind::tiu) {
        s.u32(static_cast<std::uint32_t>(g.id & 0xFFFF));
        s.u32(g.sys ? 2u : 4u * static_cast<std::uint32_t>(uni(0, 3)));
      } else if (kind == cdm::pmu_kind::cdma) {
        s.u32(static_cast<std::uint32_t>(g.id & 0xFFFFFF));
        s.u32(0);
        s.u32(static_cast<std::uint32_t>(g.sys ? 0 : g.bytes));  // m0_data_aw_cntr
        for (int k2 = 5; k2 < 32; ++k2)
          s.u32(k2 == 8 ? static_cast<std::uint32_t>(g.bytes / 64) : 0);
      } else {
        s.u32(static_cast<std::uint32_t>(g.id & 0xFFFF));
        s.u32(static_cast<std::uint32_t>(uni(0, 0xFFF)) << 1);  // latency counters, thread 0
        s.u32(static_cast<std::uint32_t>(uni(0, 20)));          // stall
        const bool to_ddr = g.dst == mem_kind::ddr;
        const auto b = static_cast<std::uint32_t>(g.sys ? 0 : g.bytes);
        s.u32(to_ddr ? b : 0);  // axi_d0_w_cntr
        s.u32(0);
        s.u32(0);
        s.u32(0);
        s.u32(0);
        s.u32(to_ddr ? 0 : b);  // gif_mem_w_cntr
        s.u32(0);
        const auto valid = g.sys ? 0u : static_cast<std::uint32_t>(g.bytes / 128 + 1);
        s.u32(valid);
        s.u32(valid / 2);
        s.u32(0);
        s.u32(0);
      }
    }
    return s.data;
  };
  // arch: the chip-id spelling of the chip's arch_ids (0x2260 = 8800, 0x2260E = 140814).
  std::string g = "arch=" + std::to_string(Chip::arch_ids[1]) + "\ntpu_freq=1000\nmax_record_num=" +
                  std::to_string(std::max(4194304u, 4 * n_tg)) + "\n";
  for (unsigned p = 0; p < nports; ++p)
    g += "cdma_port" + std::to_string(p) + "_record=" + std::to_string(ports[p].size()) + "\n";
  for (unsigned c = 0; c < ncores; ++c)
    g += "core" + std::to_string(c) + "_tiu_record=" + std::to_string(cores[c].eng[0].size()) +
         "\ncore" + std::to_string(c) + "_gdma_record=" + std::to_string(cores[c].eng[1].size()) +
         "\ncore" + std::to_string(c) + "_sdma_record=" + std::to_string(cores[c].eng[2].size()) +
         "\n";
  g += "tail_offset_ns=49714\n";
  res.files["global.profile"] = text_bytes(g);
  for (unsigned c = 0; c < ncores; ++c) {
    if (static_cast<int>(c) == o.missing_core) continue;
    byte_sink s;
    s.block(cdm::block_type::monitor_bd, pmu_block(cores[c].eng[0], nullptr, cdm::pmu_kind::tiu));
    s.block(cdm::block_type::monitor_gdma,
            pmu_block(cores[c].eng[1], nullptr, cdm::pmu_kind::gdma));
    s.block(cdm::block_type::monitor_sdma,
            pmu_block(cores[c].eng[2], &file_order_sdma[c], cdm::pmu_kind::sdma));
    if (o.mode > 0) {
      byte_sink d;
      for (auto w : dyn_words[c]) d.u32(w);
      s.block(cdm::block_type::dyn_data, d.data);  // DYN_DATA before DYN_EXTRA, as writers do
    }
    if (o.mode == 2) {
      byte_sink x;
      for (auto& img : extras[c]) {
        x.u32(0);
        x.u32(1);
        x.u32(static_cast<std::uint32_t>(img.size()));
        x.bytes(img);
      }
      s.block(cdm::block_type::dyn_extra, x.data);
    }
    res.files["cdmlib0_" + std::to_string(c) + ".profile"] = std::move(s.data);
  }
  for (unsigned p = 0; p < nports; ++p) {
    byte_sink s;
    s.block(cdm::block_type::monitor_cdma, pmu_block(ports[p], nullptr, cdm::pmu_kind::cdma));
    res.files["cdma_" + std::to_string(p) + ".profile"] = std::move(s.data);
  }

  // ---- intended events: core alignment on the anchors, shift by the first
  // record of every kept list, names as the vendor prints them.
  int first_core = -1;
  for (unsigned c = 0; c < ncores; ++c)
    if (static_cast<int>(c) != o.missing_core) {
      first_core = static_cast<int>(c);
      break;
    }
  const std::int64_t base_anchor = cores[static_cast<unsigned>(first_core)].anchor;
  std::int64_t t0 = std::numeric_limits<std::int64_t>::max();
  auto first_kept = [](const std::vector<gen_cmd>& v) -> const gen_cmd* {
    for (const auto& x : v)
      if (!x.dropped) return &x;
    return nullptr;
  };
  for (unsigned c = 0; c < ncores; ++c) {
    if (static_cast<int>(c) == o.missing_core) continue;
    const std::int64_t shift = cores[c].anchor - base_anchor;
    for (auto& v : cores[c].eng)
      if (auto* f = first_kept(v)) t0 = std::min(t0, f->start - shift);
  }
  for (auto& v : ports)
    if (auto* f = first_kept(v))
      t0 = std::min(t0, f->start - (cores[cdma_core].anchor - base_anchor));

  auto emit = [&](const std::vector<gen_cmd>& v, engine eng, unsigned unit, std::int64_t shift) {
    // Sys labels (mode 0 names) alternate send/wait over the kept records.
    unsigned sys_seen = 0;
    for (const auto& x : v) {
      if (x.dropped) continue;
      engine_event e;
      e.engine = eng;
      e.unit = static_cast<std::uint8_t>(unit);
      e.begin_cycle = static_cast<std::uint64_t>(x.start - shift - t0);
      e.end_cycle = static_cast<std::uint64_t>(x.end - shift - t0);
      e.begin_ns = static_cast<double>(e.begin_cycle);
      e.end_ns = static_cast<double>(e.end_cycle);
      e.cmd_id = static_cast<std::uint32_t>(eng == engine::cdma ? x.id : x.id + 1);
      const bool label_send = x.sys && sys_seen % 2 == 0;
      if (x.sys) ++sys_seen;
      typename Chip::op_names n;
      mem_kind src = mem_kind::ddr, dst = mem_kind::ddr;
      if (o.mode == 0) {
        if (eng == engine::tiu)
          n = Chip::tiu_names(x.sys ? 15 : 31, x.sys ? (label_send ? 8 : 9) : 0);
        else if (eng == engine::cdma)
          n = Chip::cdma_op_names(x.sys ? 7 : 31, x.sys ? (label_send ? 3 : 4) : 0);
        else
          n = Chip::dma_op_names(x.sys ? 6 : 31, x.sys ? (label_send ? 3 : 4) : 0, src, dst);
      } else {
        e.set_flag(engine_event::flag_matched);
        if (x.func >= 0) {
          e.function = names.intern(func_names[static_cast<std::size_t>(x.func)]);
          e.group = static_cast<std::uint16_t>(x.scope);
        }
        if (eng == engine::tiu) {
          if (o.mode == 2) {
            auto cls = Chip::tiu_class_of(x.tsk, x.eu, x.tsk != cdm::tiu_sys_code);
            n.type = std::string(cls ? cls->name : "unknown");
            n.name = std::string(Chip::tiu_op(x.tsk, x.eu));
          } else {
            n = Chip::tiu_names(x.tsk, x.eu);
          }
        } else if (eng == engine::cdma) {
          n = Chip::cdma_op_names(x.tsk, x.eu);
        } else {
          if (x.tsk != cdm::dma_sys_code) {
            src = x.src;
            dst = x.dst;
          }
          n = Chip::dma_op_names(x.tsk, x.eu, src, dst);
        }
      }
      if (eng != engine::tiu) {
        e.bytes = x.sys ? 0 : x.bytes;
        e.set_flag(engine_event::flag_has_bytes);
        constexpr direction t[3][3] = {{direction::s2s, direction::s2m, direction::s2l},
                                       {direction::m2s, direction::m2m, direction::m2l},
                                       {direction::l2s, direction::l2m, direction::l2l}};
        e.set_dir(t[static_cast<unsigned>(src)][static_cast<unsigned>(dst)]);
      }
      e.op = names.intern(n.name);
      e.op_type = names.intern(n.type);
      res.expected.hw.push_back(e);
    }
  };
  auto& meta = res.expected.meta;
  meta.chip = std::string(Chip::name);
  meta.cores = Chip::core_count;
  for (unsigned c = 0; c < ncores; ++c) {
    if (static_cast<int>(c) == o.missing_core) continue;
    const std::int64_t shift = cores[c].anchor - base_anchor;
    emit(cores[c].eng[0], engine::tiu, c, shift);
    emit(cores[c].eng[1], engine::gdma, c, shift);
    emit(cores[c].eng[2], engine::sdma, c, shift);
  }
  for (unsigned p = 0; p < nports; ++p)
    emit(ports[p], engine::cdma, p, cores[cdma_core].anchor - base_anchor);
  return res;
}

/// Wraps generated files as a dump_files (borrowing the result's buffers).
inline io::dump_files as_dump_files(const cdm_synth_result& r, std::string label = "<synth>") {
  return as_dump_files(r.files, std::move(label));
}

}  // namespace tpuprof::synth
