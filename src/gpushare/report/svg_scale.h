// Scales, ticks and number formatting shared by the SVG charts.
//
// Contract: LinearScale maps a data interval onto a pixel interval (a
// degenerate data interval maps everything to the middle of the pixels).
// NiceTicks() gives at most `max_ticks` round values (1, 2 or 5 x 10^k
// apart) inside [min, max], min <= max. SvgNumber() prints a coordinate with
// at most one decimal and no "-0", so equal inputs give equal text.
// SeriesColor() is a fixed palette that tells neighbouring series apart and
// repeats after kSeriesColors colours; a negative index is grey.

#ifndef GPUSHARE_REPORT_SVG_SCALE_H_
#define GPUSHARE_REPORT_SVG_SCALE_H_

#include <string>
#include <vector>

namespace gpushare {

class LinearScale {
 public:
  LinearScale(double domain_min, double domain_max, double range_min,
              double range_max);
  double operator()(double value) const;

 private:
  double domain_min_, domain_max_, range_min_, range_max_;
};

std::vector<double> NiceTicks(double min, double max, int max_ticks);
// Like NiceTicks() for seconds: steps of whole seconds, minutes, hours or
// days (1, 2, 5, 10, 15, 30 s; 1, 2, 5, 10, 15, 30 min; 1, 2, 3, 6, 12 h;
// days as NiceTicks counts them).
std::vector<double> TimeTicks(double min, double max, int max_ticks);

std::string SvgNumber(double value);

inline constexpr int kSeriesColors = 8;
const char* SeriesColor(int index);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SVG_SCALE_H_
