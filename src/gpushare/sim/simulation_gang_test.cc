// Hand-computed gang runs (docs/model.md "Gang scheduling"): members wait at
// Permit until minMember are bound, never run partly, progress together and
// go back to the job's checkpoint together.

#include <gtest/gtest.h>

#include <memory>

#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace simulation_gang_test {
namespace {

using testing_scenarios::ExclusiveWithPods;
using testing_scenarios::TraceJob;

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario);
}

void AddGang(std::vector<Pod>& pods, const std::string& group, int size,
             double arrival_s, double work_s, double checkpoint_s = 0) {
  for (int k = 0; k < size; ++k) {
    Pod pod = TraceJob(group + "-" + std::to_string(k), arrival_s, work_s);
    pod.tenant_class = "train";
    pod.pod_group = group;
    pod.gang_min_member = size;
    pod.gang_timeout_s = 60;
    pod.checkpoint_interval_s = checkpoint_s;
    pods.push_back(pod);
  }
}

Scenario WithPods(int gpus, std::vector<Pod> pods) {
  return ExclusiveWithPods(gpus, std::move(pods));
}

// A GPU fault at 500 s on GPU 1 of the pool's node, down `recovery_s`.
Scenario WithFaultOnGpu1(Scenario s, double recovery_s) {
  FaultSpec fault;
  fault.pool = "p";
  fault.at_s = 500;
  fault.node = 0;
  fault.gpu = 1;
  fault.recovery_s = recovery_s;
  s.faults.push_back(fault);
  return s;
}

// 4 GPUs, one taken by a 100 s job: 3 of the 4 members bind and wait at
// Permit; at 61 s the timeout releases them, they bind again at once; at
// 100 s the fourth binds, the gang is admitted and all start together:
// 100..300.
TEST(SimulationGangTest, FourPodGangNeverHalfRuns) {
  std::vector<Pod> pods = {TraceJob("blocker", 0, 100)};
  AddGang(pods, "ddp", 4, 1, 200);
  const SimulationResult r = RunIt(WithPods(4, pods));
  ASSERT_EQ(r.succeeded, 5);
  EXPECT_EQ(r.gang_timeouts, 3);
  for (int k = 1; k <= 4; ++k) {
    const PodRecord& m = r.pod_records[k];
    EXPECT_EQ(m.pod_group, "ddp");
    EXPECT_NEAR(m.start_s, 100, 1e-6) << m.name;
    EXPECT_NEAR(m.end_s, 300, 1e-6) << m.name;
    EXPECT_NEAR(m.wait_s, 99, 1e-6) << m.name;
  }
}

// A GPU fault at 500 s kills member 1; the job goes back to its checkpoint
// at 300 s of work (each of the 2 members loses 200 s); member 0 keeps its
// GPU idle until member 1 is back with the GPU at 600 s; the 700 s left end
// at 1300 s.
TEST(SimulationGangTest, MemberFaultRollsTheJobBackToItsCheckpoint) {
  std::vector<Pod> pods;
  AddGang(pods, "ddp", 2, 0, 1000, 300);
  const SimulationResult r = RunIt(WithFaultOnGpu1(WithPods(2, pods), 100));
  ASSERT_EQ(r.succeeded, 2);
  EXPECT_NEAR(r.lost_work_s, 400, 1e-6);
  EXPECT_NEAR(r.pod_records[0].end_s, 1300, 1e-6);
  EXPECT_NEAR(r.pod_records[1].end_s, 1300, 1e-6);
  EXPECT_NEAR(r.goodput, 2000.0 / 2400.0, 1e-9);
}

// A member that fails for good fails the whole job.
TEST(SimulationGangTest, AMemberFailingForGoodFailsTheGang) {
  std::vector<Pod> pods;
  AddGang(pods, "ddp", 2, 0, 1000);
  pods[1].restart_policy = RestartPolicy::kNever;
  const SimulationResult r = RunIt(WithFaultOnGpu1(WithPods(2, pods), 600));
  EXPECT_EQ(r.failed, 2);
  EXPECT_NEAR(r.pod_records[0].end_s, 500, 1e-6);
  EXPECT_EQ(r.pod_records[0].message, "PodGroup ddp: member ddp-1 failed");
}

// A gang of 4 on 2 GPUs can never be admitted. With GPU faults at a rate,
// the run still ends: each fault's own recovery does not keep the fault
// process going, so the members are left Pending and the run stops.
TEST(SimulationGangTest, AGangLargerThanItsPoolEndsPendingUnderFaults) {
  std::vector<Pod> pods = {TraceJob("job", 0, 600)};
  AddGang(pods, "ddp", 4, 0, 1000);
  Scenario s = WithPods(2, pods);
  FaultSpec fault;
  fault.pool = "p";
  fault.rate_per_gpu_hour = 0.2;
  fault.recovery_s = 120;
  s.faults.push_back(fault);
  const SimulationResult r = RunIt(s);
  EXPECT_EQ(r.succeeded, 1);
  for (int k = 1; k <= 4; ++k) {
    EXPECT_EQ(r.pod_records[k].outcome, PodOutcome::kPending);
  }
}

}  // namespace
}  // namespace simulation_gang_test
}  // namespace gpushare
