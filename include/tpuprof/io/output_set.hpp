/// output_set: several output files that replace the previous run's files as
/// one set. Files are written into a staging directory inside the output
/// directory; commit() makes it the current set with one atomic rename (a
/// journal naming the files), then moves each file into place (swapping it
/// with an existing one: io/replace_file.hpp). A run killed
/// or failing before that rename leaves the old set untouched; after it, the
/// staging directory and its journal stay and the next run finishes the
/// commit (recover()), so the directory always ends up holding one complete
/// set. Only our own staging directories are ever removed: a run holds an
/// flock on a lock file inside its staging directory for its lifetime, and a
/// staging directory whose lock can be taken belongs to a dead run (no pids:
/// they are reused and mean nothing on a directory shared between hosts).
/// Protocol and guarantees: docs/reliability.md, "Output sets".
#pragma once

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include <tpuprof/io/atomic_file.hpp>
#include <tpuprof/io/replace_file.hpp>

namespace tpuprof::io {

class output_set {
 public:
  /// Fault injection for tests: called at every step ("stage:<name>",
  /// ["synced:<name>",] "journal", "committed", {"swapped:<name>",} "moved:<name>"
  /// [, "synced-dirs"]; bracketed: durability::power_loss only; braced: a file
  /// replaced by a swap, durability::crash only; "overtaken:<name>" instead of
  /// the move of a file that a later commit has); returning true stops the set
  /// there as a killed process would (nothing is cleaned up, the lock goes).
  using fault_hook = std::function<bool(std::string_view step)>;
  /// Thrown by a step that the fault hook stopped.
  struct killed {};

  static constexpr std::string_view staging_prefix = ".tpuprof-staging.";
  static constexpr std::string_view journal_name = "COMMIT";
  static constexpr std::string_view lock_name = "LOCK";
  /// In a staging directory: the files a commit replaced (no set name starts
  /// with staging_prefix, so none collides).
  static constexpr std::string_view replaced_dir = ".tpuprof-staging.replaced";
  /// First word of a journal's first line: "tpuprof-commit 1 <seq> <run id>".
  static constexpr std::string_view journal_magic = "tpuprof-commit 1";
  /// In a staging directory: the notices `.tpuprof-staging.later/<seq>.<run id>`,
  /// each a hard link of the journal of a commit made while this directory was
  /// there. Its files are not moved by this set (commit(), recover()): the
  /// later commit places them. They go with the directory. (A directory of
  /// their own: read before each move, it holds no staged file.)
  static constexpr std::string_view notice_dir = ".tpuprof-staging.later";

  /// Creates `dir`, recovers or removes what dead runs left there, and
  /// creates and locks this run's staging directory. `d`: what a committed set
  /// survives (durability::power_loss syncs the staged files, the journal and
  /// the directories: a disk flush each).
  explicit output_set(std::filesystem::path dir, fault_hook hook = {},
                      durability d = durability::crash)
      : dir_(std::move(dir)), hook_(std::move(hook)), durability_(d) {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) throw output_error(dir_.string() + ": cannot create: " + ec.message());
    seen_ = recover_seen(dir_);
    for (int attempt = 0; attempt < 16 && !lock_; ++attempt) {
      run_ = new_run_id();
      stage_ = dir_ / (std::string(staging_prefix) + run_);
      if (!std::filesystem::create_directory(stage_, ec)) {
        if (ec) throw output_error(stage_.string() + ": cannot create: " + ec.message());
        continue;  // the name exists: draw another
      }
      lock_ = stage_lock::take(stage_);  // fails only if a recovering run took it first
    }
    if (!lock_) throw output_error(stage_.string() + ": cannot lock the staging directory");
  }
  output_set(const output_set&) = delete;
  output_set& operator=(const output_set&) = delete;
  /// Uncommitted (an exception, a failed write): the staged files go, the old
  /// set stays. Committed but not moved (a failed rename): the staging
  /// directory and journal stay for the next run to finish (roll forward).
  ~output_set() {
    if (done_ || dead_ || committed_) return;
    std::error_code ec;
    std::filesystem::remove_all(stage_, ec);
  }

  /// Where to write the file `name` of the set (inside the staging directory).
  /// Throws output_error for a name that is not one plain file name.
  std::filesystem::path stage(std::string_view name) {
    if (!valid_name(name)) throw output_error(std::string(name) + ": not a plain file name");
    step("stage:" + std::string(name));
    if (std::find(names_.begin(), names_.end(), name) == names_.end()) names_.emplace_back(name);
    const auto p = stage_ / std::string(name);
    if (name.find('/') != std::string_view::npos)  // "PerfDoc/x.xlsx": a file in a subdirectory
      std::filesystem::create_directories(p.parent_path());
    return p;
  }
  /// The final path of `name` (for messages).
  std::filesystem::path final_path(std::string_view name) const { return dir_ / std::string(name); }
  /// This run's staging directory.
  const std::filesystem::path& staging_dir() const noexcept { return stage_; }

