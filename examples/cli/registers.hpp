// The decoded descriptors (register fields) of a dump's events for the
// outputs that show them: `convert --xlsx`, `--csv --registers` and the
// RegInfo files of bigTpuProfile's --enable_doc (docs/sinks.md).
#pragma once

#include <memory>

#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>

#include "cli.hpp"

namespace cli {

/// The typed decoders of the input's dumps (one per device, as tpuprof::open
/// numbers them), kept with their mapped files so that every instruction's
/// `raw` bytes stay valid. Decodes the input a second time: tpuprof::trace
/// keeps no descriptors.
class register_source {
 public:
  explicit register_source(const common_options& o);
  ~register_source();
  register_source(register_source&&) noexcept;
  /// The descriptor of an event of the trace `load(o)` returns; nullptr when none.
  const tpuprof::regs::instruction* operator()(const tpuprof::engine_event& e) const;

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace cli
