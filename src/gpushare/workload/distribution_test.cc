// Distributions: determinism per seed, sample statistics against theory,
// draw counts, clamping and validation messages.

#include "gpushare/workload/distribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace distribution_test {
namespace {

constexpr int kDraws = 100000;

std::vector<double> Draw(const Distribution& d, uint64_t seed, int n) {
  Rng rng(seed);
  std::vector<double> out;
  out.reserve(n);
  for (int i = 0; i < n; ++i) out.push_back(d.Sample(rng));
  return out;
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// The InputError message Validate(what) throws, or "" when it is valid.
std::string ValidationError(const Distribution& d,
                            const std::string& what = "x") {
  try {
    d.Validate(what);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::vector<Distribution> AllKinds() {
  return {Distribution::Constant(3),
          Distribution::Uniform(1, 5),
          Distribution::Exponential(2),
          Distribution::LogNormal(4, 0.7),
          Distribution::LogNormal(4, 2, 1, 10),
          Distribution::Choice({{1, 1}, {2, 3}, {8, 6}})};
}

TEST(DistributionTest, SameSeedSameSamplesForEveryKind) {
  for (const Distribution& d : AllKinds()) {
    EXPECT_EQ(Draw(d, 42, 1000), Draw(d, 42, 1000));
  }
}

TEST(DistributionTest, DifferentSeedsDifferForRandomKinds) {
  for (const Distribution& d : AllKinds()) {
    if (d.kind == Distribution::Kind::kConstant) continue;
    EXPECT_NE(Draw(d, 1, 100), Draw(d, 2, 100));
  }
}

// The p-quantile of each kind, from its parameters (no Rng), and its
// agreement with the share of 200,000 samples at or below it.
TEST(DistributionTest, QuantileOfEveryKind) {
  EXPECT_DOUBLE_EQ(Distribution::Constant(7).Quantile(0.95), 7);
  EXPECT_DOUBLE_EQ(Distribution::Uniform(2000, 8000).Quantile(0.95), 7700);
  EXPECT_NEAR(Distribution::Exponential(100).Quantile(0.95),
              -100 * std::log(0.05), 1e-9);
  EXPECT_TRUE(std::isinf(Distribution::Exponential(100).Quantile(1)));
  // z_0.95 = 1.6448536269514722; z_0.5 = 0.
  EXPECT_NEAR(Distribution::LogNormal(1000, 0.5).Quantile(0.95),
              1000 * std::exp(0.5 * 1.6448536269514722), 1e-9);
  EXPECT_NEAR(Distribution::LogNormal(1000, 0.5).Quantile(0.5), 1000, 1e-9);
  EXPECT_NEAR(Distribution::LogNormal(1000, 0.5).Quantile(0.01),
              1000 * std::exp(0.5 * -2.3263478740408408), 1e-9);
  // Clamped at max, and p = 1 gives the clamp.
  EXPECT_DOUBLE_EQ(Distribution::LogNormal(24000, 0.3, 8000, 30000)
                       .Quantile(0.999),
                   30000);
  EXPECT_DOUBLE_EQ(Distribution::LogNormal(24000, 0.3, 8000, 38000)
                       .Quantile(1),
                   38000);
  // Choice: the least value whose cumulative weight reaches p, by value.
  const Distribution choice =
      Distribution::Choice({{30000, 0.1}, {10000, 0.85}, {20000, 0.05}});
  EXPECT_DOUBLE_EQ(choice.Quantile(0.85), 10000);
  EXPECT_DOUBLE_EQ(choice.Quantile(0.9), 20000);
  EXPECT_DOUBLE_EQ(choice.Quantile(0.95), 30000);
  for (const Distribution& d :
       {Distribution::Uniform(0, 1), Distribution::Exponential(3),
        Distribution::LogNormal(10, 1.2)}) {
    Rng rng(5);
    const double q = d.Quantile(0.9);
    int below = 0;
    for (int i = 0; i < 200000; ++i) below += d.Sample(rng) <= q ? 1 : 0;
    EXPECT_NEAR(below / 200000.0, 0.9, 0.003);
  }
}

TEST(DistributionTest, ConstantReturnsValue) {
  for (double x : Draw(Distribution::Constant(2.5), 1, 100)) {
    EXPECT_EQ(x, 2.5);
  }
}

TEST(DistributionTest, UniformMeanAndRange) {
  const std::vector<double> v = Draw(Distribution::Uniform(2, 10), 7, kDraws);
  for (double x : v) {
    ASSERT_GE(x, 2);
    ASSERT_LT(x, 10);
  }
  // Standard error: 8 / sqrt(12) / sqrt(1e5) ~ 0.0073.
  EXPECT_NEAR(Mean(v), 6.0, 0.05);
}

TEST(DistributionTest, UniformWithEqualBoundsIsConstant) {
  for (double x : Draw(Distribution::Uniform(3, 3), 1, 100)) EXPECT_EQ(x, 3);
}

TEST(DistributionTest, ExponentialMean) {
  const std::vector<double> v = Draw(Distribution::Exponential(5), 11, kDraws);
  for (double x : v) ASSERT_GE(x, 0);
  // Standard error: 5 / sqrt(1e5) ~ 0.016.
  EXPECT_NEAR(Mean(v), 5.0, 0.1);
  // Median of an exponential: mean * ln 2.
  EXPECT_NEAR(Median(v), 5.0 * std::log(2.0), 0.1);
}

TEST(DistributionTest, LogNormalMedianAndSigma) {
  const std::vector<double> v =
      Draw(Distribution::LogNormal(100, 0.5), 13, kDraws);
  for (double x : v) ASSERT_GT(x, 0);
  EXPECT_NEAR(Median(v) / 100, 1.0, 0.02);
  std::vector<double> logs;
  for (double x : v) logs.push_back(std::log(x));
  const double mean_log = Mean(logs);
  EXPECT_NEAR(mean_log, std::log(100.0), 0.01);
  double var = 0;
  for (double l : logs) var += (l - mean_log) * (l - mean_log);
  var /= static_cast<double>(logs.size() - 1);
  EXPECT_NEAR(std::sqrt(var), 0.5, 0.01);
}

TEST(DistributionTest, LogNormalWithZeroSigmaIsTheMedian) {
  for (double x : Draw(Distribution::LogNormal(7, 0), 1, 100)) {
    EXPECT_DOUBLE_EQ(x, 7);
  }
}

TEST(DistributionTest, LogNormalClampedToBounds) {
  const std::vector<double> v =
      Draw(Distribution::LogNormal(3, 2, 1, 10), 17, kDraws);
  int at_min = 0;
  int at_max = 0;
  for (double x : v) {
    ASSERT_GE(x, 1);
    ASSERT_LE(x, 10);
    if (x == 1) ++at_min;
    if (x == 10) ++at_max;
  }
  // P(x < 1) = P(Z < -ln 3 / 2) ~ 0.29; P(x > 10) = P(Z > ln(10/3) / 2) ~ 0.27.
  EXPECT_NEAR(at_min / static_cast<double>(kDraws), 0.29, 0.02);
  EXPECT_NEAR(at_max / static_cast<double>(kDraws), 0.27, 0.02);
}

TEST(DistributionTest, LogNormalWithoutClampIsUnbounded) {
  // max <= min: no clamp.
  const std::vector<double> v = Draw(Distribution::LogNormal(3, 2), 17, 10000);
  EXPECT_LT(*std::min_element(v.begin(), v.end()), 0.5);
  EXPECT_GT(*std::max_element(v.begin(), v.end()), 20);
}

TEST(DistributionTest, LogNormalConsumesExactlyTwoDraws) {
  const Distribution d = Distribution::LogNormal(5, 1);
  Rng a(99);
  Rng b(99);
  for (int i = 0; i < 10; ++i) {
    d.Sample(a);
    b.Uniform01();
    b.Uniform01();
    ASSERT_EQ(a.Next(), b.Next());
    b.Next();
    a.Next();
  }
}

TEST(DistributionTest, OneDrawForUniformExponentialAndChoice) {
  for (const Distribution& d :
       {Distribution::Uniform(0, 1), Distribution::Exponential(1),
        Distribution::Choice({{1, 1}, {2, 1}})}) {
    Rng a(5);
    Rng b(5);
    d.Sample(a);
    b.Uniform01();
    EXPECT_EQ(a.Next(), b.Next());
  }
}

TEST(DistributionTest, ConstantConsumesNoDraws) {
  Rng a(5);
  Rng b(5);
  Distribution::Constant(1).Sample(a);
  EXPECT_EQ(a.Next(), b.Next());
}

TEST(DistributionTest, ChoiceFrequenciesFollowWeights) {
  const std::vector<double> v =
      Draw(Distribution::Choice({{1, 1}, {2, 0}, {4, 2}, {8, 7}}), 23, kDraws);
  int counts[4] = {0, 0, 0, 0};
  for (double x : v) {
    if (x == 1) {
      ++counts[0];
    } else if (x == 2) {
      ++counts[1];
    } else if (x == 4) {
      ++counts[2];
    } else if (x == 8) {
      ++counts[3];
    } else {
      FAIL() << "unexpected value " << x;
    }
  }
  EXPECT_NEAR(counts[0] / static_cast<double>(kDraws), 0.1, 0.01);
  EXPECT_EQ(counts[1], 0);  // weight 0: never picked
  EXPECT_NEAR(counts[2] / static_cast<double>(kDraws), 0.2, 0.01);
  EXPECT_NEAR(counts[3] / static_cast<double>(kDraws), 0.7, 0.01);
}

TEST(DistributionTest, ChoiceWithOneValue) {
  for (double x : Draw(Distribution::Choice({{0, 0}, {0.5, 3}}), 3, 100)) {
    EXPECT_EQ(x, 0.5);
  }
}

TEST(DistributionTest, ValidDistributionsPass) {
  for (const Distribution& d : AllKinds()) EXPECT_EQ(ValidationError(d), "");
  EXPECT_EQ(ValidationError(Distribution::Uniform(2, 2)), "");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, 0)), "");
  EXPECT_EQ(ValidationError(Distribution::Choice({{1, 0}, {2, 0.5}})), "");
}

TEST(DistributionTest, ValidateMessages) {
  EXPECT_EQ(ValidationError(Distribution::Uniform(2, 1), "class 'dev' gpus"),
            "class 'dev' gpus: uniform min 2 > max 1");
  EXPECT_EQ(ValidationError(Distribution::Exponential(0)),
            "x: exponential mean must be in (0, 1e12], got 0");
  EXPECT_EQ(ValidationError(Distribution::Exponential(-1.5)),
            "x: exponential mean must be in (0, 1e12], got -1.5");
  EXPECT_EQ(ValidationError(Distribution::Exponential(2e12)),
            "x: exponential mean must be in (0, 1e12], got 2000000000000");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(0, 1)),
            "x: lognormal median must be in (0, 1e12], got 0");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1e300, 1)),
            "x: lognormal median must be in (0, 1e12], got 1e+300");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, -0.5)),
            "x: lognormal sigma must be in 0..10, got -0.5");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, 40)),
            "x: lognormal sigma must be in 0..10, got 40");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, 1e300)),
            "x: lognormal sigma must be in 0..10, got 1e+300");
  EXPECT_EQ(ValidationError(Distribution::Uniform(-1e308, 1e308)),
            "x: uniform range [-1e+308, 1e+308] is too wide (its width must "
            "be finite)");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, 1, 5, 2)),
            "x: lognormal clamp min 5 > max 2");
  EXPECT_EQ(ValidationError(Distribution::Choice({})),
            "x: choice has no values");
  EXPECT_EQ(ValidationError(Distribution::Choice({{1, 0}, {2, 0}})),
            "x: choice weights are all 0");
  EXPECT_EQ(ValidationError(Distribution::Choice({{1, 1}, {2, -1}})),
            "x: choice weight -1 of value 2 is negative");
}

