// Hand-computed runs of priority preemption (docs/model.md "Priority and
// preemption"): the victim stops, holds its GPU for its grace period, waits
// again and resumes from its last checkpoint.

#include <gtest/gtest.h>

#include <memory>

#include "gpushare/decide/class_metrics.h"
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

// The livelock of issue 36 in miniature: two priority-0 notebooks hold the
// two GPUs of one node; a two-GPU job of priority 100 evicts both at 100.
// Notebook a (grace 30 s) is back at 130 and notebook b (grace 60 s) at
// 160. Without nomination a took its GPU back at 130, b at 160, the job
// found no room and evicted them again, for ever. With nominatedNodeName
// the job's two GPUs are held: a waits, the job binds at 160 when b's
// grace ends and runs 160..260; then both notebooks come back and serve the
// 900 s left of their lives, to 1160. Each was evicted once and was down
// 160 s (100..260), which counts as waiting in its performance:
// up 1000 / (1000 + 160).
TEST(SimulationPreemptionTest, NominatedRoomEndsTheEvictionLoop) {
  Pod a = Job("notebook-a", 0, 0, 0);
  a.needs.lifetime_s = 1000;
  a.termination_grace_period_s = 30;
  Pod b = a;
  b.name = b.tenant_class = "notebook-b";
  b.termination_grace_period_s = 60;
  Pod job = Job("ddp", 100, 100, 100);
  job.needs.gpus = 2;
  Scenario s = testing_scenarios::ExclusiveWithPods(2, {a, b, job});
  s.horizon_s = 2000;
  s.scheduler.check_invariants = true;
  const SimulationResult r = RunIt(s);
  EXPECT_EQ(r.preemptions, 2);
  const PodRecord& ra = r.pod_records[0];
  const PodRecord& rb = r.pod_records[1];
  const PodRecord& rj = r.pod_records[2];
  EXPECT_NEAR(rj.start_s, 160, 1e-6);
  EXPECT_NEAR(rj.end_s, 260, 1e-6);
  EXPECT_EQ(rj.outcome, PodOutcome::kSucceeded);
  for (const PodRecord* n : {&ra, &rb}) {
    EXPECT_EQ(n->preemptions, 1);
    EXPECT_NEAR(n->eviction_down_s, 160, 1e-6);
    EXPECT_NEAR(n->end_s, 1160, 1e-6);
    EXPECT_EQ(n->outcome, PodOutcome::kDeleted);
    EXPECT_NEAR(PodPerformance(*n, r.end_s), 1000.0 / 1160.0, 1e-9);
  }
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
