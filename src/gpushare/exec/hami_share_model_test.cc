// HamiShareModel: time-sliced like time-slicing (η = 0.836601 under
// contention), GPU phases slower by 1 % (interception), and a loose core cap
// b = c + 0.4 · (1 − c) on a pod's time share while another pod has GPU work
// (gpuCorePolicy `default`) or always (`force`).

#include "gpushare/exec/hami_share_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpushare/exec/model_params.h"

namespace gpushare {
namespace hami_share_model_test {
namespace {

constexpr double kTol = 1e-4;

Resident Pod(double duty, int cores_percent) {
  Resident r;
  r.duty = duty;
  r.sm_demand = 1.0;
  r.cores_percent = cores_percent;
  return r;
}

DomainRates Compute(const std::vector<Resident>& residents,
                    const ModelParams& params = ModelParams()) {
  DomainRates out;
  HamiShareModel().ComputeRates(Domain(), residents, params, &out);
  return out;
}

TEST(HamiShareModelTest, TimeShareBound) {
  const ModelParams params;
  // cap 30 %: b = 0.3 + 0.4 · 0.7 = 0.58, only with a co-runner by default.
  EXPECT_NEAR(HamiTimeShareBound(Pod(1, 30), 2, params), 0.58, 1e-12);
  EXPECT_TRUE(std::isinf(HamiTimeShareBound(Pod(1, 30), 1, params)));
  // cap 10 %: b = 0.1 + 0.4 · 0.9 = 0.46.
  EXPECT_NEAR(HamiTimeShareBound(Pod(1, 10), 3, params), 0.46, 1e-12);
  // No cap: 0 (no gpucores request) and 100.
  EXPECT_TRUE(std::isinf(HamiTimeShareBound(Pod(1, 0), 2, params)));
  EXPECT_TRUE(std::isinf(HamiTimeShareBound(Pod(1, 100), 2, params)));
  ModelParams force;
  force.hami_cap_when_alone = true;
  EXPECT_NEAR(HamiTimeShareBound(Pod(1, 30), 1, force), 0.58, 1e-12);
}

// A lone pod capped at 30 %, u = 1, d = 1, default policy: no cap; only the
// interception overhead: rate = 1 · (1 − 0.01) = 0.99, a = 1, gpu_util = 1.
TEST(HamiShareModelTest, LonePodOverItsCapUnderDefaultPolicy) {
  const DomainRates out = Compute({Pod(1, 30)});
  EXPECT_NEAR(out.rates[0], 0.99, kTol);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
}

// gpuCorePolicy `force`: the lone pod is bound at b = 0.58 → x = 0.58,
// rate 0.99 · 0.58 / 1 = 0.5742; gpu_util 0.58.
TEST(HamiShareModelTest, LonePodCappedUnderForcePolicy) {
  ModelParams force;
  force.hami_cap_when_alone = true;
  const DomainRates out = Compute({Pod(1, 30)}, force);
  EXPECT_NEAR(out.rates[0], 0.5742, kTol);
  EXPECT_NEAR(out.gpu_util, 0.58, kTol);
}

// Cap 10 % (b = 0.46) against a pod u = 1 with no cap: the fair share
// η / 2 = 0.4183 is below b, so the bound does not bind: both get 0.4183,
// rate 0.99 · 0.4183 = 0.4141.
TEST(HamiShareModelTest, CapAboveFairShareDoesNotBind) {
  const DomainRates out = Compute({Pod(1, 10), Pod(1, 100)});
  EXPECT_NEAR(out.rates[0], 0.4141, kTol);
  EXPECT_NEAR(out.rates[1], 0.4141, kTol);
  EXPECT_NEAR(out.gpu_util, 0.8366, kTol);
}

// Cap 10 % (b = 0.46), u = 1, against a light pod u = 0.2 with no cap.
// Light pod: s·v·g = 0.99; r = 1 / (0.8 + 0.2 / 0.99) = 1 / 1.00202 =
// 0.99798, a = 0.20202 · 0.99798 = 0.20161 < fair share: met in full,
// rate 0.99798. Unbound, the capped pod would get η − 0.20161 = 0.63499;
// the bound binds: x = 0.46, rate 0.99 · 0.46 = 0.4554. The rest idles:
// gpu_util = 0.46 + 0.20161 = 0.66161.
TEST(HamiShareModelTest, CapBindsWhenTheOtherPodLeavesRoom) {
  const DomainRates out = Compute({Pod(1, 10), Pod(0.2, 100)});
  EXPECT_NEAR(out.rates[0], 0.4554, kTol);
  EXPECT_NEAR(out.rates[1], 0.99798, kTol);
  EXPECT_NEAR(out.gpu_util, 0.66161, kTol);
  // Time held: the capped pod its bound, the light pod its demand.
  ASSERT_EQ(out.time_shares.size(), 2u);
  EXPECT_NEAR(out.time_shares[0], 0.46, kTol);
  EXPECT_NEAR(out.time_shares[1], 0.20161, kTol);

  // Without the cap the same pod gets 0.99 · 0.63499 = 0.62864.
  const DomainRates uncapped = Compute({Pod(1, 100), Pod(0.2, 100)});
  EXPECT_NEAR(uncapped.rates[0], 0.62864, kTol);
  EXPECT_NEAR(uncapped.gpu_util, 0.8366, kTol);
}

// The seed profile's 6 % vGPU loss: lone pod u = 1 → rate 0.94.
TEST(HamiShareModelTest, SeedProfileOverhead) {
  EXPECT_NEAR(Compute({Pod(1, 100)}, ModelParams::Seed()).rates[0], 0.94, kTol);
}

}  // namespace
}  // namespace hami_share_model_test
}  // namespace gpushare
