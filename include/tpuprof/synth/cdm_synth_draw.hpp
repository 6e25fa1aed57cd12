/// cdm_synth_draw: the first stages of the SG2260-family generator: options,
/// sizes and random streams, then the commands of every core and CDMA port, the
/// DYN_DATA / DYN_EXTRA streams and the SDMA file order (cdm_synth.hpp writes
/// the files and the expected events from them).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/chips/common/sync_messages.hpp>
#include <tpuprof/decode/cdm/chip.hpp>
#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/synth/cdm_tiu_images.hpp>
#include <tpuprof/synth/dep_schedule.hpp>
#include <tpuprof/synth/dump_writer.hpp>
#include <tpuprof/synth/inject.hpp>

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
  /// Schedule TIU, GDMA and SDMA from dependencies between TIU and GDMA (written into the
  /// mode-2 register images; modes 0/1 carry none), durations scaled per engine
  /// (cdm_synth_deps.hpp). Off (default): the historical schedule, byte-identical dumps.
  dep_options deps{};
  /// With deps and mode 2: one known fault (synth/inject.hpp, cdm_synth_inject.hpp).
  fault inject = fault::none;
  /// With inject = serial_dma: the fault's reference program instead, the one its cost is
  /// measured against: the same commands and windows, each window GDMA command waiting for the
  /// TIU command before the one it waits for in the faulted dump (double-buffered loads, the
  /// BM1684X generator's clean program). Ignored for the other faults (their reference is the
  /// clean dump).
  bool inject_reference = false;
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
  /// --deps: dispatch order key (start time at scale 1, so every scale dispatches alike)
  std::int64_t seq = 0;
  /// --deps: the command it waits for (engine index on the same core, index), -1 = none
  int dep_eng = -1;
  std::size_t dep_idx = 0;
  /// --inject (cdm_synth_inject.hpp): the fault this command carries, a small-dma piece after
  /// its head, a starved-tiu load some TIU command waits for, a dispatch stall, lane-underuse
  /// channels
  fault inj = fault::none;
  bool piece = false, waited = false;
  std::int64_t stall = 0;
  std::uint64_t lane_c = 0;
  /// Sync messages (mode 2 images): the message id and count of a TIU send_msg / GDMA
  /// sys_wait; `sync_idx` = the TIU send a GDMA wait waits for (-1 = none).
  std::uint32_t msg = 0, msg_cnt = 0;
  std::int64_t sync_idx = -1;
};

/// Per core: the commands of TIU, GDMA, SDMA and the alignment anchor.
struct core_gen {
  std::vector<gen_cmd> eng[3];  // tiu, gdma, sdma
  std::int64_t anchor = 0;
};

inline constexpr std::int64_t two32 = std::int64_t{1} << 32;

/// The generator's state: sizes, random streams and what the stages drew.
struct gen_state {
  cdm_synth_options o;
  unsigned ncores = 0, nports = 0, n_tg = 0, n_sdma = 0, n_cdma = 0;
  unsigned cdma_core = 0;  ///< carries the CDMA nodes (and their SDMA sends)
  std::int64_t base = 0;   ///< cycle counter at the first init record
  std::mt19937_64 rng;
  /// Mode-2 image shapes draw from their own stream, so every mode draws the
  /// same commands, times and functions for a seed.
  std::mt19937_64 img_rng;
  std::vector<std::string> func_names{"embedding_lookup", "softmax_kernel", "silu_mul",
                                      "rms_norm",         "attention_qk",   "gemm_kernel"};
  std::vector<core_gen> cores;
  std::vector<std::vector<gen_cmd>> ports;
  std::vector<std::vector<std::uint32_t>> dyn_words;
  std::vector<std::vector<std::vector<std::byte>>> extras;
  std::vector<std::vector<std::size_t>> file_order_sdma;
  /// --inject serial-dma: the windows' phase in [0, 0.2) (cdm_synth_inject.hpp); -1 = none.
  double serial_window = -1;

