/// global.profile of a bmprofile_data-N dump: arch, clock, net name, and per
/// subnet the layers and the static TIU/GDMA command lists (the format notes §4).
#pragma once

#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/diagnostics.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::bmprofile {

struct tensor_info {
  std::int64_t tensor_id = 0;
  bool is_in = false;
  std::string shape;
  int dtype = 0;
  bool is_const = false;
};

struct layer_info {
  std::int32_t layer_id = -1;
  std::string layer_type;  ///< "Conv2D", "Load", ...
  std::string layer_name;
  bool is_local = false;
  std::int64_t group_id = -1;
  std::vector<tensor_info> tensors;
};

/// One `bd cmd_id` / `gdma cmd_id` line: a command of the static stream.
struct node_info {
  std::uint32_t bd_id = 0;
  std::uint32_t gdma_id = 0;
  int func = 0;             ///< bd_func or gdma_func
  int dir = -1;             ///< gdma_dir (GDMA only; unreliable, see §4.1)
  std::int32_t layer = -1;  ///< index into subnet_info::layers, -1 = none
  std::int32_t core = 0;    ///< `core=` of multi-core runtimes (BM1688), else 0
};

struct subnet_info {
  std::int64_t subnet_id = 0;
  std::vector<layer_info> layers;
  std::vector<node_info> tiu_nodes;
  std::vector<node_info> gdma_nodes;
};

struct mem_block {
  int mtype = 0;
  std::uint64_t addr = 0, size = 0, alloc_us = 0, free_us = 0;
  std::string desc;
};

struct global_profile {
  std::optional<std::string> arch;  ///< as written: the arch id or the chip name
  std::optional<double> tpu_freq_mhz;
  std::uint64_t tpu_freq_offset = 0;  ///< byte offset of the `tpu_freq=` line
  std::string net_name;
  bool is_mlir = false;
  std::vector<subnet_info> subnets;  ///< file order
  std::vector<mem_block> mem_blocks;
  std::vector<int> core_list;

  const subnet_info* find_subnet(std::int64_t id) const noexcept {
    for (const auto& s : subnets)
      if (s.subnet_id == id) return &s;
    return nullptr;
  }
};

namespace detail {

/// Value of `key=` in `line` (up to the next blank, or to the end when `rest`).
inline std::optional<std::string_view> kv(std::string_view line, std::string_view key,
                                          bool rest = false) {
  std::size_t pos = 0;
  while ((pos = line.find(key, pos)) != std::string_view::npos) {
    bool starts = pos == 0 || line[pos - 1] == ' ' || line[pos - 1] == '\t' ||
                  line[pos - 1] == ']' || line[pos - 1] == ':' || line[pos - 1] == '(';
    std::size_t v = pos + key.size();
    if (starts && v < line.size() && line[v] == '=') {
      ++v;
      if (rest) return line.substr(v);
      std::size_t e = line.find_first_of(" \t)", v);
      return line.substr(v, e == std::string_view::npos ? std::string_view::npos : e - v);
    }
    pos = v;
  }
  return std::nullopt;
}

}  // namespace detail

