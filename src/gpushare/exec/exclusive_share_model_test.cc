// ExclusiveShareModel: one pod alone on its GPU (share_model.h's alone run),
// and the documented fallback to time-slicing when given several.

#include "gpushare/exec/exclusive_share_model.h"

#include <gtest/gtest.h>

#include <vector>

#include "gpushare/exec/model_params.h"
#include "gpushare/exec/time_slicing_share_model.h"

namespace gpushare {
namespace exclusive_share_model_test {
namespace {

constexpr double kTol = 1e-4;

Resident Pod(double duty, double sm_demand) {
  Resident r;
  r.duty = duty;
  r.sm_demand = sm_demand;
  return r;
}

// u = 0.5, d = 0.8 on an A100 (s = 1, f = 1): g = 1, r = 1 / (0.5 + 0.5) =
// 1, a = 0.5 · 1 = 0.5; gpu_util = a = 0.5, sm_active = 0.5 · 0.8 · 1 = 0.4.
TEST(ExclusiveShareModelTest, LonePodRunsAlone) {
  DomainRates out;
  ExclusiveShareModel().ComputeRates(Domain(), {Pod(0.5, 0.8)}, ModelParams(),
                                     &out);
  ASSERT_EQ(out.rates.size(), 1u);
  EXPECT_NEAR(out.rates[0], 1.0, kTol);
  EXPECT_NEAR(out.gpu_util, 0.5, kTol);
  EXPECT_NEAR(out.sm_active, 0.4, kTol);
}

// A GPU at half the reference speed (s = 0.5), u = 0.5, d = 0.8:
// r = 1 / (0.5 + 0.5 / 0.5) = 0.6667, a = (0.5 / 0.5) · 0.6667 = 0.6667;
// sm_active = 0.6667 · 0.8 = 0.5333.
TEST(ExclusiveShareModelTest, SlowerGpu) {
  Domain domain;
  domain.speed = 0.5;
  DomainRates out;
  ExclusiveShareModel().ComputeRates(domain, {Pod(0.5, 0.8)}, ModelParams(),
                                     &out);
  EXPECT_NEAR(out.rates[0], 0.6667, kTol);
  EXPECT_NEAR(out.gpu_util, 0.6667, kTol);
  EXPECT_NEAR(out.sm_active, 0.5333, kTol);
}

// u = 1, d = 0.5 on a domain with f = 0.5: g = 1 / (0.5 + 1) = 0.6667 = r;
// a = 1; sm_active = 1 · 0.5 · 0.5 = 0.25.
TEST(ExclusiveShareModelTest, SmFractionSlowsTheParallelPart) {
  Domain domain;
  domain.sm_fraction = 0.5;
  DomainRates out;
  ExclusiveShareModel().ComputeRates(domain, {Pod(1, 0.5)}, ModelParams(),
                                     &out);
  EXPECT_NEAR(out.rates[0], 0.6667, kTol);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
  EXPECT_NEAR(out.sm_active, 0.25, kTol);
}

// Several residents: exactly time-slicing (two busy pods → 0.4183 each).
TEST(ExclusiveShareModelTest, SeveralResidentsAreTimeSliced) {
  const std::vector<Resident> residents = {Pod(1, 1), Pod(0.3, 0.5),
                                           Pod(1, 0.7)};
  DomainRates exclusive, sliced;
  ExclusiveShareModel().ComputeRates(Domain(), residents, ModelParams(),
                                     &exclusive);
  TimeSlicingShareModel().ComputeRates(Domain(), residents, ModelParams(),
                                       &sliced);
  EXPECT_EQ(exclusive.rates, sliced.rates);
  EXPECT_EQ(exclusive.gpu_util, sliced.gpu_util);
  EXPECT_EQ(exclusive.sm_active, sliced.sm_active);

  DomainRates two;
  ExclusiveShareModel().ComputeRates(Domain(), {Pod(1, 1), Pod(1, 1)},
                                     ModelParams(), &two);
  EXPECT_NEAR(two.rates[0], 0.4183, kTol);
}

}  // namespace
}  // namespace exclusive_share_model_test
}  // namespace gpushare