TEST(DistributionTest, DrawsAtTheLimitsAreFinite) {
  const Distribution widest = Distribution::LogNormal(
      kMaxDistributionScale, kMaxLogNormalSigma);
  ASSERT_EQ(ValidationError(widest), "");
  for (double x : Draw(widest, 7, 100'000)) {
    EXPECT_TRUE(std::isfinite(x));
    EXPECT_GT(x, 0);
  }
  for (double x : Draw(Distribution::Exponential(kMaxDistributionScale), 7,
                       100'000)) {
    EXPECT_TRUE(std::isfinite(x));
  }
}

TEST(DistributionTest, ValidateRejectsNonFiniteNumbers) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(ValidationError(Distribution::Constant(nan)),
            "x: constant value must be finite, got nan");
  EXPECT_EQ(ValidationError(Distribution::Uniform(0, inf)),
            "x: uniform max must be finite, got inf");
  EXPECT_EQ(ValidationError(Distribution::Exponential(inf)),
            "x: exponential mean must be finite, got inf");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, nan)),
            "x: lognormal sigma must be finite, got nan");
  EXPECT_EQ(ValidationError(Distribution::LogNormal(1, 1, 0, inf)),
            "x: lognormal max must be finite, got inf");
  EXPECT_EQ(ValidationError(Distribution::Choice({{inf, 1}})),
            "x: choice value must be finite, got inf");
  EXPECT_EQ(ValidationError(Distribution::Choice({{1, nan}})),
            "x: choice weight must be finite, got nan");
}

TEST(DistributionTest, ScaledMultipliesEverySample) {
  const std::vector<Distribution> kinds = {
      Distribution::Constant(10), Distribution::Uniform(5, 20),
      Distribution::Exponential(12), Distribution::LogNormal(20, 0.5, 4, 60),
      Distribution::Choice({{5, 1}, {10, 3}})};
  for (const Distribution& d : kinds) {
    const Distribution scaled = d.Scaled(3.17);
    Rng a(7);
    Rng b(7);
    for (int i = 0; i < 100; ++i) {
      EXPECT_NEAR(scaled.Sample(b), 3.17 * d.Sample(a), 1e-9);
    }
  }
  // Weights are not values.
  EXPECT_EQ(Distribution::Choice({{5, 1}, {10, 3}}).Scaled(2).choices,
            (std::vector<std::pair<double, double>>{{10, 1}, {20, 3}}));
}

}  // namespace
}  // namespace distribution_test
}  // namespace gpushare
