// Hand-computed runs of priority preemption (docs/model.md "Priority and
// preemption"): the victim stops, holds its GPU for its grace period, waits
// again and resumes from its last checkpoint.

#include <gtest/gtest.h>

#include <memory>

#include "gpushare/metrics/collector.h"
#include "gpushare/metrics/json_writer.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_preemption_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario, /*record_devices=*/true);
}

Pod Job(const char* name, double arrival_s, double work_s, int32_t priority) {
  return TraceJob(name, arrival_s, work_s, priority);
}

Scenario WithPods(std::vector<Pod> pods) {
  return ExclusiveWithPods(1, std::move(pods));
}

// low runs 0..400 (checkpoint at 300); high arrives at 400 and preempts it;
// low holds the GPU until 430 (grace 30 s), losing 100 s of work; high runs
// 430..530; low resumes from 300 and ends at 530 + 700 = 1230.
TEST(SimulationPreemptionTest, VictimResumesFromItsCheckpoint) {
  Pod low = Job("low", 0, 1000, 0);
  low.checkpoint_interval_s = 300;
  const SimulationResult r = RunIt(WithPods({low, Job("high", 400, 100, 100)}));
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_EQ(r.preemptions, 1);
  const PodRecord& l = r.pod_records[0];
  const PodRecord& h = r.pod_records[1];
  EXPECT_EQ(l.preemptions, 1);
  EXPECT_NEAR(l.lost_work_s, 100, 1e-6);
  EXPECT_NEAR(l.end_s, 1230, 1e-6);
  EXPECT_NEAR(l.wait_s, 0, 1e-9);  // its first start
  EXPECT_NEAR(h.start_s, 430, 1e-6);
  EXPECT_NEAR(h.end_s, 530, 1e-6);
  EXPECT_EQ(h.preemptions, 0);
  EXPECT_NEAR(r.lost_work_s, 100, 1e-6);
  EXPECT_NEAR(r.goodput, 1100.0 / 1200.0, 1e-9);
  // GPU held 0..430 and 530..1230: 1130 s.
  EXPECT_NEAR(l.gpu_hours, 1130 / 3600.0, 1e-9);
  // Wasted: the held GPU-hours in the share of its work that was lost,
  // 100 of the 1100 s it ran (1000 of work + 100 thrown away).
  EXPECT_NEAR(l.wasted_gpu_hours, 1130 / 3600.0 * 100 / 1100, 1e-9);
  EXPECT_EQ(h.wasted_gpu_hours, 0);
  // Two holdings of the same GPU, the first ending when the grace did.
  int holdings = 0;
  for (const DeviceHolding& d : r.device_holdings) {
    if (d.pod != 0) continue;
    ++holdings;
    if (holdings == 1) {
      EXPECT_NEAR(d.end_s, 430, 1e-6);
    }
  }
  EXPECT_EQ(holdings, 2);
}

// Without checkpoints the attempt's 400 s are lost; a grace period of 0
// frees the GPU at once.
TEST(SimulationPreemptionTest, WithoutCheckpointsTheAttemptIsLost) {
  Pod low = Job("low", 0, 1000, 0);
  low.termination_grace_period_s = 0;
  const SimulationResult r = RunIt(WithPods({low, Job("high", 400, 100, 100)}));
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_NEAR(r.pod_records[0].lost_work_s, 400, 1e-6);
  EXPECT_NEAR(r.pod_records[1].start_s, 400, 1e-6);
  EXPECT_NEAR(r.pod_records[0].end_s, 1500, 1e-6);
}

// preemptionPolicy Never, or the plugin off: high waits for low to finish.
TEST(SimulationPreemptionTest, NeverAndNoPostFilterWait) {
  Pod high = Job("high", 400, 100, 100);
  high.preemption_policy = PreemptionPolicy::kNever;
  SimulationResult r = RunIt(WithPods({Job("low", 0, 1000, 0), high}));
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_NEAR(r.pod_records[1].start_s, 1000, 1e-6);
  Scenario off = WithPods({Job("low", 0, 1000, 0), Job("high", 400, 100, 100)});
  off.scheduler.post_filters.clear();
  r = RunIt(off);
  EXPECT_EQ(r.preemptions, 0);
  EXPECT_NEAR(r.pod_records[1].start_s, 1000, 1e-6);
}

// A preempted service comes back for the rest of its lifetime.
TEST(SimulationPreemptionTest, ServiceKeepsItsRemainingLifetime) {
  Pod svc = Job("svc", 0, 0, 0);
  svc.needs.lifetime_s = 1000;
  const SimulationResult r = RunIt(WithPods({svc, Job("high", 400, 100, 100)}));
  const PodRecord& s = r.pod_records[0];
  EXPECT_EQ(s.preemptions, 1);
  EXPECT_NEAR(s.lost_work_s, 0, 1e-9);
  // Up 0..400, back at 530 for the 600 s left.
  EXPECT_NEAR(s.end_s, 1130, 1e-6);
  EXPECT_EQ(s.outcome, PodOutcome::kDeleted);
}

// The counting dry run (NVIDIA devices, fit filters only) gives the same
// victims as the dry run on the real nodes: the multi-tenant example, with
// its preemptions and gangs, gives the same JSON both ways.
TEST(SimulationPreemptionTest, CountingDryRunMatchesTheRealOne) {
  const Catalog catalog = Catalog::Builtin();
  Scenario fast = ReadScenarioFile(
      GS_TESTDATA_DIR "/../../examples/multi-tenant.yaml", catalog);
  Scenario slow = fast;
  slow.scheduler.reuse_node_results = false;
  slow.scheduler.check_invariants = true;
  const SimulationResult a = RunIt(fast);
  const SimulationResult b = RunIt(slow);
  EXPECT_GT(a.preemptions, 0);
  EXPECT_EQ(ResultToJson(a).dump(), ResultToJson(b).dump());
}

}  // namespace
}  // namespace simulation_preemption_test
}  // namespace gpushare
