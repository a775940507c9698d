// DefaultPreemption: victim selection and node choice as kube-scheduler's
// preemption package does them, alone and inside the scheduler's cycle.

#include "gpushare/sched/default_preemption.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {
namespace default_preemption_test {
namespace {

// A node of `capacity` units; pods hold `units[id]`.
class UnitsDryRun : public PreemptionDryRun {
 public:
  UnitsDryRun(int capacity, std::vector<int> units, int need)
      : units_(std::move(units)), need_(need) {
    free_ = capacity;
    for (int u : units_) free_ -= u;
  }
  void Remove(const PreemptionVictim& v) override { free_ += units_[v.id]; }
  void AddBack(const PreemptionVictim& v) override { free_ -= units_[v.id]; }
  bool PreemptorFits() override { return free_ >= need_; }
  int free() const { return free_; }

 private:
  std::vector<int> units_;
  int need_;
  int free_ = 0;
};

TEST(SelectVictimsOnNode, ReprievesTheMostImportantFirst) {
  // A (priority 0, 2 units, oldest), B (5, 1 unit), C (0, 1 unit, newest)
  // on a full node of 4; the preemptor (10) needs 2. Reprieve order B, A,
  // C: B back leaves 3 free (stays), A back leaves 1 (victim), C back
  // leaves 2 (stays).
  UnitsDryRun dry_run(4, {2, 1, 1}, 2);
  const std::vector<PreemptionVictim> pods = {{0, 0, 1}, {1, 5, 2}, {2, 0, 3}};
  std::vector<PreemptionVictim> victims;
  std::vector<PreemptionVictim> scratch;
  ASSERT_TRUE(SelectVictimsOnNode(10, pods, dry_run, &victims, &scratch));
  ASSERT_EQ(victims.size(), 1u);
  EXPECT_EQ(victims[0].id, 0);
  EXPECT_EQ(dry_run.free(), 0);  // the node as it was
}

TEST(SelectVictimsOnNode, OnlyLowerPrioritiesAndOnlyWhenEnough) {
  UnitsDryRun dry_run(4, {2, 2}, 3);
  // B has the preemptor's priority: it is not a potential victim, and A
  // alone frees 2 < 3.
  std::vector<PreemptionVictim> victims;
  std::vector<PreemptionVictim> scratch;
  EXPECT_FALSE(SelectVictimsOnNode(10, {{0, 0, 1}, {1, 10, 2}}, dry_run,
                                   &victims, &scratch));
  EXPECT_TRUE(victims.empty());
  EXPECT_EQ(dry_run.free(), 0);
  // Both lower: both go.
  ASSERT_TRUE(SelectVictimsOnNode(10, {{0, 0, 1}, {1, 9, 2}}, dry_run, &victims,
                                  &scratch));
  EXPECT_EQ(victims.size(), 2u);
  EXPECT_EQ(victims[0].id, 1);  // most important first
  EXPECT_EQ(dry_run.free(), 0);
}

int Pick(std::vector<PreemptionCandidate> candidates) {
  return PickCandidate(candidates);
}

TEST(PickCandidate, FollowsPickOneNodeForPreemption) {
  using C = PreemptionCandidate;
  // (1) the lowest highest-victim priority.
  EXPECT_EQ(Pick({C{0, {{1, 5, 1}}}, C{1, {{2, 3, 1}, {3, 1, 2}}}}), 1);
  // (2) then the lowest sum of priorities.
  EXPECT_EQ(Pick({C{0, {{1, 3, 1}, {2, 2, 2}}}, C{1, {{3, 3, 1}, {4, 1, 2}}}}),
            1);
  // Negative priorities add up as kube's shifted sums do.
  EXPECT_EQ(Pick({C{0, {{1, -5, 1}, {2, -5, 2}}}, C{1, {{3, -5, 1}}}}), 1);
  // (3) then the fewest victims.
  EXPECT_EQ(Pick({C{0, {{1, 0, 1}, {2, 0, 2}}},
                  C{1, {{3, 0, 1}, {4, 0, 2}, {5, 0, 3}}}}),
            0);
  // (4) then the latest start of the most important victims.
  EXPECT_EQ(Pick({C{0, {{1, 0, 7}}}, C{1, {{2, 0, 9}}}}), 1);
  // (5) then the first; and a node needing no eviction at once.
  EXPECT_EQ(Pick({C{0, {{1, 0, 7}}}, C{1, {{2, 0, 7}}}}), 0);
  EXPECT_EQ(Pick({C{0, {{1, 0, 7}}}, C{1, {}}}), 1);
}

TEST(NumPreemptionCandidates, TenPercentAtLeastAHundred) {
  EXPECT_EQ(NumPreemptionCandidates(1000, 10, 100), 100);
  EXPECT_EQ(NumPreemptionCandidates(5000, 10, 100), 500);
  EXPECT_EQ(NumPreemptionCandidates(50, 10, 100), 50);
  EXPECT_EQ(NumPreemptionCandidates(50, 100, 0), 50);
}

using Outcome = ScheduleResult::Outcome;

class PreemptionTest : public ::testing::Test {
 protected:
  void AddPool(const char* name, const char* model, int nodes, int gpus,
               SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = name;
    spec.gpu_model = model;
    spec.nodes = nodes;
    spec.gpus_per_node = gpus;
    spec.cpu_milli = 64000;
    spec.memory_mib = 512 * 1024;
    spec.sharing = std::move(sharing);
    cluster_.AddPool(spec);
  }
  Pod& NewPod(const std::string& resource, int32_t priority) {
    Pod& pod = pods_.emplace_back();
    pod.name = "pod-" + std::to_string(pods_.size() - 1);
    pod.priority = priority;
    pod.requests.Set(ResourceRegistry::kCpuId, 1000);
    pod.requests.Set(ResourceRegistry::kMemoryId, 1024);
    pod.requests.Set(cluster_.resources().Intern(resource), 1);
    return pod;
  }
  SchedulerProfile Profile() {
    SchedulerProfile profile;
    profile.check_invariants = true;
    profile.tie_break = TieBreak::kLowestName;
    return profile;
  }
  // Enqueues the pods not yet enqueued, runs every cycle, returns the last.
  ScheduleResult RunAll(Scheduler& scheduler) {
    for (; enqueued_ < pods_.size(); ++enqueued_) {
      scheduler.Enqueue(static_cast<PodId>(enqueued_), pods_[enqueued_]);
    }
    ScheduleResult last;
    while (scheduler.HasActive()) last = scheduler.ScheduleOne();
    return last;
  }

