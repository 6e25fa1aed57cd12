/// net_stat.sim: the compiler's cmodel estimate of every command's time, in
/// the bmodel (the format notes §5.11). Used when a dump has no PMU
/// data, and to compare estimated with measured times.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tpuprof/diagnostics.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::bmprofile {

/// One estimated command: `<name>|<op>|s:|b:|g:|e:|t:[|dr:|sz:|bw:]`.
struct sim_item {
  std::string name;     ///< e.g. "Conv2D_26" (layer type _ layer id)
  std::string op;       ///< e.g. "AR", "GDMA_TENSOR"
  double start_ns = 0;  ///< section offset + s (cycles at 1 GHz = ns)
  double end_ns = 0;
  double cost_ns = 0;  ///< t: the cmodel's cost (instruction.csv "Alg cycle")
  std::uint32_t bd_id = 0, gdma_id = 0;
  int dir = -1;                   ///< GDMA only
  std::uint64_t bytes = 0;        ///< GDMA only
  std::optional<double> bw_gbps;  ///< GDMA only, when printed
  std::int32_t layer_id = -1;     ///< from a trailing `_<digits>` of the name
  bool is_gdma = false;
};

struct net_stat {
  std::vector<sim_item> tiu, gdma;
  std::uint64_t flops = 0;  ///< sum of `flops:` lines
};

namespace detail {
inline std::optional<double> sim_num(std::string_view v) {
  double x = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc{} || p != v.data() + v.size() || !std::isfinite(x)) return std::nullopt;
  return x;
}
/// `x` as an integer of type T when it is one in T's range (a cast of a value
/// out of range is undefined behaviour: the fuzzer fed 1e300 as a byte count).
template <class T>
std::optional<T> sim_int(std::optional<double> x) {
  if (!x || !(*x >= static_cast<double>(std::numeric_limits<T>::min())) ||
      !(*x < static_cast<double>(std::numeric_limits<T>::max())))
    return std::nullopt;
  return static_cast<T>(*x);
}
}  // namespace detail

/// Parses net_stat.sim. Items that do not parse are skipped and counted
/// (diag::other); never throws for content, only never reads out of bounds.
inline net_stat parse_net_stat(const io::byte_reader& r, decode_diagnostics& diag) {
  net_stat ns;
  std::string_view text(reinterpret_cast<const char*>(r.bytes().data()), r.size());
  bool in_section = false;
  double offset = 0, last_end = 0;
  std::uint64_t bad = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    // tokens of the line
    std::vector<std::string_view> tok;
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
      if (j > i) tok.push_back(line.substr(i, j - i));
      i = j;
    }
    if (tok.size() == 2 && tok[0] == "ENGINE_BD" && tok[1] == "ENGINE_GDMA") {
      in_section = true;
      offset = last_end;
      continue;
    }
    if (tok.size() == 1 && tok[0].find_first_not_of('-') == std::string_view::npos) {
      in_section = false;
      continue;
    }
    if (!tok.empty() && tok[0] == "flops:" && tok.size() > 1) {
      std::string_view v = tok[1];
      if (!v.empty() && v.back() == ',') v.remove_suffix(1);
      if (auto f = detail::sim_int<std::uint64_t>(detail::sim_num(v))) ns.flops += *f;
      continue;
    }
    if (!in_section) continue;
    for (auto t : tok) {
      sim_item it;
      std::size_t field = 0;
      bool ok = true, has_s = false, has_e = false;
      for (std::size_t i = 0; i <= t.size() && ok;) {
        std::size_t j = t.find('|', i);
        if (j == std::string_view::npos) j = t.size();
        std::string_view f = t.substr(i, j - i);
        if (field == 0)
          it.name = std::string(f);
        else if (field == 1)
          it.op = std::string(f);
        else {
          auto c = f.find(':');
          if (c == std::string_view::npos) {
            ok = false;
            break;
          }
          auto k = f.substr(0, c);
          auto v = detail::sim_num(f.substr(c + 1));
          if (!v) {
            ok = false;
            break;
          }
          if (k == "s")
            it.start_ns = *v, has_s = true;
          else if (k == "e")
            it.end_ns = *v, has_e = true;
          else if (k == "t")
            it.cost_ns = *v;
          else if (k == "b" || k == "g" || k == "dr" || k == "sz") {
            const auto n = detail::sim_int<std::int64_t>(v);
            if (!n || *n < 0 || (k != "sz" && *n > 0xFFFFFFFF)) {
              ok = false;  // not a count or id: the item is skipped and counted
              break;
            }
            if (k == "b")
              it.bd_id = static_cast<std::uint32_t>(*n);
            else if (k == "g")
              it.gdma_id = static_cast<std::uint32_t>(*n);
            else if (k == "dr")
              it.dir = static_cast<int>(*n), it.is_gdma = true;
            else
              it.bytes = static_cast<std::uint64_t>(*n);
          } else if (k == "bw")
            it.bw_gbps = *v;
        }
        ++field;
        i = j + 1;
      }
      if (!ok || field < 3 || !has_s || !has_e) {
        ++bad;
        continue;
      }
      it.start_ns += offset;
      it.end_ns += offset;
      last_end = std::max(last_end, it.end_ns);
      auto us = it.name.rfind('_');
      if (us != std::string::npos && us + 1 < it.name.size() &&
          it.name.find_first_not_of("0123456789", us + 1) == std::string::npos &&
          it.name.size() - us - 1 < 10)
        it.layer_id = static_cast<std::int32_t>(std::stol(it.name.substr(us + 1)));
      (it.is_gdma ? ns.gdma : ns.tiu).push_back(std::move(it));
    }
  }
  if (bad)
    diag.add(diag::other, r.file(), ~std::uint64_t{0},
             "net_stat.sim items that do not parse were skipped", bad);
  return ns;
}

}  // namespace tpuprof::bmprofile
