// The short forms of report/units.h.

#include "gpushare/report/units.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(UnitsTest, MeanCountsShowOneDecimalAtMost) {
  EXPECT_EQ(FormatMeanCount(3), "3");
  EXPECT_EQ(FormatMeanCount(10.0 / 3), "3.3");  // a mean over 3 seeds
  EXPECT_EQ(FormatMeanCount(2.5), "2.5");
  EXPECT_EQ(FormatMeanCount(4.96), "5");
  EXPECT_EQ(FormatMeanCount(0), "0");
}

TEST(UnitsTest, PercentsAndSeconds) {
  EXPECT_EQ(FormatPercent(0.42), "42.0%");
  EXPECT_EQ(FormatPercent(-1), "-");
  EXPECT_EQ(FormatSeconds(12.5), "12.5s");
}

}  // namespace
}  // namespace gpushare
