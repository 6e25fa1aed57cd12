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

namespace detail {

/// The state of one walk_dyn_data call, handed by reference to the per-record
/// helpers below (all inline: this is the hot loop of the SG2260 decode).
template <class Chip>
struct dyn_walk {
  static constexpr unsigned cdma_ports = Chip::cdma_port_count;
  static constexpr std::uint32_t rvt_wrap_limit = Chip::rvt_wrap_limit;
  static constexpr auto E = Chip::dyn_engines;

  dyn_walk(const io::byte_reader& b, dyn_context& c, dyn_extra_items& x, dyn_lists& o,
           decode_diagnostics& d)
      : blk(b), ctx(c), extra(x), out(o), dg(d), nwords(b.size() / 4) {}

  const io::byte_reader& blk;
  dyn_context& ctx;
  dyn_extra_items& extra;
  dyn_lists& out;
  decode_diagnostics& dg;
  std::size_t nwords = 0;
  std::uint32_t tiu = 0, gdma = 0, sdma = 0;
  std::vector<std::uint32_t> cdma = std::vector<std::uint32_t>(cdma_ports, 0);
  // Tags change at FUNC / FUNC_END / BATCH_IDX only: a new table entry is
  // made for the first command after a change.
  dyn_tag cur;
  std::uint32_t cur_tag = 0;
  bool tag_changed = false;
};

/// Gives `c` the current tag, making a table entry after a tag change.
template <class Chip>
inline void dyn_tag_command(dyn_walk<Chip>& s, command& c) {
  if (s.tag_changed) {
    s.tag_changed = false;
    if (s.cur.func == 0 && s.cur.scope < 0 && s.cur.batch < 0) {
      s.cur_tag = 0;
    } else {
      s.cur_tag = static_cast<std::uint32_t>(s.ctx.tags->size());
      s.ctx.tags->push_back(s.cur);
    }
  }
  c.tag = s.cur_tag;
}

/// Replaces node `c` by the command decoded from its DYN_EXTRA item (keeping
/// its kind and id); an undecodable item is reported and `c` is kept.
template <class Chip>
inline void dyn_attach_detail(dyn_walk<Chip>& s, const dyn_extra_item& detail, cmd_engine ce,
                              command& c) {
  command d = c;
  std::string_view why;
  if (decode_command<Chip>(detail.content, 0, ce, d, why) == 0) {
    s.dg.add(diag::unknown_enum, detail.content.file(), detail.content.base(), why);
    return;
  }
  d.kind = command::node;
  d.id = c.id;
  c = d;
}

/// After an RVT node: when the TIU id reaches the chip's wrap limit, appends
/// the system commands closing the TIU and GDMA queues and restarts both ids.
template <class Chip>
inline void dyn_rvt_wrap(dyn_walk<Chip>& s) {
  if (s.rvt_wrap_limit == 0 || s.tiu != s.rvt_wrap_limit) return;
  command t;
  t.tsk = tiu_sys_code;
  t.eu = 3;
  t.id = s.tiu;
  s.out.tiu.push_back(t);
  command g;
  g.tsk = dma_sys_code;
  g.eu = 3;
  g.id = s.gdma;
  s.out.gdma.push_back(g);
  s.tiu = s.gdma = 0;
}

/// NODE_SET / RVT_NODE_SET: one command on the engine the word names.
template <class Chip>
inline void dyn_walk_node(dyn_walk<Chip>& s, dyn_word w, std::uint64_t at, bool rvt) {
  const auto& E = s.E;
  command c;
  c.kind = command::node;
  c.mode = rvt ? command::rvt : command::tdi;
  c.tsk = w.tsk();
  c.eu = w.eu();
  c.extra = w.extra();
  dyn_tag_command(s, c);
  const int eng = w.engine();
  // One DYN_EXTRA item per non-RVT node of any engine.
  dyn_extra_item item;
  const dyn_extra_item* detail = nullptr;
  if (!s.extra.empty() && !rvt) {
    if (s.extra.next(item))
      detail = &item;
    else
      s.dg.add(diag::unmatched_command, s.blk.file(), at, "node without DYN_EXTRA item");
  }
  // The detail and wrap helpers are called only when they apply: keeps the
  // common path short.
  if (eng == E.bd) {
    c.id = s.tiu++;
    if (detail) dyn_attach_detail(s, *detail, cmd_engine::tiu, c);
    s.out.tiu.push_back(c);
    if (rvt) dyn_rvt_wrap(s);
  } else if (eng == E.gdma) {
    c.id = s.gdma++;
    if (detail) dyn_attach_detail(s, *detail, cmd_engine::dma, c);
    s.out.gdma.push_back(c);
    if (rvt) dyn_rvt_wrap(s);
  } else if (eng == E.sdma || eng == E.vsdma) {
    c.id = s.sdma++;
    if (detail) dyn_attach_detail(s, *detail, cmd_engine::dma, c);
    s.out.sdma.push_back(c);
  } else if (eng == E.cdma) {
    const unsigned port = c.extra >> 8;
    if (port >= s.cdma_ports) {
      s.dg.add(diag::unknown_enum, s.blk.file(), at, "CDMA node names a port out of range");
      return;
    }
    c.id = s.cdma[port]++;
    s.out.cdma[port].push_back(c);  // CDMA detail is never used (vendor: engine 4)
  } else if (eng == E.hau) {
    // HAU commands have no PMU queue: dropped, as the vendor does.
  } else {
    s.dg.add(diag::unknown_enum, s.blk.file(), at, "node of an unknown engine");
  }
}

/// ID_RESET: restarts the id counter of the engine (or CDMA port) it names.
template <class Chip>
inline void dyn_walk_id_reset(dyn_walk<Chip>& s, dyn_word w, std::uint64_t at) {
  const auto& E = s.E;
  const int eng = w.engine();
  if (eng == E.bd)
    s.tiu = 0;
  else if (eng == E.gdma)
    s.gdma = 0;
  else if (eng == E.sdma || eng == E.vsdma)
    s.sdma = 0;
  else if (eng == E.cdma) {
    const unsigned port = w.extra() >> 8;
    if (port < s.cdma.size())
      s.cdma[port] = 0;
    else
      s.dg.add(diag::unknown_enum, s.blk.file(), at, "ID_RESET names a CDMA port out of range");
  }
}

/// FUNC: the kernel-function name in the words after `i` opens a new scope;
/// `i` is advanced past them.
template <class Chip>
inline void dyn_walk_func(dyn_walk<Chip>& s, dyn_word w, std::uint64_t at, std::size_t& i) {
  const std::uint32_t len = w.packed();
  const std::size_t words = (std::size_t{len} + 3) / 4;
  const std::size_t avail = s.nwords - i - 1;
  const std::size_t take = words < avail ? words : avail;
  if (take < words)
    s.dg.add(diag::truncated_tail, s.blk.file(), at, "function name runs past DYN_DATA");
  std::string_view raw(reinterpret_cast<const char*>(s.blk.bytes().data()) + (i + 1) * 4,
                       std::min<std::size_t>(len, take * 4));
  s.cur.func = s.ctx.names->intern(sanitize_utf8(raw));
  s.cur.scope = s.ctx.next_scope++;
  s.tag_changed = true;
  i += take;
}

/// DES_TIU / DES_GDMA / DES_SDMA / DES_CDMA: a reference to a descriptor
/// buffer (offset, then cmd_num in the next word); restarts all engine ids.
/// `i` is advanced past the second word (to `nwords` when it is missing).
template <class Chip>
inline void dyn_walk_des(dyn_walk<Chip>& s, dyn_word w, std::uint64_t at, dyn_type type,
                         std::size_t& i) {
  if (i + 1 >= s.nwords) {
    s.dg.add(diag::truncated_tail, s.blk.file(), at, "DES record without its second word");
    i = s.nwords;
    return;
  }
  command c;
  c.kind = command::des_ref;
  c.mode = command::des;
  dyn_tag_command(s, c);
  c.offset = w.packed();
  c.cmd_num = s.blk.u32((i + 1) * 4);
  ++i;
  s.tiu = s.gdma = s.sdma = 0;
  std::fill(s.cdma.begin(), s.cdma.end(), 0u);
  if (type == dyn_type::des_tiu)
    s.out.tiu.push_back(c);
  else if (type == dyn_type::des_gdma)
    s.out.gdma.push_back(c);
  else if (type == dyn_type::des_sdma)
    s.out.sdma.push_back(c);
  else {
    const unsigned port = c.cmd_num >> 28;
    c.cmd_num &= 0xFFFFFFF;
    if (port >= s.cdma_ports) {
      s.dg.add(diag::unknown_enum, s.blk.file(), at, "DES_CDMA names a port out of range");
      return;
    }
    s.out.cdma[port].push_back(c);
  }
}

}  // namespace detail

