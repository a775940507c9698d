#include "gpushare/report/downsample.h"

#include <algorithm>

namespace gpushare {

std::vector<SeriesPoint> MinMaxDownsample(const std::vector<SeriesPoint>& points,
                                          size_t max_points) {
  max_points = std::max<size_t>(max_points, 4);
  if (points.size() <= max_points) return points;
  const size_t runs = max_points / 2;
  std::vector<SeriesPoint> out;
  out.reserve(2 * runs);
  for (size_t r = 0; r < runs; ++r) {
    const size_t begin = r * points.size() / runs;
    const size_t end = (r + 1) * points.size() / runs;
    size_t lo = begin;
    size_t hi = begin;
    for (size_t i = begin; i < end; ++i) {
      if (points[i].y < points[lo].y) lo = i;
      if (points[i].y > points[hi].y) hi = i;
    }
    if (lo == hi) {
      out.push_back(points[lo]);
    } else {
      out.push_back(points[std::min(lo, hi)]);
      out.push_back(points[std::max(lo, hi)]);
    }
  }
  return out;
}

}  // namespace gpushare
