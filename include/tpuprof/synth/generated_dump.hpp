/// generated_dump: what a bmprofile generator returns, its files and the events they encode.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <tpuprof/event.hpp>
#include <tpuprof/io/dump_files.hpp>
#include <tpuprof/synth/dump_writer.hpp>

namespace tpuprof::synth {

/// A generated dump: its files (names + bytes) and the events a correct
/// decoder must produce (hardware events, in the decoder's list order).
struct generated_dump {
  std::vector<std::pair<std::string, std::vector<std::byte>>> files;
  std::vector<engine_event> expected;  ///< op/op_type ids are indexes into `names`
  std::vector<std::string> names;      ///< [0] = ""

  io::dump_files as_files(std::string label = "<synthetic>") const {
    return as_dump_files(files, std::move(label));
  }
  /// Writes every file into `dir` (created), each atomically.
  void write_directory(const std::filesystem::path& dir) const { write_dump_directory(files, dir); }
};

}  // namespace tpuprof::synth
