/// write_file: run a sink into a file atomically (temp file + rename), so a
/// failing decoder or sink never leaves a half-written output.
#pragma once

#include <concepts>
#include <filesystem>
#include <utility>

#include <tpuprof/decoded_trace.hpp>
#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/host_trace.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/sink.hpp>

namespace tpuprof::sinks {

/// `write_file<perfetto_sink>(path, trace, opts...)`: constructs
/// `Sink(byte_output, opts...)` over a temp file, writes the trace, renames.
/// Throws io::output_error on I/O failure; any exception removes the temp file.
template <event_sink Sink, decoded_trace T, class... A>
  requires std::constructible_from<Sink, byte_output, A...>
void write_file(const std::filesystem::path& path, const T& trace, A&&... args) {
  io::atomic_file f(path);
  Sink s{byte_output{f}, std::forward<A>(args)...};
  write_trace(trace, s);
  f.commit();
}

/// Same, with host spans merged in.
template <event_sink Sink, decoded_trace T, class... A>
  requires std::constructible_from<Sink, byte_output, A...>
void write_file(const std::filesystem::path& path, const T& trace, const io::host_trace& host,
                A&&... args) {
  io::atomic_file f(path);
  Sink s{byte_output{f}, std::forward<A>(args)...};
  write_trace(trace, host, s);
  f.commit();
}

}  // namespace tpuprof::sinks
