// Shared ResourceClaims through the scheduler (scheduler.h, "Shared
// ResourceClaims"), hand-computed on a DRA pool of two nodes with one GPU
// each (64 CPUs per node).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/sched/test_scheduler_fixture.h"

namespace gpushare {
namespace scheduler_test {
namespace {

class SchedulerClaimsTest : public SchedulerTest {
 protected:
  void AddDraPool(int nodes, int gpus, int max_pods = kDefaultMaxPods) {
    NodePoolSpec spec = Pool("d", "A100-80GB", nodes, gpus, SharingConfig());
    spec.devices = PoolDevices::kDra;
    spec.max_pods = max_pods;
    cluster_.AddPool(spec);
  }
  // A pod of claim `claim` ("" : a claim of its own) asking one GPU of
  // gpu.nvidia.com and `cpu_milli`.
  Pod& ClaimPod(const std::string& claim, int64_t cpu_milli) {
    Pod& pod = NewPod({{DraClassResourceName("gpu.nvidia.com"), 1}});
    pod.requests.Set(ResourceRegistry::kCpuId, cpu_milli);
    pod.dra_claim = claim;
    return pod;
  }
  int64_t DraRequested(int node) {
    return cluster_.nodes()[node].Requested(cluster_.resources().Find(
        DraClassResourceName("gpu.nvidia.com")));
  }
};

// The claim's second pod joins the first on d-0 although d-1 is empty; a
// third finds no CPU there and waits ("resourceclaim not available on the
// node" on d-1); another claim takes d-1's GPU; a fifth finds no GPU (the
// claim's devices are counted once on d-0). When
// the first pod ends the third takes its room on the claim's GPU; when the
// last of the claim's pods ends the claim is deallocated and the fifth gets
// that GPU.
TEST_F(SchedulerClaimsTest, SharedClaimPinsItsPodsAndFreesItsGpuAtTheEnd) {
  AddDraPool(2, 1);
  Scheduler scheduler(cluster_, Profile());
  ClaimPod("c", 30000);  // 0
  ClaimPod("c", 30000);  // 1
  ClaimPod("c", 30000);  // 2
  ClaimPod("d", 1000);   // 3
  ClaimPod("", 1000);    // 4: a claim of its own
  const std::vector<ScheduleResult> r = Run(scheduler);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0].outcome, Outcome::kBound);
  EXPECT_EQ(r[0].node, 0);
  EXPECT_EQ(r[1].outcome, Outcome::kBound);
  EXPECT_EQ(r[1].node, 0);
  EXPECT_EQ(scheduler.AllocationOf(1).grants, scheduler.AllocationOf(0).grants);
  ASSERT_EQ(scheduler.AllocationOf(1).grants.size(), 1u);
  EXPECT_EQ(DraRequested(0), 1);  // the claim's device, counted once
  EXPECT_EQ(cluster_.nodes()[0].pod_count(), 2);
  EXPECT_EQ(r[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(r[2].message,
            "0/2 nodes are available: 1 Insufficient cpu, 1 resourceclaim not "
            "available on the node.");
  EXPECT_EQ(r[3].outcome, Outcome::kBound);
  EXPECT_EQ(r[3].node, 1);
  EXPECT_EQ(r[4].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(r[4].message,
            "0/2 nodes are available: 2 Insufficient "
            "deviceclass.resource.kubernetes.io/gpu.nvidia.com.");

  // Pod 0 ends: the claim stays allocated (pod 1 holds it); pod 2 fits d-0.
  scheduler.Release(0);
  EXPECT_EQ(DraRequested(0), 1);
  std::vector<ScheduleResult> more;
  while (scheduler.HasActive()) more.push_back(scheduler.ScheduleOne());
  ASSERT_EQ(more.size(), 1u);
  EXPECT_EQ(more[0].pod, 2);
  EXPECT_EQ(more[0].outcome, Outcome::kBound);
  EXPECT_EQ(more[0].node, 0);
  EXPECT_EQ(scheduler.AllocationOf(2).grants, scheduler.AllocationOf(1).grants);

  // Pods 1 and 2 end: the claim is deallocated, its GPU goes to pod 4.
  scheduler.Release(1);
  EXPECT_FALSE(scheduler.HasActive());
  EXPECT_EQ(DraRequested(0), 1);
  scheduler.Release(2);
  EXPECT_EQ(DraRequested(0), 0);
  ASSERT_TRUE(scheduler.HasActive());
  const ScheduleResult last = scheduler.ScheduleOne();
  EXPECT_EQ(last.pod, 4);
  EXPECT_EQ(last.outcome, Outcome::kBound);
  EXPECT_EQ(last.node, 0);
  EXPECT_EQ(DraRequested(0), 1);
}

// A claim reserved for 256 pods refuses the 257th in PreFilter
// ("resourceclaim in use", no node tried); when one of them ends it binds.
TEST_F(SchedulerClaimsTest, ReservedForHoldsAtMost256Pods) {
  AddDraPool(1, 1, /*max_pods=*/300);
  Scheduler scheduler(cluster_, Profile());
  for (size_t i = 0; i <= kResourceClaimReservedForMaxSize; ++i) {
    ClaimPod("big", 10);
  }
  const std::vector<ScheduleResult> r = Run(scheduler);
  ASSERT_EQ(r.size(), kResourceClaimReservedForMaxSize + 1);
  for (size_t i = 0; i < kResourceClaimReservedForMaxSize; ++i) {
    ASSERT_EQ(r[i].outcome, Outcome::kBound) << i;
  }
  EXPECT_EQ(r.back().outcome, Outcome::kUnschedulable);
  EXPECT_EQ(r.back().message, "0/1 nodes are available: resourceclaim in use.");
  EXPECT_EQ(DraRequested(0), 1);
  scheduler.Release(7);
  ASSERT_TRUE(scheduler.HasActive());
  const ScheduleResult again = scheduler.ScheduleOne();
  EXPECT_EQ(again.pod, static_cast<PodId>(kResourceClaimReservedForMaxSize));
  EXPECT_EQ(again.outcome, Outcome::kBound);
}

// A pod pinned by its claim does not wait with the unpinned pods of the same
// requests: when d-0's claim pods and a template pod all wait, the GPU freed
// on d-1 goes to the template pod, not to a pod of the claim on d-0.
TEST_F(SchedulerClaimsTest, PinnedPodsDoNotShareAGroupWithUnpinnedOnes) {
  AddDraPool(2, 1);
  Scheduler scheduler(cluster_, Profile());
  ClaimPod("c", 60000);  // 0: d-0
  ClaimPod("", 60000);   // 1: d-1
  ClaimPod("c", 60000);  // 2: pinned to d-0, no CPU there
  ClaimPod("", 60000);   // 3: no GPU
  const std::vector<ScheduleResult> r = Run(scheduler);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].node, 0);
  EXPECT_EQ(r[1].node, 1);
  EXPECT_EQ(r[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(r[2].message,
            "0/2 nodes are available: 1 Insufficient cpu, 1 resourceclaim not "
            "available on the node.");
  EXPECT_EQ(r[3].outcome, Outcome::kUnschedulable);
  scheduler.Release(1);
  std::vector<ScheduleResult> more;
  while (scheduler.HasActive()) more.push_back(scheduler.ScheduleOne());
  ASSERT_FALSE(more.empty());
  EXPECT_EQ(more.back().pod, 3);
  EXPECT_EQ(more.back().outcome, Outcome::kBound);
  EXPECT_EQ(more.back().node, 1);
  for (const ScheduleResult& m : more) {
    if (m.pod == 2) {
      EXPECT_EQ(m.outcome, Outcome::kUnschedulable);
    }
  }
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
