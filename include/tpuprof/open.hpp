/// tpuprof::open: one call that detects and decodes any supported dump (a dump
/// directory, a parent of several, or caller-owned buffers) into a `trace` with
/// the same API for every chip. Entry header: the dispatch over chips is here,
/// so decode/ and views/ stay chip-free. Users who know their chip can keep
/// using the typed decoders (bmprofile_decoder<C>, cdm::cdm_decoder<C>).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <tpuprof/chip_traits.hpp>
#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode/bmprofile_decoder.hpp>
#include <tpuprof/decode/cdm_decoder.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/decode/merge.hpp>
#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/detail/extern_templates.hpp>
#include <tpuprof/detail/ordered_window.hpp>
#include <tpuprof/error.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/open_options.hpp>
#include <tpuprof/trace.hpp>
#include <tpuprof/views/dependency_table.hpp>
#include <tpuprof/views/operand_table.hpp>

namespace tpuprof {

namespace detail {

/// The chips open() knows (chips::all, chips/all.hpp); decode_as says how each
/// family is decoded. A chip added to chips::all needs nothing in this file.
using open_chips = chips::all;

/// Decodes `files` as chip C; keeps its operands in `ops` (as device `device`).
template <chip_traits C>
materialized_trace decode_as(io::dump_files files, const open_options& o, operand_table* ops,
                             std::uint8_t device, dependency_table* deps = nullptr) {
  auto keep = [&](auto& d) {
    if (ops) ops->append(d.events(), d, device);
    if (deps) deps->append(d.events(), d, device);
    if constexpr (requires { std::move(d).take(); })
      return std::move(d).take();  // the decoder's events, not a copy of them
    else
      return materialize(d);
  };
  if constexpr (bmprofile::bmprofile_chip<C>) {
    decode_options opt;
    opt.tiu_freq_mhz = o.tiu_freq_mhz;
    opt.dma_freq_mhz = o.dma_freq_mhz;
    bmprofile_decoder<C> d(std::move(files), opt);
    return keep(d);
  } else {
    cdm::cdm_options opt;
    opt.tiu_freq_mhz = o.tiu_freq_mhz;
    opt.dma_freq_mhz = o.dma_freq_mhz;
    opt.keep_instructions = ops != nullptr || deps != nullptr;  // only when asked for
    opt.uarch = o.uarch;
    opt.time = o.time;
    cdm::cdm_decoder<C> d(files, opt);
    return keep(d);
  }
}

/// The chip to decode `files` as: the option, else what detect_dump finds.
template <class Chips>
std::string chip_of(const io::dump_files& files, const open_options& o) {
  if (!o.chip.empty()) return o.chip;
  try {
    return std::string(detect_dump(files, Chips{}).chip);
  } catch (const undetected_dump& e) {  // malformed files keep their decode_error
    throw detect_error(e.file(), e.offset(), e.reason());
  }
}

/// One dump, detected and decoded, as device `device` of the result.
template <class Chips>
materialized_trace decode_one(io::dump_files files, const open_options& o, operand_table* ops,
                              std::uint8_t device, dependency_table* deps = nullptr) {
  const std::string chip = chip_of<Chips>(files, o);
  return with_chip(Chips{}, chip, [&]<class C>() -> materialized_trace {
    return decode_as<C>(std::move(files), o, ops, device, deps);
  });
}

/// Keeps cores < n (and every CDMA port) in events, tracks and the core count.
inline void keep_cores(materialized_trace& t, unsigned n) {
  if (n == 0) return;
  std::erase_if(t.hw,
                [&](const engine_event& e) { return e.engine != engine::cdma && e.unit >= n; });
  std::erase_if(t.meta.tracks,
                [&](const track& tr) { return tr.eng != engine::cdma && tr.unit >= n; });
  t.meta.cores = std::min(t.meta.cores, n);
}

/// Decodes `n` dumps into one trace; dump d (device d) is `files_of(d)`.
/// With open_options::threads > 1 dumps decode concurrently (each into its own
/// trace and tables, merged in device order afterwards: the result equals the
/// sequential one); errors and on_dump calls still come in device order, on
/// the calling thread. `files_of` is called on the worker threads, once per d.
template <class Chips, class F>
trace decode_devices(std::size_t n, F&& files_of, const std::vector<std::filesystem::path>& dirs,
                     const open_options& o) {
  if (n > 256) throw std::invalid_argument("more than 256 devices");
  std::vector<materialized_trace> parts(n);
  std::vector<operand_table> ops(n);
  std::vector<dependency_table> deps(n);
  auto decode = [&](std::size_t i) {
    parts[i] = decode_one<Chips>(files_of(i), o, o.keep_operands ? &ops[i] : nullptr,
                                 static_cast<std::uint8_t>(i), o.dependencies ? &deps[i] : nullptr);
  };
  auto announce = [&](std::size_t i) {
    if (o.on_dump && i < dirs.size()) o.on_dump(dirs[i], i, n);
  };
  parallel_in_order(n, o.threads, decode, announce);
  for (std::size_t i = 1; i < n; ++i) {
    ops[0].merge(std::move(ops[i]));
    deps[0].merge(std::move(deps[i]));
  }
  auto t = merge_devices(std::move(parts));
  keep_cores(t, o.num_core);
  return trace(std::move(t), std::move(ops[0]), std::move(deps[0]));
}

inline bool is_dump_dir(const std::filesystem::path& d) {
  std::error_code ec;
  return std::filesystem::is_regular_file(d / "global.profile", ec);
}

}  // namespace detail

/// Decodes caller-owned buffers (io::dump_files::from_memory) or an opened
/// directory: one dump, one device. Throws decode_error (detect_error when the
/// chip cannot be told), std::invalid_argument for an unknown open_options::chip.
/// (Every open() is a template over the chip list so that only a TU that calls
/// it instantiates the decoders: a TU that merely includes the umbrella does not.)
template <class Chips = detail::open_chips>
trace open(io::dump_files files, const open_options& o = {}) {
  return detail::decode_devices<Chips>(
      1, [&](std::size_t) { return std::move(files); }, {}, o);  // one dump: no thread
}

/// Decodes several dumps as one trace, one device each (device d = devices[d]).
template <class Chips = detail::open_chips>
trace open(std::vector<io::dump_files> devices, const open_options& o = {}) {
  if (devices.empty())
    throw std::invalid_argument("tpuprof::open: no dump given (empty list of devices)");
  return detail::decode_devices<Chips>(
      devices.size(), [&](std::size_t i) { return std::move(devices[i]); }, {}, o);
}

/// Decodes a dump directory (global.profile inside), or a parent directory
/// whose subdirectories each hold one (cdm_profile_data_devD-N,
/// bmprofile_data-N; device d = the d-th in name order). Throws decode_error
/// naming the file, byte offset and reason (detect_error when the chip cannot
/// be told), std::invalid_argument for an unknown open_options::chip.
template <class Chips = detail::open_chips>
trace open(const std::filesystem::path& input, const open_options& o = {}) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(input, ec))
    throw decode_error(input.string(), decode_error::no_offset, "no such file or directory");
  std::vector<fs::path> dirs;
  if (detail::is_dump_dir(input)) {
    dirs.push_back(input);
  } else if (fs::is_directory(input, ec)) {
    for (const auto& e : fs::directory_iterator(input, ec))
      if (e.is_directory() && detail::is_dump_dir(e.path())) dirs.push_back(e.path());
    std::sort(dirs.begin(), dirs.end());
  }
  if (dirs.empty())
    throw decode_error(
        input.string(), decode_error::no_offset,
        "no dump here: expected global.profile, or subdirectories (cdm_profile_data_devD-N, "
        "bmprofile_data-N) that each hold one");
  return detail::decode_devices<Chips>(
      dirs.size(), [&](std::size_t i) { return io::dump_files::open_directory(dirs[i]); }, dirs, o);
}

}  // namespace tpuprof
