#include "gpushare/base/statistics.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(StatisticsTest, MeanAndNearestRank) {
  std::vector<double> v = {5, 1, 4, 2, 3};
  EXPECT_DOUBLE_EQ(Mean(v), 3);
  EXPECT_DOUBLE_EQ(NearestRankPercentile(v, 0.5), 3);   // ceil(2.5) = 3rd
  EXPECT_DOUBLE_EQ(NearestRankPercentile(v, 0.99), 5);  // ceil(4.95) = 5th
  EXPECT_DOUBLE_EQ(NearestRankPercentile(v, 0.2), 1);   // 1st
  std::vector<double> none;
  EXPECT_EQ(Mean(none), 0);
  EXPECT_EQ(NearestRankPercentile(none, 0.99), 0);
}

}  // namespace
}  // namespace gpushare
