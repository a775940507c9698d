// Deferred wake-ups (deferred_wakes.cc): a departure that wakes several
// waiting shapes gives the outcomes, messages, cycle counts and waiting
// counts of immediate wakes; a failed retry whose message did not change
// says so (ScheduleResult::message_unchanged).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/sched/scheduler.h"
#include "gpushare/sched/test_scheduler_fixture.h"

namespace gpushare {
namespace scheduler_test {
namespace {

class DeferredWakesTest : public SchedulerTest {
 protected:
  // On a node of one GPU: pod 0 takes it; pods 1-3, three shapes (their
  // CPU requests differ), wait. Returns the four cycles.
  std::vector<ScheduleResult> FillAndQueueThreeShapes(Scheduler& scheduler) {
    NewPod({{"nvidia.com/gpu", 1}});
    for (int i = 1; i <= 3; ++i) {
      NewPod({{"nvidia.com/gpu", 1}})
          .requests.Set(ResourceRegistry::kCpuId, 1000 + i);
    }
    return Run(scheduler);
  }
};

TEST_F(DeferredWakesTest, RetriesAfterTheFirstFailWhereItsRoomWasTaken) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  const std::vector<ScheduleResult> first = FillAndQueueThreeShapes(scheduler);
  ASSERT_EQ(first.size(), 4u);
  EXPECT_EQ(first[0].outcome, Outcome::kBound);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(first[i].outcome, Outcome::kUnschedulable);
    EXPECT_FALSE(first[i].message_unchanged);
  }
  const int64_t cycles = scheduler.cycles();
  scheduler.Release(0);
  // All three are retried, as immediate wakes take them out of waiting.
  EXPECT_EQ(scheduler.WaitingCount(), 0);
  std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].pod, 1);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  for (int i = 1; i <= 2; ++i) {
    EXPECT_EQ(results[i].pod, i + 1);
    EXPECT_EQ(results[i].outcome, Outcome::kUnschedulable);
    EXPECT_EQ(results[i].message, first[i + 1].message);
    EXPECT_TRUE(results[i].message_unchanged);
  }
  EXPECT_EQ(scheduler.cycles(), cycles + 3);
  EXPECT_EQ(scheduler.WaitingCount(), 2);
  // The next departure: pod 2 binds, pod 3 fails again.
  scheduler.Release(1);
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].pod, 2);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].pod, 3);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(scheduler.cycles(), cycles + 5);
  EXPECT_EQ(scheduler.WaitingCount(), 1);
}

// A pod enqueued after the departure and before the cycles comes first by
// priority: the deferred wakes are taken as immediate ones would be, and
// all three retries fail.
TEST_F(DeferredWakesTest, AnEnqueueBetweenTheWakeAndItsCyclesKeepsTheOrder) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  FillAndQueueThreeShapes(scheduler);
  const int64_t cycles = scheduler.cycles();
  scheduler.Release(0);
  NewPod({{"nvidia.com/gpu", 1}}, /*priority=*/100);
  const std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[0].pod, 4);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_EQ(results[i].pod, i);
    EXPECT_EQ(results[i].outcome, Outcome::kUnschedulable);
  }
  EXPECT_EQ(scheduler.cycles(), cycles + 4);
  EXPECT_EQ(scheduler.WaitingCount(), 3);
}

// Two departures before the cycles: both nodes' room goes to the first two
// shapes, the third fails.
TEST_F(DeferredWakesTest, TwoDeparturesBeforeTheCycles) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 2, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  NewPod({{"nvidia.com/gpu", 1}});
  NewPod({{"nvidia.com/gpu", 1}});
  for (int i = 2; i <= 4; ++i) {
    NewPod({{"nvidia.com/gpu", 1}})
        .requests.Set(ResourceRegistry::kCpuId, 1000 + i);
  }
  Run(scheduler);
  ASSERT_EQ(scheduler.WaitingCount(), 3);
  scheduler.Release(0);
  scheduler.Release(1);
  const std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].outcome, Outcome::kBound);
  EXPECT_EQ(results[2].pod, 4);
  EXPECT_EQ(results[2].outcome, Outcome::kUnschedulable);
  EXPECT_EQ(scheduler.WaitingCount(), 1);
}