  Cluster cluster_{Catalog::Builtin()};
  std::deque<Pod> pods_;
  size_t enqueued_ = 0;
};

// A high-priority pod on a full MIG GPU evicts the lowest-priority holder of
// the profile it needs, and only it; the instance it frees is the one the
// preemptor then gets.
TEST_F(PreemptionTest, MigVictimFreesExactlyItsInstance) {
  AddPool("prod", "H100-80GB", 1, 1,
          MigSharing(MigStrategy::kMixed, "all-balanced"));
  Scheduler scheduler(cluster_, Profile());
  NewPod("nvidia.com/mig-1g.10gb", 5);  // 0
  NewPod("nvidia.com/mig-1g.10gb", 0);  // 1: the least important
  NewPod("nvidia.com/mig-3g.40gb", 0);  // 2: other profile, untouched
  RunAll(scheduler);
  ASSERT_TRUE(scheduler.IsBound(1));
  const DeviceGrant freed = scheduler.AllocationOf(1).grants[0];
  NewPod("nvidia.com/mig-1g.10gb", 100);  // 3
  ScheduleResult r = RunAll(scheduler);
  EXPECT_EQ(r.pod, 3);
  EXPECT_EQ(r.outcome, Outcome::kUnschedulable);
  EXPECT_EQ(r.victims, std::vector<PodId>{1});
  EXPECT_EQ(r.nominated_node, 0);
  EXPECT_TRUE(scheduler.IsTerminating(1));
  EXPECT_FALSE(scheduler.IsTerminating(2));
  EXPECT_EQ(scheduler.preemptions(), 1);
  // Its grace period over, the victim goes; the preemptor takes the very
  // instance.
  scheduler.Release(1);
  r = RunAll(scheduler);
  EXPECT_EQ(r.pod, 3);
  ASSERT_EQ(r.outcome, Outcome::kBound);
  EXPECT_EQ(scheduler.AllocationOf(3).grants[0], freed);
  EXPECT_TRUE(scheduler.IsBound(0));
  EXPECT_TRUE(scheduler.IsBound(2));
}

TEST_F(PreemptionTest, WithoutThePostFilterNothingIsEvicted) {
  AddPool("train", "A100-80GB", 1, 1, ExclusiveSharing());
  SchedulerProfile off = Profile();
  off.post_filters.clear();
  Scheduler scheduler(cluster_, off);
  NewPod("nvidia.com/gpu", 0);
  NewPod("nvidia.com/gpu", 100);
  const ScheduleResult r = RunAll(scheduler);
  EXPECT_EQ(r.outcome, Outcome::kUnschedulable);
  EXPECT_TRUE(r.victims.empty());
}

TEST_F(PreemptionTest, NeverPolicyAndEqualPriorityDoNotEvict) {
  AddPool("train", "A100-80GB", 1, 1, ExclusiveSharing());
  Scheduler scheduler(cluster_, Profile());
  NewPod("nvidia.com/gpu", 50);
  NewPod("nvidia.com/gpu", 50);  // equal: no eviction
  EXPECT_TRUE(RunAll(scheduler).victims.empty());
  Pod& never = NewPod("nvidia.com/gpu", 100);
  never.preemption_policy = PreemptionPolicy::kNever;
  // Its twin waits and it could not preempt: it waits without a cycle.
  EXPECT_TRUE(RunAll(scheduler).victims.empty());
  EXPECT_FALSE(scheduler.IsBound(2));
  EXPECT_EQ(scheduler.WaitingCount(), 2);
  EXPECT_EQ(scheduler.preemptions(), 0);
}

// Two nodes alike, one low-priority pod on each: the one that started last
// goes (criterion 4). A second preemptor skips the node whose victim still
// terminates and takes the other.
TEST_F(PreemptionTest, LatestStartFirstAndTerminatingNodesSkipped) {
  AddPool("train", "A100-80GB", 2, 1, ExclusiveSharing());
  Scheduler scheduler(cluster_, Profile());
  NewPod("nvidia.com/gpu", 0);  // 0: node 0, started first
  NewPod("nvidia.com/gpu", 0);  // 1: node 1
  RunAll(scheduler);
  ASSERT_EQ(scheduler.NodeOf(0), 0);
  ASSERT_EQ(scheduler.NodeOf(1), 1);
  NewPod("nvidia.com/gpu", 10);  // 2
  ScheduleResult r = RunAll(scheduler);
  EXPECT_EQ(r.victims, std::vector<PodId>{1});
  EXPECT_EQ(r.nominated_node, 1);
  NewPod("nvidia.com/gpu", 10);  // 3
  r = RunAll(scheduler);
  EXPECT_EQ(r.victims, std::vector<PodId>{0});
  EXPECT_EQ(r.nominated_node, 0);
  // A third finds both nodes busy with terminating victims.
  NewPod("nvidia.com/gpu", 10);  // 4
  r = RunAll(scheduler);
  EXPECT_TRUE(r.victims.empty());
  EXPECT_EQ(scheduler.preemptions(), 2);
  scheduler.Release(0);
  scheduler.Release(1);
  RunAll(scheduler);
  EXPECT_TRUE(scheduler.IsBound(2));
  EXPECT_TRUE(scheduler.IsBound(3));
  EXPECT_FALSE(scheduler.IsBound(4));
}

}  // namespace
}  // namespace default_preemption_test
}  // namespace gpushare
