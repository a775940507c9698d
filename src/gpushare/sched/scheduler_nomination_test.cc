// Nominated pods and a gang's preemption, by hand (docs/model.md §4.1):
// the room a preemptor's victims free is held for it against pods of equal
// or lower priority until it binds; a pod of higher priority may take it;
// a gang preempts only when every missing member finds room.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/sched/scheduler.h"
#include "gpushare/sched/test_scheduler_fixture.h"

namespace gpushare {
namespace scheduler_test {
namespace {

// Node 0 has two GPUs held by low-priority pods 0 and 1; pod 2 (priority
// 100, two GPUs) evicts both and is nominated there. While the victims
// terminate, and after the first is gone, a low-priority pod asking for
// one GPU does not fit (two GPUs are promised to pod 2: kube's
// NodeResourcesFit with the nominated pod added counts 1 + 2 + 1 > 2); once
// the second victim is gone pod 2 is retried at once and binds there.
TEST_F(SchedulerTest, NominatedRoomIsHeldUntilThePreemptorBinds) {
  cluster_.AddPool(Pool("train", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});
  NewPod({{"nvidia.com/gpu", 1}});
  ASSERT_EQ(Run(scheduler).size(), 2u);
  NewPod({{"nvidia.com/gpu", 2}}, 100);
  std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[0].nominated_node, 0);
  EXPECT_EQ(results[0].victims, (std::vector<PodId>{0, 1}));
  EXPECT_EQ(results[0].victim_preemptors, (std::vector<PodId>{2, 2}));
  EXPECT_EQ(scheduler.NominatedNodeOf(2), 0);
  EXPECT_EQ(scheduler.NominatedPodsOn(0), (std::vector<PodId>{2}));

  scheduler.Release(0);  // the first victim's grace period is over
  EXPECT_FALSE(scheduler.HasActive());  // pod 2 waits for its last victim
  NewPod({{"nvidia.com/gpu", 1}});      // pod 3, priority 0
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[0].message,
            "0/1 nodes are available: 1 Insufficient nvidia.com/gpu.");
  EXPECT_TRUE(results[0].victims.empty());  // nothing below priority 0

  scheduler.Release(1);
  results = Run(scheduler);
  ASSERT_GE(results.size(), 1u);
  EXPECT_EQ(results[0].pod, 2);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[0].node, 0);
  EXPECT_EQ(scheduler.NominatedNodeOf(2), -1);
  EXPECT_TRUE(scheduler.NominatedPodsOn(0).empty());
  EXPECT_FALSE(scheduler.IsBound(3));
  EXPECT_EQ(scheduler.preemptions(), 2);
}

// A pod of higher priority than the nominated one is not held back: it
// takes the room; the nominated pod, retried when its victim is gone, finds
// none and preempts again (the newcomer outranks it: nothing to evict), so
// its nomination is cleared and it waits.
TEST_F(SchedulerTest, HigherPriorityTakesNominatedRoom) {
  cluster_.AddPool(Pool("train", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});  // pod 0, priority 0
  NewPod({{"nvidia.com/gpu", 1}});  // pod 1, priority 0
  ASSERT_EQ(Run(scheduler).size(), 2u);
  NewPod({{"nvidia.com/gpu", 1}}, 100);  // pod 2 evicts one of them
  std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  ASSERT_EQ(results[0].victims.size(), 1u);
  const PodId victim = results[0].victims[0];
  NewPod({{"nvidia.com/gpu", 1}}, 200);  // pod 3, above the nominee
  scheduler.Release(victim);
  results = Run(scheduler);
  // Both are retried on the freed GPU; pod 3 comes first in the queue.
  ASSERT_GE(results.size(), 2u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].pod, 2);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
  // It preempted the other priority-0 pod instead.
  ASSERT_EQ(results[1].victims.size(), 1u);
  EXPECT_EQ(results[1].victims[0], victim == 0 ? 1 : 0);
  EXPECT_EQ(scheduler.NominatedNodeOf(2), 0);
}

