#include "gpushare/sched/kai/fair_share.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

FairShareQueue Leaf(double quota, double weight, double request,
                    int priority = 0, double limit = -1, int parent = -1) {
  FairShareQueue q;
  q.parent = parent;
  q.priority = priority;
  q.quota = quota;
  q.weight = weight;
  q.limit = limit;
  q.request = request;
  return q;
}

TEST(FairShareTest, QuotaFirstThenRemainderByOverQuotaWeight) {
  // 2 + 2 deserved; the 6 left split 1:3.
  const auto s = ComputeFairShares({Leaf(2, 1, 8), Leaf(2, 3, 8)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 3.5);
  EXPECT_DOUBLE_EQ(s[1], 6.5);
}

TEST(FairShareTest, NoQueueGetsMoreThanItRequests) {
  // Equal weights offer 5 each; A wants 3, B takes the rest.
  const auto s = ComputeFairShares({Leaf(0, 1, 3), Leaf(0, 1, 20)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 3);
  EXPECT_DOUBLE_EQ(s[1], 7);
}

TEST(FairShareTest, DeservedQuotaIgnoresPriorityOverQuotaFollowsIt) {
  const auto s =
      ComputeFairShares({Leaf(2, 1, 20, /*priority=*/1), Leaf(2, 1, 20)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 8);
  EXPECT_DOUBLE_EQ(s[1], 2);
}

TEST(FairShareTest, LimitCapsTheShare) {
  const auto s =
      ComputeFairShares({Leaf(0, 1, 10, 0, /*limit=*/3), Leaf(0, 1, 10)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 3);
  EXPECT_DOUBLE_EQ(s[1], 7);
}

TEST(FairShareTest, UnlimitedQuotaDeservesAllItRequests) {
  const auto s = ComputeFairShares({Leaf(-1, 1, 5), Leaf(0, 1, 10)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 5);
  EXPECT_DOUBLE_EQ(s[1], 5);
}

TEST(FairShareTest, ZeroWeightGetsNothingAboveQuotaAndTheRestStaysIdle) {
  const auto s = ComputeFairShares({Leaf(2, 0, 10), Leaf(0, 1, 3)}, 10);
  EXPECT_DOUBLE_EQ(s[0], 2);
  EXPECT_DOUBLE_EQ(s[1], 3);
}

TEST(FairShareTest, ParentShareIsDividedAmongItsChildren) {
  // dept-1 (quota 6) holds team-1 (quota 2, wants 10) and team-2 (quota 2,
  // wants 1); dept-2 (quota 4) wants 10; 12 GPUs. Level 1: 6 + 4, then the
  // 2 left 1:1, so 7 and 5. In dept-1: 2 and 1, then team-1 takes the 4.
  std::vector<FairShareQueue> q = {Leaf(6, 1, 11), Leaf(4, 1, 10),
                                   Leaf(2, 1, 10, 0, -1, /*parent=*/0),
                                   Leaf(2, 1, 1, 0, -1, /*parent=*/0)};
  const auto s = ComputeFairShares(q, 12);
  EXPECT_DOUBLE_EQ(s[0], 7);
  EXPECT_DOUBLE_EQ(s[1], 5);
  EXPECT_DOUBLE_EQ(s[2], 6);
  EXPECT_DOUBLE_EQ(s[3], 1);
}

TEST(FairShareTest, OversubscribedQuotasGoToHigherPriorityFirst) {
  const auto s =
      ComputeFairShares({Leaf(8, 1, 8), Leaf(8, 1, 8, /*priority=*/2)}, 10);
  EXPECT_DOUBLE_EQ(s[1], 8);
  EXPECT_DOUBLE_EQ(s[0], 2);
}

}  // namespace
}  // namespace gpushare
