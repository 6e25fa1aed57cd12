/// exchange_into: puts a finished file in the place of an existing one by
/// swapping the two names (renameat2 RENAME_EXCHANGE). Why: on ext4 (its
/// default auto_da_alloc) a rename over an existing file starts writeback of
/// the new file's data, to keep old-or-new across a power cut: 13-20 ms per
/// 11 MB here, a quarter of a 180 k-event convert. durability::crash promises what
/// the page cache gives and no more, so it swaps instead: no writeback, and
/// the old file is left under the new file's former name for the caller to
/// remove (docs/reliability.md, "Replacing a file").
#pragma once

#include <fcntl.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>

namespace tpuprof::io::detail {

/// Whether `p` is a regular file itself (a symlink is not followed).
inline bool is_regular_entry(const std::filesystem::path& p) noexcept {
  struct stat s {};
  return ::lstat(p.c_str(), &s) == 0 && S_ISREG(s.st_mode);
}

/// Swaps the names `from` (a regular file) and `to` when `to` is an existing
/// regular file: `to` then names the new file and `from` the old one. False,
/// with nothing changed, when `to` is absent or no regular file, or the
/// system or filesystem cannot swap: the caller renames instead.
inline bool exchange_into(const std::filesystem::path& from,
                          const std::filesystem::path& to) noexcept {
#if defined(__linux__) && defined(RENAME_EXCHANGE)
  if (!is_regular_entry(to)) return false;
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) != 0) return false;
  if (is_regular_entry(from)) return true;
  // `to` became a directory or symlink between the check and the swap: undo,
  // so that the caller's rename fails on it as it would have.
  (void)::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE);
  return false;
#else
  (void)from;
  (void)to;
  return false;
#endif
}

}  // namespace tpuprof::io::detail
