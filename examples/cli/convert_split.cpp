// convert --split and the large-trace warning (convert_split.hpp).
#include "convert_split.hpp"

#include <cmath>
#include <deque>
#include <stdexcept>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <tpuprof/io/atomic_file.hpp>

#include "cli.hpp"
#include "validators.hpp"

namespace fs = std::filesystem;
using namespace tpuprof;

namespace cli {
namespace {

/// --split size=SIZE (validators.hpp: size_problem).
std::uint64_t parse_size(const std::string& s) {
  std::uint64_t bytes = 0;
  if (const std::string why = size_problem(s, bytes); !why.empty())
    throw std::invalid_argument("--split size=" + s + ": " + why);
  return bytes;
}

std::string megabytes(std::uint64_t b) {
  return fmt::format("{:.0f} MiB", static_cast<double>(b) / (1024.0 * 1024.0));
}

}  // namespace

sinks::perfetto_split_options parse_split(const std::string& spec) {
  sinks::perfetto_split_options o;
  if (spec == "core") {
    o.by = sinks::split_by::core;
  } else if (spec == "device") {
    o.by = sinks::split_by::device;
  } else if (spec == "auto") {
    o.by = sinks::split_by::core;
    o.max_part_bytes = sinks::perfetto_limits::ui_bytes;
  } else if (spec.starts_with("size=")) {
    o.by = sinks::split_by::core;
    o.max_part_bytes = parse_size(spec.substr(5));
  } else if (spec.starts_with("window=")) {
    const auto ns = parse_duration_ns(spec.substr(7));
    if (!ns || !(*ns >= 1) || *ns > 0x1p62)
      throw std::invalid_argument("--split " + spec +
                                  ": give a duration of at least 1 ns (250us, 2ms, 1.5s, ns)");
    o.by = sinks::split_by::window;
    o.window_ns = static_cast<std::int64_t>(std::llround(*ns));
  } else {
    throw std::invalid_argument("--split " + spec +
                                ": expected core, device, window=DURATION, auto or size=SIZE");
  }
  return o;
}

void add_split_option(CLI::App* sc, std::string& spec) {
  sc->add_option("--split", spec,
                 "Perfetto as parts that each open in the UI, with <stem>.index.json: core (one "
                 "per core), device, window=DURATION (by begin time), auto (cores packed into "
                 "parts under 512 MiB), size=SIZE (the same under SIZE, e.g. 200M)")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            try {
              (void)parse_split(s);
              return {};
            } catch (const std::invalid_argument& e) {
              return e.what();
            }
          },
          "core|device|window=DURATION|auto|size=SIZE", "split"));
}

std::vector<std::string> write_perfetto_split(const std::string& spec, const trace& t,
                                              const io::host_trace& host,
                                              const sinks::perfetto_options& po,
                                              io::output_set& set,
                                              const std::string& perfetto_name) {
  auto so = parse_split(spec);
  so.perfetto = po;
  so.stem = fs::path(perfetto_name).stem().string();
  std::deque<io::atomic_file> files;  // staged parts; they outlive the sink's finish
  sinks::perfetto_split_sink s(
      [&](const std::string& f) -> sinks::byte_output { return files.emplace_back(set.stage(f)); },
      so);
  write_trace(t, host, s);
  for (auto& f : files) f.commit();
  std::vector<std::string> written;
  for (const auto& p : s.parts()) {
    written.push_back(set.final_path(p.file).string());
    warn_large_perfetto(written.back(), p.bytes, true);
  }
  io::atomic_file idx(set.stage(s.index_file()));
  idx.write(s.index_json());
  idx.commit();
  written.push_back(set.final_path(s.index_file()).string());
  return written;
}

void warn_large_perfetto(const std::string& path, std::uint64_t bytes, bool split) {
  constexpr auto limit = sinks::perfetto_limits::ui_bytes;
  if (bytes <= limit) return;
  fmt::print(stderr,
             "tpuprof: warning: {} is {} ({} bytes), above the {} the Perfetto UI opens in a "
             "browser (docs/sinks.md, \"Large traces\"): {}\n",
             path, megabytes(bytes), bytes, megabytes(limit),
             split ? "split finer (--split core, size=SIZE or a shorter window=DURATION)"
                   : "write parts with --split auto (or core, device, window=DURATION), or "
                     "open it with a native trace_processor --httpd");
}

}  // namespace cli
