// GpuPhaseSpeed (Amdahl's law, share_model.h), MakeShareModel, and the
// contract every share model keeps: empty domains, residents without GPU
// work, determinism, rates never above the alone rate, and DCGM values in
// range.

#include "gpushare/exec/share_model.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/cluster/sharing_config.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/exec/share_math.h"

namespace gpushare {
namespace share_model_test {
namespace {

constexpr double kTol = 1e-9;

const SharingScheme kAllSchemes[] = {
    SharingScheme::kExclusive, SharingScheme::kTimeSlicing, SharingScheme::kMps,
    SharingScheme::kMig, SharingScheme::kHami};

TEST(ShareModelTest, GpuPhaseSpeedFollowsAmdahl) {
  // g(0.5, 0.5) = 1 / (0.5 + 1) = 2/3; g(0.25, 0.8) = 1 / (0.2 + 3.2) = 1/3.4.
  EXPECT_NEAR(GpuPhaseSpeed(0.5, 0.5), 2.0 / 3.0, kTol);
  EXPECT_NEAR(GpuPhaseSpeed(0.25, 0.8), 1.0 / 3.4, kTol);
}

TEST(ShareModelTest, GpuPhaseSpeedEdges) {
  for (double d : {0.0, 0.3, 1.0}) EXPECT_EQ(GpuPhaseSpeed(1.0, d), 1.0) << d;
  // No parallel part: the SM count does not matter.
  for (double f : {0.01, 0.5, 1.0}) EXPECT_EQ(GpuPhaseSpeed(f, 0.0), 1.0) << f;
  // Fully parallel: speed = f.
  EXPECT_NEAR(GpuPhaseSpeed(0.3, 1.0), 0.3, kTol);
  // f is clamped to (0, 1]: above 1 is the whole GPU; 0 or below is a tiny
  // positive fraction (finite, positive speed).
  EXPECT_EQ(GpuPhaseSpeed(2.0, 0.7), 1.0);
  for (double f : {0.0, -1.0}) {
    const double g = GpuPhaseSpeed(f, 1.0);
    EXPECT_GT(g, 0.0) << f;
    EXPECT_LT(g, 1e-6) << f;
  }
  // d is clamped to [0, 1].
  EXPECT_NEAR(GpuPhaseSpeed(0.5, 1.5), 0.5, kTol);
  EXPECT_EQ(GpuPhaseSpeed(0.5, -0.5), 1.0);
}

TEST(ShareModelTest, MakeShareModelNamesEachScheme) {
  for (SharingScheme scheme : kAllSchemes) {
    const std::unique_ptr<ShareModel> model = MakeShareModel(scheme);
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->Name(), SharingSchemeName(scheme));
  }
}

TEST(ShareModelTest, EmptyDomainIsIdle) {
  for (SharingScheme scheme : kAllSchemes) {
    DomainRates out;
    out.rates = {5.0, 6.0};  // stale values are replaced
    out.gpu_util = 0.7;
    out.sm_active = 0.7;
    MakeShareModel(scheme)->ComputeRates(Domain(), {}, ModelParams(), &out);
    EXPECT_TRUE(out.rates.empty()) << SharingSchemeName(scheme);
    EXPECT_EQ(out.gpu_util, 0.0) << SharingSchemeName(scheme);
    EXPECT_EQ(out.sm_active, 0.0) << SharingSchemeName(scheme);
  }
}

TEST(ShareModelTest, ResidentsWithoutGpuWorkRunAtFullRate) {
  std::vector<Resident> residents(3);
  for (Resident& r : residents) r.duty = 0;
  residents[1].cores_percent = 20;
  for (SharingScheme scheme : kAllSchemes) {
    DomainRates out;
    MakeShareModel(scheme)->ComputeRates(Domain(), residents, ModelParams(),
                                         &out);
    ASSERT_EQ(out.rates.size(), 3u);
    for (double rate : out.rates) {
      EXPECT_EQ(rate, 1.0) << SharingSchemeName(scheme);
    }
    EXPECT_EQ(out.gpu_util, 0.0) << SharingSchemeName(scheme);
    EXPECT_EQ(out.sm_active, 0.0) << SharingSchemeName(scheme);
  }
}

std::vector<Resident> RandomResidents(Rng* rng) {
  std::vector<Resident> residents(rng->Below(6));
  for (Resident& r : residents) {
    r.duty = rng->Uniform01() < 0.2 ? 0.0 : rng->Uniform01();
    r.sm_demand = rng->Uniform01();
    r.cores_percent = static_cast<int>(rng->Below(101));
  }
  return residents;
}

// Every model, random domains: a rate never exceeds the pod's alone rate on
// the domain at v = 1 (sharing never speeds a pod up), rates are ≥ 0,
// gpu_util and sm_active lie in [0, 1] and sm_active ≤ the domain's SM
// fraction, and the same input gives the same output bit for bit.
TEST(ShareModelTest, ContractHoldsOnRandomDomains) {
  Rng rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    Domain domain;
    domain.speed = 0.2 + 2.0 * rng.Uniform01();
    domain.sm_fraction = rng.Uniform01() < 0.5 ? 1.0 : rng.Uniform01();
    const std::vector<Resident> residents = RandomResidents(&rng);
    for (SharingScheme scheme : kAllSchemes) {
      const std::unique_ptr<ShareModel> model = MakeShareModel(scheme);
      DomainRates out;
      model->ComputeRates(domain, residents, ModelParams(), &out);
      ASSERT_EQ(out.rates.size(), residents.size());
      for (std::size_t i = 0; i < residents.size(); ++i) {
        const double alone =
            RunAlone(residents[i], domain.speed, 1.0, domain.sm_fraction).rate;
        ASSERT_GE(out.rates[i], 0.0);
        ASSERT_LE(out.rates[i], alone + kTol)
            << SharingSchemeName(scheme) << " trial " << trial;
      }
      ASSERT_GE(out.gpu_util, 0.0);
      ASSERT_LE(out.gpu_util, 1.0 + kTol);
      ASSERT_GE(out.sm_active, 0.0);
      ASSERT_LE(out.sm_active, domain.sm_fraction + kTol);

      DomainRates again;
      model->ComputeRates(domain, residents, ModelParams(), &again);
      ASSERT_EQ(out.rates, again.rates);
      ASSERT_EQ(out.gpu_util, again.gpu_util);
      ASSERT_EQ(out.sm_active, again.sm_active);
    }
  }
}

}  // namespace
}  // namespace share_model_test
}  // namespace gpushare
