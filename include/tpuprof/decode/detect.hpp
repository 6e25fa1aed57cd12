/// detect_dump: which chip (and so which decoder) a dump belongs to, from its
/// files alone, for tools that take "any dump" (the CLI, harnesses).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <tpuprof/chips/bm1684x/traits.hpp>
#include <tpuprof/decode/bmprofile/global_profile.hpp>
#include <tpuprof/decode/cdm/global.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/dump_files.hpp>

namespace tpuprof {

/// What detect_dump() found.
struct dump_detection {
  std::string_view
      chip;  ///< the traits' `cli_name`, accepted by with_chip(): "bm1684x", "aks", "aksv"
  dump_family family;
  bool bmodel = false;  ///< SG2260 family: captured on the bmodel path (BLOCK_DES_*)
};

namespace detail {
/// First `arch=` value of a BM1684X global.profile ("3" or "BM1684X"), nullopt
/// if none: lines and keys as the decoder's own parser reads them.
inline std::optional<std::string_view> bmprofile_arch(const io::byte_reader& r) {
  std::string_view t(reinterpret_cast<const char*>(r.bytes().data()), r.size());
  while (!t.empty()) {
    const std::size_t nl = t.find('\n');
    std::string_view line = t.substr(0, nl);
    t = nl == std::string_view::npos ? std::string_view{} : t.substr(nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (auto a = bmprofile::detail::kv(line, "arch")) return a;
  }
  return std::nullopt;
}
}  // namespace detail

/// Detects the chip of a dump from `global.profile` (SG2260 family: arch 5/8800
/// = AKS, 6/140814 = AKSV plus a `cdmlib*.profile`; BM1684X: arch=3 or BM1684X).
/// Throws decode_error naming global.profile and the reason when it cannot tell.
inline dump_detection detect_dump(const io::dump_files& files) {
  if (auto d = cdm::detect_cdm(files))
    return {d->chip == cdm::cdm_chip_kind::aksv ? chips::aksv::cli_name : chips::aks::cli_name,
            dump_family::cdm, d->bmodel};
  auto g = files.find("global.profile");
  if (!g)
    throw decode_error(files.label(), decode_error::no_offset,
                       "not a profile dump: no global.profile");
  const auto a = detail::bmprofile_arch(*g);
  if (a && (*a == std::to_string(chips::bm1684x::arch_id) || *a == chips::bm1684x::arch_name))
    return {chips::bm1684x::cli_name, dump_family::bmprofile, false};
  throw decode_error(
      files.label() + "/global.profile", decode_error::no_offset,
      !a ? std::string("no arch= line: cannot tell the chip (give it explicitly)")
         : "arch=" + std::string(*a) + " is not a supported chip (bm1684x, aks, aksv)");
}

}  // namespace tpuprof
