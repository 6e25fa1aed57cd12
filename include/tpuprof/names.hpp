/// Interned strings: events carry 16-bit ids, the decoded trace owns the text.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tpuprof {

/// Id of an interned name; 0 is always the empty name ("unknown").
using name_id = std::uint16_t;

/// Append-only string interner. Ids are stable; string_views stay valid for
/// the table's lifetime (storage is a deque, never reallocated).
class name_table {
 public:
  name_table() { intern(""); }
  /// Copies re-point every view at the copy's own storage.
  name_table(const name_table& o) : overflowed_(o.overflowed_) {
    for (const auto& v : o.views_) add(v);
  }
  name_table& operator=(const name_table& o) {
    if (this != &o) {
      name_table t(o);
      *this = std::move(t);
    }
    return *this;
  }
  /// Moves keep addresses: deque blocks (and the strings in them) are stolen.
  name_table(name_table&&) noexcept = default;
  name_table& operator=(name_table&&) noexcept = default;

  /// Returns the id of `s`, adding it if new. Past 65535 names every new
  /// name maps to id 0 and overflowed() becomes true (counted, not silent).
  name_id intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    if (storage_.size() > 0xFFFF) {
      ++overflowed_;
      return 0;
    }
    return add(s);
  }

  /// Id of `s` if interned, else `missing`; never adds. A template: compiled
  /// only where used (compile budget).
  template <class S>
  name_id find(const S& s, name_id missing) const {
    auto it = index_.find(s);
    return it != index_.end() ? it->second : missing;
  }

  /// Text of `id`; "" for an id this table never issued.
  std::string_view operator[](name_id id) const noexcept {
    return id < views_.size() ? views_[id] : std::string_view{};
  }

  std::size_t size() const noexcept { return views_.size(); }
  /// Names that did not fit the 16-bit id space.
  std::size_t overflowed() const noexcept { return overflowed_; }

 private:
  name_id add(std::string_view s) {
    const std::string& owned = storage_.emplace_back(s);
    auto id = static_cast<name_id>(storage_.size() - 1);
    views_.push_back(owned);
    index_.emplace(owned, id);
    return id;
  }
  std::deque<std::string> storage_;
  std::vector<std::string_view> views_;
  std::unordered_map<std::string_view, name_id> index_;
  std::size_t overflowed_ = 0;
};

}  // namespace tpuprof
