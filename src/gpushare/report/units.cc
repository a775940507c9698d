#include "gpushare/report/units.h"

#include <fmt/format.h>

#include <cmath>

namespace gpushare {

std::string FormatPercent(double fraction) {
  if (fraction < 0) return "-";
  return fmt::format("{:.1f}%", 100 * fraction);
}

std::string FormatSeconds(double s) {
  if (s < 0) return "-";
  if (s < 120) return fmt::format("{:.1f}s", s);
  if (s < 7200) return fmt::format("{:.1f}m", s / 60);
  return fmt::format("{:.1f}h", s / 3600);
}

std::string FormatMoney(double amount) { return fmt::format("{:.2f}", amount); }

std::string FormatMoneyPerHour(double amount) {
  return "$" + FormatMoney(amount) + "/h";
}

std::string FormatMeanCount(double count) {
  const double tenths = std::round(count * 10) / 10;
  return tenths == std::round(tenths) ? fmt::format("{:.0f}", tenths)
                                      : fmt::format("{:.1f}", tenths);
}

std::string FormatSlowdown(double slowdown) {
  return slowdown > 0 ? fmt::format("{:.2f}x", slowdown) : "-";
}

std::string FormatP99VsSlo(double p99_ms, double slo_ms,
                           std::string_view separator) {
  if (p99_ms < 0) return "-";
  if (slo_ms <= 0) return fmt::format("{:.0f}", p99_ms);
  return fmt::format("{:.0f}{}{:.0f}", p99_ms, separator, slo_ms);
}

std::string FormatScore(double fraction) {
  return fmt::format("{:.1f}", 10 * fraction);
}

std::string FormatAlertCounts(const std::map<std::string, int>& counts) {
  std::string out;
  for (const auto& [name, count] : counts) {
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", name, count);
  }
  return out.empty() ? "-" : out;
}

}  // namespace gpushare