// Hundreds of shapes of one priority woken at once (the radix sort's
// case): their cycles come in arrival order, the first binds.
TEST_F(DeferredWakesTest, ManyWakesOfOnePriorityComeInArrivalOrder) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  constexpr int kShapes = 300;
  NewPod({{"nvidia.com/gpu", 1}});
  for (int i = 1; i <= kShapes; ++i) {
    NewPod({{"nvidia.com/gpu", 1}})
        .requests.Set(ResourceRegistry::kCpuId, 1000 + i);
  }
  Run(scheduler);
  ASSERT_EQ(scheduler.WaitingCount(), kShapes);
  // Shapes 100-199 leave the queue: the sleepers' slots are shuffled.
  for (int i = 100; i < 200; ++i) scheduler.Forget(i);
  scheduler.Release(0);
  const std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), static_cast<size_t>(kShapes - 100));
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  int previous = 0;
  for (const ScheduleResult& r : results) {
    EXPECT_GT(r.pod, previous);
    EXPECT_FALSE(r.pod >= 100 && r.pod < 200);
    previous = r.pod;
  }
  EXPECT_EQ(results.back().pod, kShapes);
}

// A caller that keeps each pod's last message gets an unchanged one empty.
TEST_F(DeferredWakesTest, OmitsUnchangedMessagesWhenAsked) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 1, ExclusiveSharing()));
  Scheduler scheduler(cluster_, Profile());
  scheduler.OmitUnchangedMessages();
  const std::vector<ScheduleResult> first = FillAndQueueThreeShapes(scheduler);
  ASSERT_EQ(first.size(), 4u);
  for (int i = 1; i <= 3; ++i) {
    EXPECT_FALSE(first[i].message_unchanged);
    EXPECT_NE(first[i].message, "");
  }
  scheduler.Release(0);
  const std::vector<ScheduleResult> results = Run(scheduler);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  for (int i = 1; i <= 2; ++i) {
    EXPECT_EQ(results[i].outcome, Outcome::kUnschedulable);
    EXPECT_TRUE(results[i].message_unchanged);
    EXPECT_EQ(results[i].message, "");
  }
}

// A higher-priority twin that joins a sleeping group becomes its first pod:
// the departure's wakes are taken in the order of the groups' first pods
// now (pod 3 of the second shape before pod 1 of the first), not of when
// the groups fell asleep.
TEST_F(DeferredWakesTest, ASleepingGroupsNewFirstPodSetsTheWakeOrder) {
  cluster_.AddPool(Pool("p", "A100-80GB", 1, 1, ExclusiveSharing()));
  SchedulerProfile profile = Profile();
  profile.post_filters.clear();  // pod 3 waits rather than preempt
  Scheduler scheduler(cluster_, profile);
  NewPod({{"nvidia.com/gpu", 1}});
  NewPod({{"nvidia.com/gpu", 1}}).requests.Set(ResourceRegistry::kCpuId, 1001);
  NewPod({{"nvidia.com/gpu", 1}}).requests.Set(ResourceRegistry::kCpuId, 1002);
  Run(scheduler);
  ASSERT_EQ(scheduler.WaitingCount(), 2);
  NewPod({{"nvidia.com/gpu", 1}}, /*priority=*/100)
      .requests.Set(ResourceRegistry::kCpuId, 1002);
  // (It cannot fit where its twin failed: it waits without a cycle run.)
  std::vector<ScheduleResult> results = Run(scheduler);
  EXPECT_TRUE(results.empty());
  ASSERT_EQ(scheduler.WaitingCount(), 3);
  scheduler.Release(0);
  results = Run(scheduler);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].pod, 3);
  EXPECT_EQ(results[0].outcome, Outcome::kBound);
  EXPECT_EQ(results[1].pod, 1);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
}

}  // namespace
}  // namespace scheduler_test
}  // namespace gpushare
