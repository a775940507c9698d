#include "gpushare/report/progress_bar.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "gpushare/report/units.h"

namespace gpushare {
namespace {

constexpr int kBarCells = 20;
constexpr auto kRedrawEvery = std::chrono::milliseconds(200);

// 1234567 -> "1,234,567".
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// "5s", "2m05s", "1h02m".
std::string Eta(double seconds) {
  const int64_t s = std::llround(seconds);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

void WriteStderr(const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n =
        ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n <= 0) return;  // a broken terminal is not worth failing the run
    written += static_cast<size_t>(n);
  }
}

}  // namespace

std::string FormatProgressLine(const ProgressSnapshot& s, double wall_s,
                               int width) {
  const double fraction =
      s.pods_total > 0
          ? std::clamp(static_cast<double>(s.pods_done) /
                           static_cast<double>(s.pods_total),
                       0.0, 1.0)
          : 0.0;
  const int filled = static_cast<int>(fraction * kBarCells);
  std::string line = "[" + std::string(filled, '#') +
                     std::string(kBarCells - filled, '.') + "]";
  line += fmt::format(" {:3}%", static_cast<int>(fraction * 100));
  line += fmt::format("  {}/{} pods", Grouped(s.pods_done),
                      Grouped(s.pods_total));
  if (s.runs_total > 1) {
    line += fmt::format("  runs {}/{}", s.runs_done, s.runs_total);
  }
  line += "  t=" + FormatSeconds(s.sim_time_s);
  if (wall_s > 0) {
    line += fmt::format(
        "  {} pods/s",
        Grouped(std::llround(static_cast<double>(s.pods_done) / wall_s)));
  }
  if (s.pods_done > 0 && s.pods_done < s.pods_total && wall_s > 0) {
    line += "  ETA " + Eta(wall_s * static_cast<double>(s.pods_total -
                                                       s.pods_done) /
                           static_cast<double>(s.pods_done));
  }
  const size_t limit = static_cast<size_t>(std::max(1, width - 1));
  if (line.size() > limit) line.resize(limit);
  return line;
}

bool ShouldShowProgress(bool quiet) {
  return !quiet && ::isatty(STDERR_FILENO) == 1;
}

double ProgressDelaySeconds() {
  const char* text = std::getenv("GPUSHARE_PROGRESS_DELAY_S");
  if (text == nullptr || *text == '\0') return 1.0;
  char* end = nullptr;
  const double delay = std::strtod(text, &end);
  if (*end != '\0' || !(delay >= 0 && delay <= 3600)) return 1.0;
  return delay;
}

ProgressBar::ProgressBar(const ProgressAggregate* aggregate, bool enabled,
                         double delay_s)
    : aggregate_(aggregate), delay_s_(delay_s) {
  if (enabled) thread_ = std::thread([this] { Loop(); });
}

ProgressBar::~ProgressBar() { Stop(); }

void ProgressBar::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ProgressBar::Loop() {
  const auto begin = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, kRedrawEvery, [this] { return stopping_; })) {
    const double wall_s = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - begin)
                              .count();
    if (wall_s < delay_s_) continue;
    WriteStderr("\r" + FormatProgressLine(aggregate_->Snapshot(), wall_s, 80) +
                "\033[K");
    drawn_ = true;
  }
  if (drawn_) WriteStderr("\r\033[K");
}

}  // namespace gpushare
