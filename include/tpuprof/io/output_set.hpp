/// output_set: several output files that replace the previous run's files as
/// one set. Files are written into a staging directory inside the output
/// directory; commit() makes the set durable with one atomic rename (a
/// journal naming the files), then moves each file into place. A run killed
/// before that rename leaves the old set untouched; one killed after it is
/// finished by the next run (recover()), so the directory always ends up
/// holding one complete set. Leftovers of dead runs are removed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tpuprof/io/atomic_file.hpp>

namespace tpuprof::io {

class output_set {
 public:
  /// Fault injection for tests: called at every step ("stage:<name>",
  /// "journal", "committed", "moved:<name>"); returning true stops the set
  /// there as a killed process would (nothing is cleaned up).
  using fault_hook = std::function<bool(std::string_view step)>;
  /// Thrown by a step that the fault hook stopped.
  struct killed {};

  static constexpr std::string_view staging_prefix = ".tpuprof-staging.";
  static constexpr std::string_view journal_name = "COMMIT";

  /// Creates `dir`, recovers or removes what dead runs left there, and
  /// creates this run's staging directory. `pid` names it (tests pass a pid
  /// that cannot be alive to play a run that was killed).
  explicit output_set(std::filesystem::path dir, fault_hook hook = {}, long pid = ::getpid())
      : dir_(std::move(dir)), hook_(std::move(hook)) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) throw output_error(dir_.string() + ": cannot create: " + ec.message());
    recover(dir_);
    stage_ = dir_ / (std::string(staging_prefix) + std::to_string(pid));
    std::filesystem::remove_all(stage_, ec);
    if (!std::filesystem::create_directory(stage_, ec) || ec)
      throw output_error(stage_.string() + ": cannot create: " + ec.message());
  }
  output_set(const output_set&) = delete;
  output_set& operator=(const output_set&) = delete;
  /// Uncommitted (an exception, a failed write): the staged files go, the old set stays.
  ~output_set() {
    if (done_ || dead_) return;
    std::error_code ec;
    std::filesystem::remove_all(stage_, ec);
  }

  /// Where to write the file `name` of the set (inside the staging directory).
  std::filesystem::path stage(std::string_view name) {
    step("stage:" + std::string(name));
    names_.emplace_back(name);
    const auto p = stage_ / std::string(name);
    if (name.find('/') != std::string_view::npos)  // "PerfDoc/x.xlsx": a file in a subdirectory
      std::filesystem::create_directories(p.parent_path());
    return p;
  }
  /// The final path of `name` (for messages).
  std::filesystem::path final_path(std::string_view name) const { return dir_ / std::string(name); }

  /// Makes the staged files the output set. Throws output_error if a staged
  /// file is missing or the journal cannot be written; then the old set stays.
  void commit() {
    for (const auto& n : names_)
      if (!std::filesystem::exists(stage_ / n))
        throw output_error((stage_ / n).string() + ": staged file missing");
    step("journal");
    {
      atomic_file j(stage_ / std::string(journal_name));  // the commit point: its rename
      for (const auto& n : names_) j.write(n + "\n");
      j.commit();
    }
    step("committed");
    for (const auto& n : names_) {
      std::error_code ec;
      if (n.find('/') != std::string::npos)
        std::filesystem::create_directories((dir_ / n).parent_path(), ec);
      std::filesystem::rename(stage_ / n, dir_ / n, ec);
      if (ec) throw output_error((dir_ / n).string() + ": rename failed: " + ec.message());
      step("moved:" + n);
    }
    sync_dir(dir_);
    std::error_code ec;
    std::filesystem::remove_all(stage_, ec);
    done_ = true;
  }

  /// Finishes the committed sets of dead runs in `dir` (moves their files into
  /// place) and removes every other leftover of a dead run: uncommitted
  /// staging directories and atomic_file temporaries (`*.tmp.<pid>`).
  static void recover(const std::filesystem::path& dir) {
    std::error_code ec;
    std::vector<std::filesystem::path> stages, temps;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
      const std::string n = e.path().filename().string();
      if (n.starts_with(staging_prefix) && dead(n.substr(staging_prefix.size())))
        stages.push_back(e.path());
      else if (auto p = n.rfind(".tmp."); p != std::string::npos && dead(n.substr(p + 5)))
        temps.push_back(e.path());
    }
    for (const auto& s : stages) {
      std::ifstream j(s / std::string(journal_name));
      for (std::string name; j && std::getline(j, name);)
        if (!name.empty() && name.front() != '/' && name.find("..") == std::string::npos &&
            std::filesystem::exists(s / name, ec)) {
          if (name.find('/') != std::string::npos)
            std::filesystem::create_directories((dir / name).parent_path(), ec);
          std::filesystem::rename(s / name, dir / name, ec);
        }
      std::filesystem::remove_all(s, ec);
    }
    for (const auto& t : temps) std::filesystem::remove(t, ec);
    if (!stages.empty()) sync_dir(dir);
  }

 private:
  void step(const std::string& what) {
    if (hook_ && hook_(what)) {
      dead_ = true;
      throw killed{};
    }
  }
  /// True when `digits` is a pid and no such process exists.
  static bool dead(std::string_view digits) {
    if (digits.empty() || digits.size() > 10) return false;
    long pid = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      pid = pid * 10 + (c - '0');
    }
    if (pid <= 0 || pid == ::getpid()) return false;
    return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
  }
  static void sync_dir(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
      (void)::fsync(fd);
      ::close(fd);
    }
  }

  std::filesystem::path dir_, stage_;
  fault_hook hook_;
  std::vector<std::string> names_;
  bool done_ = false, dead_ = false;
};

}  // namespace tpuprof::io
