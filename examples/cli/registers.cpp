// register_source: a second decode of the input with the descriptors kept.
#include "registers.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <vector>

#include <tpuprof/chips/all.hpp>
#include <tpuprof/decode.hpp>
#include <tpuprof/decode/detect.hpp>
#include <tpuprof/time_base.hpp>

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {

struct register_source::impl {
  /// Per device: the lookup into its decoder (which owns or shares its files).
  std::vector<std::function<const regs::instruction*(const engine_event&)>> devices;
};

namespace {

/// The dump directories of `input` in device order (as tpuprof::open reads them).
std::vector<fs::path> dump_dirs(const fs::path& input) {
  std::error_code ec;
  auto is_dump = [&](const fs::path& d) { return fs::is_regular_file(d / "global.profile", ec); };
  std::vector<fs::path> dirs;
  if (is_dump(input)) return {input};
  for (const auto& e : fs::directory_iterator(input, ec))
    if (e.is_directory() && is_dump(e.path())) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

template <class C>
std::function<const regs::instruction*(const engine_event&)> keep(
    const common_options& o, std::shared_ptr<io::dump_files> files) {
  if constexpr (bmprofile::bmprofile_chip<C>) {
    decode_options opt;
    if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
    if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
    auto d = std::make_shared<bmprofile_decoder<C>>(std::move(*files), opt);
    return [d](const engine_event& e) { return d->command(e); };
  } else {
    cdm::cdm_options opt;
    if (o.tiu_freq_mhz > 0) opt.tiu_freq_mhz = o.tiu_freq_mhz;
    if (o.dma_freq_mhz > 0) opt.dma_freq_mhz = o.dma_freq_mhz;
    opt.keep_instructions = true;
    opt.time = parse_time_base(o.time_base).value_or(time_base::vendor);
    auto d = std::make_shared<cdm::cdm_decoder<C>>(*files, opt);
    return [d, files](const engine_event& e) { return d->command(e); };
  }
}

}  // namespace

register_source::register_source(const common_options& o) : p_(std::make_unique<impl>()) {
  for (const fs::path& dir : dump_dirs(o.input)) {
    auto files = std::make_shared<io::dump_files>(io::dump_files::open_directory(dir));
    const std::string chip =
        o.chip.empty() ? std::string(detect_dump(*files, chips::all{}).chip) : o.chip;
    p_->devices.push_back(
        with_chip(chips::all{}, chip, [&]<class C>() { return keep<C>(o, files); }));
  }
}

register_source::~register_source() = default;
register_source::register_source(register_source&&) noexcept = default;

const regs::instruction* register_source::operator()(const engine_event& e) const {
  if (e.device >= p_->devices.size() || !is_hardware(e.engine)) return nullptr;
  engine_event k = e;
  k.device = 0;  // each decoder saw its dump as device 0
  return p_->devices[e.device](k);
}

}  // namespace cli
