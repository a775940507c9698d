// PatrolEvaluator on tiny hand-computed runs (samples every 10 s, alerts
// held for 30 s): each alert fires when its condition has held 30 s and
// resolves when it stops; conditions that do not hold long enough, or that
// another explanation covers, fire nothing.

#include "gpushare/metrics/patrol_evaluator.h"

#include <gtest/gtest.h>

#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace patrol_evaluator_test {
namespace {

Scenario OnePool(int gpus, SharingConfig sharing) {
  Scenario s =
      testing_scenarios::OnePool("A100-40GB", gpus, std::move(sharing));
  s.patrol.for_s = 30;
  return s;
}

WorkloadClassSpec Jobs(const char* name, int64_t count, double work_s) {
  return testing_scenarios::Jobs(name, count, 1, 4000, work_s);
}

// A service of 10 requests/s of 20 ms each (GPU duty 0.2) for 200 s with a
// p99 objective of `slo_ms`.
WorkloadClassSpec Service(double slo_ms) {
  WorkloadClassSpec c = Jobs("svc", 1, 0);
  c.workload_class = WorkloadClass::kInference;
  c.lifetime_s = Distribution::Constant(200);
  c.request_rate = Distribution::Constant(10);
  c.gpu_ms_per_request = Distribution::Constant(20);
  c.slo_p99_ms = Distribution::Constant(slo_ms);
  return c;
}

std::vector<PatrolAlert> AlertsOf(const Scenario& scenario) {
  const Catalog catalog = Catalog::Builtin();
  Simulation sim(scenario, catalog);
  Collector collector(sim, scenario.name, scenario.seed, false);
  sim.Run(&collector);
  return collector.result().alerts;
}

// Stall from 0 to 100 s with two pods pending from the first instant:
// the condition holds at 10 … 90 s (the sample at 0 precedes the arrivals),
// fires at 40 s, resolves at 100 s when the plugin registers and both bind.
TEST(PatrolEvaluatorTest, DevicePluginStalledFiresAfterItsHold) {
  Scenario s = OnePool(2, ExclusiveSharing());
  s.workload.classes.push_back(Jobs("j", 2, 100));
  s.device_plugin_stalls.push_back({"p", 0, 0, 100});
  const std::vector<PatrolAlert> alerts = AlertsOf(s);
  ASSERT_EQ(alerts.size(), 1u);
  const PatrolAlert& a = alerts[0];
  EXPECT_EQ(a.name, "DevicePluginStalled");
  EXPECT_EQ(a.severity, "critical");
  EXPECT_EQ(a.gpu, -1);
  EXPECT_DOUBLE_EQ(a.active_s, 10);
  EXPECT_DOUBLE_EQ(a.fired_s, 40);
  EXPECT_DOUBLE_EQ(a.resolved_s, 100);
  EXPECT_EQ(a.value, 2);
  EXPECT_NE(a.description.find(a.node), std::string::npos);
}

// A stall shorter than the hold (10 … 20 s true) fires nothing; nor does a
// stall with nothing pending.
TEST(PatrolEvaluatorTest, ShortOrHarmlessStallFiresNothing) {
  Scenario s = OnePool(2, ExclusiveSharing());
  s.workload.classes.push_back(Jobs("j", 2, 100));
  s.device_plugin_stalls.push_back({"p", 0, 0, 25});
  EXPECT_TRUE(AlertsOf(s).empty());
  s.device_plugin_stalls = {{"p", 0, 5, 200}};  // both pods bound by then
  EXPECT_TRUE(AlertsOf(s).empty());
}

// all-1g.5gb, eight pods on seven instances, a reset at 10 s (down until
// 110 s), the layout recreated at 160 s: drift at 110 … 150 s fires at
// 140 s and resolves at 160 s. The node then advertises no MIG device with
// healthy GPUs and a pod pending, but the drift explains it: no
// DevicePluginStalled.
TEST(PatrolEvaluatorTest, MigConfigDriftFiresUntilTheLayoutIsBack) {
  Scenario s = OnePool(1, MigSharing(MigStrategy::kSingle, "all-1g.5gb"));
  s.workload.classes.push_back(Jobs("j", 8, 1000));
  FaultSpec f;
  f.pool = "p";
  f.at_s = 10;
  f.node = 0;
  f.gpu = 0;
  f.recovery_s = 100;
  f.reset = true;
  f.mig_reapply_s = 20;
  s.model.mig_reconfigure_s = 30;  // mig-manager starts at 130 s, done at 160
  s.faults.push_back(f);
  const std::vector<PatrolAlert> alerts = AlertsOf(s);
  ASSERT_EQ(alerts.size(), 1u);
  const PatrolAlert& a = alerts[0];
  EXPECT_EQ(a.name, "MigConfigDrift");
  EXPECT_EQ(a.gpu, 0);
  EXPECT_DOUBLE_EQ(a.active_s, 110);
  EXPECT_DOUBLE_EQ(a.fired_s, 140);
  EXPECT_DOUBLE_EQ(a.resolved_s, 160);
}

// A busy batch pod and a service (duty 0.2) time-sliced on one GPU: the
// service's demand 0.2 is met, the batch pod takes η − 0.2 = 0.6366 > 0.5
// of the GPU's time. With a p99 objective of 1 ms (below its 20 ms service
// time) the service misses at every sample while both run (10 … 200 s):
// fires at 40 s, and resolves at the sample after the service's deletion
// at 200 s. With no objective, or on MIG, nothing fires.
TEST(PatrolEvaluatorTest, NoisyNeighbourNamesThePodHoldingTheGpu) {
  Scenario s = OnePool(1, TimeSlicingSharing(2));
  s.workload.classes = {Jobs("batch", 1, 10000), Service(1)};
  const std::vector<PatrolAlert> alerts = AlertsOf(s);
  ASSERT_EQ(alerts.size(), 1u);
  const PatrolAlert& a = alerts[0];
  EXPECT_EQ(a.name, "GpuNoisyNeighbour");
  EXPECT_EQ(a.pod, "batch-0");
  EXPECT_EQ(a.device, 0);
  EXPECT_NEAR(a.value, 1.024 / 1.224 - 0.2, 1e-9);
  EXPECT_DOUBLE_EQ(a.active_s, 10);
  EXPECT_DOUBLE_EQ(a.fired_s, 40);
  EXPECT_NEAR(a.resolved_s, 210, 1e-9);

  s.workload.classes[1] = Service(0);
  EXPECT_TRUE(AlertsOf(s).empty());
  s.workload.classes[1] = Service(1);
  s.pools[0].sharing = MigSharing(MigStrategy::kSingle, "all-3g.20gb");
  EXPECT_TRUE(AlertsOf(s).empty());
}

}  // namespace
}  // namespace patrol_evaluator_test
}  // namespace gpushare
