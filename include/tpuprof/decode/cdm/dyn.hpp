/// cdm_dyn: the firmware command stream of the operator path: DYN_DATA words
/// (generation C, 4 bytes), DYN_EXTRA detailed commands (mode 2) and the
/// BLOCK_DES_KV descriptor cache, turned into per-engine command lists.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/diagnostics.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/names.hpp>

namespace tpuprof::cdm {

/// One DYN_EXTRA item: the raw command image of one non-RVT node.
struct dyn_extra_item {
  std::uint32_t profile_id = 0;
  std::uint32_t type = 0;
  io::byte_reader content;
};

/// The DYN_EXTRA items of one core file ({u32 profile_id, u32 type, u32
/// length, bytes}... per block), handed out in file order without being
/// materialised (a mode-2 session has one per command: a vector of them was
/// 48 bytes per event of fresh memory). add() checks a block's framing once;
/// next() then walks the valid items with plain loads.
class dyn_extra_items {
 public:
  /// Adds a block. An incomplete trailing item is reported and ignored, as the
  /// vendor does.
  void add(const io::byte_reader& blk, decode_diagnostics& dg) {
    const std::byte* p = blk.bytes().data();
    std::size_t off = 0, n = 0;
    while (off < blk.size()) {
      if (blk.size() - off < 12) {
        dg.add(diag::truncated_tail, blk.file(), blk.base() + off, "DYN_EXTRA item header cut");
        break;
      }
      const std::uint32_t len = io::load_le<std::uint32_t>(p + off + 8);
      if (len > blk.size() - off - 12) {
        dg.add(diag::truncated_tail, blk.file(), blk.base() + off,
               "DYN_EXTRA item longer than its block");
        break;
      }
      ++n;
      off += 12 + len;
    }
    if (n == 0) return;
    blocks_.push_back(blk.sub(0, off));  // whole items only: next() ends at its size
    total_ += n;
  }
  /// Items added, and items handed out by next().
  std::size_t size() const noexcept { return total_; }
  std::size_t consumed() const noexcept { return consumed_; }
  bool empty() const noexcept { return total_ == 0; }

  /// The next item in file order; false when all were handed out.
  bool next(dyn_extra_item& out) {
    while (block_ < blocks_.size() && off_ == blocks_[block_].size()) {
      ++block_;
      off_ = 0;
    }
    if (block_ == blocks_.size()) return false;
    const io::byte_reader& blk = blocks_[block_];
    const std::byte* p = blk.bytes().data() + off_;  // framing checked by add()
    const std::uint32_t len = io::load_le<std::uint32_t>(p + 8);
    out.profile_id = io::load_le<std::uint32_t>(p);
    out.type = io::load_le<std::uint32_t>(p + 4);
    out.content =
        io::byte_reader(blk.bytes().subspan(off_ + 12, len), blk.file(), blk.base() + off_ + 12);
    off_ += 12 + std::size_t{len};
    ++consumed_;
    return true;
  }

 private:
  std::vector<io::byte_reader> blocks_;  ///< whole items of each block
  std::size_t total_ = 0, consumed_ = 0;
  std::size_t block_ = 0, off_ = 0;
};

/// Descriptor buffers of BLOCK_DES_KV blocks, keyed by (device offset, cmd_num).
using des_kv_map = std::map<std::pair<std::uint32_t, std::uint32_t>, io::byte_reader>;

/// Adds one BLOCK_DES_KV block (u32 key, u32 cmd_num, u32 core, bytes).
inline void read_des_kv(const io::byte_reader& blk, des_kv_map& kv, decode_diagnostics& dg) {
  if (blk.size() < 12) {
    dg.add(diag::empty_block, blk.file(), blk.base(), "BLOCK_DES_KV shorter than its header");
    return;
  }
  kv.insert_or_assign({blk.u32(0), blk.u32(4)}, blk.sub(12, blk.size() - 12));
}

/// Per-engine command lists of one core (ids assigned while walking).
struct dyn_lists {
  std::vector<command> tiu, gdma, sdma;
  std::vector<std::vector<command>> cdma;  ///< per port
  bool any_cdma() const noexcept {
    for (const auto& p : cdma)
      if (!p.empty()) return true;
    return false;
  }
};

/// Replaces invalid UTF-8 sequences with U+FFFD (as Python's errors="replace").
inline std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = c < 0x80         ? 1
                      : (c >> 5) == 6  ? 2
                      : (c >> 4) == 14 ? 3
                      : (c >> 3) == 30 ? 4
                                       : 0;
    bool ok = len != 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k)
      ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 2;
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

