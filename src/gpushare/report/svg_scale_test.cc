#include "gpushare/report/svg_scale.h"

#include <cmath>

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(LinearScaleTest, MapsDomainOntoRangeIncludingInvertedRanges) {
  const LinearScale y(0, 1, 200, 20);  // SVG y grows downwards
  EXPECT_DOUBLE_EQ(y(0), 200);
  EXPECT_DOUBLE_EQ(y(1), 20);
  EXPECT_DOUBLE_EQ(y(0.5), 110);
  EXPECT_DOUBLE_EQ(y(2), -160);  // outside the domain: extrapolated
}

TEST(LinearScaleTest, DegenerateDomainMapsToTheMiddle) {
  const LinearScale x(5, 5, 0, 100);
  EXPECT_DOUBLE_EQ(x(5), 50);
  EXPECT_DOUBLE_EQ(x(-3), 50);
}

TEST(NiceTicksTest, RoundStepsInsideTheInterval) {
  const std::vector<double> unit = NiceTicks(0, 1, 6);
  ASSERT_EQ(unit.size(), 6u);
  for (size_t i = 0; i < unit.size(); ++i) EXPECT_NEAR(unit[i], 0.2 * i, 1e-12);
  EXPECT_EQ(NiceTicks(0, 100, 6), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(NiceTicks(3, 3, 5), (std::vector<double>{3}));
  const std::vector<double> t = NiceTicks(0, 7385, 8);
  ASSERT_FALSE(t.empty());
  EXPECT_LE(t.size(), 9u);
  EXPECT_EQ(t[1] - t[0], 2000);  // 1000 would give more than 8 ticks
  EXPECT_LE(t.back(), 7385);
}

TEST(TimeTicksTest, RoundTimes) {
  // Two hours in at most 8 ticks: every 30 minutes.
  EXPECT_EQ(TimeTicks(0, 7200, 8),
            (std::vector<double>{0, 1800, 3600, 5400, 7200}));
  EXPECT_EQ(TimeTicks(0, 50, 6), (std::vector<double>{0, 10, 20, 30, 40, 50}));
  // Thirty days: whole days.
  const std::vector<double> days = TimeTicks(0, 30 * 86400.0, 8);
  ASSERT_GE(days.size(), 2u);
  EXPECT_EQ(std::fmod(days[1], 86400), 0);
  EXPECT_LE(days.size(), 8u);
}

TEST(SvgNumberTest, OneDecimalNoNegativeZero) {
  EXPECT_EQ(SvgNumber(12), "12");
  EXPECT_EQ(SvgNumber(12.34), "12.3");
  EXPECT_EQ(SvgNumber(-0.01), "0");
  EXPECT_EQ(SvgNumber(-2.26), "-2.3");
}

TEST(SeriesColorTest, RepeatsAndGreyForNegative) {
  EXPECT_STREQ(SeriesColor(0), SeriesColor(kSeriesColors));
  EXPECT_STRNE(SeriesColor(0), SeriesColor(1));
  EXPECT_STREQ(SeriesColor(-1), "#9a9a9a");
}

}  // namespace
}  // namespace gpushare
