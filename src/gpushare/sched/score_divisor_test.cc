#include "gpushare/sched/score_divisor.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpushare/base/rng.h"

namespace gpushare {
namespace {

void ExpectQuotients(int64_t divisor, const std::vector<int64_t>& numerators) {
  const ScoreDivisor d(divisor);
  for (int64_t n : numerators) {
    ASSERT_EQ(d.Divide(n), n / divisor) << n << " / " << divisor;
  }
}

TEST(ScoreDivisorTest, ExactAtAndAroundEveryMultiple) {
  for (int64_t divisor : {1, 2, 3, 7, 100, 999, 1000, 4097, 65537}) {
    std::vector<int64_t> numerators;
    for (int64_t k = 0; k <= 200; ++k) {
      for (int64_t delta : {-1, 0, 1}) {
        if (k * divisor + delta >= 0) numerators.push_back(k * divisor + delta);
      }
    }
    ExpectQuotients(divisor, numerators);
  }
}

TEST(ScoreDivisorTest, ExactNearTheEdgeOfTheFastRange) {
  const int64_t edge = int64_t{1} << 52;
  for (int64_t divisor : {int64_t{1}, int64_t{3}, int64_t{1000003}, edge - 1,
                          edge, edge + 1, int64_t{1} << 62}) {
    std::vector<int64_t> numerators = {0,    1,        edge - 2, edge - 1,
                                       edge, edge + 1, INT64_MAX};
    for (int64_t k = 1; k < 1000; ++k) {
      const int64_t q = (edge - 1) / divisor - k;
      if (q < 0) break;
      numerators.push_back(q * divisor);
      numerators.push_back(q * divisor + divisor - 1);
    }
    ExpectQuotients(divisor, numerators);
  }
}

TEST(ScoreDivisorTest, NegativeNumeratorsTruncateTowardZero) {
  ExpectQuotients(7, {-1, -6, -7, -8, -700, INT64_MIN + 1});
}

TEST(ScoreDivisorTest, RandomScoresAgainstDivision) {
  Rng rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    // Normalization's shape: 100 * score / max score, score <= max.
    const int64_t max = 1 + static_cast<int64_t>(rng.Below(uint64_t{1} << 40));
    std::vector<int64_t> numerators;
    for (int i = 0; i < 50; ++i) {
      numerators.push_back(100 * static_cast<int64_t>(rng.Below(max + 1)));
    }
    ExpectQuotients(max, numerators);
  }
}

}  // namespace
}  // namespace gpushare