  std::int64_t uni(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
  std::int64_t img_uni(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(img_rng);
  }
};

/// Sizes and random streams for chip `Chip`.
template <class Chip>
gen_state plan(cdm_synth_options o) {
  gen_state g;
  g.ncores = o.cores == 0 || o.cores > Chip::core_count ? Chip::core_count : o.cores;
  g.nports = std::min(o.cdma_ports, Chip::cdma_port_count);
  g.n_tg = std::max(8u, o.records);
  g.n_sdma = std::max(8u, o.sdma_records ? o.sdma_records : g.n_tg / 4) +
             g.nports;  // + one VSDMA send per CDMA port
  g.n_cdma = std::max(8u, o.cdma_records);
  g.cdma_core = g.ncores - 1;
  if (g.nports && o.missing_core == static_cast<int>(g.cdma_core)) o.missing_core = -1;
  g.rng.seed(o.seed);
  g.img_rng.seed(o.seed ^ 0x6D6F646532696D67ull);
  // Expected run length, to place the cycle wrap inside the run.
  const std::int64_t run_estimate = static_cast<std::int64_t>(g.n_tg) * 3000;
  g.base = o.cycle_wrap ? two32 - run_estimate / 3 : static_cast<std::int64_t>(o.counter_base);
  g.cores.resize(g.ncores);
  g.ports.resize(g.nports);
  g.dyn_words.resize(g.ncores);
  g.extras.resize(g.ncores);
  g.file_order_sdma.resize(g.ncores);
  g.o = o;
  return g;
}

/// Commands of every core: init handshakes, then data commands (TIU, GDMA, SDMA).
inline void draw_core_commands(gen_state& gs) {
  using cdm::mem_kind;
  const auto ncores = gs.ncores;
  const auto nports = gs.nports;
  const auto n_tg = gs.n_tg;
  const auto n_sdma = gs.n_sdma;
  const auto cdma_core = gs.cdma_core;
  const auto base = gs.base;
  auto& cores = gs.cores;
  auto uni = [&gs](std::int64_t lo, std::int64_t hi) { return gs.uni(lo, hi); };
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
}

/// Commands of every CDMA port, then the PMU ids of every list.
inline void draw_cdma_commands(gen_state& gs) {
  auto& o = gs.o;
  const auto nports = gs.nports;
  const auto n_cdma = gs.n_cdma;
  const auto cdma_core = gs.cdma_core;
  auto& cores = gs.cores;
  auto& ports = gs.ports;
  auto uni = [&gs](std::int64_t lo, std::int64_t hi) { return gs.uni(lo, hi); };
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
}

/// The 21-bit dependency field of `g`: bit 20 enables it, the low 20 bits are the awaited
/// command's 1-based id (PMU id + 1) on the other engine; 0 = none.
inline std::uint64_t dep_field(const core_gen& cg, const gen_cmd& g) {
  if (g.dep_eng < 0) return 0;
  const auto& a = cg.eng[g.dep_eng][g.dep_idx];
  return (std::uint64_t{1} << 20) | ((a.id + 1) & 0xFFFFF);
}
/// ORs the low `width` bits of `v` at bit `lo` into a little-endian image.
inline void put_bits(std::vector<std::byte>& d, unsigned lo, unsigned width, std::uint64_t v) {
  for (unsigned i = 0; i < width && i < 64; ++i)
    if ((v >> i) & 1 && (lo + i) / 8 < d.size())
      d[(lo + i) / 8] |= static_cast<std::byte>(1u << ((lo + i) % 8));
}
/// The 21-bit dependency field (dep_field()) at bit `lo`.
inline void put_dep(std::vector<std::byte>& d, unsigned lo, std::uint64_t v) {
  put_bits(d, lo, 21, v);
}

/// Writes the message of sync command `g` (TIU `imm`, DMA `constant_value`) into image `d`,
/// in the chip's layout (Chip::messages).
template <class Chip>
void put_message(std::vector<std::byte>& d, bool tiu, const gen_cmd& g) {
  const regs::reg_table* t = tiu ? Chip::tiu_table(g.tsk, g.eu, false) : Chip::dma_table(g.tsk);
  const auto i = t ? t->find(tiu ? "imm" : "constant_value") : std::nullopt;
  if (!i) return;
  const regs::reg_field f = t->fields[*i];
  const std::uint64_t v =
      chips::common::message_value(tiu ? Chip::messages.tiu : Chip::messages.dma, g.msg, g.msg_cnt);
  put_bits(d, f.lo, f.width, v);
}

/// Message ids of every core's sync commands: each GDMA sys_wait waits for one TIU send_msg of
/// its core (--deps: the last one issued before it, which the schedule made it wait for;
/// else the last one that ended before it began); sends of core c are numbered 1 + 32 c + (k
/// mod 31) (ids unique across cores, fitting 8 bits, reused over time); a wait with no send
/// gets id 0, which no send has. A send's count is the number of its waits, a wait's 1.
inline void assign_messages(gen_state& gs) {
  for (unsigned c = 0; c < gs.ncores; ++c) {
    auto& tiu = gs.cores[c].eng[0];
    std::vector<std::size_t> sends;
    for (std::size_t i = 0; i < tiu.size(); ++i)
      if (tiu[i].sys && !tiu[i].dropped && tiu[i].eu == 8) {
        tiu[i].msg = 1 + 32 * c + static_cast<std::uint32_t>(sends.size() % 31);
        sends.push_back(i);
      }
    for (auto& w : gs.cores[c].eng[1]) {
      if (!w.sys || w.dropped || w.eu != 4) continue;
      if (!gs.o.deps.enabled) {
        w.sync_idx = -1;
        for (std::size_t i : sends)
          if (tiu[i].end <= w.start) w.sync_idx = static_cast<std::int64_t>(i);
      }
      w.msg_cnt = 1;
      if (w.sync_idx < 0) continue;
      auto& s = tiu[static_cast<std::size_t>(w.sync_idx)];
      w.msg = s.msg;
      ++s.msg_cnt;
    }
  }
}

/// Kernel functions and the DYN_DATA words (and mode-2 DYN_EXTRA images) of each core.
template <class Chip>
void write_dyn_streams(gen_state& gs) {
  using cdm::mem_kind;
  auto& o = gs.o;
  const auto ncores = gs.ncores;
  const auto nports = gs.nports;
  const auto cdma_core = gs.cdma_core;
  auto& rng = gs.rng;
  auto& func_names = gs.func_names;
  auto& cores = gs.cores;
  auto& ports = gs.ports;
  auto& dyn_words = gs.dyn_words;
  auto& extras = gs.extras;
  auto uni = [&gs](std::int64_t lo, std::int64_t hi) { return gs.uni(lo, hi); };
  auto img_rnd = [&gs](std::int64_t lo, std::int64_t hi) { return gs.img_uni(lo, hi); };
  // Kernel functions: the per-core dispatch order (by start) is cut into runs;
  // a run is inside a function with probability function_ratio. Scopes are
  // numbered across core files in file order, as the vendor does.
  std::int32_t next_scope = 0;
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
    if (o.deps.enabled)  // dispatch order of the unscaled schedule
      for (auto& r : order)
        if (r.eng < 3 && r.pri == 1) r.start = cg.eng[r.eng][r.idx].seq;
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
          img = cdm_images::write_tiu<Chip>(g.tsk, g.eu, g.dtype, img_rnd, g.lane_c).bytes;
          if (g.inj == fault::bank_conflict) cdm_images::conflict_bank<Chip>(img, g.tsk, g.eu);
          put_dep(img, 17, dep_field(cg, g));
          if (g.sys) put_message<Chip>(img, true, g);
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
          if (r.eng < 3) b.set(64, 21, dep_field(cg, g));
          img = b.bytes();
          if (sys) put_message<Chip>(img, false, g);
        }
        extras[c].push_back(std::move(img));
      }
    }
    if (cur_func >= 0 && o.mode > 0) words.push_back(cdm::dyn_word::make(15, 0, 0, 0, 0).raw);
  }
}

/// File order of the SDMA records (some pairs swapped with out_of_order).
inline void order_sdma(gen_state& gs) {
  auto& o = gs.o;
  const auto ncores = gs.ncores;
  const auto nports = gs.nports;
  auto& cores = gs.cores;
  auto& file_order_sdma = gs.file_order_sdma;
  // Out-of-order SDMA records (file order only): swap pairs away from both
  // wraps; the decoder's send/retire repair restores them.
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
}

}  // namespace detail
}  // namespace tpuprof::synth
