// MigShareModel: a pod on a MIG instance runs as alone on a GPU with the
// instance's SM fraction f = instance SMs / GPU SMs; replicas of an instance
// are time-sliced within it. Checked against the A100-40GB MIG slice speeds
// measured from MISO's logs (boringlee24/socc22-miso
// mps/models/logs/mig/*.json; Li et al., "MISO", ACM SoCC 2022).

#include "gpushare/exec/mig_share_model.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/gpu_model.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/exec/time_slicing_share_model.h"

namespace gpushare {
namespace mig_share_model_test {
namespace {

constexpr double kTol = 1e-4;

Resident Pod(double duty, double sm_demand) {
  Resident r;
  r.duty = duty;
  r.sm_demand = sm_demand;
  return r;
}

class MigShareModelTest : public ::testing::Test {
 protected:
  // The domain of one instance of `profile` on the A100-40GB.
  Domain Instance(const std::string& profile) const {
    const GpuModel& a100 = catalog_.Get("A100-40GB");
    const MigGeometry& mig = a100.RequireMig();
    Domain domain;
    domain.speed = a100.relative_speed;
    domain.sm_fraction =
        static_cast<double>(mig.profiles[a100.RequireProfile(profile)].sms) /
        a100.sms;
    return domain;
  }

  double Rate(const Domain& domain, const Resident& pod) const {
    DomainRates out;
    MigShareModel().ComputeRates(domain, {pod}, ModelParams(), &out);
    return out.rates[0];
  }

  Catalog catalog_ = Catalog::Builtin();
};

// One 3g pod with SM demand 0.3 on an A100-40GB: f = 42 / 108 = 0.3889;
// g = 1 / (0.7 + 0.3 · 108 / 42) = 1 / (0.7 + 0.7714) = 0.6796; u = 1 →
// rate = s · g = 0.6796, a = 1; sm_active = 1 · 0.3 · 0.3889 = 0.1167 of the
// whole GPU's SMs.
TEST_F(MigShareModelTest, ThreeGInstanceLonePod) {
  const Domain domain = Instance("3g.20gb");
  EXPECT_NEAR(domain.sm_fraction, 42.0 / 108.0, 1e-12);
  DomainRates out;
  MigShareModel().ComputeRates(domain, {Pod(1, 0.3)}, ModelParams(), &out);
  EXPECT_NEAR(out.rates[0], 0.6796, kTol);
  EXPECT_NEAR(out.gpu_util, 1.0, kTol);
  EXPECT_NEAR(out.sm_active, 0.1167, kTol);
}

// Replicas of an instance are time-sliced within it: two pods u = 1, d = 0.3
// on the 3g instance: alone r = 0.6796, a = 1 each; x = η / 2 = 0.4183 →
// rate 0.6796 · 0.4183 = 0.2843.
TEST_F(MigShareModelTest, ReplicasAreTimeSlicedWithinTheInstance) {
  const Domain domain = Instance("3g.20gb");
  const std::vector<Resident> residents = {Pod(1, 0.3), Pod(1, 0.3)};
  DomainRates mig, sliced;
  MigShareModel().ComputeRates(domain, residents, ModelParams(), &mig);
  TimeSlicingShareModel().ComputeRates(domain, residents, ModelParams(),
                                       &sliced);
  EXPECT_EQ(mig.rates, sliced.rates);
  EXPECT_EQ(mig.gpu_util, sliced.gpu_util);
  EXPECT_EQ(mig.sm_active, sliced.sm_active);
  EXPECT_NEAR(mig.rates[0], 0.2843, kTol);
}

// MISO's MIG logs (boringlee24/socc22-miso mps/models/logs/mig/*.json):
// speed of a slice relative to 7g.40gb, medians over 32 training configs:
// 1g 0.31, 2g 0.52, 3g 0.67, 4g 0.75. With d = 0.4 and
// f = SMs / 98 (relative to the 7g instance):
//   1g: 14/98 → 1 / (0.6 + 0.4 · 7)   = 1 / 3.4    = 0.294
//   2g: 28/98 → 1 / (0.6 + 0.4 · 3.5) = 1 / 2.0    = 0.500
//   3g: 42/98 → 1 / (0.6 + 0.4 · 7/3) = 1 / 1.5333 = 0.652
//   4g: 56/98 → 1 / (0.6 + 0.4 · 1.75) = 1 / 1.3   = 0.769
// The model as the simulator uses it (f = SMs / 108, ratio of the rates on
// the instance and on 7g, u = 1): 7g g = 1 / (0.6 + 0.4 · 108/98) = 0.9608;
//   1g 0.2713 / 0.9608 = 0.282, 2g 0.4667 / 0.9608 = 0.486,
//   3g 0.6140 / 0.9608 = 0.639, 4g 0.7292 / 0.9608 = 0.759.
// Each within 0.05 of the measured median.
TEST_F(MigShareModelTest, SliceSpeedsMatchMeasuredMedians) {
  struct Slice {
    const char* profile;
    double measured;
    double predicted_vs_7g;  // hand-computed above, f = SMs / 98
    double predicted_rates;  // hand-computed above, f = SMs / 108
  };
  const Slice slices[] = {{"1g.5gb", 0.31, 0.294, 0.282},
                          {"2g.10gb", 0.52, 0.500, 0.486},
                          {"3g.20gb", 0.67, 0.652, 0.639},
                          {"4g.20gb", 0.75, 0.769, 0.759}};
  const Resident pod = Pod(1, 0.4);
  const double full = Rate(Instance("7g.40gb"), pod);
  const GpuModel& a100 = catalog_.Get("A100-40GB");
  const MigGeometry& mig = a100.RequireMig();
  for (const Slice& s : slices) {
    const int sms = mig.profiles[a100.RequireProfile(s.profile)].sms;
    const double vs_7g = GpuPhaseSpeed(static_cast<double>(sms) / mig.sms, 0.4);
    const double by_rates = Rate(Instance(s.profile), pod) / full;
    EXPECT_NEAR(vs_7g, s.predicted_vs_7g, 1e-3) << s.profile;
    EXPECT_NEAR(by_rates, s.predicted_rates, 1e-3) << s.profile;
    EXPECT_NEAR(vs_7g, s.measured, 0.05) << s.profile;
    EXPECT_NEAR(by_rates, s.measured, 0.05) << s.profile;
    std::printf(
        "MIG %-8s measured %.2f  model(f=SMs/98) %.3f  "
        "model(rate ratio) %.3f\n",
        s.profile, s.measured, vs_7g, by_rates);
  }
}

// A replica without GPU work does not make the instance contended: the busy
// pod keeps the whole instance.
TEST_F(MigShareModelTest, ResidentWithoutGpuWorkDoesNotSlowTheInstance) {
  const Domain domain = Instance("2g.10gb");
  DomainRates out;
  MigShareModel().ComputeRates(domain, {Pod(1, 0.4), Pod(0, 1)}, ModelParams(),
                               &out);
  // 2g: f = 28/108, g = 1 / (0.6 + 0.4 · 108/28) = 1 / 2.1429 = 0.4667.
  EXPECT_NEAR(out.rates[0], 0.4667, kTol);
  EXPECT_EQ(out.rates[1], 1.0);
}

}  // namespace
}  // namespace mig_share_model_test
}  // namespace gpushare