/// Walks one DYN_DATA block, appending commands to `out`. Mode-2 detail comes
/// from `extra` (all DYN_EXTRA items of the file, in order, whatever the block
/// order: the vendor only attaches them when DYN_EXTRA precedes DYN_DATA,
/// defect B.3), one per non-RVT node. Unknown record types and engines are
/// counted and skipped (the vendor raises). `Chip` gives the engine numbering,
/// CDMA port count, RVT id wrap and command lengths.
template <class Chip>
void walk_dyn_data(const io::byte_reader& blk, dyn_context& ctx, dyn_extra_items& extra,
                   dyn_lists& out, decode_diagnostics& dg) {
  detail::dyn_walk<Chip> s(blk, ctx, extra, out, dg);
  const std::size_t nwords = s.nwords;
  if (blk.size() % 4)
    dg.add(diag::truncated_tail, blk.file(), blk.base() + nwords * 4,
           "DYN_DATA length not a multiple of 4");
  if (out.cdma.size() < s.cdma_ports) out.cdma.resize(s.cdma_ports);
  const std::byte* word_bytes = blk.bytes().data();  // i < nwords: in bounds
  for (std::size_t i = 0; i < nwords; ++i) {
    const dyn_word w{io::load_le<std::uint32_t>(word_bytes + i * 4)};
    const std::uint64_t at = blk.base() + i * 4;
    const auto type = static_cast<dyn_type>(w.type());
    switch (type) {
      case dyn_type::node_set:
      case dyn_type::rvt_node_set:
        detail::dyn_walk_node(s, w, at, type == dyn_type::rvt_node_set);
        break;
      case dyn_type::id_reset:
        detail::dyn_walk_id_reset(s, w, at);
        break;
      case dyn_type::func:
        detail::dyn_walk_func(s, w, at, i);
        break;
      case dyn_type::func_end:
        s.cur.func = 0;
        s.cur.scope = -1;
        s.tag_changed = true;
        break;
      case dyn_type::batch_idx:
        s.cur.batch = static_cast<std::int32_t>(w.packed());
        s.tag_changed = true;
        break;
      case dyn_type::des_tiu:
      case dyn_type::des_gdma:
      case dyn_type::des_sdma:
      case dyn_type::des_cdma:
        detail::dyn_walk_des(s, w, at, type, i);
        break;
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
