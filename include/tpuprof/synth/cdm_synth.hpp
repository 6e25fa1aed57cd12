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
#include <stdexcept>
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
#include <tpuprof/synth/cdm_synth_deps.hpp>
#include <tpuprof/synth/cdm_synth_draw.hpp>
#include <tpuprof/synth/cdm_synth_inject.hpp>
#include <tpuprof/synth/cdm_tiu_images.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth {

/// Generated dump: file name -> bytes, and the events a decoder must yield
/// (hardware events in track order; names interned in expected.meta.names).
struct cdm_synth_result {
  std::map<std::string, std::vector<std::byte>> files;
  materialized_trace expected;
};

namespace detail {

/// One MONITOR block: the PMU records of `v` (in `ord` order when given).
inline std::vector<std::byte> pmu_block(gen_state& gs, const std::vector<gen_cmd>& v,
                                        const std::vector<std::size_t>* ord, cdm::pmu_kind kind) {
  using cdm::mem_kind;
  auto uni = [&gs](std::int64_t lo, std::int64_t hi) { return gs.uni(lo, hi); };
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
      for (int k2 = 5; k2 < 32; ++k2) s.u32(k2 == 8 ? static_cast<std::uint32_t>(g.bytes / 64) : 0);
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
}

/// global.profile, the core files and the CDMA port files.
template <class Chip>
void write_files(gen_state& gs, cdm_synth_result& res) {
  auto& o = gs.o;
  const auto ncores = gs.ncores;
  const auto nports = gs.nports;
  const auto n_tg = gs.n_tg;
  auto& cores = gs.cores;
  auto& ports = gs.ports;
  auto& dyn_words = gs.dyn_words;
  auto& extras = gs.extras;
  auto& file_order_sdma = gs.file_order_sdma;
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
    s.block(cdm::block_type::monitor_bd,
            pmu_block(gs, cores[c].eng[0], nullptr, cdm::pmu_kind::tiu));
    s.block(cdm::block_type::monitor_gdma,
            pmu_block(gs, cores[c].eng[1], nullptr, cdm::pmu_kind::gdma));
    s.block(cdm::block_type::monitor_sdma,
            pmu_block(gs, cores[c].eng[2], &file_order_sdma[c], cdm::pmu_kind::sdma));
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
    s.block(cdm::block_type::monitor_cdma, pmu_block(gs, ports[p], nullptr, cdm::pmu_kind::cdma));
    res.files["cdma_" + std::to_string(p) + ".profile"] = std::move(s.data);
  }
}

/// The events a decoder must yield: core alignment, shift, names as the vendor prints them.
template <class Chip>
void expected_events(gen_state& gs, cdm_synth_result& res) {
  auto& names = res.expected.meta.names;
  using cdm::mem_kind;
  auto& o = gs.o;
  const auto ncores = gs.ncores;
  const auto nports = gs.nports;
  const auto cdma_core = gs.cdma_core;
  auto& func_names = gs.func_names;
  auto& cores = gs.cores;
  auto& ports = gs.ports;
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
}

}  // namespace detail

/// Generates a dump for chip `Chip`. Deterministic for equal options. With `o.inject` (needs
/// deps and mode 2), `injected` (when given) receives the commands the fault touched.
template <cdm::cdm_chip Chip>
cdm_synth_result synthesize_cdm(cdm_synth_options o, inject_record* injected = nullptr) {
  if (o.inject != fault::none && (!o.deps.enabled || o.mode != 2))
    throw std::invalid_argument("synthesize_cdm: inject needs deps and mode 2");
  detail::gen_state gs = detail::plan<Chip>(o);
  detail::draw_core_commands(gs);
  std::mt19937_64 inj(o.seed ^ 0x696E6A6563742Dull);  // the fault's own stream
  if (o.inject == fault::small_dma) detail::inject_split(gs, inj);
  detail::draw_cdma_commands(gs);
  if (o.inject != fault::none) detail::inject_mark(gs, inj);
  detail::schedule_deps(gs);
  detail::assign_messages(gs);
  if (injected) *injected = detail::inject_collect(gs);
  detail::write_dyn_streams<Chip>(gs);
  detail::order_sdma(gs);
  cdm_synth_result res;
  detail::write_files<Chip>(gs, res);
  detail::expected_events<Chip>(gs, res);
  return res;
}

/// Wraps generated files as a dump_files (borrowing the result's buffers).
inline io::dump_files as_dump_files(const cdm_synth_result& r, std::string label = "<synth>") {
  return as_dump_files(r.files, std::move(label));
}

}  // namespace tpuprof::synth
