// Hand-computed Kueue admissions: quota, borrowing then reclaim, FIFO
// strategies, preemption within a queue, flavors in order.

#include "gpushare/sched/kueue/kueue.h"

#include <gtest/gtest.h>

#include <optional>

namespace gpushare {
namespace kueue_test {
namespace {

using State = Kueue::State;

ClusterQueueSpec Team(const std::string& name, int64_t gpus,
                      const std::string& cohort = "org") {
  ClusterQueueSpec q;
  q.name = name;
  q.cohort = cohort;
  ResourceGroupSpec g;
  g.covered_resources = {"nvidia.com/gpu"};
  g.flavors.push_back({"h100", {{"nvidia.com/gpu", gpus, {}, {}}}});
  q.resource_groups.push_back(g);
  return q;
}

KueueConfig Config(std::vector<ClusterQueueSpec> queues) {
  KueueConfig c;
  c.resource_flavors = {{"h100", {{"gpu", "h100"}}}, {"a100", {}}};
  c.cluster_queues = std::move(queues);
  return c;
}

class KueueTest : public testing::Test {
 protected:
  void Make(const KueueConfig& config) { kueue_.emplace(config, registry_); }
  int Add(int queue, int64_t gpus, int32_t priority = 0, double t = 0) {
    KueueWorkloadSpec s;
    s.queue = queue;
    s.priority = priority;
    s.creation_s = t;
    s.requests.Set(registry_.Intern("nvidia.com/gpu"), gpus);
    s.flavor_ok = {true, true};
    return kueue_->Add(s);
  }
  Kueue::Decisions Run(double now = 0) {
    Kueue::Decisions d;
    kueue_->Schedule(now, &d);
    return d;
  }
  ResourceRegistry registry_;
  std::optional<Kueue> kueue_;
};

TEST_F(KueueTest, AdmitsWithinQuotaAndGivesTheFlavorsLabels) {
  Make(Config({Team("a", 8, "")}));
  const int w0 = Add(0, 6);
  const int w1 = Add(0, 4);
  const Kueue::Decisions d = Run();
  ASSERT_EQ(d.admitted, std::vector<int>{w0});
  EXPECT_EQ(kueue_->node_labels(w0).at("gpu"), "h100");
  EXPECT_EQ(kueue_->state(w1), State::kInadmissible);
  EXPECT_EQ(kueue_->message(w1),
            "couldn't assign flavors: insufficient unused quota for "
            "nvidia.com/gpu in flavor h100, 2 more needed");
  kueue_->Finished(w0);
  EXPECT_EQ(Run().admitted, std::vector<int>{w1});
}

// Team a borrows b's idle 8; b's workload then reclaims them.
TEST_F(KueueTest, BorrowThenReclaim) {
  ClusterQueueSpec b = Team("b", 8);
  b.reclaim_within_cohort = KueuePreemptionPolicy::kAny;
  Make(Config({Team("a", 8), b}));
  const int a0 = Add(0, 8, 0, 0);
  const int a1 = Add(0, 4, 0, 1);
  const int a2 = Add(0, 4, 0, 2);
  Kueue::Decisions d = Run();
  EXPECT_EQ(d.admitted.size(), 3u);
  EXPECT_FALSE(kueue_->borrowed(a0));
  EXPECT_TRUE(kueue_->borrowed(a2));
  EXPECT_EQ(kueue_->book().Borrowed(0, 0), 8);
  const int b0 = Add(1, 4, 0, 10);
  d = Run(10);
  // The most recently admitted of a's borrowing workloads goes (a2, then
  // put back: one of 4 is enough), b0 waits for it.
  ASSERT_EQ(d.evictions.size(), 1u);
  EXPECT_EQ(d.evictions[0].victim, a2);
  EXPECT_EQ(d.evictions[0].preemptor, b0);
  EXPECT_EQ(d.evictions[0].reason, "InCohortReclamation");
  EXPECT_TRUE(d.admitted.empty());
  EXPECT_EQ(kueue_->state(b0), State::kPending);
  kueue_->EvictionDone(a2, -1);
  d = Run(20);
  EXPECT_EQ(d.admitted, std::vector<int>{b0});
  EXPECT_EQ(kueue_->state(a2), State::kInadmissible);
  EXPECT_EQ(kueue_->state(a1), State::kAdmitted);
}

TEST_F(KueueTest, NoReclaimWithoutThePolicy) {
  Make(Config({Team("a", 8), Team("b", 8)}));
  Add(0, 16);
  Run();
  const int b0 = Add(1, 4);
  const Kueue::Decisions d = Run();
  EXPECT_TRUE(d.evictions.empty());
  EXPECT_EQ(kueue_->state(b0), State::kInadmissible);
}

TEST_F(KueueTest, StrictFifoHeadBlocksItsQueue) {
  ClusterQueueSpec strict = Team("a", 8, "");
  strict.queueing_strategy = QueueingStrategy::kStrictFifo;
  Make(Config({strict}));
  Add(0, 6, 0, 0);
  const int big = Add(0, 4, 0, 1);
  const int small = Add(0, 2, 0, 2);
  Run();
  EXPECT_EQ(kueue_->state(big), State::kPending);
  EXPECT_EQ(kueue_->state(small), State::kPending);
  // BestEffortFIFO lets the small one past.
  Make(Config({Team("a", 8, "")}));
  Add(0, 6, 0, 0);
  Add(0, 4, 0, 1);
  const int passes = Add(0, 2, 0, 2);
  Run();
  EXPECT_EQ(kueue_->state(passes), State::kAdmitted);
}

TEST_F(KueueTest, HigherPriorityFirstAndPreemptsWithinItsQueue) {
  ClusterQueueSpec q = Team("a", 8, "");
  q.within_cluster_queue = KueuePreemptionPolicy::kLowerPriority;
  Make(Config({q}));
  const int low0 = Add(0, 4, 0, 0);
  const int low1 = Add(0, 4, 0, 1);
  Run();
  const int high = Add(0, 4, 100, 2);
  const int same = Add(0, 4, 0, 3);
  Kueue::Decisions d = Run(2);
  ASSERT_EQ(d.evictions.size(), 1u);
  EXPECT_EQ(d.evictions[0].victim, low1);  // admitted later
  EXPECT_EQ(d.evictions[0].reason, "InClusterQueue");
  // Its queue waits for the victim (the equal-priority one is not tried).
  EXPECT_EQ(kueue_->state(same), State::kPending);
  kueue_->EvictionDone(low1, -1);
  d = Run(3);
  EXPECT_EQ(d.admitted, std::vector<int>{high});
  EXPECT_EQ(kueue_->state(low0), State::kAdmitted);
}

// Under StrictFIFO a blocked head does not stop a new, higher-priority
// workload that now heads the queue.
TEST_F(KueueTest, StrictFifoTriesANewHead) {
  ClusterQueueSpec strict = Team("a", 8, "");
  strict.queueing_strategy = QueueingStrategy::kStrictFifo;
  Make(Config({strict}));
  Add(0, 6, 0, 0);
  const int big = Add(0, 4, 0, 1);
  Run();
  const int urgent = Add(0, 2, 10, 2);
  const Kueue::Decisions d = Run();
  EXPECT_EQ(d.admitted, std::vector<int>{urgent});
  EXPECT_EQ(kueue_->state(big), State::kPending);
}

// A victim whose pods end while it is being evicted frees its preemptor.
TEST_F(KueueTest, AVictimEndingDuringItsEvictionFreesThePreemptor) {
  ClusterQueueSpec q = Team("a", 4, "");
  q.within_cluster_queue = KueuePreemptionPolicy::kLowerPriority;
  Make(Config({q}));
  const int low = Add(0, 4, 0, 0);
  Run();
  const int high = Add(0, 4, 5, 1);
  ASSERT_EQ(Run().evictions.size(), 1u);
  kueue_->Finished(low);
  EXPECT_EQ(Run().admitted, std::vector<int>{high});
}

// Flavors are tried in order; one whose nodes cannot run the pods is
// skipped.
TEST_F(KueueTest, TriesFlavorsInOrder) {
  ClusterQueueSpec q;
  q.name = "a";
  ResourceGroupSpec g;
  g.covered_resources = {"nvidia.com/gpu"};
  g.flavors.push_back({"h100", {{"nvidia.com/gpu", 2, {}, {}}}});
  g.flavors.push_back({"a100", {{"nvidia.com/gpu", 4, {}, {}}}});
  q.resource_groups.push_back(g);
  Make(Config({q}));
  const int first = Add(0, 2);
  const int second = Add(0, 2);
  Run();
  EXPECT_EQ(kueue_->node_labels(first).at("gpu"), "h100");
  EXPECT_TRUE(kueue_->node_labels(second).empty());  // a100: no labels
  KueueWorkloadSpec only_a100;
  only_a100.queue = 0;
  only_a100.requests.Set(registry_.Intern("nvidia.com/gpu"), 1);
  only_a100.flavor_ok = {false, true};
  kueue_->Finished(first);
  const int third = kueue_->Add(only_a100);
  Run();
  EXPECT_TRUE(kueue_->node_labels(third).empty());
  EXPECT_EQ(kueue_->book().Usage(0, 0), 0);
}

TEST_F(KueueTest, ReportsUncoveredResources) {
  Make(Config({Team("a", 8, "")}));
  ResourceList r;
  r.Set(ResourceRegistry::kCpuId, 1000);
  EXPECT_EQ(kueue_->UncoveredResource(0, r), "cpu");
  r = ResourceList();
  r.Set(registry_.Intern("nvidia.com/gpu"), 1);
  EXPECT_EQ(kueue_->UncoveredResource(0, r), "");
}

}  // namespace
}  // namespace kueue_test
}  // namespace gpushare