/// State carried across the DYN_DATA blocks of all core files.
struct dyn_context {
  name_table* names = nullptr;  ///< kernel-function names are interned here
  /// command::tag values index this table; it must start with the empty tag.
  std::vector<dyn_tag>* tags = nullptr;
  std::int32_t next_scope = 0;  ///< func_scope_id counter (global across files)
};

/// Walks one DYN_DATA block, appending commands to `out`. Mode-2 detail comes
/// from `extra` (all DYN_EXTRA items of the file, in order, whatever the block
/// order: the vendor only attaches them when DYN_EXTRA precedes DYN_DATA,
/// defect B.3), one per non-RVT node. Unknown record types and engines are
/// counted and skipped (the vendor raises). `Chip` gives the engine numbering,
/// CDMA port count, RVT id wrap and command lengths.
template <class Chip>
void walk_dyn_data(const io::byte_reader& blk, dyn_context& ctx, dyn_extra_items& extra,
                   dyn_lists& out, decode_diagnostics& dg) {
  constexpr unsigned cdma_ports = Chip::cdma_port_count;
  constexpr std::uint32_t rvt_wrap_limit = Chip::rvt_wrap_limit;
  const std::size_t nwords = blk.size() / 4;
  if (blk.size() % 4)
    dg.add(diag::truncated_tail, blk.file(), blk.base() + nwords * 4,
           "DYN_DATA length not a multiple of 4");
  if (out.cdma.size() < cdma_ports) out.cdma.resize(cdma_ports);
  std::uint32_t tiu = 0, gdma = 0, sdma = 0;
  std::vector<std::uint32_t> cdma(cdma_ports, 0);
  // Tags change at FUNC / FUNC_END / BATCH_IDX only: a new table entry is
  // made for the first command after a change.
  dyn_tag cur;
  std::uint32_t cur_tag = 0;
  bool tag_changed = false;
  auto retag = [&] { tag_changed = true; };
  constexpr auto E = Chip::dyn_engines;
  auto tag = [&](command& c) {
    if (tag_changed) {
      tag_changed = false;
      if (cur.func == 0 && cur.scope < 0 && cur.batch < 0) {
        cur_tag = 0;
      } else {
        cur_tag = static_cast<std::uint32_t>(ctx.tags->size());
        ctx.tags->push_back(cur);
      }
    }
    c.tag = cur_tag;
  };
  const std::byte* word_bytes = blk.bytes().data();  // i < nwords: in bounds
  auto word = [&](std::size_t i) {
    return dyn_word{io::load_le<std::uint32_t>(word_bytes + i * 4)};
  };
  for (std::size_t i = 0; i < nwords; ++i) {
    const dyn_word w = word(i);
    const std::uint64_t at = blk.base() + i * 4;
    const auto type = static_cast<dyn_type>(w.type());
    switch (type) {
      case dyn_type::node_set:
      case dyn_type::rvt_node_set: {
        const bool rvt = type == dyn_type::rvt_node_set;
        command c;
        c.kind = command::node;
        c.mode = rvt ? command::rvt : command::tdi;
        c.tsk = w.tsk();
        c.eu = w.eu();
        c.extra = w.extra();
        tag(c);
        const int eng = w.engine();
        // One DYN_EXTRA item per non-RVT node of any engine.
        dyn_extra_item item;
        const dyn_extra_item* detail = nullptr;
        if (!extra.empty() && !rvt) {
          if (extra.next(item))
            detail = &item;
          else
            dg.add(diag::unmatched_command, blk.file(), at, "node without DYN_EXTRA item");
        }
        // Both helpers are called only when they apply: keeps the common path short.
        auto attach_detail = [&](cmd_engine ce) {
          command d = c;
          std::string_view why;
          if (decode_command<Chip>(detail->content, 0, ce, d, why) == 0) {
            dg.add(diag::unknown_enum, detail->content.file(), detail->content.base(), why);
            return;
          }
          d.kind = command::node;
          d.id = c.id;
          c = d;
        };
        auto rvt_wrap = [&]() {
          if (rvt_wrap_limit == 0 || tiu != rvt_wrap_limit) return;
          command t;
          t.tsk = tiu_sys_code;
          t.eu = 3;
          t.id = tiu;
          out.tiu.push_back(t);
          command g;
          g.tsk = dma_sys_code;
          g.eu = 3;
          g.id = gdma;
          out.gdma.push_back(g);
          tiu = gdma = 0;
        };
        if (eng == E.bd) {
          c.id = tiu++;
          if (detail) attach_detail(cmd_engine::tiu);
          out.tiu.push_back(c);
          if (rvt) rvt_wrap();
        } else if (eng == E.gdma) {
          c.id = gdma++;
          if (detail) attach_detail(cmd_engine::dma);
          out.gdma.push_back(c);
          if (rvt) rvt_wrap();
        } else if (eng == E.sdma || eng == E.vsdma) {
          c.id = sdma++;
          if (detail) attach_detail(cmd_engine::dma);
          out.sdma.push_back(c);
        } else if (eng == E.cdma) {
          const unsigned port = c.extra >> 8;
          if (port >= cdma_ports) {
            dg.add(diag::unknown_enum, blk.file(), at, "CDMA node names a port out of range");
            break;
          }
          c.id = cdma[port]++;
          out.cdma[port].push_back(c);  // CDMA detail is never used (vendor: engine 4)
        } else if (eng == E.hau) {
          // HAU commands have no PMU queue: dropped, as the vendor does.
        } else {
          dg.add(diag::unknown_enum, blk.file(), at, "node of an unknown engine");
        }
        break;
      }
      case dyn_type::id_reset: {
        const int eng = w.engine();
        if (eng == E.bd)
          tiu = 0;
        else if (eng == E.gdma)
          gdma = 0;
        else if (eng == E.sdma || eng == E.vsdma)
          sdma = 0;
        else if (eng == E.cdma) {
          const unsigned port = w.extra() >> 8;
          if (port < cdma.size())
            cdma[port] = 0;
          else
            dg.add(diag::unknown_enum, blk.file(), at, "ID_RESET names a CDMA port out of range");
        }
        break;
      }
      case dyn_type::func: {
        const std::uint32_t len = w.packed();
        const std::size_t words = (std::size_t{len} + 3) / 4;
        const std::size_t avail = nwords - i - 1;
        const std::size_t take = words < avail ? words : avail;
        if (take < words)
          dg.add(diag::truncated_tail, blk.file(), at, "function name runs past DYN_DATA");
        std::string_view raw(reinterpret_cast<const char*>(blk.bytes().data()) + (i + 1) * 4,
                             std::min<std::size_t>(len, take * 4));
        cur.func = ctx.names->intern(sanitize_utf8(raw));
        cur.scope = ctx.next_scope++;
        retag();
        i += take;
        break;
      }
      case dyn_type::func_end:
        cur.func = 0;
        cur.scope = -1;
        retag();
        break;
      case dyn_type::batch_idx:
        cur.batch = static_cast<std::int32_t>(w.packed());
        retag();
        break;
      case dyn_type::des_tiu:
      case dyn_type::des_gdma:
      case dyn_type::des_sdma:
      case dyn_type::des_cdma: {
        if (i + 1 >= nwords) {
          dg.add(diag::truncated_tail, blk.file(), at, "DES record without its second word");
          i = nwords;
          break;
        }
        command c;
        c.kind = command::des_ref;
        c.mode = command::des;
        tag(c);
        c.offset = w.packed();
        c.cmd_num = blk.u32((i + 1) * 4);
        ++i;
        tiu = gdma = sdma = 0;
        std::fill(cdma.begin(), cdma.end(), 0u);
        if (type == dyn_type::des_tiu)
          out.tiu.push_back(c);
        else if (type == dyn_type::des_gdma)
          out.gdma.push_back(c);
        else if (type == dyn_type::des_sdma)
          out.sdma.push_back(c);
        else {
          const unsigned port = c.cmd_num >> 28;
          c.cmd_num &= 0xFFFFFFF;
          if (port >= cdma_ports) {
            dg.add(diag::unknown_enum, blk.file(), at, "DES_CDMA names a port out of range");
            break;
          }
          out.cdma[port].push_back(c);
        }
        break;
      }
      case dyn_type::node_wait:
      case dyn_type::cdma:
      case dyn_type::gde:
      case dyn_type::sort:
      case dyn_type::nms:
      case dyn_type::vsdma:
      case dyn_type::custom:
      case dyn_type::unknown:
        break;
      default:
        dg.add(diag::unknown_enum, blk.file(), at,
               "unknown DYN_DATA record type " + std::to_string(w.type()));
        break;
    }
  }
}

}  // namespace tpuprof::cdm
