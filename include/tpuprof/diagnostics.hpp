/// decode_diagnostics: data loss and oddities found while decoding, counted
/// per kind and kept with the first few locations. Never silent.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpuprof {

/// What can go wrong without stopping the decode.
enum class diag : std::uint8_t {
  id_wrap,            ///< a 16-bit command id wrapped (unwrapped by +65536)
  cycle_wrap,         ///< a 32-bit cycle counter wrapped (unwrapped by +2^32)
  unmatched_record,   ///< PMU record paired with no command
  unmatched_command,  ///< command with no PMU record
  invalid_record,     ///< record with 0xFFFFFFFF fields (not ended / not written)
  empty_block,        ///< zero-length or missing data block
  unknown_enum,       ///< enum value outside the known table
  truncated_tail,     ///< partial record at the end of a block, ignored
  buffer_full,        ///< record count reached the buffer capacity: later records lost
  default_frequency,  ///< clock frequency missing or 0: a default was used
  out_of_order,       ///< records out of time order, repaired
  skipped_block,      ///< unknown block type, skipped
  inserted_record,    ///< matcher: command without record (edit-distance insert)
  deleted_record,     ///< matcher: record without command (edit-distance delete)
  missing_file,       ///< an expected file is absent
  other,
};

inline constexpr std::size_t diag_count = 16;

inline constexpr std::array<std::string_view, diag_count> diag_names{
    "id_wrap",         "cycle_wrap",        "unmatched_record", "unmatched_command",
    "invalid_record",  "empty_block",       "unknown_enum",     "truncated_tail",
    "buffer_full",     "default_frequency", "out_of_order",     "skipped_block",
    "inserted_record", "deleted_record",    "missing_file",     "other"};

constexpr std::string_view name(diag d) noexcept {
  auto i = static_cast<std::size_t>(d);
  return i < diag_count ? diag_names[i] : std::string_view{"?"};
}

/// True for kinds that mean events or data were lost (drive `--strict`).
constexpr bool is_data_loss(diag d) noexcept {
  switch (d) {
    case diag::unmatched_record:
    case diag::unmatched_command:
    case diag::invalid_record:
    case diag::truncated_tail:
    case diag::buffer_full:
    case diag::deleted_record:
    case diag::missing_file:
      return true;
    default:
      return false;
  }
}

/// Counters plus the first `max_notes` messages (file, offset, text).
class decode_diagnostics {
 public:
  struct note {
    diag kind;
    std::string file;
    std::uint64_t offset;  ///< byte offset in `file`, or ~0 when not applicable
    std::string text;
  };
  static constexpr std::size_t max_notes = 64;

  void add(diag kind, std::string_view file, std::uint64_t offset, std::string_view text,
           std::uint64_t n = 1) {
    counts_[static_cast<std::size_t>(kind)] += n;
    if (notes_.size() < max_notes)
      notes_.push_back({kind, std::string(file), offset, std::string(text)});
  }
  /// Counts without a note (for per-record events on hot paths).
  void count(diag kind, std::uint64_t n = 1) noexcept {
    counts_[static_cast<std::size_t>(kind)] += n;
  }

  std::uint64_t operator[](diag kind) const noexcept {
    return counts_[static_cast<std::size_t>(kind)];
  }
  const std::vector<note>& notes() const noexcept { return notes_; }

  std::uint64_t total() const noexcept {
    std::uint64_t t = 0;
    for (auto c : counts_) t += c;
    return t;
  }
  /// True when any kind that loses data was seen.
  bool data_loss() const noexcept {
    for (std::size_t i = 0; i < diag_count; ++i)
      if (counts_[i] && is_data_loss(static_cast<diag>(i))) return true;
    return false;
  }
  void merge(const decode_diagnostics& o) {
    for (std::size_t i = 0; i < diag_count; ++i) counts_[i] += o.counts_[i];
    for (const auto& n : o.notes_)
      if (notes_.size() < max_notes) notes_.push_back(n);
  }

 private:
  std::array<std::uint64_t, diag_count> counts_{};
  std::vector<note> notes_;
};

}  // namespace tpuprof
