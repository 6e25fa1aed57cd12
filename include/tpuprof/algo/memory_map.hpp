/// algo::memory_map: the memory operands of events as space-time rectangles
/// (what tpu_profile.py draws in its LOCAL MEM / GLOBAL MEM charts), their
/// address extents per memory kind, and the address bands a chart shows.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <map>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/operand_source.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/views/event_range.hpp>

namespace tpuprof {

/// The two charts: per-lane local memory, and everything addressed globally
/// (DDR, L2, static memory), as tpu_profile.py splits them.
enum class memory_panel : std::uint8_t { local, global };

constexpr memory_panel panel_of(regs::mem_kind k) noexcept {
  return k == regs::mem_kind::local ? memory_panel::local : memory_panel::global;
}
constexpr std::string_view name(memory_panel p) noexcept {
  return p == memory_panel::local ? "LOCAL MEM" : "GLOBAL MEM";
}

/// One operand of one event: a rectangle over the event's duration (x) and
/// the bytes it covers (y).
struct memory_rect {
  double begin_ns = 0, end_ns = 0;
  std::uint64_t address = 0;  ///< local memory: offset inside a lane
  std::uint64_t size = 0;     ///< bytes covered, strides included
  regs::mem_kind kind = regs::mem_kind::unknown;
  bool write = false;
  std::uint8_t operand = 0;  ///< position among the command's operands (or results)
  std::size_t event = 0;     ///< position of the event in the input range

  constexpr std::uint64_t end() const noexcept { return address + size; }
};

/// Where the rectangles of one memory kind lie.
struct memory_extent {
  regs::mem_kind kind = regs::mem_kind::unknown;
  std::uint64_t begin = std::numeric_limits<std::uint64_t>::max();  ///< lowest address
  std::uint64_t end = 0;                                            ///< highest address + size
  std::uint64_t reads = 0, writes = 0;                              ///< rectangles
  std::uint64_t bytes_read = 0, bytes_written = 0;                  ///< sum of sizes
};

/// memory_map's result: the rectangles in input order and one extent per
/// memory kind present (ordered by kind).
struct memory_map_report {
  std::vector<memory_rect> rects;
  std::vector<memory_extent> extents;

  const memory_extent* extent(regs::mem_kind k) const noexcept {
    for (const auto& x : extents)
      if (x.kind == k) return &x;
    return nullptr;
  }
};

/// Calls `f(const memory_rect&)` for every memory operand of every event, in
/// input order; immediates (mem_kind::constant) are skipped. Returns how many
/// rectangles it gave. One pass, no allocation of its own.
template <event_range R, operand_source P, class F>
  requires std::invocable<F&, const memory_rect&>
std::size_t for_each_memory_rect(R&& events, const P& src, F&& f) {
  std::size_t n = 0, i = 0;
  for (const engine_event& e : events) {
    for (const regs::mem_operand& m : src.operands(e)) {
      if (m.kind == regs::mem_kind::constant) continue;
      memory_rect r;
      r.begin_ns = e.begin_ns;
      r.end_ns = e.end_ns;
      r.address = m.address;
      r.size = m.size;
      r.kind = m.kind;
      r.write = m.write;
      r.operand = m.index;
      r.event = i;
      f(static_cast<const memory_rect&>(r));
      ++n;
    }
    ++i;
  }
  return n;
}

namespace algo {

/// Every memory operand of `events` (per `src`) as a rectangle, with the
/// address extent of each memory kind. Memory: 48 bytes per operand; use
/// for_each_memory_rect to stream them instead.
template <event_range R, operand_source P>
memory_map_report memory_map(R&& events, const P& src) {
  memory_map_report out;
  std::map<regs::mem_kind, memory_extent> ext;
  for_each_memory_rect(events, src, [&](const memory_rect& r) {
    out.rects.push_back(r);
    memory_extent& x = ext[r.kind];
    x.kind = r.kind;
    x.begin = std::min(x.begin, r.address);
    x.end = std::max(x.end, r.end());
    (r.write ? x.writes : x.reads) += 1;
    (r.write ? x.bytes_written : x.bytes_read) += r.size;
  });
  for (const auto& [k, x] : ext) out.extents.push_back(x);
  return out;
}

}  // namespace algo

/// The address bands of one chart: every given region that an operand
/// touches (local memory regions always: the banks stay visible), regions that
/// overlap merged into one band ("a+b"), plus one band per cluster of operands
/// outside every region (clusters closer than `merge_gap` bytes joined, named
/// by their address range). Feed it with add(), read bands().
class memory_bands {
 public:
  explicit memory_bands(memory_panel panel, std::uint64_t merge_gap = std::uint64_t{1} << 20)
      : panel_(panel), gap_(merge_gap) {}

