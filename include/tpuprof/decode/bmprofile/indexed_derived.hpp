/// What the decoder derives from the events of position-paired dumps (indexed.hpp) once they
/// are built: the decoded command of each event (operands for the memory charts) and the layer
/// and subnet rows, as spans.hpp does for the other bmprofile chips.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/bmprofile/indexed.hpp>
#include <tpuprof/decode/bmprofile/records.hpp>
#include <tpuprof/decode/bmprofile/spans.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>

namespace tpuprof::bmprofile {

/// A chip that decodes its listed commands into instructions.
template <class T>
concept indexed_decoding =
    indexed_chip<T> &&
    requires(std::span<const std::byte> s, typename T::tgcr_state& tg, regs::instruction& i) {
      T::decode_command(engine::tiu, std::string_view{}, std::string_view{}, s, tg, i);
    };

/// Decodes every listed command of every core into `store` (one vector per core and engine,
/// never resized afterwards: `cmds` points into it) and maps each matched event to its
/// command. Commands of classes without a converter are counted in one diagnostic.
template <indexed_chip Chip>
void index_commands(const std::vector<indexed_core>& cores, const std::vector<pmu_list>& lists,
                    std::vector<std::vector<regs::instruction>>& store, command_lookup& cmds,
                    const std::string& label, decode_diagnostics& diag) {
  if constexpr (indexed_decoding<Chip>) {
    store.assign(cores.size() * 2, {});
    std::map<std::pair<std::uint16_t, std::uint8_t>, std::size_t> where;
    std::uint64_t unsupported = 0;
    for (std::size_t i = 0; i < cores.size(); ++i) {
      where[{cores[i].iteration, cores[i].core}] = i;
      for (int e = 0; e < 2; ++e) {
        typename Chip::tgcr_state tg{};
        auto& out = store[i * 2 + static_cast<std::size_t>(e)];
        out.resize(cores[i].cmds[e].size());
        for (std::size_t k = 0; k < out.size(); ++k) {
          const auto& c = cores[i].cmds[e][k];
          const auto st = Chip::decode_command(e == 0 ? engine::tiu : engine::gdma, c.cls,
                                               c.frame.op, c.bytes, tg, out[k]);
          if (st != decltype(st)::ok) ++unsupported;
        }
      }
    }
    if (unsupported)
      diag.add(diag::other, label, decode_error::no_offset,
               "descriptors the vendor's converters do not cover: no operands for them",
               unsupported);
    for (const auto& l : lists) {
      const auto w = where.find({l.iteration, l.core});
      if (w == where.end()) continue;
      const auto& ins = store[w->second * 2 + (l.eng == engine::tiu ? 0 : 1)];
      for (const auto& ev : l.events)
        if (ev.matched() && ev.cmd_id < ins.size() && ins[ev.cmd_id].table)
          cmds.emplace(command_key(ev), &ins[ev.cmd_id]);
    }
  } else {
    (void)cores, (void)lists, (void)store, (void)cmds, (void)label, (void)diag;
  }
}

/// Layer rows (the layers of global.profile's node lines, as attach_layers pairs them) and one
/// subnet row per iteration, from the first to the last event of the iteration.
inline void add_indexed_spans(const std::vector<pmu_list>& lists, const global_profile& g,
                              const std::vector<iter_blocks>& iters, double tiu_mhz,
                              name_table& names, std::vector<engine_event>& spans) {
  event_extents x;
  x.iter_span.assign(iters.size(), {std::numeric_limits<double>::infinity(), 0});
  std::vector<const subnet_info*> iter_subnet(iters.size(), nullptr);
  for (std::size_t it = 0; it < iters.size(); ++it) {
    iter_subnet[it] = g.find_subnet(iters[it].summary.subnet_id);
    if (!iter_subnet[it] && g.subnets.size() == 1) iter_subnet[it] = &g.subnets[0];
  }
  for (const auto& l : lists) {
    if (l.iteration >= iters.size()) continue;
    const subnet_info* s = iter_subnet[l.iteration];
    std::vector<std::int32_t> layer;  // per command of this engine and core: layer index
    if (s)
      for (const auto& n : l.eng == engine::tiu ? s->tiu_nodes : s->gdma_nodes)
        if (n.core == l.core)
          layer.push_back(
              n.layer >= 0 && static_cast<std::size_t>(n.layer) < s->layers.size() ? n.layer : -1);
    auto& is = x.iter_span[l.iteration];
    for (const auto& e : l.events) {
      is.first = std::min(is.first, e.begin_ns);
      is.second = std::max(is.second, e.end_ns);
      if (e.cmd_id >= layer.size() || layer[e.cmd_id] < 0) continue;
      auto [p, fresh] =
          x.layer_span.try_emplace({l.iteration, layer[e.cmd_id]}, e.begin_ns, e.end_ns);
      if (!fresh) {
        p->second.first = std::min(p->second.first, e.begin_ns);
        p->second.second = std::max(p->second.second, e.end_ns);
      }
    }
  }
  std::vector<double> base_us(iters.size(), 0);
  for (std::size_t it = 0; it < iters.size(); ++it)
    if (x.iter_span[it].first <= x.iter_span[it].second)
      base_us[it] = x.iter_span[it].first / 1000.0;
  add_layer_and_subnet_spans(x, iter_subnet, iters, base_us, tiu_mhz, names, spans);
}

}  // namespace tpuprof::bmprofile
