// Hand-computed KAI-Scheduler decisions: over-quota allocation, reclaim to
// fair share (leveled through the queue tree), preempt within a queue,
// non-preemptible jobs, limits.

#include "gpushare/sched/kai/kai_queues.h"

#include <gtest/gtest.h>

#include <optional>

namespace gpushare {
namespace kai_queues_test {
namespace {

using State = QueueAdmission::State;

KaiQueueSpec Queue(const std::string& name, double quota,
                   const std::string& parent = "", double limit = -1) {
  KaiQueueSpec q;
  q.name = name;
  q.parent = parent;
  q.gpu_quota = quota;
  q.gpu_limit = limit;
  return q;
}

class KaiQueuesTest : public testing::Test {
 protected:
  void Make(std::vector<KaiQueueSpec> queues, int64_t capacity) {
    KaiConfig c;
    c.queues = std::move(queues);
    kai_.emplace(c, registry_, capacity);
  }
  int Add(const std::string& queue, int64_t gpus, int32_t priority = 0,
          double t = 0) {
    QueuedWorkloadSpec s;
    s.queue = kai_->QueueOf("default", queue);
    s.priority = priority;
    s.creation_s = t;
    s.requests.Set(registry_.Intern("nvidia.com/gpu"), gpus);
    return kai_->Add(s);
  }
  QueueAdmission::Decisions Run(double now = 0) {
    QueueAdmission::Decisions d;
    kai_->Schedule(now, &d);
    return d;
  }
  ResourceRegistry registry_;
  std::optional<KaiQueues> kai_;
};

TEST(GpuUnitsTest, WholeGpusCountOneMigDevicesTheirSlices) {
  EXPECT_EQ(GpuUnitsOf("nvidia.com/gpu"), 1);
  EXPECT_EQ(GpuUnitsOf("nvidia.com/mig-1g.10gb"), 1);
  EXPECT_EQ(GpuUnitsOf("nvidia.com/mig-3g.40gb"), 3);
  EXPECT_EQ(GpuUnitsOf("nvidia.com/mig-7g.80gb"), 7);
  EXPECT_EQ(GpuUnitsOf("nvidia.com/gpumem"), 0);
  EXPECT_EQ(GpuUnitsOf("nvidia.com/mig-"), 0);
  EXPECT_EQ(GpuUnitsOf("cpu"), 0);
}

TEST_F(KaiQueuesTest, IdleQuotaGoesOverQuotaThenIsReclaimedToFairShare) {
  Make({Queue("a", 4), Queue("b", 4)}, 8);
  const int a1 = Add("a", 4);
  const int a2 = Add("a", 4);
  QueueAdmission::Decisions d = Run();
  // b requests nothing: a's fair share is all 8 units.
  EXPECT_EQ(d.admitted, (std::vector<int>{a1, a2}));
  EXPECT_FALSE(kai_->borrowed(a1));
  EXPECT_TRUE(kai_->borrowed(a2));
  EXPECT_DOUBLE_EQ(kai_->FairShare(0, 0), 8);

  const int b1 = Add("b", 4, 0, 1);
  d = Run(1);
  // Fair shares 4 and 4: a is at twice its share, b reclaims a's newest.
  EXPECT_DOUBLE_EQ(kai_->FairShare(0, 0), 4);
  EXPECT_DOUBLE_EQ(kai_->FairShare(1, 0), 4);
  EXPECT_TRUE(d.admitted.empty());
  ASSERT_EQ(d.evictions.size(), 1u);
  EXPECT_EQ(d.evictions[0].victim, a2);
  EXPECT_EQ(d.evictions[0].preemptor, b1);
  EXPECT_EQ(d.evictions[0].reason, "Reclaim");
  EXPECT_EQ(kai_->state(a2), State::kEvicting);
  EXPECT_EQ(kai_->QuotaUsed(0, 0), 8);  // until its pods are gone

  kai_->EvictionDone(a2, 2);
  d = Run(2);
  // b takes the freed units; a2 waits (a is at its fair share, b within
  // its own: nothing to reclaim, same priority: nothing to preempt).
  EXPECT_EQ(d.admitted, std::vector<int>{b1});
  EXPECT_TRUE(d.evictions.empty());
  d = Run(3);
  EXPECT_TRUE(d.evictions.empty());
  EXPECT_EQ(kai_->state(a2), State::kPending);
  EXPECT_NE(kai_->message(a2).find("insufficient GPU units"),
            std::string::npos);
  EXPECT_EQ(kai_->QuotaUsed(0, 0), 4);
  EXPECT_EQ(kai_->QuotaUsed(1, 0), 4);

  // b's job ends: a2 runs again.
  kai_->Finished(b1);
  d = Run(4);
  EXPECT_EQ(d.admitted, std::vector<int>{a2});
}

TEST_F(KaiQueuesTest, ReclaimIsLeveledToTheSiblingDepartments) {
  // dept-1 (4) holds team-1 (2) and team-2 (2); dept-2 (4) holds team-3 (4).
  Make({Queue("dept-1", 4), Queue("dept-2", 4), Queue("team-1", 2, "dept-1"),
        Queue("team-2", 2, "dept-1"), Queue("team-3", 4, "dept-2")},
       8);
  std::vector<int> t1;
  for (int i = 0; i < 4; ++i) t1.push_back(Add("team-1", 2, 0, i));
  QueueAdmission::Decisions d = Run();
  EXPECT_EQ(d.admitted.size(), 4u);
  const int t3 = Add("team-3", 4, 0, 10);
  d = Run(10);
  // dept-1's fair share is 4 of its 8: two of team-1's jobs (the newest)
  // go, and dept-1 keeps its fair share.
  ASSERT_EQ(d.evictions.size(), 2u);
  EXPECT_EQ(d.evictions[0].victim, t1[3]);
  EXPECT_EQ(d.evictions[1].victim, t1[2]);
  EXPECT_EQ(d.evictions[0].preemptor, t3);
  EXPECT_EQ(kai_->QuotaUsed(0, 0), 8);  // a parent sums its children
  kai_->EvictionDone(t1[3], 11);
  d = Run(11);
  EXPECT_TRUE(d.admitted.empty());  // one victim still terminating
  kai_->Finished(t1[2]);            // it ended on its own meanwhile
  d = Run(12);
  EXPECT_EQ(d.admitted, std::vector<int>{t3});
  EXPECT_EQ(kai_->QuotaUsed(0, 0), 4);
  EXPECT_EQ(kai_->QuotaUsed(1, 0), 4);
}

TEST_F(KaiQueuesTest, NoReclaimAboveTheReclaimersFairShare) {
  Make({Queue("a", 6), Queue("b", 2)}, 8);
  Add("a", 6);
  Add("b", 2);
  Run();
  // b already holds its fair share: its next job waits.
  const int b2 = Add("b", 2, 0, 1);
  const QueueAdmission::Decisions d = Run(1);
  EXPECT_TRUE(d.evictions.empty());
  EXPECT_EQ(kai_->state(b2), State::kPending);
}

TEST_F(KaiQueuesTest, PreemptEvictsLowerPriorityJobsOfTheSameQueueOnly) {
  Make({Queue("a", 4), Queue("b", 4)}, 8);
  const int low = Add("a", 4, 10);
  const int other = Add("b", 4, 0);
  Run();
  const int high = Add("a", 4, 50, 1);
  QueueAdmission::Decisions d = Run(1);
  // a is at its fair share (4): no reclaim from b; its own lower-priority
  // job is preempted.
  ASSERT_EQ(d.evictions.size(), 1u);
  EXPECT_EQ(d.evictions[0].victim, low);
  EXPECT_EQ(d.evictions[0].preemptor, high);
  EXPECT_EQ(d.evictions[0].reason, "Preempt");
  EXPECT_EQ(kai_->state(other), State::kAdmitted);
  kai_->EvictionDone(low, 2);
  d = Run(2);
  EXPECT_EQ(d.admitted, std::vector<int>{high});
}

TEST_F(KaiQueuesTest,
       NonPreemptibleJobsStayWithinDeservedQuotaAndAreNotVictims) {
  Make({Queue("a", 4), Queue("b", 4)}, 8);
  const int big = Add("a", 6, 100);
  const int inference = Add("a", 4, 100, 1);
  QueueAdmission::Decisions d = Run();
  EXPECT_EQ(kai_->state(big), State::kPending);
  EXPECT_NE(kai_->message(big).find("deserved quota"), std::string::npos);
  EXPECT_EQ(kai_->state(inference), State::kAdmitted);
  // An over-quota training job of a next to it, then b claims its share.
  const int train = Add("a", 4, 0, 2);
  Run(2);
  EXPECT_EQ(kai_->state(train), State::kAdmitted);
  Add("b", 4, 0, 3);
  d = Run(3);
  ASSERT_EQ(d.evictions.size(), 1u);
  EXPECT_EQ(d.evictions[0].victim, train);  // never the non-preemptible one
}

TEST_F(KaiQueuesTest, LimitsOnTheQueueAndItsParentsCap) {
  Make({Queue("org", -1, "", 4), Queue("a", 0, "org", 3)}, 8);
  const int w1 = Add("a", 2);
  const int w2 = Add("a", 2, 0, 1);
  Run();
  EXPECT_EQ(kai_->state(w1), State::kAdmitted);
  EXPECT_EQ(kai_->state(w2), State::kPending);
  EXPECT_NE(kai_->message(w2).find("queue a would exceed its GPU limit"),
            std::string::npos);
  ASSERT_EQ(kai_->queue_quotas(1).size(), 1u);
  EXPECT_EQ(kai_->queue_quotas(1)[0].resource, "gpu");
  EXPECT_DOUBLE_EQ(*kai_->queue_quotas(1)[0].borrowing_limit, 3);
}

TEST_F(KaiQueuesTest, OnlyLeafQueuesTakeJobs) {
  Make({Queue("org", 4), Queue("a", 4, "org")}, 8);
  EXPECT_EQ(kai_->QueueOf("any", "org"), -1);
  EXPECT_EQ(kai_->QueueOf("any", "a"), 1);
  EXPECT_EQ(kai_->queue_parent(1), "org");
}

}  // namespace
}  // namespace kai_queues_test
}  // namespace gpushare
