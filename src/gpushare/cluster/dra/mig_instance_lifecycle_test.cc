// The dynamic MIG instance lifecycle on one node, by hand: create 5 s,
// destroy 2 s, MIG mode 10 s (round test values, not the defaults).

#include "gpushare/cluster/dra/mig_instance_lifecycle.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

constexpr MigLifecycleTimes kLifeTestTimes{5, 2, 10};

TEST(MigInstanceLifecycleTest, FirstInstanceEnablesMigModeThenQueues) {
  MigInstanceLifecycle life(2, true, kLifeTestTimes);
  // GPU 0's first instance: enable 10 + create 5.
  EXPECT_DOUBLE_EQ(life.Create(100, 0), 115);
  // A second one asked at 101 waits for the node's lock: 115 + 5.
  EXPECT_DOUBLE_EQ(life.Create(101, 0), 120);
  // GPU 1's first at 130: the queue is free; enable + create.
  EXPECT_DOUBLE_EQ(life.Create(130, 1), 145);
  EXPECT_EQ(life.counts().created, 3);
  EXPECT_EQ(life.counts().mode_enables, 2);
  // Waits: 15 + 19 + 15.
  EXPECT_DOUBLE_EQ(life.counts().creation_wait_s, 49);
}

TEST(MigInstanceLifecycleTest, CreationWaitsForTheDestroyBeforeIt) {
  MigInstanceLifecycle life(1, true, kLifeTestTimes);
  life.Create(0, 0);  // ready 15
  life.Create(0, 0);  // ready 20
  // The first pod ends at 50: destroy 50-52. A new pod's instance asked at
  // 50 starts after it: ready 57.
  EXPECT_DOUBLE_EQ(life.Destroy(50, 0), 52);
  EXPECT_DOUBLE_EQ(life.Create(50, 0), 57);
  EXPECT_EQ(life.LiveInstances(0), 2);
}

TEST(MigInstanceLifecycleTest, LastDestroyDisablesMigModeOnHopper) {
  MigInstanceLifecycle life(1, true, kLifeTestTimes);
  life.Create(0, 0);
  // Destroy 2 + disable 10.
  EXPECT_DOUBLE_EQ(life.Destroy(100, 0), 112);
  EXPECT_FALSE(life.MigModeOn(0));
  EXPECT_EQ(life.counts().mode_disables, 1);
  // A whole-GPU claim prepared at 105 runs once MIG mode is off.
  EXPECT_DOUBLE_EQ(life.WholeReady(105, 0), 112);
  EXPECT_DOUBLE_EQ(life.WholeReady(200, 0), 200);
  // The next instance enables it again.
  EXPECT_DOUBLE_EQ(life.Create(200, 0), 215);
}

TEST(MigInstanceLifecycleTest, AmpereKeepsMigModeOn) {
  MigInstanceLifecycle life(1, false, kLifeTestTimes);
  EXPECT_TRUE(life.MigModeOn(0));
  EXPECT_DOUBLE_EQ(life.Create(0, 0), 5);
  EXPECT_DOUBLE_EQ(life.Destroy(10, 0), 12);
  EXPECT_TRUE(life.MigModeOn(0));
  EXPECT_EQ(life.counts().mode_enables, 0);
  EXPECT_EQ(life.counts().mode_disables, 0);
}

}  // namespace
}  // namespace gpushare
