#include "gpushare/base/quantile_summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/base/statistics.h"

namespace gpushare {
namespace {

constexpr double kQs[] = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75,
                          0.9,   0.95, 0.99, 0.999, 1.0};

TEST(QuantileSummaryTest, ExactModeIsNearestRankByHand) {
  QuantileSummary s;
  for (double v : {5.0, 1.0, 4.0, 2.0, 3.0}) s.Add(v);
  EXPECT_TRUE(s.exact());
  EXPECT_EQ(s.Quantile(0.5), 3);   // ceil(2.5) = 3rd smallest
  EXPECT_EQ(s.Quantile(0.99), 5);  // ceil(4.95) = 5th
  EXPECT_EQ(s.Quantile(0.2), 1);   // ceil(1.0) = 1st
  EXPECT_EQ(s.Quantile(0.0), 1);   // rank 0: the smallest
  EXPECT_EQ(s.Mean(), 3);
  s.Add(0.5);  // after a Quantile(): still exact, re-sorted
  EXPECT_EQ(s.Quantile(0.2), 1);   // ceil(1.2) = 2nd of 0.5 1 2 3 4 5
  EXPECT_EQ(s.Quantile(0.1), 0.5);
  QuantileSummary none;
  EXPECT_EQ(none.Quantile(0.99), 0);
  EXPECT_EQ(none.Mean(), 0);
}

// Exact mode gives today's NearestRankPercentile and Mean bit for bit.
TEST(QuantileSummaryTest, ExactModeEqualsNearestRankPercentile) {
  Rng rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 1 + static_cast<int>(rng.Uniform01() * 3000);
    std::vector<double> values;
    QuantileSummary s;
    for (int i = 0; i < n; ++i) {
      // Ties and zeros among them.
      const double v = trial % 3 == 0 ? std::floor(rng.Uniform01() * 10)
                                      : rng.Uniform01() * 1e4 - 100;
      values.push_back(v);
      s.Add(v);
    }
    EXPECT_EQ(s.Mean(), Mean(values));
    for (double q : kQs) {
      std::vector<double> copy = values;
      EXPECT_EQ(s.Quantile(q), NearestRankPercentile(copy, q)) << q;
    }
  }
}

// The exact nearest-rank quantile of `values` (sorted).
double ExactQuantile(const std::vector<double>& sorted, double q) {
  const size_t rank = static_cast<size_t>(
      std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

struct Shape {
  std::string name;
  std::function<double(Rng&)> draw;
};

std::vector<Shape> Shapes() {
  return {
      {"uniform", [](Rng& r) { return r.Uniform01() * 1000; }},
      {"lognormal",
       [](Rng& r) {
         // Box-Muller; sigma 2 around a median of 30.
         const double u1 = 1 - r.Uniform01(), u2 = r.Uniform01();
         const double z = std::sqrt(-2 * std::log(u1)) *
                          std::cos(2 * 3.141592653589793 * u2);
         return 30 * std::exp(2 * z);
       }},
      {"pareto heavy tail",
       [](Rng& r) { return 1 / std::pow(1 - r.Uniform01(), 1 / 0.8); }},
      {"many ties and zeros",
       [](Rng& r) {
         const double u = r.Uniform01();
         return u < 0.6 ? 0.0 : std::floor(u * 20);
       }},
      {"all equal", [](Rng&) { return 42.5; }},
      {"negative and zero",
       [](Rng& r) {
         const double u = r.Uniform01();
         return u < 0.1 ? 0.0 : (u - 0.5) * 2e5;
       }},
      {"tiny and huge",
       [](Rng& r) { return std::pow(10.0, r.Uniform01() * 20 - 10); }},
  };
}

// Sketch mode, 10^6 values of each shape: every quantile within α of the
// exact one, in magnitude; merge of ten parts equals one pass.
TEST(QuantileSummaryTest, SketchWithinBoundAndMergeEqualsOnePass) {
  const QuantileOptions options{/*exact_limit=*/1000,
                                /*relative_accuracy=*/0.001};
  for (const Shape& shape : Shapes()) {
    Rng rng(7);
    constexpr int kN = 1'000'000;
    std::vector<double> values;
    values.reserve(kN);
    QuantileSummary one(options);
    std::vector<QuantileSummary> parts(10, QuantileSummary(options));
    double sum = 0;
    for (int i = 0; i < kN; ++i) {
      const double v = shape.draw(rng);
      values.push_back(v);
      sum += v;
      one.Add(v);
      parts[i % 10].Add(v);
    }
    EXPECT_FALSE(one.exact()) << shape.name;
    EXPECT_EQ(one.Mean(), sum / kN) << shape.name;
    QuantileSummary merged(options);
    for (const QuantileSummary& p : parts) merged.Merge(p);
    EXPECT_EQ(merged.count(), kN);
    std::sort(values.begin(), values.end());
    for (double q : kQs) {
      const double exact = ExactQuantile(values, q);
      const double got = one.Quantile(q);
      EXPECT_LE(std::abs(got - exact),
                options.relative_accuracy * std::abs(exact) * (1 + 1e-9))
          << shape.name << " q=" << q << " exact " << exact << " got " << got;
      EXPECT_EQ(merged.Quantile(q), got) << shape.name << " q=" << q;
    }
    EXPECT_EQ(one.Quantile(1.0), values.back()) << shape.name;  // the max
    EXPECT_EQ(one.Quantile(1e-9), values.front()) << shape.name;
  }
}

// The limit: exact up to it, a sketch past it; merging two exact halves
// stays exact while the total is within the limit.
TEST(QuantileSummaryTest, TurnsIntoSketchPastTheLimit) {
  const QuantileOptions options{/*exact_limit=*/4, /*relative_accuracy=*/0.01};
  QuantileSummary a(options), b(options);
  for (double v : {1.0, 2.0}) a.Add(v);
  for (double v : {3.0, 4.0}) b.Add(v);
  a.Merge(b);
  EXPECT_TRUE(a.exact());
  EXPECT_EQ(a.Quantile(0.5), 2);
  a.Add(100);
  EXPECT_FALSE(a.exact());
  // Rank ceil(0.6 * 5) = 3: the value 3, within 1 %.
  EXPECT_NEAR(a.Quantile(0.6), 3, 0.03);
  EXPECT_EQ(a.Quantile(1), 100);
  EXPECT_EQ(a.Quantile(0.1), 1);
  EXPECT_EQ(a.Mean(), 22);
}

}  // namespace
}  // namespace gpushare