  /// Makes the staged files the output set. Throws output_error if a staged
  /// file is missing or the journal cannot be written (the old set stays), or
  /// if a file cannot be moved after the commit point (the journal stays and
  /// the next run completes the set).
  void commit() {
    for (const auto& n : names_)
      if (!is_file(stage_ / n)) throw output_error((stage_ / n).string() + ": staged file missing");
    const bool sync = durability_ == durability::power_loss;
    if (sync) {  // the staged bytes are on disk before the commit point
      for (const auto& n : names_) {
        sync_file(stage_ / n);
        step("synced:" + n);
      }
      for (const auto& d : dirs_of(stage_)) sync_dir(d);
    }
    step("journal");
    // After every commit this run saw, whatever the clocks say (Lamport).
    for (const auto& j : notices(stage_)) seen_ = std::max(seen_, j.seq);
    const journal self{new_seq(seen_ + 1), run_, names_};
    {
      atomic_file j(stage_ / std::string(journal_name),
                    durability_);  // the commit point: its rename
      j.write(std::string(journal_magic) + " " + std::to_string(self.seq) + " " + run_ + "\n");
      for (const auto& n : names_) j.write(n + "\n");
      j.commit();
    }
    if (sync) sync_dir(stage_);
    // Every other set here may be older and still move files: it must leave ours.
    for (const auto& o : stage_dirs(dir_, stage_)) notify(o, stage_, self, sync);
    committed_ = true;
    step("committed");
    for (const auto& n : names_) {
      // A later commit has it (its run's commit point came before this move): leave it.
      if (overtaken(stage_, self, n)) {
        step("overtaken:" + n);
        continue;
      }
      std::error_code ec;
      if (n.find('/') != std::string::npos)
        std::filesystem::create_directories((dir_ / n).parent_path(), ec);
      if (!sync && swap_in(n)) {
        step("moved:" + n);
        continue;
      }
      std::filesystem::rename(stage_ / n, dir_ / n, ec);
      if (ec) {
        lock_.reset();  // a committed set of a run that gave up: the next run rolls it forward
        throw output_error((dir_ / n).string() + ": rename failed: " + ec.message() +
                           " (the next run into this directory completes the set)");
      }
      step("moved:" + n);
    }
    if (sync) {
      for (const auto& d : dirs_of(dir_)) sync_dir(d);
      step("synced-dirs");
    }
    remove_stage(stage_, names_);
    done_ = true;
  }

  /// Finishes the committed sets of dead runs in `dir` (moves their files into
  /// place, oldest commit first, except a file that a later commit also has)
  /// and removes the uncommitted staging directories of dead runs. Touches
  /// nothing but `.tpuprof-staging.<id>` directories (never through a
  /// symlink) whose lock it can take.
  static void recover(const std::filesystem::path& dir) { (void)recover_seen(dir); }

