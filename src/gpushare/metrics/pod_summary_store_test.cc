#include "gpushare/metrics/pod_summary_store.h"

#include <vector>

#include <gtest/gtest.h>

namespace gpushare {
namespace {

PodSummary Summary(int64_t index, double wait_s) {
  PodSummary s;
  s.index = index;
  s.wait_s = wait_s;
  return s;
}

// Pushes pods 0..n-1 in the order 1,0,3,2,5,4,... (pairs ended out of
// order), pod i waiting i * 1.5 s.
void PushPairsSwapped(int64_t n, PodSummaryStore* store) {
  for (int64_t i = 0; i + 1 < n; i += 2) {
    store->push_back(Summary(i + 1, (i + 1) * 1.5));
    store->push_back(Summary(i, i * 1.5));
  }
}

std::vector<PodSummary> All(const PodSummaryStore& store) {
  std::vector<PodSummary> out;
  store.ForEach([&](const PodSummary& s) { out.push_back(s); });
  return out;
}

TEST(PodSummaryStoreTest, InMemoryUpToTheBoundInPodOrderAfterSort) {
  PodSummaryStore store(10);
  PushPairsSwapped(10, &store);
  EXPECT_FALSE(store.spilled());
  EXPECT_EQ(store.size(), 10);
  store.Sort();
  const std::vector<PodSummary> all = All(store);
  ASSERT_EQ(all.size(), 10u);
  for (int64_t i = 0; i < 10; ++i) {
    EXPECT_EQ(all[i].index, i);
    EXPECT_DOUBLE_EQ(all[i].wait_s, i * 1.5);
  }
  EXPECT_DOUBLE_EQ(store.Find(7)->wait_s, 10.5);
  EXPECT_FALSE(store.Find(10).has_value());
}

TEST(PodSummaryStoreTest, PastTheBoundSpillsAndReadsBackInPodOrder) {
  PodSummaryStore store(4);
  PushPairsSwapped(4, &store);
  EXPECT_FALSE(store.spilled());
  store.push_back(Summary(9, 13.5));  // the fifth: spills
  EXPECT_TRUE(store.spilled());
  store.push_back(Summary(6, 9.0));   // index 5, 7, 8 never pushed
  store.push_back(Summary(4, 6.0));
  EXPECT_EQ(store.size(), 7);
  store.Sort();  // nothing to do once spilled
  const std::vector<PodSummary> all = All(store);
  const std::vector<int64_t> want = {0, 1, 2, 3, 4, 6, 9};
  ASSERT_EQ(all.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(all[k].index, want[k]);
    EXPECT_DOUBLE_EQ(all[k].wait_s, want[k] * 1.5);
  }
  // Read twice: the same.
  EXPECT_EQ(All(store).size(), want.size());
  EXPECT_DOUBLE_EQ(store.Find(9)->wait_s, 13.5);
  EXPECT_DOUBLE_EQ(store.Find(2)->wait_s, 3.0);
  EXPECT_FALSE(store.Find(5).has_value());
  EXPECT_FALSE(store.Find(100).has_value());
}

TEST(PodSummaryStoreTest, SumsInPodOrderMatchMemoryAndSpilled) {
  PodSummaryStore memory(1000);
  PodSummaryStore spilled(3);
  PushPairsSwapped(200, &memory);
  PushPairsSwapped(200, &spilled);
  memory.Sort();
  double a = 0, b = 0;
  memory.ForEach([&](const PodSummary& s) { a += s.wait_s / 7; });
  spilled.ForEach([&](const PodSummary& s) { b += s.wait_s / 7; });
  EXPECT_EQ(a, b);  // bit-identical: same order
  EXPECT_DOUBLE_EQ(a, 1.5 * 199 * 200 / 2 / 7);
}

TEST(PodSummaryStoreTest, CopiesMovesAndClears) {
  PodSummaryStore store(2);
  PushPairsSwapped(4, &store);
  const PodSummaryStore copy = store;
  EXPECT_TRUE(copy.spilled());
  PodSummaryStore moved = std::move(store);
  EXPECT_EQ(All(copy).size(), 4u);
  EXPECT_EQ(All(copy)[3].index, 3);
  EXPECT_TRUE(moved.spilled());
  EXPECT_EQ(All(moved).size(), 4u);
  moved.clear();
  EXPECT_EQ(moved.size(), 0);
  EXPECT_FALSE(moved.spilled());
  EXPECT_TRUE(All(moved).empty());
}

}  // namespace
}  // namespace gpushare
