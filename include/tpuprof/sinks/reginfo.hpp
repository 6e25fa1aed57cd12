/// RegInfo text files as bigTpuProfile and tpu_profile.py write them
/// (`tiuRegInfo_N.txt`, `tdmaRegInfo_N.txt`, `cdmaRegInfo_P.txt`): a
/// `__CHIP_ARCH_ARGS__` block, then one `__TIU_REG_INFO__` /
/// `__TDMA_REG_INFO__` / `__CDMA_REG_INFO__` block per command with
/// tab-indented `key: value` lines, the register fields included
/// (docs/sinks.md, "RegInfo files").
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <tpuprof/engine.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/regs/instruction.hpp>
#include <tpuprof/sinks/output.hpp>
#include <tpuprof/sinks/register_fields.hpp>
#include <tpuprof/trace_info.hpp>
#include <tpuprof/views/track_layout.hpp>

namespace tpuprof::sinks {

/// Which file a writer fills: TIU, TDMA (GDMA then SDMA, one header), CDMA.
enum class reg_info_kind : std::uint8_t { tiu, tdma, cdma };

/// The vendor's engine id of an event (0 TIU, 1 GDMA, 3 SDMA, 4 CDMA).
constexpr int vendor_engine_id(engine e) noexcept {
  switch (e) {
    case engine::tiu:
      return 0;
    case engine::gdma:
      return 1;
    case engine::sdma:
      return 3;
    case engine::cdma:
      return 4;
    default:
      return -1;
  }
}

/// The vendor's "uArch Rate" text ("85.3%", Python's "{:.1%}"); "0.0%" when unknown.
inline std::string uarch_rate_text(std::optional<std::uint64_t> alg,
                                   std::optional<std::uint64_t> arch) {
  if (!alg || !arch || *arch == 0) return "0.0%";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(*alg) / static_cast<double>(*arch));
}

/// Writes one RegInfo file: the header at construction, one block per write().
/// Events are written in the order given (the vendor's: time order of one queue).
class reg_info_writer {
 public:
  reg_info_writer(byte_output out, const trace_info& info, reg_info_kind kind)
      : out_(out), info_(&info), kind_(kind) {
    buf_ += "__CHIP_ARCH_ARGS__\n";
    arch("Chip Arch", info.chip);
    arch("Platform", "ASIC");
    arch("Core Num", fmt::format("{}", info.cores));
    arch("TIU Frequency(MHz)", fmt::format("{:g}", engine_clock_mhz(&info, true)));
    arch("DMA Frequency(MHz)", fmt::format("{:g}", engine_clock_mhz(&info, false)));
  }

  /// Starts the numbering of `Global Idx` again (SDMA after GDMA in a TDMA file).
  void restart_index() noexcept { index_ = 0; }

  /// One command: `ins` is its decoded descriptor (nullptr: no register fields).
  void write(const engine_event& e, const regs::instruction* ins) {
    if (e.engine == engine::tiu)
      tiu(e, ins);
    else
      dma(e, ins);
    ++index_;
    if (buf_.size() >= (std::size_t{1} << 20)) flush();
  }

  void finish() { flush(); }

 private:
  std::back_insert_iterator<std::string> it() { return std::back_inserter(buf_); }
  void arch(std::string_view k, std::string_view v) { fmt::format_to(it(), "\t{}: {}\n", k, v); }
  template <class V>
  void kv(std::string_view k, const V& v) {
    fmt::format_to(it(), "\t{}: {}\n", k, v);
  }
  std::string_view text(name_id id) const { return id ? info_->names[id] : std::string_view{}; }
  std::uint64_t asic_cycles(const engine_event& e) const noexcept { return e.cycles() + 1; }

  void meta(const engine_event& e) {
    kv("Global Idx", index_);
    kv("Core Id", e.unit);
    if (e.function) kv("kernel_func", text(e.function));
  }

  void tiu(const engine_event& e, const regs::instruction* ins) {
    buf_ += "__TIU_REG_INFO__\n";
    const std::string_view type = text(e.op_type), op = text(e.op);
    kv("Function Name", op);
    kv("Function Type", type);
    kv("Start Cycle", e.begin_cycle);
    kv("End Cycle", e.end_cycle);
    kv("Cmd Id", e.cmd_id);
    kv("Asic Cycle", asic_cycles(e));
    kv("Engine Id", 0);
    const auto alg = ins ? ins->alg_ops : std::nullopt, arch = ins ? ins->arch_ops : std::nullopt;
    kv("Alg Ops", alg.value_or(0));
    kv("uArch Ops", arch.value_or(0));
    kv("uArch Rate", uarch_rate_text(alg, arch));
    kv("Alg Cycle", 0);  // the vendor's cycle model is not reproduced (docs/sinks.md)
    meta(e);
    if (!ins || !ins->table || ins->raw.empty()) return;
    fmt::format_to(it(), "{}:\n", type);
    for_each_register_field(*ins, [&](std::string_view n, std::uint64_t v) { kv(n, v); });
  }

  void dma(const engine_event& e, const regs::instruction* ins) {
    buf_ += kind_ == reg_info_kind::cdma ? "__CDMA_REG_INFO__\n" : "__TDMA_REG_INFO__\n";
    bool has_mask_h8 = false, has_mask_l32 = false;
    if (ins)
      for_each_register_field(*ins, [&](std::string_view n, std::uint64_t v) {
        has_mask_h8 = has_mask_h8 || n == "mask_start_addr_h8";
        has_mask_l32 = has_mask_l32 || n == "mask_start_addr_l32";
        kv(n, v);
      });
    if (!has_mask_h8) kv("mask_start_addr_h8", 0);
    if (!has_mask_l32) kv("mask_start_addr_l32", 0);
    kv("dst_start_addr", ins ? register_field(*ins, "dst_start_addr").value_or(0) : 0);
    kv("src_start_addr", ins ? register_field(*ins, "src_start_addr").value_or(0) : 0);
    kv("Engine Id", vendor_engine_id(e.engine));
    const direction d = ins && ins->dir != direction::none ? ins->dir : e.dir();
    kv("Direction", direction_text(d));
    kv("from_addr", direction_side(d, true));
    kv("to_addr", direction_side(d, false));
    kv("Function Type", text(e.op_type));
    kv("Function Name", text(e.op));
    kv("Start Cycle", e.begin_cycle);
    kv("End Cycle", e.end_cycle);
    kv("Cmd Id", e.cmd_id);
    kv("Data Type", ins ? regs::name(ins->in_type()) : std::string_view{});
    kv("Asic Cycle", asic_cycles(e));
    kv("Stall Cycle", 0);  // not in engine_event
    kv("DMA data size(B)", e.has_bytes() ? e.bytes : 0);
    const double bw =
        e.has_bytes() ? static_cast<double>(e.bytes) / static_cast<double>(asic_cycles(e)) : 0;
    const bool l2 = direction_text(d).find("L2M") != std::string_view::npos;
    const bool ddr = direction_text(d).find("DDR") != std::string_view::npos;
    kv("DDR Bandwidth(GB/s)", fmt::format("{:g}", ddr ? std::round(bw * 1e4) / 1e4 : 0.0));
    kv("L2M Bandwidth(GB/s)", fmt::format("{:g}", !ddr && l2 ? std::round(bw * 1e4) / 1e4 : 0.0));
    meta(e);
  }

  void flush() {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

  byte_output out_;
  const trace_info* info_;
  reg_info_kind kind_;
  std::size_t index_ = 0;
  std::string buf_;
};

}  // namespace tpuprof::sinks
