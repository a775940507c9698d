// Downsampling a time series for a chart without losing its peaks.
//
// Contract: MinMaxDownsample() returns `points` unchanged when it has at
// most `max_points` points (max_points >= 4 is assumed; less is treated as
// 4); otherwise it cuts the points (sorted by x) into max_points / 2 runs of
// nearly equal length and keeps, from each, its lowest and its highest point
// in x order (one point when they are the same). So the result has at most
// max_points points, keeps the first and the last point's extremes, and
// every spike stays visible.

#ifndef GPUSHARE_REPORT_DOWNSAMPLE_H_
#define GPUSHARE_REPORT_DOWNSAMPLE_H_

#include <cstddef>
#include <vector>

namespace gpushare {

struct SeriesPoint {
  double x = 0;
  double y = 0;
  bool operator==(const SeriesPoint&) const = default;
};

std::vector<SeriesPoint> MinMaxDownsample(const std::vector<SeriesPoint>& points,
                                          size_t max_points);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_DOWNSAMPLE_H_
