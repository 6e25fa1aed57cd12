/// cdm_pmu: the PMU records of the SG2260 family (TIU 16 B, GDMA/SDMA 64 B,
/// CDMA 128 B) read into one working form shared by normaliser and matcher.
/// The working form lives in the engine_event slot the record will become, so
/// decoding needs no second buffer and no copy (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/event.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::cdm {

struct command;

/// PMU engine kinds of the family (the queue a MONITOR block belongs to).
enum class pmu_kind : std::uint8_t { tiu, gdma, sdma, cdma };

/// One PMU record while decoding, as a view of its engine_event slot. Cycles
/// are signed so that alignment steps can pass through negative values before
/// the final shift (as the vendor's Python integers do). Slot layout while
/// decoding: begin_cycle = start, end_cycle = end, begin_ns = id, end_ns = cmd,
/// bytes = bytes, cmd_id+layer_id = tags, dir_flags = flags; the rest is unused
/// until the slot is turned into its event. Fields that do not share the
/// member's type are moved with memcpy (defined for trivially copyable types).
class pmu_ref {
 public:
  static constexpr std::uint8_t sys_candidate = 1;  ///< vendor sys heuristic holds
  static constexpr std::uint8_t thread_one = 2;     ///< thread_id bit set
  static constexpr std::uint8_t sys_send = 4;       ///< labelled "send" by the matcher
  static constexpr std::uint8_t sys_wait = 8;       ///< labelled "wait" by the matcher

  explicit pmu_ref(engine_event& e) noexcept : e_(&e) {}

  /// inst_start_time (raw u32, then unwrapped and aligned).
  std::int64_t start() const noexcept { return static_cast<std::int64_t>(e_->begin_cycle); }
  void set_start(std::int64_t v) noexcept { e_->begin_cycle = static_cast<std::uint64_t>(v); }
  /// inst_end_time.
  std::int64_t end() const noexcept { return static_cast<std::int64_t>(e_->end_cycle); }
  void set_end(std::int64_t v) noexcept { e_->end_cycle = static_cast<std::uint64_t>(v); }
  /// inst_id (raw, then 16-bit unwrapped).
  std::uint64_t id() const noexcept { return load<std::uint64_t>(&e_->begin_ns); }
  void set_id(std::uint64_t v) noexcept { store(&e_->begin_ns, v); }
  /// DMA: gif_mem_w + axi_d0_w; CDMA: m0_data_aw; TIU: 0.
  std::uint64_t bytes() const noexcept { return e_->bytes; }
  /// Matched command (null: none).
  const command* cmd() const noexcept { return load<const command*>(&e_->end_ns); }
  void set_cmd(const command* c) noexcept { store(&e_->end_ns, c); }
  /// Descriptor whose tags apply when cmd is null.
  const command* tags() const noexcept { return load<const command*>(&e_->cmd_id); }
  void set_tags(const command* c) noexcept { store(&e_->cmd_id, c); }
  std::uint8_t flags() const noexcept { return e_->dir_flags; }
  void add_flags(std::uint8_t f) noexcept {
    e_->dir_flags = static_cast<std::uint8_t>(e_->dir_flags | f);
  }
  bool is_sys_labelled() const noexcept { return (flags() & (sys_send | sys_wait)) != 0; }

  /// Fills a fresh slot (cmd and tags null).
  static void init(engine_event& e, std::uint32_t start, std::uint32_t end, std::uint64_t id,
                   std::uint64_t bytes, std::uint8_t flags) noexcept {
    e.begin_cycle = start;
    e.end_cycle = end;
    e.bytes = bytes;
    e.dir_flags = flags;
    pmu_ref r(e);
    r.set_id(id);
    r.set_cmd(nullptr);
    r.set_tags(nullptr);
  }

