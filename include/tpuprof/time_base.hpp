/// time_base: which clock hardware events are placed on where a vendor tool and the hardware
/// disagree (today: the SG2260 bmodel path, docs/chips/aks.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tpuprof {

/// The clock of the decoded times.
enum class time_base : std::uint8_t {
  /// As the vendor's reference tool prints them (default). On SG2260 bmodel-path dumps tpu-mlir
  /// re-phases GDMA and SDMA so that their 2nd init record ends with TIU's (on the BM1690
  /// capture GDMA +435 cycles, SDMA +145), a documented vendor defect: 70 of the capture's 80
  /// TIU->GDMA dependencies then look violated.
  vendor,
  /// The hardware's own counter, which TIU, GDMA and SDMA of a core share: every engine keeps
  /// its phase, and every dependency of the capture holds. Use it for dependency analysis.
  shared_counter,
};

constexpr std::string_view name(time_base t) noexcept {
  return t == time_base::vendor ? "vendor" : "shared-counter";
}
/// "vendor" or "shared-counter" (as name() spells them); nullopt otherwise.
constexpr std::optional<time_base> parse_time_base(std::string_view s) noexcept {
  if (s == "vendor") return time_base::vendor;
  if (s == "shared-counter") return time_base::shared_counter;
  return std::nullopt;
}

}  // namespace tpuprof
