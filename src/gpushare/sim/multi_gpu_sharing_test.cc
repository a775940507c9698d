// Multi-GPU pods on shared devices (issue 54, point 3), hand-checked.
//
// (a) Time-slicing: NVIDIA's device plugin hands out replicas by its
// sharedDevicesAllocationPolicy (internal/rm/allocate.go), so a 2-GPU pod
// may get two replicas of one GPU. Its container sees that GPU once
// (getAllocateResponse: uniqueDeviceIDsFromAnnotatedDeviceIDs), its two ranks
// meet on it and NCCL's init refuses them ("Duplicate GPU detected",
// ncclInvalidUsage): the container exits at start, restarts in place on the
// same replicas after kubelet's back-off (10 s doubling, at most 300 s) and,
// after max_restarts (6), the pod fails. With failRequestsGreaterThanOne the
// plugin rejects the request at admission instead (rm.go ValidateRequest).
//
// (b) MIG: a pod given two MIG instances cannot run (request_translator.h)
// unless its class runs one process per instance (multi_process).

#include <gtest/gtest.h>

#include <string>

#include "gpushare/metrics/collector.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace multi_gpu_sharing_test {
namespace {

using testing_scenarios::Jobs;
using testing_scenarios::OnePool;

SimulationResult RunIt(const Scenario& scenario) {
  return testing_scenarios::RunAndCollect(scenario);
}

// One 2-GPU DDP job (10000 MiB per rank, 100 s of work) on one node.
Scenario DdpOn(int gpus, SharingConfig sharing) {
  Scenario s = OnePool("A100-40GB", gpus, std::move(sharing));
  s.workload.classes.push_back(Jobs("ddp", 1, 2, 10000, 100));
  return s;
}

// One GPU x4 replicas: both replicas are GPU 0. The pod fails at 0 and at
// its restarts at 10, 30, 70, 150, 310 and 610 s (back-off 10, 20, 40, 80,
// 160, then 300 capped); the sixth restart's failure ends it: Failed at 610
// s, 6 restarts, no work done, no OOM kill and no fault counted.
TEST(MultiGpuSharingTest, TwoReplicasOfOneGpuCrashLoopThenFail) {
  const SimulationResult r = RunIt(DdpOn(1, TimeSlicingSharing(4)));
  ASSERT_EQ(r.pod_records.size(), 1u);
  const PodRecord& p = r.pod_records[0];
  EXPECT_EQ(p.outcome, PodOutcome::kFailed);
  EXPECT_EQ(p.restarts, 6);
  EXPECT_NEAR(p.end_s, 610, 1);
  EXPECT_EQ(p.oom_kills, 0);
  EXPECT_EQ(p.fault_kills, 0);
  EXPECT_EQ(r.succeeded, 0);
  EXPECT_EQ(p.message,
            "NCCL error: Duplicate GPU detected : rank 1 and rank 0 both on "
            "GPU 0 of p-0 (the device plugin gave the pod 2 replicas of it; "
            "its container sees the device once)");
}

// Two GPUs x4, `distributed` (the default): the first pick is GPU 0, then
// GPU 1 (1 allocated > 0): two GPUs, the job runs its 100 s alone.
TEST(MultiGpuSharingTest, DistributedPolicySpreadsTheRanks) {
  const SimulationResult r = RunIt(DdpOn(2, TimeSlicingSharing(4)));
  ASSERT_EQ(r.succeeded, 1);
  EXPECT_NEAR(r.pod_records[0].run_s, 100, 1e-6);
  EXPECT_EQ(r.pod_records[0].restarts, 0);
}

// Two GPUs x4, `packed`: both picks go to GPU 0 (the most allocated after
// the first): the ranks collide although GPU 1 is idle.
TEST(MultiGpuSharingTest, PackedPolicyStacksTheRanks) {
  SharingConfig packed = TimeSlicingSharing(4);
  packed.replicas.policy = ReplicaPolicy::kPacked;
  const SimulationResult r = RunIt(DdpOn(2, packed));
  ASSERT_EQ(r.pod_records.size(), 1u);
  EXPECT_EQ(r.pod_records[0].outcome, PodOutcome::kFailed);
  EXPECT_NE(r.pod_records[0].message.find("Duplicate GPU detected"),
            std::string::npos);
}

// failRequestsGreaterThanOne: kubelet's admission rejects the request of 2
// replicas at once (the README's UnexpectedAdmissionError): no restarts.
TEST(MultiGpuSharingTest, FailRequestsGreaterThanOneRejectsAtAdmission) {
  SharingConfig strict = TimeSlicingSharing(4);
  strict.replicas.fail_requests_greater_than_one = true;
  const SimulationResult r = RunIt(DdpOn(2, strict));
  ASSERT_EQ(r.pod_records.size(), 1u);
  const PodRecord& p = r.pod_records[0];
  EXPECT_EQ(p.outcome, PodOutcome::kAdmissionFailed);
  EXPECT_EQ(p.restarts, 0);
  EXPECT_NE(p.message.find("UnexpectedAdmissionError: maximum request size "
                           "for shared resources is 1; found "
                           "nvidia.com/gpu=2"),
            std::string::npos)
      << p.message;
}

// all-3g.20gb A100-40GB (two instances): a 2-GPU job cannot run — it is
// Unschedulable from its arrival with the reason — unless its class runs
// one process per instance; then it runs at the host-memory communication
// pace: 100 s x (1 + 0.1 x 9) = 190 s (docs/model.md §6.2, d = 0).
TEST(MultiGpuSharingTest, SeveralMigInstancesNeedMultiProcess) {
  Scenario s =
      OnePool("A100-40GB", 1, MigSharing(MigStrategy::kMixed, "all-3g.20gb"));
  WorkloadClassSpec c = Jobs("ddp", 1, 2, 15000, 100);
  c.sm_demand = Distribution::Constant(0);
  s.workload.classes.push_back(c);
  const SimulationResult r = RunIt(s);
  ASSERT_EQ(r.pod_records.size(), 1u);
  EXPECT_EQ(r.pod_records[0].outcome, PodOutcome::kUnschedulable);
  EXPECT_EQ(r.pod_records[0].message,
            "it asks for 2 MIG instances (nvidia.com/mig-3g.20gb) in one pod: "
            "a CUDA process sees only one MIG instance and instances have no "
            "peer-to-peer path, so its ranks cannot run together (a class "
            "whose pods run one process per instance says multi_process: "
            "true)");
  EXPECT_LT(r.pod_records[0].start_s, 0);

  s.workload.classes[0].multi_process = true;
  const SimulationResult ranks = RunIt(s);
  ASSERT_EQ(ranks.succeeded, 1);
  EXPECT_NEAR(ranks.pod_records[0].run_s, 190, 1e-6);
}

}  // namespace
}  // namespace multi_gpu_sharing_test
}  // namespace gpushare