/// Parses global.profile. Throws decode_error (file, byte offset of the line,
/// reason) for a malformed number in a line it understands; unknown lines are
/// skipped as the vendor parser does.
inline global_profile parse_global_profile(const io::byte_reader& r, decode_diagnostics& diag) {
  global_profile g;
  std::string_view text(reinterpret_cast<const char*>(r.bytes().data()), r.size());
  subnet_info* subnet = nullptr;
  layer_info* layer = nullptr;  // most recent layer record, owned by `subnet`
  std::int64_t group = -1;
  std::size_t line_start = 0;

  auto num = [&](std::string_view v, std::size_t off, std::string_view key) -> std::int64_t {
    std::string clean;
    for (char c : v)
      if (c != ',') clean += c;
    std::int64_t x = 0;
    auto [p, ec] = std::from_chars(clean.data(), clean.data() + clean.size(), x);
    if (ec != std::errc{} || p != clean.data() + clean.size() || clean.empty())
      r.fail(off, "bad number '" + std::string(v) + "' for " + std::string(key));
    return x;
  };
  auto need = [&](std::string_view line, std::size_t off, std::string_view key, bool rest = false) {
    auto v = detail::kv(line, key, rest);
    if (!v) r.fail(off, "line without " + std::string(key) + "=");
    return *v;
  };
  auto ensure_subnet = [&]() -> subnet_info& {
    if (!subnet) {
      g.subnets.push_back({});
      subnet = &g.subnets.back();
      layer = nullptr;
    }
    return *subnet;
  };
  auto add_layer = [&](layer_info l) {
    auto& s = ensure_subnet();
    s.layers.push_back(std::move(l));
    layer = &s.layers.back();
  };

  while (line_start < text.size()) {
    std::size_t nl = text.find('\n', line_start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(line_start, end - line_start);
    const std::size_t off = line_start;
    line_start = end + 1;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;

    // newer runtimes print TIU nodes with the `gdma cmd_id` prefix: bd_func tells them apart
    const bool tiu_node = line.find("bd cmd_id") != std::string_view::npos ||
                          (line.find("gdma cmd_id") != std::string_view::npos &&
                           detail::kv(line, "bd_func") && !detail::kv(line, "gdma_dir"));
    if (tiu_node) {
      auto& s = ensure_subnet();
      node_info n;
      n.bd_id = static_cast<std::uint32_t>(num(need(line, off, "bd_id"), off, "bd_id"));
      n.gdma_id = static_cast<std::uint32_t>(num(need(line, off, "gdma_id"), off, "gdma_id"));
      n.func = static_cast<int>(num(need(line, off, "bd_func"), off, "bd_func"));
      if (auto k = detail::kv(line, "core"))
        n.core = static_cast<std::int32_t>(num(*k, off, "core"));
      n.layer = layer ? static_cast<std::int32_t>(layer - s.layers.data()) : -1;
      s.tiu_nodes.push_back(n);
    } else if (line.find("gdma cmd_id") != std::string_view::npos) {
      auto& s = ensure_subnet();
      node_info n;
      n.bd_id = static_cast<std::uint32_t>(num(need(line, off, "bd_id"), off, "bd_id"));
      n.gdma_id = static_cast<std::uint32_t>(num(need(line, off, "gdma_id"), off, "gdma_id"));
      n.dir = static_cast<int>(num(need(line, off, "gdma_dir"), off, "gdma_dir"));
      n.func = static_cast<int>(num(need(line, off, "gdma_func"), off, "gdma_func"));
      if (auto k = detail::kv(line, "core"))
        n.core = static_cast<std::int32_t>(num(*k, off, "core"));
      n.layer = layer ? static_cast<std::int32_t>(layer - s.layers.data()) : -1;
      s.gdma_nodes.push_back(n);
    } else if (line.find("tensor_id=") != std::string_view::npos && layer) {
      tensor_info t;
      t.tensor_id = num(need(line, off, "tensor_id"), off, "tensor_id");
      t.is_in = num(need(line, off, "is_in"), off, "is_in") != 0;
      t.shape = std::string(need(line, off, "shape"));
      if (auto d = detail::kv(line, "dtype")) t.dtype = static_cast<int>(num(*d, off, "dtype"));
      if (auto c = detail::kv(line, "is_const")) t.is_const = num(*c, off, "is_const") != 0;
      layer->tensors.push_back(std::move(t));
    } else if (line.find("global_layer") != std::string_view::npos ||
               line.find("local_layer") != std::string_view::npos) {
      layer_info l;
      l.layer_id = static_cast<std::int32_t>(num(need(line, off, "layer_id"), off, "layer_id"));
      l.layer_type = std::string(need(line, off, "layer_type"));
      l.layer_name = std::string(detail::kv(line, "layer_name", true).value_or(""));
      l.is_local = line.find("local_layer") != std::string_view::npos;
      l.group_id = l.is_local ? group : -1;
      add_layer(std::move(l));
    } else if (line.find("gdma_layer") != std::string_view::npos) {
      layer_info l;
      l.layer_type = "GDMA(" + std::string(detail::kv(line, "gdma_type").value_or("?")) + ")";
      add_layer(std::move(l));
    } else if (auto lid = detail::kv(line, "layer_id");
               lid && detail::kv(line, "total_size") && detail::kv(line, "feature_size")) {
      layer_info l;
      l.layer_id = static_cast<std::int32_t>(num(*lid, off, "layer_id"));
      l.is_local = true;
      l.group_id = group;
      add_layer(std::move(l));
    } else if (line.find("start to run") != std::string_view::npos) {
      auto id = num(need(line, off, "subnet_id"), off, "subnet_id");
      subnet = nullptr;
      for (auto& s : g.subnets)
        if (s.subnet_id == id) subnet = &s;
      if (!subnet) {
        g.subnets.push_back({});
        subnet = &g.subnets.back();
        subnet->subnet_id = id;
      }
      // the current layer is not reset by "start to run" (vendor semantics)
      if (layer && (subnet->layers.empty() || layer < subnet->layers.data() ||
                    layer >= subnet->layers.data() + subnet->layers.size()))
        layer = nullptr;
    } else if (line.find("start local memory usage of group") != std::string_view::npos) {
      auto p = line.find("group ");
      std::string_view rest = line.substr(p + 6);
      group = num(rest.substr(0, rest.find(' ')), off, "group");
    } else if (auto mt = detail::kv(line, "mtype"); mt && detail::kv(line, "desc")) {
      mem_block m;
      m.mtype = static_cast<int>(num(*mt, off, "mtype"));
      m.addr = static_cast<std::uint64_t>(num(need(line, off, "addr"), off, "addr"));
      m.size = static_cast<std::uint64_t>(num(need(line, off, "size"), off, "size"));
      m.alloc_us = static_cast<std::uint64_t>(num(need(line, off, "alloc"), off, "alloc"));
      m.free_us = static_cast<std::uint64_t>(num(need(line, off, "free"), off, "free"));
      m.desc = std::string(need(line, off, "desc", true));
      g.mem_blocks.push_back(std::move(m));
    } else if (auto cl = detail::kv(line, "core_list")) {
      std::string_view v = *cl;
      while (!v.empty()) {
        auto c = v.find(',');
        auto tok = v.substr(0, c);
        if (!tok.empty()) g.core_list.push_back(static_cast<int>(num(tok, off, "core_list")));
        if (c == std::string_view::npos) break;
        v.remove_prefix(c + 1);
      }
    } else if (auto a = detail::kv(line, "arch")) {
      if (!g.arch) g.arch = std::string(*a);
    } else if (auto f = detail::kv(line, "tpu_freq")) {
      g.tpu_freq_mhz = static_cast<double>(num(*f, off, "tpu_freq"));
      g.tpu_freq_offset = off;
    } else if (auto n = detail::kv(line, "net_name", true)) {
      g.net_name = std::string(*n);
    } else if (auto m = detail::kv(line, "is_mlir")) {
      g.is_mlir = num(*m, off, "is_mlir") != 0;
    }
  }
  if (!g.arch)
    diag.add(diag::other, r.file(), r.size(), "no arch= line before the end of the file");
  return g;
}

}  // namespace tpuprof::bmprofile
