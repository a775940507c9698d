#include "gpushare/cluster/memory_isolation.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

NodePoolSpec PoolWith(SharingConfig sharing,
                      PoolDevices devices = PoolDevices::kDevicePlugin) {
  NodePoolSpec p;
  p.name = "p";
  p.gpu_model = "A100-80GB";
  p.gpus_per_node = 4;
  p.sharing = std::move(sharing);
  p.devices = devices;
  return p;
}

TEST(MemoryIsolationTest, WhichSchemesKeepAPodsMemoryItsOwn) {
  EXPECT_TRUE(PoolIsolatesMemory(PoolWith(ExclusiveSharing())));
  EXPECT_TRUE(PoolIsolatesMemory(
      PoolWith(MigSharing(MigStrategy::kMixed, "all-balanced"))));
  EXPECT_TRUE(PoolIsolatesMemory(PoolWith(MpsSharing(4))));
  EXPECT_TRUE(PoolIsolatesMemory(PoolWith(HamiSharing())));
  EXPECT_FALSE(PoolIsolatesMemory(PoolWith(TimeSlicingSharing(4))));
  // Time-sliced MIG instances share an instance's memory.
  SharingConfig mig_sliced = MigSharing(MigStrategy::kMixed, "all-balanced");
  mig_sliced.sharing = DeviceSharing::kTimeSlicing;
  mig_sliced.replicas.replicas = 2;
  EXPECT_FALSE(PoolIsolatesMemory(PoolWith(mig_sliced)));
  // HAMi oversubscribing memory lets the pods' limits add up past the GPU.
  SharingConfig over = HamiSharing();
  over.hami.memory_scaling = 1.5;
  EXPECT_FALSE(PoolIsolatesMemory(PoolWith(over)));
  // A pool without GPUs has no GPU memory to take.
  NodePoolSpec cpu = PoolWith(TimeSlicingSharing(4));
  cpu.gpus_per_node = 0;
  EXPECT_TRUE(PoolIsolatesMemory(cpu));
}

TEST(MemoryIsolationTest, DraPools) {
  EXPECT_TRUE(
      PoolIsolatesMemory(PoolWith(ExclusiveSharing(), PoolDevices::kDra)));
  // Consumable shares, by count or by memory: the driver enforces nothing.
  EXPECT_FALSE(
      PoolIsolatesMemory(PoolWith(TimeSlicingSharing(4), PoolDevices::kDra)));
  NodePoolSpec memory = PoolWith(TimeSlicingSharing(4), PoolDevices::kDra);
  memory.dra.consumable_shares = DraConsumableShares::kMemoryShares;
  EXPECT_FALSE(PoolIsolatesMemory(memory));
  // DRA MPS isolates only with a pinned memory limit.
  NodePoolSpec mps = PoolWith(MpsSharing(4), PoolDevices::kDra);
  EXPECT_FALSE(PoolIsolatesMemory(mps));
  mps.dra.mps_pinned_memory_limit_mib = 20480;
  EXPECT_TRUE(PoolIsolatesMemory(mps));
}

}  // namespace
}  // namespace gpushare