 private:
  /// An flock on `<stage>/LOCK`, held as long as this object lives.
  class stage_lock {
   public:
    stage_lock() = default;
    stage_lock(stage_lock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    stage_lock& operator=(stage_lock&& o) noexcept {
      std::swap(fd_, o.fd_);
      return *this;
    }
    ~stage_lock() { reset(); }
    void reset() noexcept {
      if (fd_ >= 0) ::close(fd_);
      fd_ = -1;
    }
    explicit operator bool() const noexcept { return fd_ >= 0; }
    /// Takes the lock without waiting; empty when another holder has it, the
    /// lock file is a symlink, or the file it locked is no longer linked there
    /// (a recovering run removed the directory meanwhile).
    static stage_lock take(const std::filesystem::path& stage) {
      stage_lock l;
      const auto p = stage / std::string(lock_name);
      l.fd_ = ::open(p.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
      if (l.fd_ < 0) return {};
      struct stat a {
      }, b{};
      if (::flock(l.fd_, LOCK_EX | LOCK_NB) != 0 || ::fstat(l.fd_, &a) != 0 ||
          ::lstat(p.c_str(), &b) != 0 || a.st_ino != b.st_ino || a.st_dev != b.st_dev)
        return {};
      return l;
    }

   private:
    int fd_ = -1;
  };

  void step(const std::string& what) {
    if (hook_ && hook_(what)) {
      dead_ = true;
      lock_.reset();
      throw killed{};
    }
  }

  /// One file name directly inside the directory, none of ours.
  /// A file name, or relative path of plain names ("PerfDoc/x.xlsx"): no
  /// empty, "." or ".." component, no leading "/", none of our own names.
  static bool valid_name(std::string_view n) {
    if (n.empty() || n.size() > 1024 || n.find('\0') != std::string_view::npos) return false;
    for (std::size_t b = 0;;) {
      const std::size_t e = std::min(n.find('/', b), n.size());
      const std::string_view c = n.substr(b, e - b);
      if (c.empty() || c.size() > 255 || c == "." || c == "..") return false;
      if (e == n.size()) break;
      b = e + 1;
    }
    return !n.starts_with(staging_prefix) && n != journal_name && n != lock_name &&
           !n.starts_with(std::string(journal_name) + ".tmp.");
  }
  /// Run ids are lowercase hex (new_run_id()), 1 to 32 digits.
  static bool valid_run_id(std::string_view id) {
    return !id.empty() && id.size() <= 32 &&
           id.find_first_not_of("0123456789abcdef") == std::string_view::npos;
  }
  static std::string new_run_id() {
    static constexpr char hex[] = "0123456789abcdef";
    std::random_device rd;
    std::string id;
    for (int i = 0; i < 4; ++i)
      for (std::uint32_t v = rd(), k = 0; k < 4; ++k, v >>= 4) id += hex[v & 15];
    return id;
  }
  /// Orders commits: wall-clock nanoseconds, strictly increasing in a process
  /// and at least `floor`; at most 19 digits (read_journal).
  static std::uint64_t new_seq(std::uint64_t floor) {
    static std::uint64_t last = 0;
    const auto now =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
    constexpr std::uint64_t most = 9'999'999'999'999'999'999ull;
    last = std::min(most, std::max({last + 1, now, floor}));
    return last;
  }
  /// A journal (or a notice): its commit's <seq>, run id and file names.
  struct journal {
    std::uint64_t seq = 0;
    std::string id;
    std::vector<std::string> names;
    /// Whether this commit comes after `o` (<seq>, then run id: a total order).
    bool after(const journal& o) const { return std::tie(seq, id) > std::tie(o.seq, o.id); }
    bool has(const std::string& n) const {
      return std::find(names.begin(), names.end(), n) != names.end();
    }
  };
  /// The run id of a staging directory.
  static std::string id_of(const std::filesystem::path& stage) {
    return stage.filename().string().substr(staging_prefix.size());
  }
  /// The staging directories in `dir` but `skip` (never through a symlink).
  static std::vector<std::filesystem::path> stage_dirs(const std::filesystem::path& dir,
                                                       const std::filesystem::path& skip = {}) {
    std::vector<std::filesystem::path> v;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string n = it->path().filename().string();
      if (!n.starts_with(staging_prefix) || !valid_run_id(n.substr(staging_prefix.size())) ||
          it->path() == skip)
        continue;  // the name first: no lstat for the user's entries
      std::error_code sec;
      if (std::filesystem::symlink_status(it->path(), sec).type() ==
          std::filesystem::file_type::directory)
        v.push_back(it->path());
    }
    return v;
  }
  /// A staging directory and its journal (none: not committed).
  struct staged {
    std::filesystem::path path;
    std::optional<journal> j;
    bool gone = false;  ///< removed by recovery (uncommitted and dead)
  };
  /// The notices in `stage`: the journals of the commits made while it was there.
  static std::vector<journal> notices(const std::filesystem::path& stage) {
    std::vector<journal> v;
    std::error_code ec;
    std::filesystem::directory_iterator it(stage / std::string(notice_dir), ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string rest = it->path().filename().string();  // "<seq>.<id>"
      const auto dot = rest.find('.');
      if (dot == std::string::npos) continue;
      auto j = read_journal(it->path(), rest.substr(dot + 1));
      if (j && std::to_string(j->seq) == rest.substr(0, dot)) v.push_back(std::move(*j));
    }
    return v;
  }
  /// Tells the set staged in `other` of the commit `j` (whose journal is in
  /// `stage`): a hard link of that journal (best effort: without it,
  /// docs/reliability.md "Limits" applies).
  static void notify(const std::filesystem::path& other, const std::filesystem::path& stage,
                     const journal& j, bool sync) {
    const auto d = other / std::string(notice_dir);
    (void)::mkdir(d.c_str(), 0755);
    struct stat st {};
    if (::lstat(d.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return;  // never through a symlink
    const auto m = d / (std::to_string(j.seq) + "." + j.id);
    if (::link((stage / std::string(journal_name)).c_str(), m.c_str()) == 0 && sync) {
      sync_dir(d);
      sync_dir(other);
    }
  }
  /// Whether a commit after `self` has the file `n`: its notice is in `stage`.
  static bool overtaken(const std::filesystem::path& stage, const journal& self,
                        const std::string& n) {
    for (const auto& j : notices(stage))
      if (j.after(self) && j.has(n)) return true;
    return false;
  }
  /// recover(); returns the highest <seq> of the journals it saw.
  static std::uint64_t recover_seen(const std::filesystem::path& dir) {
    std::vector<staged> found;
    for (auto& p : stage_dirs(dir))
      found.push_back({p, read_journal(p / std::string(journal_name), id_of(p))});
    struct committed_stage {
      const staged* s;  ///< in `found`, with its journal
      stage_lock lock;
    };
    std::vector<committed_stage> committed;
    std::uint64_t seen = 0;
    for (auto& s : found) {
      if (s.j) seen = std::max(seen, s.j->seq);
      auto lock = stage_lock::take(s.path);
      if (!lock) continue;  // a live run's, or one we may not touch
      // Read again under the lock: the run may have committed since the scan
      // (and `found` is what roll_forward asks about later commits).
      s.j = read_journal(s.path / std::string(journal_name), id_of(s.path));
      if (s.j) {
        seen = std::max(seen, s.j->seq);
        committed.push_back({&s, std::move(lock)});
      } else {
        remove_stage(s.path, {});  // uncommitted: the old set stays (a non-empty replaced_dir too)
        s.gone = true;
      }
    }
    std::sort(committed.begin(), committed.end(),
              [](const auto& a, const auto& b) { return b.s->j->after(*a.s->j); });
    std::vector<const committed_stage*> failed;
    for (const auto& c : committed) {
      const journal& j = *c.s->j;
      // The sets here may be older than c and must leave its files (c may
      // have been killed before it told them).
      for (const auto& o : found)
        if (&o != c.s && !o.gone) notify(o.path, c.s->path, j, false);
      if (!roll_forward(dir, c.s->path, j, found)) {
        failed.push_back(&c);  // kept for a later run, unless a newer set lands
        continue;
      }
      failed.push_back(&c);  // complete: remove it and every older one that failed
      for (const auto* f : failed) remove_stage(f->s->path, f->s->j->names);
      failed.clear();
    }
    if (!committed.empty()) sync_dir(dir);
    return seen;
  }
  /// A regular file itself (a symlink is not followed).
  static bool is_file(const std::filesystem::path& p) { return detail::is_regular_entry(p); }

  /// The journal (or notice) `jp` of run `id`; nullopt when it is not a
  /// well-formed journal of that run (the run had not committed; the journal
  /// is renamed into place whole, so a malformed one is not ours and is never
  /// followed).
  static std::optional<journal> read_journal(const std::filesystem::path& jp,
                                             const std::string& id) {
    if (!is_file(jp) || !valid_run_id(id)) return std::nullopt;
    std::ifstream j(jp, std::ios::binary);
    std::string line;
    if (!std::getline(j, line) || !line.starts_with(journal_magic) ||
        line.size() <= journal_magic.size() || line[journal_magic.size()] != ' ')
      return std::nullopt;
    const std::string rest = line.substr(journal_magic.size() + 1);
    const auto sp = rest.find(' ');
    if (sp == std::string::npos || sp == 0 || sp > 19 ||
        rest.find_first_not_of("0123456789") != sp || rest.substr(sp + 1) != id)
      return std::nullopt;
    journal r{std::stoull(rest.substr(0, sp)), id, {}};
    while (std::getline(j, line)) {
      if (!valid_name(line)) return std::nullopt;
      r.names.push_back(line);
    }
    if (!j.eof()) return std::nullopt;
    return r;
  }
  /// Moves the journaled files of the set `j` still in `stage` into `dir` (a
  /// file already moved is skipped, and so is one that a later commit has: a
  /// journal of `others`, or a notice in `stage`, looked at again before each
  /// move). False if one cannot be moved.
  static bool roll_forward(const std::filesystem::path& dir, const std::filesystem::path& stage,
                           const journal& j, const std::vector<staged>& others) {
    bool ok = true;
    for (const auto& n : j.names) {
      if (!is_file(stage / n) || swapped_in(stage, n)) continue;  // moved already
      if (std::any_of(others.begin(), others.end(),
                      [&](const auto& o) { return o.j && o.j->after(j) && o.j->has(n); }) ||
          overtaken(stage, j, n))
        continue;  // a later commit's: it places the file
      std::error_code ec;
      if (n.find('/') != std::string::npos)
        std::filesystem::create_directories((dir / n).parent_path(), ec);
      std::filesystem::rename(stage / n, dir / n, ec);
      ok = ok && !ec;
    }
    return ok;
  }
  /// Puts the staged `n` in the place of an existing OUT/n by swapping names
  /// (io/replace_file.hpp: no ext4 writeback, for durability::crash). The swap
  /// goes through a second link of the staged file, `replaced_dir`/n, which
  /// then names the old file; the journaled name is unlinked after it, as a
  /// rename would have moved it. Killed in between, the journaled name is
  /// still there, but swapped_in() tells the roll forward that it was moved
  /// (it never moves an old file back, nor the new one over a newer set).
  /// False: rename instead.
  bool swap_in(const std::string& n) {
    const auto to = dir_ / n;
    if (!is_file(to)) return false;  // the common case: nothing to replace
    const auto spare = stage_ / std::string(replaced_dir) / n;
    std::error_code ec;
    std::filesystem::create_directories(spare.parent_path(), ec);
    if (ec || ::link((stage_ / n).c_str(), spare.c_str()) != 0) return false;
    if (!detail::exchange_into(spare, to)) {
      (void)::unlink(spare.c_str());
      return false;
    }
    step("swapped:" + n);
    (void)::unlink((stage_ / n).c_str());  // the old file stays under spare until remove_stage
    return true;
  }
  /// Whether the staged `n` was swapped into place: `replaced_dir`/n is then
  /// another file (the old one) than `n`; before the swap it is `n` itself.
  static bool swapped_in(const std::filesystem::path& stage, const std::string& n) {
    struct stat a {
    }, b{};
    return ::lstat((stage / std::string(replaced_dir) / n).c_str(), &a) == 0 &&
           ::lstat((stage / n).c_str(), &b) == 0 && (a.st_ino != b.st_ino || a.st_dev != b.st_dev);
  }
  static bool exists(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::symlink_status(p, ec).type() != std::filesystem::file_type::not_found;
  }
  /// Removes a staging directory of the set `names`. The files its swaps
  /// replaced are unlinked one by one, regular files only: anything else under
  /// `replaced_dir` is not ours (a directory that took a name between the
  /// check and the swap, the process killed before it swapped back) and
  /// stays, with the staging directory around it, for the user to see. The
  /// set's journal and names go then, so that it is never rolled forward again.
  static void remove_stage(const std::filesystem::path& stage,
                           const std::vector<std::string>& names) {
    const auto r = stage / std::string(replaced_dir);
    if (exists(r)) {
      for (const auto& n : names)
        if (is_file(r / n)) (void)::unlink((r / n).c_str());
      for (const auto& n : names)  // the directories made for "sub/name": deepest first
        for (auto d = (r / n).parent_path(); d != r && d.native().size() > r.native().size();
             d = d.parent_path())
          (void)::rmdir(d.c_str());
      (void)::rmdir(r.c_str());
      if (exists(r)) {  // not empty: something of the user's stays; the set is done:
        for (const auto& n : names) (void)::unlink((stage / n).c_str());  // never rolled again
        (void)::unlink((stage / std::string(journal_name)).c_str());
        return;
      }
    }
    // A notice linked in meanwhile (another run's commit point) makes the
    // last rmdir fail: again, a few times.
    std::error_code ec;
    for (int i = 0; i < 4 && exists(stage); ++i) std::filesystem::remove_all(stage, ec);
  }
  /// `base` and the subdirectories of it that hold files of the set.
  std::vector<std::filesystem::path> dirs_of(const std::filesystem::path& base) const {
    std::vector<std::filesystem::path> d{base};
    for (const auto& n : names_)
      if (const auto p = (base / n).parent_path(); std::find(d.begin(), d.end(), p) == d.end())
        d.push_back(p);
    return d;
  }
  void sync_file(const std::filesystem::path& f) const {
    const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
    const bool ok = fd >= 0 && ::fsync(fd) == 0;
    const int e = errno;
    if (fd >= 0) ::close(fd);
    if (!ok) throw output_error(f.string() + ": cannot sync to disk: " + std::strerror(e));
  }
  static void sync_dir(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
      (void)::fsync(fd);
      ::close(fd);
    }
  }

  std::filesystem::path dir_, stage_;
  std::string run_;
  fault_hook hook_;
  durability durability_ = durability::crash;
  std::vector<std::string> names_;
  std::uint64_t seen_ = 0;  ///< the highest <seq> of the journals this run saw
  stage_lock lock_;
  bool done_ = false, dead_ = false, committed_ = false;
};

}  // namespace tpuprof::io
