#include "gpushare/report/svg_scale.h"

#include <cmath>

#include <fmt/format.h>

namespace gpushare {

LinearScale::LinearScale(double domain_min, double domain_max,
                         double range_min, double range_max)
    : domain_min_(domain_min),
      domain_max_(domain_max),
      range_min_(range_min),
      range_max_(range_max) {}

double LinearScale::operator()(double value) const {
  const double span = domain_max_ - domain_min_;
  if (!(std::abs(span) > 0)) return (range_min_ + range_max_) / 2;
  return range_min_ +
         (value - domain_min_) / span * (range_max_ - range_min_);
}

std::vector<double> NiceTicks(double min, double max, int max_ticks) {
  std::vector<double> ticks;
  if (max_ticks < 1 || !std::isfinite(min) || !std::isfinite(max)) {
    return ticks;
  }
  if (!(max > min)) return {min};
  const double raw = (max - min) / std::max(1, max_ticks - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= raw) break;
  }
  const double first = std::ceil(min / step - 1e-9);
  for (double k = first;; ++k) {
    const double v = k * step;
    if (v > max + step * 1e-9) break;
    ticks.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    if (static_cast<int>(ticks.size()) > max_ticks) break;  // guard
  }
  return ticks;
}

std::vector<double> TimeTicks(double min, double max, int max_ticks) {
  if (max_ticks < 1 || !std::isfinite(min) || !std::isfinite(max)) return {};
  if (!(max > min)) return {min};
  static constexpr double kSteps[] = {
      1,    2,    5,    10,   15,    30,    60,    120,   300,   600,
      900,  1800, 3600, 7200, 10800, 21600, 43200, 86400};
  for (double step : kSteps) {
    const double first = std::ceil(min / step - 1e-9);
    const double last = std::floor(max / step + 1e-9);
    if (last - first + 1 <= max_ticks) {
      std::vector<double> ticks;
      // + 0.0 turns -0 (from ceil of a tiny negative) into 0.
      for (double k = first; k <= last; ++k) ticks.push_back(k * step + 0.0);
      return ticks;
    }
  }
  std::vector<double> days = NiceTicks(min / 86400, max / 86400, max_ticks);
  for (double& d : days) d *= 86400;
  return days;
}

std::string SvgNumber(double value) {
  const double rounded = std::round(value * 10) / 10;
  if (rounded == 0) return "0";
  if (rounded == std::floor(rounded)) return fmt::format("{:.0f}", rounded);
  return fmt::format("{:.1f}", rounded);
}

const char* SeriesColor(int index) {
  // Okabe-Ito colours (distinguishable with common colour blindness).
  static constexpr const char* kColors[kSeriesColors] = {
      "#0072b2", "#e69f00", "#009e73", "#cc79a7",
      "#56b4e9", "#d55e00", "#f0e442", "#000000"};
  if (index < 0) return "#9a9a9a";
  return kColors[index % kSeriesColors];
}

}  // namespace gpushare