  /// Registers a named region; those of another panel are ignored.
  void add_region(const regs::memory_region& r) {
    if (panel_of(r.kind) != panel_ || r.size == 0) return;
    regions_.push_back({r.address, r.end(), r.name, r.kind, r.kind == regs::mem_kind::local});
    sorted_ = false;
  }
  /// Registers the bytes [address, address + size) of an operand of this panel.
  void add(std::uint64_t address, std::uint64_t size) {
    if (!sorted_) sort_regions();
    const std::uint64_t end = address + std::max<std::uint64_t>(size, 1);
    // the region with the greatest start <= address that holds it
    auto it = std::upper_bound(regions_.begin(), regions_.end(), address,
                               [](std::uint64_t a, const region& r) { return a < r.begin; });
    for (auto r = it; r != regions_.begin();) {  // usually the first one tried
      --r;
      if (address < r->end) {
        r->used = true;
        return;
      }
      // no region at or left of r reaches the address: stop (O(log R) per operand)
      if (max_end_[static_cast<std::size_t>(r - regions_.begin())] <= address) break;
    }
    add_outside(address, end);
  }
  void add(const memory_rect& r) {
    if (panel_of(r.kind) == panel_) add(r.address, r.size);
  }

  /// The bands, by address; kind is that of the regions (unknown for clusters,
  /// whose name says "0x..-0x..", and for a band that merges different kinds:
  /// two region kinds, or a region and a cluster).
  std::vector<regs::memory_region> bands() const {
    struct iv {
      std::uint64_t b, e;
      std::string name;
      regs::mem_kind kind;
    };
    std::vector<iv> v;
    for (const region& r : regions_)
      if (r.used) v.push_back({r.begin, r.end, r.name, r.kind});
    for (const auto& [b, e] : outside_)
      v.push_back({b, e, hex_range(b, e), regs::mem_kind::unknown});
    std::sort(v.begin(), v.end(), [](const iv& a, const iv& b) { return a.b < b.b; });
    std::vector<regs::memory_region> out;
    for (const iv& x : v) {
      if (!out.empty() && x.b < out.back().end()) {  // overlap: one band
        auto& o = out.back();
        const std::uint64_t e = std::max(o.end(), x.e);
        o.size = e - o.address;
        o.name += "+" + x.name;
        if (o.kind != x.kind) o.kind = regs::mem_kind::unknown;
        continue;
      }
      out.push_back({x.kind, x.b, x.e - x.b, x.name});
    }
    return out;
  }

 private:
  struct region {
    std::uint64_t begin, end;
    std::string name;
    regs::mem_kind kind;
    bool used;
  };
  void sort_regions() {
    std::sort(regions_.begin(), regions_.end(),
              [](const region& a, const region& b) { return a.begin < b.begin; });
    max_end_.resize(regions_.size());
    for (std::size_t i = 0; i < regions_.size(); ++i)
      max_end_[i] = std::max(i ? max_end_[i - 1] : 0, regions_[i].end);
    sorted_ = true;
  }
  void add_outside(std::uint64_t b, std::uint64_t e) {
    // merged clusters: [b, e) joins any cluster within gap_ bytes
    auto it = outside_.upper_bound(b);
    if (it != outside_.begin()) {
      auto p = std::prev(it);
      if (b - std::min(b, gap_) <= p->second) {
        b = p->first;
        e = std::max(e, p->second);
        it = outside_.erase(p);
      }
    }
    while (it != outside_.end() && it->first - std::min(it->first, gap_) <= e) {
      e = std::max(e, it->second);
      it = outside_.erase(it);
    }
    outside_.emplace(b, e);
  }
  static std::string hex_range(std::uint64_t b, std::uint64_t e) {
    auto hex = [](std::uint64_t v) {
      static constexpr char d[] = "0123456789abcdef";
      std::string s;
      do {
        s.insert(s.begin(), d[v & 15]);
        v >>= 4;
      } while (v);
      return "0x" + s;
    };
    return hex(b) + "-" + hex(e);
  }

  memory_panel panel_;
  std::uint64_t gap_;
  std::vector<region> regions_;
  std::vector<std::uint64_t> max_end_;  ///< max end of regions_[0..i], for add()
  bool sorted_ = true;
  std::map<std::uint64_t, std::uint64_t> outside_;  // cluster begin -> end
};

}  // namespace tpuprof
