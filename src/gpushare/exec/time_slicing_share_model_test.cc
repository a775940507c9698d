// TimeSlicingShareModel: max-min fair time shares of capacity η = 1024 µs /
// (1024 µs + 200 µs) = 0.836601 under contention, 1 otherwise; rates
// r · x / a. Expected values are computed by hand in the comments.

#include "gpushare/exec/time_slicing_share_model.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_math.h"

namespace gpushare {
namespace time_slicing_share_model_test {
namespace {

constexpr double kTol = 1e-4;
constexpr double kEta = 1024.0 / 1224.0;  // 0.836601

Resident Pod(double duty, double sm_demand) {
  Resident r;
  r.duty = duty;
  r.sm_demand = sm_demand;
  return r;
}

DomainRates Compute(const std::vector<Resident>& residents,
                    Domain domain = Domain(),
                    const ModelParams& params = ModelParams()) {
  DomainRates out;
  TimeSlicingShareModel().ComputeRates(domain, residents, params, &out);
  return out;
}

// Two pods u = 1, d = 1 on an A100 (s = 1): alone a = 1, r = 1. Capacity
// η = 0.8366; each x = η / 2 = 0.4183 → rate 1 · 0.4183 / 1 = 0.4183;
// gpu_util = 0.8366, sm_active = Σ x · d · f = 0.8366.
TEST(TimeSlicingShareModelTest, TwoBusyPodsSplitTheEfficiency) {
  const DomainRates out = Compute({Pod(1, 1), Pod(1, 1)});
  ASSERT_EQ(out.rates.size(), 2u);
  EXPECT_NEAR(out.rates[0], 0.4183, kTol);
  EXPECT_NEAR(out.rates[1], 0.4183, kTol);
  EXPECT_NEAR(out.gpu_util, 0.8366, kTol);
  EXPECT_NEAR(out.sm_active, 0.8366, kTol);
}

// One pod: capacity 1, x = a; u = 0.5, d = 0.8, s = 1: r = 1 / (0.5 + 0.5)
// = 1, a = 0.5; gpu_util 0.5, sm_active 0.5 · 0.8 = 0.4.
TEST(TimeSlicingShareModelTest, LonePodRunsAsAlone) {
  const DomainRates out = Compute({Pod(0.5, 0.8)});
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_NEAR(out.gpu_util, 0.5, kTol);
  EXPECT_NEAR(out.sm_active, 0.4, kTol);
}

// Two pods u = 0.2, d = 1: r = 1, a = 0.2 each; Σ a = 0.4 < η: both met in
// full, rate 1 (their CPU phases overlap the other's GPU phases).
TEST(TimeSlicingShareModelTest, LightPodsAreNotSlowed) {
  const DomainRates out = Compute({Pod(0.2, 1), Pod(0.2, 1)});
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_NEAR(out.rates[1], 1.0, kTol);
  EXPECT_NEAR(out.gpu_util, 0.4, kTol);
}

// Two pods u = 0.5, d = 1: r = 1, a = 0.5; Σ a = 1 > η → x = 0.4183 each,
// rate 1 · 0.4183 / 0.5 = 0.8366.
TEST(TimeSlicingShareModelTest, HalfDutyPodsContend) {
  const DomainRates out = Compute({Pod(0.5, 1), Pod(0.5, 1)});
  EXPECT_NEAR(out.rates[0], 0.8366, kTol);
  EXPECT_NEAR(out.rates[1], 0.8366, kTol);
  EXPECT_NEAR(out.gpu_util, 0.8366, kTol);
}

// Pods A (u = 1), B (u = 0.1: r = 1, a = 0.1), C (u = 1), d = 1: B is met
// (0.1), A and C share (0.8366 − 0.1) / 2 = 0.3683. sm_active with d_A =
// 0.5: 0.3683 · 0.5 + 0.1 + 0.3683 = 0.65245.
TEST(TimeSlicingShareModelTest, MaxMinFairAmongUnequalDemands) {
  const DomainRates out = Compute({Pod(1, 0.5), Pod(0.1, 1), Pod(1, 1)});
  EXPECT_NEAR(out.rates[0], 0.3683, kTol);
  EXPECT_NEAR(out.rates[1], 1.0, kTol);
  EXPECT_NEAR(out.rates[2], 0.3683, kTol);
  EXPECT_NEAR(out.gpu_util, 0.8366, kTol);
  EXPECT_NEAR(out.sm_active, 0.65245, kTol);
  // The time each context holds (the noisy-neighbour series): x_A, x_B, x_C.
  ASSERT_EQ(out.time_shares.size(), 3u);
  EXPECT_NEAR(out.time_shares[0], 0.3683, kTol);
  EXPECT_NEAR(out.time_shares[1], 0.1, kTol);
  EXPECT_NEAR(out.time_shares[2], 0.3683, kTol);
}

// A pod without GPU work does not make the GPU contended: the busy pod keeps
// capacity 1 (x = 1, rate 1) and the idle one runs at rate 1.
TEST(TimeSlicingShareModelTest, PodWithoutGpuWorkCostsNoSwitching) {
  const DomainRates out = Compute({Pod(1, 1), Pod(0, 1)});
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_EQ(out.rates[1], 1.0);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
}

// A faster GPU (s = 2) and a MIG-sized domain (f = 0.5): u = 0.5, d = 1:
// g = 0.5, s·g = 1 → r = 1, a = 0.5; sm_active = 0.5 · 1 · 0.5 = 0.25.
TEST(TimeSlicingShareModelTest, DomainSpeedAndSmFraction) {
  Domain domain;
  domain.speed = 2.0;
  domain.sm_fraction = 0.5;
  const DomainRates out = Compute({Pod(0.5, 1)}, domain);
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_NEAR(out.gpu_util, 0.5, kTol);
  EXPECT_NEAR(out.sm_active, 0.25, kTol);
}

// The seed profile's slices (500 ms, 50 ms switch): η = 500 / 550 = 0.9091,
// two busy pods get 0.4545 each.
TEST(TimeSlicingShareModelTest, SeedProfileEfficiency) {
  const DomainRates out =
      Compute({Pod(1, 1), Pod(1, 1)}, Domain(), ModelParams::Seed());
  EXPECT_NEAR(out.rates[0], 0.4545, kTol);
  EXPECT_NEAR(out.gpu_util, 0.9091, kTol);
}

// Work conservation and max-min fairness on random residents, the time
// shares recovered as x_i = rate_i · a_i / r_i: Σ x ≤ C (= C when the
// demands exceed it), x_i ≤ a_i, and x_i < x_j only if x_i = a_i.
TEST(TimeSlicingShareModelTest, WorkConservingAndMaxMinFair) {
  Rng rng(99);
  const Domain domain;
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<Resident> residents(1 + rng.Below(8));
    for (Resident& r : residents) {
      r.duty = rng.Uniform01() < 0.15 ? 0.0 : rng.Uniform01();
      r.sm_demand = rng.Uniform01();
    }
    const DomainRates out = Compute(residents, domain);
    const double capacity = CountWithGpuWork(residents) >= 2 ? kEta : 1.0;
    std::vector<double> x(residents.size()), a(residents.size());
    double demand = 0, used = 0;
    for (std::size_t i = 0; i < residents.size(); ++i) {
      const AloneRun run = RunAlone(residents[i], 1.0, 1.0, 1.0);
      a[i] = run.gpu_share;
      x[i] = run.gpu_share > 0 ? out.rates[i] * run.gpu_share / run.rate : 0;
      demand += a[i];
      used += x[i];
    }
    ASSERT_NEAR(used, out.gpu_util, 1e-9);
    ASSERT_LE(used, capacity + 1e-9);
    if (demand >= capacity) {
      ASSERT_NEAR(used, capacity, 1e-9);
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_LE(x[i], a[i] + 1e-9);
      for (std::size_t j = 0; j < x.size(); ++j) {
        if (x[i] < x[j] - 1e-9) {
          ASSERT_NEAR(x[i], a[i], 1e-9);
        }
      }
    }
  }
}

}  // namespace
}  // namespace time_slicing_share_model_test
}  // namespace gpushare
