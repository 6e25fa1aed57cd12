/// cdm_pmu: the PMU records of the SG2260 family (TIU 16 B, GDMA/SDMA 64 B,
/// CDMA 128 B) read into one working form shared by normaliser and matcher.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <tpuprof/decode/cdm/format.hpp>
#include <tpuprof/io/byte_reader.hpp>

namespace tpuprof::cdm {

struct command;

/// PMU engine kinds of the family (the queue a MONITOR block belongs to).
enum class pmu_kind : std::uint8_t { tiu, gdma, sdma, cdma };

/// One PMU record while decoding. Cycles are signed so that alignment steps can
/// pass through negative values before the final shift (as the vendor's Python
/// integers do). 48 bytes; lives only during decode.
struct pmu_record {
  std::int64_t start = 0;         ///< inst_start_time (raw u32, then unwrapped and aligned)
  std::int64_t end = 0;           ///< inst_end_time
  std::uint64_t id = 0;           ///< inst_id (raw, then 16-bit unwrapped)
  std::uint64_t bytes = 0;        ///< DMA: gif_mem_w + axi_d0_w; CDMA: m0_data_aw; TIU: 0
  const command* cmd = nullptr;   ///< matched command
  const command* tags = nullptr;  ///< descriptor whose tags apply when cmd is null
  std::uint32_t stall = 0;        ///< DMA gif_wr_rd_stall_cntr
  std::uint8_t flags = 0;

  static constexpr std::uint8_t sys_candidate = 1;  ///< vendor sys heuristic holds
  static constexpr std::uint8_t thread_one = 2;     ///< thread_id bit set
  static constexpr std::uint8_t sys_send = 4;       ///< labelled "send" by the matcher
  static constexpr std::uint8_t sys_wait = 8;       ///< labelled "wait" by the matcher
  bool is_sys_labelled() const noexcept { return (flags & (sys_send | sys_wait)) != 0; }
};

constexpr std::size_t record_size(pmu_kind k) noexcept {
  return k == pmu_kind::tiu ? tiu_record_size
                            : (k == pmu_kind::cdma ? cdma_record_size : dma_record_size);
}

/// Decodes every whole record of a MONITOR block and appends to `out`.
/// Returns the number of trailing bytes that do not form a whole record.
inline std::size_t read_pmu_records(const io::byte_reader& blk, pmu_kind kind,
                                    std::vector<pmu_record>& out) {
  const std::size_t sz = record_size(kind);
  const std::size_t n = blk.size() / sz;
  out.reserve(out.size() + n);
  const std::byte* p = blk.bytes().data();
  for (std::size_t i = 0; i < n; ++i, p += sz) {
    pmu_record r;
    r.start = io::load_le<std::uint32_t>(p);
    r.end = io::load_le<std::uint32_t>(p + 4);
    const std::uint32_t w2 = io::load_le<std::uint32_t>(p + 8);
    switch (kind) {
      case pmu_kind::tiu: {
        r.id = w2;
        const std::uint32_t aux = io::load_le<std::uint32_t>(p + 12);
        if (aux == 2) r.flags |= pmu_record::sys_candidate;
        if (aux & 1) r.flags |= pmu_record::thread_one;
        break;
      }
      case pmu_kind::gdma:
      case pmu_kind::sdma: {
        r.id = w2;
        if (io::load_le<std::uint32_t>(p + 12) & 1) r.flags |= pmu_record::thread_one;
        r.stall = io::load_le<std::uint32_t>(p + 16);
        r.bytes =
            std::uint64_t{io::load_le<std::uint32_t>(p + 40)} + io::load_le<std::uint32_t>(p + 20);
        const std::uint64_t valid =
            std::uint64_t{io::load_le<std::uint32_t>(p + 48)} + io::load_le<std::uint32_t>(p + 52);
        if (valid == 0) r.flags |= pmu_record::sys_candidate;
        break;
      }
      case pmu_kind::cdma: {
        r.id = w2 & 0xFFFFFF;
        if (w2 & (1u << 24)) r.flags |= pmu_record::thread_one;
        r.bytes = io::load_le<std::uint32_t>(p + 16);
        if (r.bytes == 0) r.flags |= pmu_record::sys_candidate;
        break;
      }
    }
    out.push_back(r);
  }
  return blk.size() - n * sz;
}

}  // namespace tpuprof::cdm
