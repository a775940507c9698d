#include "gpushare/workload/dcgm_derivation.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(DcgmDerivationTest, DutyIsTheMeanActivityOnTheReferenceGpu) {
  // Activity 0.2, 0.6, 0.4 (absent samples ignored): mean 0.4; on the
  // reference GPU (S = 1) the duty is the activity.
  const std::vector<DcgmPodSample> samples = {
      {0.2, 0.1, 5000}, {0.6, 0.3, 6000}, {-1, -1, 7000}, {0.4, 0.2, 5500}};
  const DcgmDerivedNeeds n = DeriveDcgmNeeds(samples, 0.05);
  EXPECT_EQ(n.samples, 3);
  EXPECT_DOUBLE_EQ(n.mean_activity, 0.4);
  EXPECT_DOUBLE_EQ(DutyFromActivity(n.mean_activity, 1.0), 0.4);
}

TEST(DcgmDerivationTest, SmDemandIsSmActiveOverActivityWhileBusy) {
  // Busy: 0.5 (SM 0.2) and 0.3 (SM 0.12): d = 0.32 / 0.8 = 0.4. The idle
  // sample 0.02 (SM 0.5, noise) is at the threshold's wrong side.
  const std::vector<DcgmPodSample> samples = {
      {0.5, 0.2, 1}, {0.02, 0.5, 1}, {0.3, 0.12, 1}};
  const DcgmDerivedNeeds n = DeriveDcgmNeeds(samples, 0.05);
  EXPECT_EQ(n.busy_samples, 2);
  EXPECT_NEAR(n.sm_demand, 0.4, 1e-12);
}

TEST(DcgmDerivationTest, NoBusySampleLeavesSmDemandUnknown) {
  const DcgmDerivedNeeds n = DeriveDcgmNeeds({{0.01, 0.0, 100}}, 0.05);
  EXPECT_LT(n.sm_demand, 0);
  EXPECT_EQ(n.footprint_mib, 100);
}

TEST(DcgmDerivationTest, FootprintIsTheLargestFramebufferUsed) {
  // 6000, 6400.2 (rounded up to whole MiB), 5000: the peak.
  const DcgmDerivedNeeds n =
      DeriveDcgmNeeds({{0.5, 0.1, 6000}, {0.5, 0.1, 6400.2}, {0.5, 0.1, 5000}},
                      0.05);
  EXPECT_EQ(n.footprint_mib, 6401);
}

TEST(DcgmDerivationTest, NoSamplesDeriveNothing) {
  const DcgmDerivedNeeds n = DeriveDcgmNeeds({}, 0.05);
  EXPECT_EQ(n.samples, 0);
  EXPECT_DOUBLE_EQ(n.mean_activity, 0);
  EXPECT_LT(n.sm_demand, 0);
  EXPECT_LT(n.footprint_mib, 0);
}

TEST(DcgmDerivationTest, DutyInvertsTheModelOnAFasterGpu) {
  // A GPU phase twice as fast (S = 2): duty 0.5 runs a = (0.5/2)·r with
  // r = 1 / (0.5 + 0.25) = 4/3, a = 1/3. The inverse gives 0.5 back:
  // u = (1/3)·2 / (1 − 1/3 + 2/3) = (2/3) / (4/3).
  EXPECT_NEAR(DutyFromActivity(1.0 / 3.0, 2.0), 0.5, 1e-12);
  // Half speed (a MIG slice): duty 0.25, r = 1 / (0.75 + 0.5) = 0.8,
  // a = 0.5·0.8 = 0.4 → u = 0.4·0.5 / (0.6 + 0.2) = 0.25.
  EXPECT_NEAR(DutyFromActivity(0.4, 0.5), 0.25, 1e-12);
}

TEST(DcgmDerivationTest, DutyBounds) {
  EXPECT_DOUBLE_EQ(DutyFromActivity(0, 3), 0);
  EXPECT_DOUBLE_EQ(DutyFromActivity(1, 3), 1);
  EXPECT_DOUBLE_EQ(DutyFromActivity(1.5, 0.5), 1);
  EXPECT_DOUBLE_EQ(DutyFromActivity(-0.2, 0.5), 0);
}

}  // namespace
}  // namespace gpushare