 private:
  template <class T>
  static T load(const void* p) noexcept {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  template <class T>
  static void store(void* p, T v) noexcept {
    std::memcpy(p, &v, sizeof v);
  }
  static_assert(offsetof(engine_event, layer_id) == offsetof(engine_event, cmd_id) + 4,
                "tags use cmd_id and layer_id as one 8-byte field");
  engine_event* e_;
};

/// One engine's working records: a window [first, last) of event slots.
/// Trimming moves the window instead of erasing; `shift` is a pending
/// subtraction from every cycle, applied when the slots become events.
/// Loops take it by value: a local copy cannot alias the 64-bit stores into
/// the slots, so the compiler keeps the window in registers.
class pmu_list {
 public:
  pmu_list() = default;
  pmu_list(engine_event* slots, std::size_t first, std::size_t last) noexcept
      : slots_(slots), first_(first), last_(last) {}

  std::size_t size() const noexcept { return last_ - first_; }
  bool empty() const noexcept { return last_ == first_; }
  pmu_ref operator[](std::size_t i) const noexcept { return pmu_ref(slots_[first_ + i]); }
  pmu_ref front() const noexcept { return (*this)[0]; }
  pmu_ref back() const noexcept { return (*this)[size() - 1]; }
  engine_event& slot(std::size_t i) const noexcept { return slots_[first_ + i]; }
  void swap(std::size_t i, std::size_t j) const noexcept { std::swap(slot(i), slot(j)); }
  /// Drops the first `n` records (all when fewer).
  void drop_front(std::size_t n) noexcept { first_ += n < size() ? n : size(); }
  /// Keeps the records [b, e).
  void keep(std::size_t b, std::size_t e) noexcept {
    last_ = first_ + e;
    first_ += b;
  }
  void clear() noexcept { last_ = first_; }
  /// Index of the first record in the slot array.
  std::size_t first_slot() const noexcept { return first_; }

  std::int64_t shift = 0;  ///< cycles still to subtract from start and end

 private:
  engine_event* slots_ = nullptr;
  std::size_t first_ = 0, last_ = 0;
};

constexpr std::size_t record_size(pmu_kind k) noexcept {
  return k == pmu_kind::tiu ? tiu_record_size
                            : (k == pmu_kind::cdma ? cdma_record_size : dma_record_size);
}

/// Decodes every whole record of a MONITOR block and appends one working slot
/// per record to `out` (whose capacity the caller reserved, so that existing
/// lists stay valid). Returns the number of trailing bytes that do not form a
/// whole record.
inline std::size_t read_pmu_records(const io::byte_reader& blk, pmu_kind kind,
                                    std::vector<engine_event>& out) {
  const std::size_t sz = record_size(kind);
  const std::size_t n = blk.size() / sz;
  const std::byte* p = blk.bytes().data();
  for (std::size_t i = 0; i < n; ++i, p += sz) {
    const std::uint32_t start = io::load_le<std::uint32_t>(p);
    const std::uint32_t end = io::load_le<std::uint32_t>(p + 4);
    const std::uint32_t w2 = io::load_le<std::uint32_t>(p + 8);
    std::uint64_t id = w2, bytes = 0;
    std::uint8_t flags = 0;
    switch (kind) {
      case pmu_kind::tiu: {
        const std::uint32_t aux = io::load_le<std::uint32_t>(p + 12);
        if (aux == 2) flags |= pmu_ref::sys_candidate;
        if (aux & 1) flags |= pmu_ref::thread_one;
        break;
      }
      case pmu_kind::gdma:
      case pmu_kind::sdma: {
        if (io::load_le<std::uint32_t>(p + 12) & 1) flags |= pmu_ref::thread_one;
        bytes =
            std::uint64_t{io::load_le<std::uint32_t>(p + 40)} + io::load_le<std::uint32_t>(p + 20);
        const std::uint64_t valid =
            std::uint64_t{io::load_le<std::uint32_t>(p + 48)} + io::load_le<std::uint32_t>(p + 52);
        if (valid == 0) flags |= pmu_ref::sys_candidate;
        break;
      }
      case pmu_kind::cdma: {
        id = w2 & 0xFFFFFF;
        if (w2 & (1u << 24)) flags |= pmu_ref::thread_one;
        bytes = io::load_le<std::uint32_t>(p + 16);
        if (bytes == 0) flags |= pmu_ref::sys_candidate;
        break;
      }
    }
    pmu_ref::init(out.emplace_back(), start, end, id, bytes, flags);
  }
  return blk.size() - n * sz;
}

}  // namespace tpuprof::cdm
