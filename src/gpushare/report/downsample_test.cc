#include "gpushare/report/downsample.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(MinMaxDownsampleTest, ShortSeriesUnchanged) {
  const std::vector<SeriesPoint> p = {{0, 1}, {1, 3}, {2, 2}};
  EXPECT_EQ(MinMaxDownsample(p, 600), p);
}

TEST(MinMaxDownsampleTest, BoundedAndKeepsSpikes) {
  std::vector<SeriesPoint> p;
  for (int i = 0; i < 100000; ++i) p.push_back({double(i), 0.5});
  p[31337].y = 9;   // a spike
  p[77777].y = -4;  // a dip
  const std::vector<SeriesPoint> d = MinMaxDownsample(p, 600);
  EXPECT_LE(d.size(), 600u);
  EXPECT_GE(d.size(), 300u);
  bool spike = false, dip = false;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(d[i - 1].x, d[i].x);  // x order kept
    }
    spike |= d[i] == SeriesPoint{31337, 9};
    dip |= d[i] == SeriesPoint{77777, -4};
  }
  EXPECT_TRUE(spike);
  EXPECT_TRUE(dip);
  EXPECT_EQ(d.front().x, 0);
  EXPECT_GE(d.back().x, 99000);
}

TEST(MinMaxDownsampleTest, TinyLimitTreatedAsFour) {
  std::vector<SeriesPoint> p;
  for (int i = 0; i < 10; ++i) p.push_back({double(i), double(i % 3)});
  EXPECT_LE(MinMaxDownsample(p, 1).size(), 4u);
}

}  // namespace
}  // namespace gpushare
