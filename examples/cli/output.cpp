// Tables that fit the terminal, the progress bar and "did you mean" (output.hpp).
#include "output.hpp"
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include <fmt/core.h>
#include <fmt/format.h>

namespace cli {

namespace {

/// The number in environment variable `name` when it is one >= `least`.
std::size_t env_number(const char* name, std::size_t fallback, long least = 1) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return (*end == '\0' && n >= least) ? static_cast<std::size_t>(n) : fallback;
}

std::size_t fd_width(int fd) {
  winsize ws{};
  if (::isatty(fd) && ::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 0;
}

std::string pad(const std::string& s, std::size_t w, bool left) {
  if (s.size() >= w) return s;
  return left ? s + std::string(w - s.size(), ' ') : std::string(w - s.size(), ' ') + s;
}

}  // namespace

std::size_t terminal_width() {
  return env_number("COLUMNS", fd_width(1));
}

std::string text_table::render(std::size_t width) const {
  std::vector<std::size_t> w(cols_.size());  // the width each column takes when printed
  for (std::size_t c = 0; c < cols_.size(); ++c) {
    w[c] = std::max(cols_[c].width, cols_[c].head.size());
    for (const auto& r : rows_)
      if (c < r.size()) w[c] = std::max(w[c], r[c].size());
  }
  std::vector<bool> shown(cols_.size(), true);
  auto total = [&] {
    std::size_t t = 0;
    bool first = true;
    for (std::size_t c = 0; c < cols_.size(); ++c)
      if (shown[c]) t += w[c] + (first ? 0 : cols_[c].sep.size()), first = false;
    return t;
  };
  const int top_keep = std::accumulate(cols_.begin(), cols_.end(), 0,
                                       [](int m, const column& c) { return std::max(m, c.keep); });
  // The widest left-aligned shown column (the label): shortening it to 12 is
  // preferred to dropping a column; to 8 when nothing else can go.
  auto widest_left = [&] {
    std::size_t cut = cols_.size();
    for (std::size_t c = 0; c < cols_.size(); ++c)
      if (shown[c] && cols_[c].left && (cut == cols_.size() || w[c] > w[cut])) cut = c;
    return cut;
  };
  auto shrink_fits = [&] {
    const std::size_t c = widest_left();
    return c < cols_.size() && w[c] > 12 && total() - width <= w[c] - 12;
  };
  if (width > 0) {
    // Drop the least wanted columns, the rightmost first among equals, until
    // shortening the label is enough.
    for (int k = 0; k < top_keep && total() > width && !shrink_fits(); ++k)
      for (std::size_t c = cols_.size(); c-- > 0 && total() > width && !shrink_fits();)
        if (cols_[c].keep == k) shown[c] = false;
  }
  std::size_t cut = cols_.size();
  if (width > 0 && total() > width) {
    cut = widest_left();
    if (cut < cols_.size()) {
      const std::size_t over = total() - width;
      w[cut] = std::max<std::size_t>(8, w[cut] > over ? w[cut] - over : 0);
    }
  }
  auto line = [&](auto cell_of) {
    std::string s;
    bool first = true;
    for (std::size_t c = 0; c < cols_.size(); ++c) {
      if (!shown[c]) continue;
      std::string v = cell_of(c);
      if (c == cut && v.size() > w[c]) v = v.substr(0, w[c] - 1) + "~";
      if (!first) s += cols_[c].sep;
      first = false;
      // Unshrunk tables pad to the declared width only, as fmt did.
      s += pad(v, c == cut ? w[c] : cols_[c].width, cols_[c].left);
    }
    while (!s.empty() && s.back() == ' ' && width > 0) s.pop_back();
    return s + "\n";
  };
  std::string out = line([&](std::size_t c) { return cols_[c].head; });
  for (const auto& r : rows_) out += line([&](std::size_t c) { return c < r.size() ? r[c] : ""; });
  return out;
}

std::string closest(std::string_view word, const std::vector<std::string>& choices) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (const auto& c : choices) {
    std::vector<std::size_t> prev(c.size() + 1), cur(c.size() + 1);
    std::iota(prev.begin(), prev.end(), 0);
    for (std::size_t i = 1; i <= word.size(); ++i) {
      cur[0] = i;
      for (std::size_t j = 1; j <= c.size(); ++j)
        cur[j] = std::min(
            {prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (word[i - 1] == c[j - 1] ? 0 : 1)});
      std::swap(prev, cur);
    }
    if (prev[c.size()] < best_d) best_d = prev[c.size()], best = c;
  }
  return best;
}

progress::progress(bool on, bool color) : on_(on), color_(color) {}

progress::~progress() {
  {
    std::lock_guard lk(m_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  done();
}

void progress::set(const std::string& what, double fraction) {
  if (!on_) return;
  std::lock_guard lk(m_);
  if (!active_) start_ = std::chrono::steady_clock::now(), active_ = true;
  what_ = what;
  fraction_ = fraction;
  draw_locked();  // a new stage shows at once once the delay has passed
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
}

void progress::done() {
  if (!on_) return;
  std::lock_guard lk(m_);
  if (dirty_) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr);
  dirty_ = active_ = false;
}

std::string progress::line(const std::string& what, double fraction, double elapsed_s,
                           std::size_t width, bool color) {
  std::string tail;
  if (fraction >= 0) {
    const double f = std::clamp(fraction, 0.0, 1.0);
    constexpr int bar = 20;
    const int full = static_cast<int>(f * bar + 0.5);
    tail = fmt::format(" [{}{}{}{}] {:3.0f}%", color ? "\033[32m" : "", std::string(full, '#'),
                       std::string(bar - full, '.'), color ? "\033[0m" : "", f * 100);
    if (f > 0 && f < 1) tail += fmt::format(" ETA {:.0f}s", elapsed_s * (1 - f) / f);
  } else {
    tail = fmt::format(" {:.0f}s", elapsed_s);
  }
  std::string head = what;
  const std::size_t visible_tail = tail.size() - (color && fraction >= 0 ? 9 : 0);
  if (width > 0 && head.size() + visible_tail >= width)
    head = width > visible_tail + 4 ? head.substr(0, width - visible_tail - 2) + "~" : "";
  return head + tail;
}

void progress::draw_locked() {
  const double el =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::size_t delay_ms = env_number("TPUPROF_PROGRESS_DELAY_MS", 1000, 0);
  if (!active_ || el * 1000 < static_cast<double>(delay_ms)) return;
  const std::string l = line(what_, fraction_, el, fd_width(2), color_);
  std::fprintf(stderr, "\r\033[K%s", l.c_str());
  std::fflush(stderr);
  dirty_ = true;
}

void progress::run() {
  std::unique_lock lk(m_);
  while (!stop_) {
    draw_locked();
    cv_.wait_for(lk, std::chrono::milliseconds(100));
  }
}

}  // namespace cli
