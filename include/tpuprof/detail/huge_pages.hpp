/// advise_huge_pages: asks the kernel for transparent huge pages on a large,
/// not yet touched buffer (a reserved std::vector). Why: decoding millions of
/// events into fresh memory costs one page fault and one 4 KiB clear per 64
/// events; with 2 MiB pages the faults all but vanish (docs/performance.md).
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace tpuprof::detail {

/// Advises the whole 2 MiB-aligned pages inside [p, p + bytes); a hint only
/// (no-op off Linux, below 4 MiB, or when the kernel says no).
inline void advise_huge_pages(const void* p, std::size_t bytes) noexcept {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  if (!p || bytes < 2 * huge) return;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto b = (a + huge - 1) / huge * huge;
  const auto e = (a + bytes) / huge * huge;
  if (e > b) ::madvise(reinterpret_cast<void*>(b), e - b, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

/// `v.reserve(n)` followed by the advice on its new buffer.
template <class Vector>
void reserve_huge(Vector& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(*v.data()));
}

}  // namespace tpuprof::detail
