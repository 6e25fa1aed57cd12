// What the CLI prints through: tables that fit the terminal, the progress bar
// on stderr, and the "did you mean" suggestions. The library never prints; only
// these do.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace cli {

/// Width of the terminal stdout goes to: COLUMNS when set to a number, else the
/// ioctl size of stdout when it is a terminal, else 0 (no limit: files and pipes
/// get the full table).
std::size_t terminal_width();

/// A column of a text table: header, width (cells are padded to it, never cut
/// unless the table must shrink), alignment, the separator printed before it,
/// and how readily it is dropped to fit the terminal (higher = kept longer; the
/// label column gets the highest and is shortened instead).
struct column {
  std::string head;
  std::size_t width = 0;
  bool left = false;
  int keep = 1;
  std::string sep = " ";
};

/// A text table. With width 0 (or one wide enough) it prints exactly as the
/// fmt "{:>w} {:<w}" lines it replaces; narrower, it drops the lowest-`keep`
/// columns first, then shortens the widest left-aligned column (ends in "~").
class text_table {
 public:
  explicit text_table(std::vector<column> cols) : cols_(std::move(cols)) {}
  void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  /// The table (header first), each line ending in '\n'.
  std::string render(std::size_t width) const;
  std::size_t rows() const noexcept { return rows_.size(); }

 private:
  std::vector<column> cols_;
  std::vector<std::vector<std::string>> rows_;
};

/// The closest of `choices` to `word` (edit distance at most a third of its
/// length, at least 2), or "" when none is close.
std::string closest(std::string_view word, const std::vector<std::string>& choices);

/// Progress on stderr, drawn only when `on` (stderr is a terminal and no -q) and
/// only once the work took more than a second: label, bar, percentage and ETA
/// when the fraction done is known, the elapsed time otherwise. A thread
/// redraws it ten times a second; `color` only colours the bar.
class progress {
 public:
  explicit progress(bool on, bool color = false);
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  ~progress();
  /// A stage without a known fraction (e.g. "decoding DIR").
  void step(const std::string& what) { set(what, -1); }
  /// A stage `fraction` (0..1) of the way through the whole work.
  void set(const std::string& what, double fraction);
  /// Clears the line; the next step starts drawing again.
  void done();
  /// The line for `what` at `fraction` after `elapsed_s`, `width` columns at
  /// most (public for the tests of the CLI's output).
  static std::string line(const std::string& what, double fraction, double elapsed_s,
                          std::size_t width, bool color);

 private:
  void run();
  void draw_locked();
  bool on_, color_;
  std::mutex m_;
  std::condition_variable cv_;
  std::thread thread_;
  std::string what_;
  double fraction_ = -1;
  bool active_ = false, dirty_ = false, stop_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace cli
