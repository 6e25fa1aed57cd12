/// detect_dump: which chip (and so which decoder) a dump belongs to, from its
/// files alone, for tools that take "any dump" (the CLI, harnesses). Generic
/// over a chip_list: each chip's traits say their `arch=` values and family.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/decode/bmprofile/chip.hpp>
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

/// detect_dump() could not tell the chip (no global.profile, no or unknown
/// `arch=`): the caller may give it explicitly. A dump whose chip is known but
/// whose files are malformed throws a plain decode_error with the real reason.
class undetected_dump : public decode_error {
 public:
  using decode_error::decode_error;
};

namespace detail {
/// First `arch=` value of a bmprofile global.profile ("3" or "BM1684X") and the
/// byte offset of its line, nullopt if none: lines and keys as the decoder's
/// own parser reads them.
inline std::optional<std::pair<std::string_view, std::uint64_t>> bmprofile_arch(
    const io::byte_reader& r) {
  const std::string_view all(reinterpret_cast<const char*>(r.bytes().data()), r.size());
  std::string_view t = all;
  while (!t.empty()) {
    const std::size_t nl = t.find('\n');
    const std::uint64_t off = static_cast<std::uint64_t>(t.data() - all.data());
    std::string_view line = t.substr(0, nl);
    t = nl == std::string_view::npos ? std::string_view{} : t.substr(nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (auto a = bmprofile::detail::kv(line, "arch")) return std::pair{*a, off};
  }
  return std::nullopt;
}

/// Traits accessor: true when a bmprofile `arch=` value (a number or a name)
/// names chip C, by its `arch_id` and `arch_name` or any of its `arch_ids`.
template <class C>
bool arch_text_names(std::string_view a) {
  if constexpr (requires { C::arch_id; })
    if (a == std::to_string(C::arch_id)) return true;
  if constexpr (requires { C::arch_name; })
    if (a == C::arch_name) return true;
  if constexpr (requires { C::arch_ids[0]; })
    for (auto id : C::arch_ids)
      if (a == std::to_string(id)) return true;
  return false;
}

/// The bmprofile-family chip of `Cs` whose arch the value names, if any.
template <class... Cs>
std::optional<std::string_view> bmprofile_chip_of(std::string_view a) {
  std::optional<std::string_view> r;
  ((!r && bmprofile::bmprofile_chip<Cs> && arch_text_names<Cs>(a) ? (r = Cs::cli_name, 0) : 0),
   ...);
  return r;
}

/// "bm1684x, aks, aksv": the cli names of a chip list, for messages.
template <class... Cs>
std::string cli_names(chip_list<Cs...>) {
  std::string s;
  ((s += (s.empty() ? "" : ", ") + std::string(Cs::cli_name)), ...);
  return s;
}
}  // namespace detail

/// Detects which chip of `chips` wrote a dump, from `global.profile`: an
/// SG2260-family chip (cdm::cdm_chip) when the `arch=` value is one of its
/// `arch_ids` and a `cdmlib*.profile` is present; a bmprofile chip when the
/// value is its arch number or name. Throws undetected_dump naming global.profile
/// and the reason when it cannot tell, decode_error when global.profile names
/// an SG2260-family chip but is malformed or the core files are missing.
template <class... Cs>
dump_detection detect_dump(const io::dump_files& files, chip_list<Cs...> chips) {
  if (auto d = cdm::detect_cdm(files, chips)) return {d->chip, dump_family::cdm, d->bmodel};
  auto g = files.find("global.profile");
  if (!g)
    throw undetected_dump(files.label(), decode_error::no_offset,
                          "not a profile dump: no global.profile");
  const auto a = detail::bmprofile_arch(*g);
  if (a)
    if (auto c = detail::bmprofile_chip_of<Cs...>(a->first))
      return {*c, dump_family::bmprofile, false};
  if (!a)  // the offset is the end of the file: every line was read
    throw undetected_dump(files.label() + "/global.profile", g->size(),
                          "no arch= line before the end of the file: cannot tell the chip "
                          "(give it explicitly)");
  throw undetected_dump(files.label() + "/global.profile", a->second,
                        "arch=" + std::string(a->first) + " is not a supported chip (" +
                            detail::cli_names(chips) + ")");
}

}  // namespace tpuprof
