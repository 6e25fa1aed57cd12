/// dump_files: the set of files of one dump, from a directory (memory-mapped)
/// or from caller-owned buffers. Decoders read only through this.
#pragma once

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tpuprof/error.hpp>
#include <tpuprof/io/byte_reader.hpp>
#include <tpuprof/io/mapped_file.hpp>

namespace tpuprof::io {

/// Named byte buffers. Entries made by from_memory() borrow the caller's bytes
/// (which must outlive this object); entries of open_directory() are mapped
/// lazily on first access and owned here.
class dump_files {
 public:
  struct memory_file {
    std::string name;
    std::span<const std::byte> bytes;
  };

  /// Lists the regular files directly inside `dir`. Throws decode_error when
  /// `dir` does not exist or is not a directory.
  static dump_files open_directory(const std::filesystem::path& dir) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw decode_error(
          dir.string(), decode_error::no_offset,
          std::filesystem::exists(dir, ec) ? "not a directory" : "no such directory");
    dump_files d;
    d.label_ = dir.string();
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      if (!e.is_regular_file(ec)) continue;
      d.entries_.push_back(std::make_unique<entry>(
          entry{e.path().filename().string(), e.path().string(), {}, {}, false}));
    }
    if (ec) throw decode_error(dir.string(), decode_error::no_offset, ec.message());
    d.sort();
    return d;
  }

  /// Wraps caller-owned buffers; no file system access at all.
  static dump_files from_memory(std::vector<memory_file> files, std::string label = "<memory>") {
    dump_files d;
    d.label_ = std::move(label);
    for (auto& f : files)
      d.entries_.push_back(
          std::make_unique<entry>(entry{f.name, d.label_ + "/" + f.name, f.bytes, {}, true}));
    d.sort();
    return d;
  }

  /// Directory path or memory label, for messages.
  const std::string& label() const noexcept { return label_; }

  /// File names, sorted.
  std::vector<std::string_view> names() const {
    std::vector<std::string_view> v;
    for (const auto& e : entries_) v.push_back(e->name);
    return v;
  }
  bool contains(std::string_view name) const { return find_entry(name) != nullptr; }

  /// Reader over the named file, or nullopt when absent. Maps on first use.
  std::optional<byte_reader> find(std::string_view name) const {
    entry* e = find_entry(name);
    if (!e) return std::nullopt;
    if (!e->loaded) {
      e->map = mapped_file(e->path);
      e->bytes = e->map.bytes();
      e->loaded = true;
    }
    return byte_reader(e->bytes, e->path);
  }
  /// Hint that `r` (a reader from find()/get(), or a part of one) was consumed:
  /// its pages may leave the resident set (mapped_file::release). Reading it
  /// again stays correct. Caller-owned buffers (from_memory) are never touched.
  void release(const byte_reader& r) const noexcept {
    for (const auto& e : entries_)
      if (e->loaded && e->path == r.file()) {
        e->map.release(r.bytes());
        return;
      }
  }
  /// Like find() but throws decode_error "missing file" when absent.
  byte_reader get(std::string_view name) const {
    if (auto r = find(name)) return *r;
    throw decode_error(label_ + "/" + std::string(name), decode_error::no_offset, "missing file");
  }

 private:
  struct entry {
    std::string name;
    std::string path;  ///< full path (or label/name), used in error messages
    std::span<const std::byte> bytes;
    mapped_file map;
    bool loaded;
  };
  entry* find_entry(std::string_view name) const {
    auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                               [](const auto& e, std::string_view n) { return e->name < n; });
    return (it != entries_.end() && (*it)->name == name) ? it->get() : nullptr;
  }
  void sort() {
    std::sort(entries_.begin(), entries_.end(),
              [](const auto& a, const auto& b) { return a->name < b->name; });
  }
  std::string label_;
  std::vector<std::unique_ptr<entry>> entries_;
};

}  // namespace tpuprof::io
