/// open_options: what tpuprof::open() can be told, and detect_error. Light:
/// no decoder. In compiled mode (TPUPROF_COMPILED_LIB) it also declares the
/// open() overloads that tpuprof::tpuprof_compiled defines (src/open.cpp), so
/// the umbrella need not parse any decoder; header-only code gets the
/// templates of <tpuprof/open.hpp> instead.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <tpuprof/error.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/time_base.hpp>
#include <tpuprof/trace.hpp>

namespace tpuprof {

/// Everything open() can be told; the defaults decode a dump as its files say.
struct open_options {
  /// Chip to decode as: a chip's cli_name or name, case-insensitive ("bm1684x",
  /// "aks", "aksv", "BM1684X", "SG2260", "SG2260E"). Empty: detected from
  /// global.profile. An unknown name throws std::invalid_argument.
  std::string chip;
  /// TIU clock in MHz for cycle -> ns; unset: the dump's tpu_freq, else the chip default.
  std::optional<double> tiu_freq_mhz;
  /// Likewise for the DMA engines (GDMA, SDMA, CDMA).
  std::optional<double> dma_freq_mhz;
  /// Keep only cores 0..num_core-1 (CDMA ports are kept); 0 keeps every core.
  unsigned num_core = 0;
  /// Keep the memory operands of every event that has them, for
  /// trace::operands() and the HTML report's memory charts (SG2260 family:
  /// about 0.5-1 KiB per command; off by default).
  bool keep_operands = false;
  /// SG2260 family: compute the uArch rate of TIU commands (a quarter of a
  /// mode-2 decode); off leaves engine_event::uarch_rate NaN. BM1684X rates
  /// come with the command tables and are always set.
  bool uarch = true;
  /// Keep what every command waits for (cmd_id_dep of its descriptor), for
  /// trace::dependencies() and algo::dependency_graph (SG2260 family: keeps
  /// the decoded descriptors while decoding; off by default).
  bool dependencies = false;
  /// The clock of the times where the vendor's differs from the hardware's
  /// (time_base.hpp): `vendor` (default) as the reference tools print them;
  /// `shared_counter` keeps SG2260 bmodel-path GDMA/SDMA on the counter they
  /// share with TIU (tpu-mlir re-phases them). No other dump changes.
  time_base time = time_base::vendor;
  /// Threads for decoding several dumps (a parent directory, a list of
  /// devices): 0 = all hardware threads, 1 = one after the other. The result
  /// is the same; peak memory grows with the dumps decoded at once.
  unsigned threads = 0;
  /// Called on the calling thread, in device order, when dump `index` of a
  /// parent directory starts decoding, or with threads, when the dumps before
  /// it are done (progress).
  std::function<void(const std::filesystem::path& dir, std::size_t index, std::size_t count)>
      on_dump;
};

/// The chip of a dump could not be told from its files (no or unknown arch=,
/// no global.profile): give open_options::chip. A decode_error, so callers that
/// only catch decode_error see it too; what() is detect_dump's message.
class detect_error : public decode_error {
 public:
  using decode_error::decode_error;
};

#ifdef TPUPROF_COMPILED_LIB
/// Compiled mode: tpuprof::open for every supported chip, defined once in
/// tpuprof::tpuprof_compiled (the same behaviour as the templates of open.hpp).
trace open(io::dump_files files, const open_options& o = {});
trace open(std::vector<io::dump_files> devices, const open_options& o = {});
trace open(const std::filesystem::path& input, const open_options& o = {});
#endif

}  // namespace tpuprof
