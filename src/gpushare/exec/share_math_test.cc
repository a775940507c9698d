// The shared arithmetic of the share models: the alone run (share_model.h),
// SharedRate, the time-slice efficiency η and max-min water-filling.

#include "gpushare/exec/share_math.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {
namespace share_math_test {
namespace {

constexpr double kTol = 1e-9;

TEST(ShareMathTest, AloneRunFollowsTheFormula) {
  // u = 0.5 on a GPU twice the reference: r = 1 / (0.5 + 0.5 / 2) = 4/3,
  // a = (0.5 / 2) · 4/3 = 1/3.
  AloneRun run = RunAlone(0.5, 2.0);
  EXPECT_NEAR(run.rate, 4.0 / 3.0, kTol);
  EXPECT_NEAR(run.gpu_share, 1.0 / 3.0, kTol);
  // u = 1: r = s·v·g, a = 1.
  run = RunAlone(1.0, 0.6);
  EXPECT_NEAR(run.rate, 0.6, kTol);
  EXPECT_NEAR(run.gpu_share, 1.0, kTol);
}

TEST(ShareMathTest, AloneRunEdges) {
  // No GPU work: rate 1, no GPU time, whatever the speed.
  for (double speed : {0.0, 0.5, 3.0}) {
    const AloneRun run = RunAlone(0.0, speed);
    EXPECT_EQ(run.rate, 1.0);
    EXPECT_EQ(run.gpu_share, 0.0);
  }
  // Duty out of range is clamped: −1 → 0, 2 → 1.
  EXPECT_EQ(RunAlone(-1.0, 1.0).rate, 1.0);
  EXPECT_NEAR(RunAlone(2.0, 0.5).rate, 0.5, kTol);
  // No speed: the limit of a vanishing speed.
  const AloneRun stuck = RunAlone(0.3, 0.0);
  EXPECT_EQ(stuck.rate, 0.0);
  EXPECT_EQ(stuck.gpu_share, 1.0);
}

TEST(ShareMathTest, AloneRunFromResident) {
  // s = 1, v = 0.5, f = 0.5, d = 1: g = 0.5, s·v·g = 0.25; u = 1 → r = 0.25.
  Resident r;
  r.duty = 1.0;
  r.sm_demand = 1.0;
  EXPECT_NEAR(RunAlone(r, 1.0, 0.5, 0.5).rate, 0.25, kTol);
}

TEST(ShareMathTest, SharedRateScalesWithTimeShare) {
  const AloneRun run = RunAlone(0.5, 1.0);  // r = 1, a = 0.5
  EXPECT_NEAR(SharedRate(run, 0.5), 1.0, kTol);
  EXPECT_NEAR(SharedRate(run, 0.25), 0.5, kTol);
  EXPECT_EQ(SharedRate(run, 0.0), 0.0);
  // A pod without GPU work keeps its rate with no GPU time.
  EXPECT_EQ(SharedRate(RunAlone(0.0, 1.0), 0.0), 1.0);
}

TEST(ShareMathTest, TimeSliceEfficiency) {
  // Defaults: 1024 / (1024 + 200) = 0.836601.
  EXPECT_NEAR(TimeSliceEfficiency(ModelParams()), 1024.0 / 1224.0, kTol);
  // Seed profile: 500 ms slice, 50 ms switch: 500 / 550.
  EXPECT_NEAR(TimeSliceEfficiency(ModelParams::Seed()), 500.0 / 550.0, kTol);
  ModelParams free_switch;
  free_switch.context_switch_us = 0;
  EXPECT_EQ(TimeSliceEfficiency(free_switch), 1.0);
}

TEST(ShareMathTest, CountWithGpuWork) {
  std::vector<Resident> residents(3);
  EXPECT_EQ(CountWithGpuWork(residents), 3);
  residents[1].duty = 0;
  EXPECT_EQ(CountWithGpuWork(residents), 2);
  EXPECT_EQ(CountWithGpuWork({}), 0);
}

TEST(ShareMathTest, WaterFillMeetsClaimsUnderCapacity) {
  std::vector<double> claims = {0.2, 0.3};
  EXPECT_NEAR(WaterFill(1.0, claims), 0.5, kTol);
  EXPECT_EQ(claims, (std::vector<double>{0.2, 0.3}));
}

TEST(ShareMathTest, WaterFillSharesEquallyAboveTheSmallClaims) {
  // Capacity 1 among 0.1, 0.5, 0.9: 0.1 met; 0.9 left for two → 0.45 each.
  std::vector<double> claims = {0.5, 0.1, 0.9};
  EXPECT_NEAR(WaterFill(1.0, claims), 1.0, kTol);
  EXPECT_NEAR(claims[0], 0.45, kTol);
  EXPECT_NEAR(claims[1], 0.1, kTol);
  EXPECT_NEAR(claims[2], 0.45, kTol);
  // Cascade: capacity 1 among 0.1, 0.3, 2, 2: level 0.25 settles 0.1; then
  // (1 − 0.1) / 3 = 0.3 settles 0.3; then (1 − 0.4) / 2 = 0.3.
  claims = {2.0, 0.3, 0.1, 2.0};
  EXPECT_NEAR(WaterFill(1.0, claims), 1.0, kTol);
  EXPECT_NEAR(claims[0], 0.3, kTol);
  EXPECT_NEAR(claims[1], 0.3, kTol);
  EXPECT_NEAR(claims[2], 0.1, kTol);
  EXPECT_NEAR(claims[3], 0.3, kTol);
}

TEST(ShareMathTest, WaterFillEdges) {
  std::vector<double> none;
  EXPECT_EQ(WaterFill(1.0, none), 0.0);
  std::vector<double> claims = {1.0, 0.0, -2.0};
  EXPECT_EQ(WaterFill(0.0, claims), 0.0);
  EXPECT_EQ(claims, (std::vector<double>{0.0, 0.0, 0.0}));
}

// Work conservation and max-min fairness on random claims: Σ x ≤ C (and = C
// when the claims exceed it), x_i ≤ claim_i, and x_i < x_j only if
// x_i = claim_i.
TEST(ShareMathTest, WaterFillIsWorkConservingAndMaxMinFair) {
  Rng rng(20240611);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t n = 1 + rng.Below(12);
    std::vector<double> claims(n);
    double total = 0;
    for (double& c : claims) {
      c = rng.Uniform01() < 0.2 ? 0.0 : rng.Uniform01();
      total += c;
    }
    const double capacity = rng.Uniform01();
    std::vector<double> x = claims;
    const double sum = WaterFill(capacity, x);
    double check = 0;
    for (double xi : x) check += xi;
    ASSERT_NEAR(sum, check, kTol);
    ASSERT_LE(sum, capacity + kTol);
    if (total >= capacity) {
      ASSERT_NEAR(sum, capacity, kTol);
    } else {
      ASSERT_NEAR(sum, total, kTol);
    }
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_GE(x[i], 0.0);
      ASSERT_LE(x[i], claims[i] + kTol);
      for (std::size_t j = 0; j < n; ++j) {
        if (x[i] < x[j] - kTol) {
          ASSERT_NEAR(x[i], claims[i], kTol) << "trial " << trial;
        }
      }
    }
  }
}

}  // namespace
}  // namespace share_math_test
}  // namespace gpushare
