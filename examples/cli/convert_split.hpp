// convert --split: a large Perfetto trace as parts with an index
// (sinks/perfetto_split.hpp), and the warning for a .pftrace above what the
// Perfetto UI opens. Kept apart from convert.cpp (docs/cli.md, docs/sinks.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/io/output_set.hpp>
#include <tpuprof/sinks/perfetto.hpp>
#include <tpuprof/sinks/perfetto_split.hpp>
#include <tpuprof/trace.hpp>

namespace CLI {
class App;
}

namespace cli {

/// Adds --split to `sc`, validated (core, device, window=DURATION, auto, size=SIZE).
void add_split_option(CLI::App* sc, std::string& spec);

/// The split --split `spec` asks for; throws std::invalid_argument.
tpuprof::sinks::perfetto_split_options parse_split(const std::string& spec);

/// Writes the parts of `t` and their index into `set` (names from
/// `perfetto_name`'s stem: trace.pftrace -> trace.<part>.pftrace,
/// trace.index.json); warns about parts over the UI limit. Returns the final
/// paths written.
std::vector<std::string> write_perfetto_split(const std::string& spec, const tpuprof::trace& t,
                                              const tpuprof::io::host_trace& host,
                                              const tpuprof::sinks::perfetto_options& po,
                                              tpuprof::io::output_set& set,
                                              const std::string& perfetto_name);

/// Prints a warning on stderr (under -q too) when a .pftrace of `bytes` is
/// above sinks::perfetto_limits::ui_bytes; `split` says how the file was made.
void warn_large_perfetto(const std::string& path, std::uint64_t bytes, bool split = false);

}  // namespace cli