// A pod nominated to a node loses its nomination when it is deleted: the
// room goes back to the others at once.
TEST_F(SchedulerTest, ForgettingANominatedPodGivesItsRoomBack) {
  cluster_.AddPool(Pool("train", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});  // pod 0
  NewPod({{"nvidia.com/gpu", 1}});  // pod 1
  ASSERT_EQ(Run(scheduler).size(), 2u);
  NewPod({{"nvidia.com/gpu", 2}}, 100);  // pod 2 evicts 0 and 1
  ASSERT_EQ(Run(scheduler)[0].victims.size(), 2u);
  scheduler.Release(0);
  NewPod({{"nvidia.com/gpu", 1}});  // pod 3 cannot take the held GPU
  ASSERT_EQ(Run(scheduler)[0].outcome, Outcome::kUnschedulable);
  scheduler.Forget(2);
  const std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
}

// A PodGroup of two one-GPU pods (minMember 2, priority 100) on two
// one-GPU nodes: one runs a priority-0 pod, the other a priority-300 one.
// Only one member could find room, so nobody is evicted (a member alone
// would hold its GPU idle at Permit). Once the priority-300 pod is gone,
// the first member binds on its node and its sibling, moved to the active queue
// (Coscheduling's ActivateSiblings), evicts the priority-0 pod for the one
// member still missing.
TEST_F(SchedulerTest, GangPreemptsOnlyWhenEveryMemberFits) {
  cluster_.AddPool(Pool("train", "A100-80GB", 2, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}}, 0);    // pod 0
  NewPod({{"nvidia.com/gpu", 1}}, 300);  // pod 1, on the other node
  ASSERT_EQ(Run(scheduler).size(), 2u);
  const int low_node = scheduler.NodeOf(0);
  const int high_node = scheduler.NodeOf(1);
  ASSERT_NE(low_node, high_node);
  for (int k = 0; k < 2; ++k) {
    Pod& member = NewPod({{"nvidia.com/gpu", 1}}, 100);  // pods 2, 3
    member.pod_group = "ddp-0";
    member.gang_min_member = 2;
  }
  std::vector<ScheduleResult> results = Run(scheduler);
  for (const ScheduleResult& r : results) {
    EXPECT_EQ(r.outcome, Outcome::kUnschedulable);
    EXPECT_TRUE(r.victims.empty());
  }
  EXPECT_EQ(scheduler.preemptions(), 0);
  EXPECT_EQ(scheduler.NominatedNodeOf(2), -1);
  EXPECT_EQ(scheduler.NominatedNodeOf(3), -1);

  scheduler.Release(1);  // the priority-300 pod ends
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[0].node, high_node);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(results[1].victims, (std::vector<PodId>{0}));
  EXPECT_EQ(results[1].nominated_node, low_node);
  EXPECT_EQ(scheduler.preemptions(), 1);
}

// Two members each need a whole two-GPU node; both nodes run priority-0
// pods. One failed cycle evicts for both members at once, each nominated
// to its node, and every victim names its member as preemptor.
TEST_F(SchedulerTest, GangPreemptsForEveryMissingMemberAtOnce) {
  cluster_.AddPool(Pool("train", "A100-80GB", 2, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  for (int i = 0; i < 4; ++i) NewPod({{"nvidia.com/gpu", 1}});  // pods 0-3
  ASSERT_EQ(Run(scheduler).size(), 4u);
  for (int k = 0; k < 2; ++k) {
    Pod& member = NewPod({{"nvidia.com/gpu", 2}}, 100);  // pods 4, 5
    member.pod_group = "ddp-0";
    member.gang_min_member = 2;
  }
  std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_GE(results.size(), 1u);
  EXPECT_EQ(results[0].pod, 4);
  EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
  ASSERT_EQ(results[0].victims.size(), 4u);
  EXPECT_EQ(scheduler.preemptions(), 4);
  const int node4 = scheduler.NominatedNodeOf(4);
  const int node5 = scheduler.NominatedNodeOf(5);
  ASSERT_GE(node4, 0);
  ASSERT_GE(node5, 0);
  EXPECT_NE(node4, node5);
  for (size_t k = 0; k < results[0].victims.size(); ++k) {
    const PodId v = results[0].victims[k];
    EXPECT_EQ(scheduler.NodeOf(v),
              results[0].victim_preemptors[k] == 4 ? node4 : node5);
  }
  // Every victim gone: both members bind on their nominated nodes.
  for (PodId v = 0; v < 4; ++v) scheduler.Release(v);
  results = Run(scheduler);
  EXPECT_TRUE(scheduler.IsBound(4));
  EXPECT_TRUE(scheduler.IsBound(5));
  EXPECT_EQ(scheduler.NodeOf(4), node4);
  EXPECT_EQ(scheduler.NodeOf(5), node5);
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
