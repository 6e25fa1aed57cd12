/// cdm_matcher: pairs PMU records with commands the way the vendor tools do:
/// split both lists into id-contiguous sections, align the section lists by
/// minimum edit distance (skip 1, skip 1, substitute 2, in that tie-break
/// order), then map records to commands inside a section by id offset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <tpuprof/decode/cdm/commands.hpp>
#include <tpuprof/decode/cdm/pmu.hpp>

namespace tpuprof::cdm {

/// A run of list entries [first, first+count) with `key` = id span (or, for a
/// DES reference, its command count).
struct section {
  std::uint64_t key = 0;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
};

/// Sections of a PMU list: a new section whenever the id does not increase.
/// With `mark_system`, records meeting the sys heuristic are labelled send,
/// wait, send, ... in list order (as bigTpuProfile does).
inline std::vector<section> pmu_sections(pmu_list r, bool mark_system) {
  std::vector<section> out;
  std::uint64_t sys_count = 0, prev = 0, first_id = 0;
  for (std::uint32_t i = 0; i < r.size(); ++i) {
    pmu_ref x = r[i];
    if (mark_system && (x.flags() & pmu_ref::sys_candidate)) {
      x.add_flags((sys_count % 2 == 0) ? pmu_ref::sys_send : pmu_ref::sys_wait);
      ++sys_count;
    }
    const std::uint64_t id = x.id();
    if (i == 0 || id <= prev) {
      if (i > 0) out.back().key = prev - first_id + 1;
      out.push_back({0, i, 0});
      first_id = id;
    }
    ++out.back().count;
    prev = id;
  }
  if (!out.empty()) out.back().key = prev - first_id + 1;
  return out;
}

/// Sections of a command list: DES references stand alone (key = cmd_num),
/// other commands split where the id does not increase.
inline std::vector<section> command_sections(std::span<const command> c) {
  std::vector<section> out;
  bool open = false;
  auto close = [&]() {
    if (!open) return;
    auto& s = out.back();
    s.key = std::uint64_t{c[s.first + s.count - 1].id} - c[s.first].id + 1;
    open = false;
  };
  for (std::uint32_t i = 0; i < c.size(); ++i) {
    if (c[i].kind == command::des_ref) {
      close();
      out.push_back({c[i].cmd_num, i, 1});
      continue;
    }
    if (open && c[i].id <= c[i - 1].id) close();
    if (!open) {
      out.push_back({0, i, 0});
      open = true;
    }
    ++out.back().count;
  }
  close();
  return out;
}

/// Largest DP table (cells) the aligner builds; beyond it sections are paired
/// in order (reported by `fallback`). Bounds memory for hostile input.
inline constexpr std::size_t max_alignment_cells = std::size_t{1} << 24;

/// Minimum-edit alignment of section keys. Returns (monitor index, command
/// index or -1) in forward order; command sections skipped are not listed.
inline std::vector<std::pair<std::uint32_t, std::int64_t>> align_sections(
    std::span<const section> m, std::span<const section> c, bool* fallback = nullptr) {
  std::vector<std::pair<std::uint32_t, std::int64_t>> out;
  const std::size_t M = m.size(), N = c.size();
  if ((M + 1) * (N + 1) > max_alignment_cells) {
    if (fallback) *fallback = true;
    for (std::size_t i = 0; i < M; ++i)
      out.emplace_back(static_cast<std::uint32_t>(i), i < N ? static_cast<std::int64_t>(i) : -1);
    return out;
  }
  enum : std::uint8_t { diag_step, up_step, left_step };
  std::vector<std::uint8_t> path((M + 1) * (N + 1));
  std::vector<std::uint64_t> prev(N + 1), cur(N + 1);
  auto at = [&](std::size_t i, std::size_t j) -> std::uint8_t& { return path[i * (N + 1) + j]; };
  for (std::size_t j = 0; j <= N; ++j) {
    prev[j] = j;
    at(0, j) = left_step;
  }
  for (std::size_t i = 1; i <= M; ++i) {
    cur[0] = i;
    at(i, 0) = up_step;
    for (std::size_t j = 1; j <= N; ++j) {
      if (m[i - 1].key == c[j - 1].key) {
        cur[j] = prev[j - 1];
        at(i, j) = diag_step;
        continue;
      }
      std::uint64_t best = prev[j] + 1;
      std::uint8_t step = up_step;
      if (cur[j - 1] + 1 < best) {
        best = cur[j - 1] + 1;
        step = left_step;
      }
      if (prev[j - 1] + 2 < best) {
        best = prev[j - 1] + 2;
        step = diag_step;
      }
      cur[j] = best;
      at(i, j) = step;
    }
    std::swap(prev, cur);
  }
  std::size_t i = M, j = N;
  while (i > 0 || j > 0) {
    const auto s = at(i, j);
    if (s == diag_step) {
      out.emplace_back(static_cast<std::uint32_t>(i - 1), static_cast<std::int64_t>(j - 1));
      --i;
      --j;
    } else if (s == up_step) {
      out.emplace_back(static_cast<std::uint32_t>(i - 1), -1);
      --i;
    } else {
      --j;
    }
  }
  std::reverse(out.begin(), out.end());
  return out;
}

/// What the matcher did with one engine list.
struct match_stats {
  std::uint64_t matched = 0;    ///< records paired with a command
  std::uint64_t inserted = 0;   ///< commands with no record
  std::uint64_t deleted = 0;    ///< records in sections aligned with no command
  std::uint64_t unmatched = 0;  ///< records with no command at all
  bool fallback = false;        ///< alignment too large: paired in order
};

/// Pairs records of `r` with `cmds`. `resolve(des)` returns the decoded
/// command list of a DES reference (or nullptr when its buffer is unknown).
/// Records are never removed here. With `mark_system`, sys records are labelled.
template <class Resolver>
match_stats pair_sections(pmu_list r, std::span<const command> cmds, bool mark_system,
                          Resolver&& resolve) {
  match_stats st;
  auto ms = pmu_sections(r, mark_system);
  auto cs = command_sections(cmds);
  std::vector<bool> used(cs.size(), false);
  for (auto [mi, ci] : align_sections(ms, cs, &st.fallback)) {
    const section& M = ms[mi];
    if (ci < 0) {
      st.deleted += M.count;
      continue;
    }
    const section& C = cs[static_cast<std::size_t>(ci)];
    used[static_cast<std::size_t>(ci)] = true;
    const command& d = cmds[C.first];
    std::span<const command> list;
    const bool is_des = d.kind == command::des_ref;
    if (is_des) {
      const std::vector<command>* decoded = resolve(d);
      if (!decoded) {
        for (std::uint32_t k = 0; k < M.count; ++k) r[M.first + k].set_tags(&d);
        st.inserted += d.cmd_num;
        continue;
      }
      list = *decoded;
    } else {
      list = cmds.subspan(C.first, C.count);
    }
    const std::uint64_t base = r[M.first].id();
    std::uint64_t hit = 0;
    for (std::uint32_t k = 0; k < M.count; ++k) {
      pmu_ref x = r[M.first + k];
      const std::uint64_t off = x.id() - base;
      if (off < list.size()) {
        x.set_cmd(&list[off]);
        x.set_tags(is_des ? &d : nullptr);
        ++hit;
      } else {
        x.set_tags(&d);
      }
    }
    st.matched += hit;
    st.inserted += list.size() > hit ? list.size() - hit : 0;
  }
  for (std::size_t k = 0; k < cs.size(); ++k)
    if (!used[k])
      st.inserted +=
          cmds[cs[k].first].kind == command::des_ref ? cmds[cs[k].first].cmd_num : cs[k].count;
  st.unmatched = r.size() - st.matched;
  return st;
}

}  // namespace tpuprof::cdm
