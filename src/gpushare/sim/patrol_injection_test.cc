// The scenario injections behind the patrol alerts, in tiny hand-computed
// runs: a fault recovered by a GPU reset (whole GPU; under MIG the layout is
// lost until mig-manager recreates it: MIG config drift), a stalled device
// plugin (the node advertises nothing while its GPUs are healthy), and the
// per-pod GPU-time shares of time-shared devices (noisy neighbour).

#include <gtest/gtest.h>

#include <string>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/io/input_error.h"
#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace patrol_injection_test {
namespace {

using testing_scenarios::OnePool;

WorkloadClassSpec Jobs(int64_t count, double footprint_mib, double work_s) {
  return testing_scenarios::Jobs("j", count, 1, footprint_mib, work_s);
}

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario, /*record_devices=*/true);
}

FaultSpec ResetAt(double at_s, double recovery_s) {
  FaultSpec f;
  f.pool = "p";
  f.at_s = at_s;
  f.node = 0;
  f.gpu = 0;
  f.recovery_s = recovery_s;
  f.reset = true;
  return f;
}

// The samples of device `device` at time `t`.
const DeviceSample& SampleAt(const SimulationResult& r GS_LIFETIMEBOUND, int device, double t) {
  for (const DeviceSample& s : r.device_samples) {
    if (s.device == device && s.time_s == t) return s;
  }
  ADD_FAILURE() << "no sample of device " << device << " at " << t;
  static const DeviceSample none;
  return none;
}

// all-1g.5gb on an A100-40GB: seven instances, seven pods and an eighth
// waiting. A reset at 10 s kills all seven (an instance-contained fault
// would kill one) and the GPU is down until 110 s. It comes back without
// instances: the killed pods' restarts (due at 20 s, held until 110 s)
// cannot create their containers and fail for good; the layout drifts from
// all-1g.5gb until mig-manager, starting 20 s after, has taken its 30 s to
// recreate it at 110 + 20 + 30 = 160 s, when the
// waiting pod binds and runs its 1000 s of work on a 1g slice.
TEST(PatrolInjectionTest, GpuResetLosesTheMigLayoutUntilReapplied) {
  Scenario s = OnePool("A100-40GB", 1,
                       MigSharing(MigStrategy::kSingle, "all-1g.5gb"));
  s.workload.classes.push_back(Jobs(8, 4000, 1000));
  FaultSpec f = ResetAt(10, 100);
  f.mig_reapply_s = 20;
  s.model.mig_reconfigure_s = 30;  // mig-manager starts at 130 s, done at 160
  s.faults.push_back(f);
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.devices.size(), 7u);
  EXPECT_EQ(r.faults, 1);
  EXPECT_EQ(r.fault_kills, 7);
  EXPECT_EQ(r.max_blast_radius, 7);
  EXPECT_EQ(r.failed, 7);
  EXPECT_EQ(r.succeeded, 1);
  for (const PodRecord& p : r.pod_records) {
    if (p.outcome == PodOutcome::kFailed) {
      EXPECT_NEAR(p.end_s, 110, 1e-9);
      EXPECT_NE(p.message.find("no longer exists"), std::string::npos)
          << p.message;
    } else {
      EXPECT_NEAR(p.start_s, 160, 1e-9);
      // 1g.5gb has 14 of the 108 SMs; SM demand 1: g = 14 / 108.
      EXPECT_NEAR(p.end_s, 160 + 1000 * 108.0 / 14.0, 1e-6);
    }
  }
  for (int d = 0; d < 7; ++d) {
    EXPECT_FALSE(SampleAt(r, d, 0).mig_config_drift);
    EXPECT_TRUE(SampleAt(r, d, 100).down);
    EXPECT_FALSE(SampleAt(r, d, 100).mig_config_drift);
    for (double t : {110, 120, 130, 140, 150}) {
      EXPECT_FALSE(SampleAt(r, d, t).down);
      EXPECT_TRUE(SampleAt(r, d, t).mig_config_drift) << t;
    }
    EXPECT_FALSE(SampleAt(r, d, 160).mig_config_drift);
  }
  // While the layout is lost the node advertises no MIG device.
  for (const NodeResourceSample& n : r.node_samples) {
    const bool lost = n.time_s >= 10 && n.time_s < 160;
    EXPECT_EQ(n.allocatable, lost ? 0 : 7) << n.time_s;
  }
}

