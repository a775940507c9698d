// MpsShareModel: concurrent kernels in SM partitions of the active-thread
// percentage, slowed by v = 1 / (1 + 0.075 · co-runners); no time sharing.

#include "gpushare/exec/mps_share_model.h"

#include <gtest/gtest.h>

#include <vector>

#include "gpushare/exec/model_params.h"

namespace gpushare {
namespace mps_share_model_test {
namespace {

constexpr double kTol = 1e-4;

Resident Pod(double duty, double sm_demand, int cores_percent) {
  Resident r;
  r.duty = duty;
  r.sm_demand = sm_demand;
  r.cores_percent = cores_percent;
  return r;
}

DomainRates Compute(const std::vector<Resident>& residents,
                    Domain domain = Domain(),
                    const ModelParams& params = ModelParams()) {
  DomainRates out;
  MpsShareModel().ComputeRates(domain, residents, params, &out);
  return out;
}

// Two pods u = 1, d = 0.5, cores 50 each on an A100: f_i = 0.5 (Σ = 1, no
// scaling); g = 1 / (0.5 + 0.5 / 0.5) = 0.6667; v = 1 / 1.075 = 0.9302 →
// rate = s · v · g = 0.6202 each. a = 1 each: gpu_util = 1 − 0 · 0 = 1;
// sm_active = min(1, 2 · 1 · 0.5 · 0.5) = 0.5.
TEST(MpsShareModelTest, PairWithHalfPartitions) {
  const DomainRates out = Compute({Pod(1, 0.5, 50), Pod(1, 0.5, 50)});
  ASSERT_EQ(out.rates.size(), 2u);
  EXPECT_NEAR(out.rates[0], 0.6202, kTol);
  EXPECT_NEAR(out.rates[1], 0.6202, kTol);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
  EXPECT_NEAR(out.sm_active, 0.5, kTol);
  // Kernels of MPS clients run concurrently: no time shares.
  EXPECT_TRUE(out.time_shares.empty());
}

// Partitions over the domain are scaled down: cores 100 + 100, u = 1, d = 1:
// f_i = 1 · 1 / 2 = 0.5, g = 0.5, v = 1 / 1.075 → rate 0.4651.
TEST(MpsShareModelTest, OversubscribedPartitionsScaleDown) {
  const DomainRates out = Compute({Pod(1, 1, 100), Pod(1, 1, 100)});
  EXPECT_NEAR(out.rates[0], 0.4651, kTol);
  EXPECT_NEAR(out.rates[1], 0.4651, kTol);
  // sm_active = min(1, 1 · 1 · 0.5 + 1 · 1 · 0.5) = 1.
  EXPECT_NEAR(out.sm_active, 1.0, kTol);
}

// Partial duty, two pods u = 0.5, d = 1, cores 50: s·v·g = 0.9302 · 0.5 =
// 0.4651; r = 1 / (0.5 + 0.5 / 0.4651) = 1 / 1.575 = 0.6349;
// a = 1.075 · 0.6349 = 0.6825; gpu_util = 1 − (1 − 0.6825)² = 0.8992;
// sm_active = min(1, 2 · 0.6825 · 1 · 0.5) = 0.6825.
TEST(MpsShareModelTest, IndependentPhasesForGpuUtil) {
  const DomainRates out = Compute({Pod(0.5, 1, 50), Pod(0.5, 1, 50)});
  EXPECT_NEAR(out.rates[0], 0.6349, kTol);
  EXPECT_NEAR(out.gpu_util, 0.8992, kTol);
  EXPECT_NEAR(out.sm_active, 0.6825, kTol);
}

// A resident without GPU work holds no partition and is no co-runner: the
// busy pod (cores 100, u = 1, d = 1) keeps f = 1 and v = 1 → rate 1.
TEST(MpsShareModelTest, ResidentWithoutGpuWorkIsNoCorunner) {
  const DomainRates out = Compute({Pod(1, 1, 100), Pod(0, 1, 100)});
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_EQ(out.rates[1], 1.0);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
  EXPECT_NEAR(out.sm_active, 1.0, kTol);
}

// A lone pod limited to 30 % of the threads: f = 0.3, d = 1 → g = 0.3,
// v = 1 → rate 0.3; with d = 0.5: g = 1 / (0.5 + 1.6667) = 0.4615.
// cores_percent 0 (none set) is the whole GPU: rate 1.
TEST(MpsShareModelTest, ActiveThreadPercentageLimitsALonePod) {
  EXPECT_NEAR(Compute({Pod(1, 1, 30)}).rates[0], 0.3, kTol);
  EXPECT_NEAR(Compute({Pod(1, 0.5, 30)}).rates[0], 0.4615, kTol);
  EXPECT_NEAR(Compute({Pod(1, 1, 0)}).rates[0], 1.0, kTol);
}

// Four busy clients of 25 %: v = 1 / (1 + 0.075 · 3) = 0.8163, f = 0.25,
// d = 0.2: g = 1 / (0.8 + 0.8) = 0.625 → rate 0.5102 each.
TEST(MpsShareModelTest, InterferenceGrowsWithCorunners) {
  const std::vector<Resident> four(4, Pod(1, 0.2, 25));
  const DomainRates out = Compute(four);
  for (double rate : out.rates) EXPECT_NEAR(rate, 0.5102, kTol);
  ModelParams no_interference;
  no_interference.mps_interference_per_corunner = 0;
  EXPECT_NEAR(Compute(four, Domain(), no_interference).rates[0], 0.625, kTol);
}

}  // namespace
}  // namespace mps_share_model_test
}  // namespace gpushare
