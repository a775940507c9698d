#include "gpushare/sim/pod_slots.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpushare {
namespace {

TEST(PodSlotsTest, IndicesGrowWhileSlotsAreRecycled) {
  PodSlots<std::string> slots;
  std::string* first = &slots.Add();
  *first = "a";
  slots.Add() = "b";
  EXPECT_EQ(slots.size(), 2);
  slots.Release(0);
  EXPECT_FALSE(slots.live(0));
  EXPECT_TRUE(slots.live(1));
  // Index 2 takes the slot index 0 left, reset.
  std::string& third = slots.Add();
  EXPECT_EQ(&third, first);
  EXPECT_EQ(third, "");
  third = "c";
  EXPECT_EQ(slots.size(), 3);
  EXPECT_EQ(slots.live_count(), 2);
  EXPECT_EQ(slots[1], "b");
  EXPECT_EQ(slots[2], "c");
  EXPECT_FALSE(slots.live(3));
  EXPECT_FALSE(slots.live(-1));
}

TEST(PodSlotsTest, ForEachLiveVisitsLiveIndicesInOrder) {
  PodSlots<int> slots;
  for (int i = 0; i < 200; ++i) slots.Add() = i * 10;
  // Release most of them (the list of live indices is compacted).
  for (int i = 0; i < 200; ++i) {
    if (i % 7 != 3) slots.Release(i);
  }
  for (int i = 200; i < 205; ++i) slots.Add() = i * 10;
  std::vector<int64_t> seen;
  slots.ForEachLive([&](int64_t i) {
    EXPECT_EQ(slots[i], i * 10);
    seen.push_back(i);
  });
  std::vector<int64_t> want;
  for (int i = 0; i < 200; ++i) {
    if (i % 7 == 3) want.push_back(i);
  }
  for (int i = 200; i < 205; ++i) want.push_back(i);
  EXPECT_EQ(seen, want);
  EXPECT_EQ(slots.live_count(), static_cast<int64_t>(want.size()));
}

TEST(PodSlotsTest, UsingAReleasedIndexAborts) {
  PodSlots<int> slots;
  slots.Add() = 1;
  slots.Release(0);
  EXPECT_DEATH(slots[0], "used after it ended");
}

}  // namespace
}  // namespace gpushare