// Without mig_reapply_s nothing recreates the layout: the drift lasts to
// the end and the waiting pod never runs.
TEST(PatrolInjectionTest, GpuResetWithoutReapplyDriftsForGood) {
  Scenario s = OnePool("A100-40GB", 1,
                       MigSharing(MigStrategy::kSingle, "all-1g.5gb"));
  s.workload.classes.push_back(Jobs(8, 4000, 1000));
  s.faults.push_back(ResetAt(10, 100));
  s.horizon_s = 300;
  const SimulationResult r = RunIt(s);
  EXPECT_EQ(r.failed, 7);
  EXPECT_EQ(r.succeeded, 0);
  EXPECT_TRUE(SampleAt(r, 0, 290).mig_config_drift);
  EXPECT_TRUE(SampleAt(r, 6, 300).mig_config_drift);
}

// Without MIG a reset is a fault of the whole GPU: no layout to lose.
TEST(PatrolInjectionTest, GpuResetWithoutMigIsAWholeGpuFault) {
  Scenario s = OnePool("A100-40GB", 1, TimeSlicingSharing(2));
  s.workload.classes.push_back(Jobs(2, 4000, 100));
  s.faults.push_back(ResetAt(10, 100));
  const SimulationResult r = RunIt(s);
  EXPECT_EQ(r.fault_kills, 2);
  EXPECT_EQ(r.succeeded, 2);
  for (const DeviceSample& d : r.device_samples) {
    EXPECT_FALSE(d.mig_config_drift);
  }
}

// A device plugin stalled from 0 to 100 s: the node advertises no
// nvidia.com/gpu although both GPUs are healthy; the two pods wait and
// start at 100 s.
TEST(PatrolInjectionTest, StalledDevicePluginHoldsPodsPending) {
  Scenario s = OnePool("A100-40GB", 2, ExclusiveSharing());
  s.workload.classes.push_back(Jobs(2, 4000, 100));
  s.device_plugin_stalls.push_back({"p", 0, 0, 100});
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 2);
  for (const PodRecord& p : r.pod_records) {
    EXPECT_NEAR(p.start_s, 100, 1e-9);
    EXPECT_NEAR(p.wait_s, 100, 1e-6);
  }
  for (const NodeResourceSample& n : r.node_samples) {
    EXPECT_EQ(n.allocatable, n.time_s < 100 ? 0 : 2) << n.time_s;
  }
  EXPECT_FALSE(SampleAt(r, 0, 50).down);
}

// A stall while a pod runs does not touch it: it ends at 1000 s.
TEST(PatrolInjectionTest, StallLeavesRunningPodsAlone) {
  Scenario s = OnePool("A100-40GB", 2, ExclusiveSharing());
  s.workload.classes.push_back(Jobs(1, 4000, 1000));
  s.device_plugin_stalls.push_back({"p", 0, 50, 100});
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.succeeded, 1);
  EXPECT_NEAR(r.pod_records[0].end_s, 1000, 1e-6);
  EXPECT_EQ(r.pod_records[0].restarts, 0);
  for (const NodeResourceSample& n : r.node_samples) {
    const bool stalled = n.time_s >= 50 && n.time_s < 150;
    EXPECT_EQ(n.allocatable, stalled ? 0 : 2) << n.time_s;
  }
}

// A stall of a node the cluster does not have is an input error.
TEST(PatrolInjectionTest, StallOfAnUnknownNodeIsRefused) {
  Scenario s = OnePool("A100-40GB", 2, ExclusiveSharing());
  s.workload.classes.push_back(Jobs(1, 4000, 10));
  s.device_plugin_stalls.push_back({"p", 3, 0, 100});
  EXPECT_THROW(RunIt(s), InputError);
}

// Two busy pods time-sliced: each context holds η / 2 = 0.41830 of the GPU
// at every sample; MPS clients run concurrently and record no share.
TEST(PatrolInjectionTest, TimeSharedPodsRecordTheirGpuTimeShare) {
  Scenario s = OnePool("A100-40GB", 1, TimeSlicingSharing(2));
  s.workload.classes.push_back(Jobs(2, 4000, 100));
  const SimulationResult ts = RunIt(s);
  ASSERT_FALSE(ts.pod_share_samples.empty());
  for (const PodShareSample& p : ts.pod_share_samples) {
    EXPECT_EQ(p.device, 0);
    EXPECT_NEAR(p.gpu_time_ratio, 0.5 * 1.024 / 1.224, 1e-9);
  }
  // Two pods at each of the samples while both run (10 s … 230 s).
  EXPECT_EQ(ts.pod_share_samples.size() % 2, 0u);

  s.pools[0].sharing = MpsSharing(2);
  EXPECT_TRUE(RunIt(s).pod_share_samples.empty());
}

}  // namespace
}  // namespace patrol_injection_test
}  // namespace gpushare
