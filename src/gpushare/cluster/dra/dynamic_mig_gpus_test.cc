// Dynamic MIG counters on H100-80GB GPUs, worked out by hand from the
// catalog's placement table (catalog/gpus.yaml: 1g.10gb starts 0-6, 2g.20gb
// 0/2/4, 3g.40gb 0/4 covering 4 memory slices, 7g.80gb 0), and checked
// against the scheduler's allocator run on the partitionable slice.

#include "gpushare/cluster/dra/dynamic_mig_gpus.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/device_class.h"

namespace gpushare {
namespace {

class DynamicMigGpusTest : public ::testing::Test {
 protected:
  const GpuModel& H100() { return *catalog_.Find("H100-80GB"); }
  int Profile(const char* name) {
    const MigGeometry& mig = *H100().mig;
    for (size_t p = 0; p < mig.profiles.size(); ++p) {
      if (mig.profiles[p].name == name) return static_cast<int>(p);
    }
    ADD_FAILURE() << name;
    return -1;
  }
  Catalog catalog_ = Catalog::Builtin();
};

TEST_F(DynamicMigGpusTest, SmallInstancesTakeTheLowestFreeStart) {
  DynamicMigGpus d(H100(), 1);
  const int one_g = Profile("1g.10gb");
  const int a = d.FirstFit(one_g);
  EXPECT_EQ(d.DeviceName(a), "gpu-0-mig-1g10gb-19-0");
  d.Take(a);
  EXPECT_EQ(d.DeviceName(d.FirstFit(one_g)), "gpu-0-mig-1g10gb-19-1");
  // A live instance blocks the whole GPU and the 7g.
  EXPECT_EQ(d.FirstFit(-1), -1);
  EXPECT_EQ(d.FirstFit(Profile("7g.80gb")), -1);
  // 3g.40gb at 0 covers slice 0: the 3g goes to 4 (slices 4-7).
  EXPECT_EQ(d.DeviceName(d.FirstFit(Profile("3g.40gb"))),
            "gpu-0-mig-3g40gb-9-4");
  EXPECT_EQ(d.SmsLeft(0), 132 - 16);
  EXPECT_EQ(d.MemoryMibLeft(0), 81152 - 9984);
  EXPECT_EQ(d.FreeMemorySlices(0), 7);
  d.CheckInvariants();
}

TEST_F(DynamicMigGpusTest, WholeGpuBlocksEveryInstance) {
  DynamicMigGpus d(H100(), 2);
  const int whole = d.FirstFit(-1);
  EXPECT_EQ(d.DeviceName(whole), "gpu-0");
  d.Take(whole);
  EXPECT_TRUE(d.WholeHeld(0));
  EXPECT_EQ(d.FreeMemorySlices(0), 0);
  // The next 1g goes to GPU 1.
  EXPECT_EQ(d.DeviceName(d.FirstFit(Profile("1g.10gb"))),
            "gpu-1-mig-1g10gb-19-0");
  d.Free(whole);
  EXPECT_EQ(d.DeviceName(d.FirstFit(Profile("1g.10gb"))),
            "gpu-0-mig-1g10gb-19-0");
  d.CheckInvariants();
}

// Three 2g.20gb pods take starts 0, 2, 4 (first fit); the first ends. Slices
// 0, 1, 6, 7 are free (4 of 8), 3 compute slices (132 - 64 = 68 SMs >= 60)
// and 81152 - 2 x 20096 = 40960 MiB >= 40448 MiB are left: a 3g.40gb's
// counters fit, but its only placements, [0,4) and [4,8), each cover a
// live 2g. The GPU is fragmented for 3g.40gb, and for 4g.40gb too (64 SMs,
// 40448 MiB, 4 slices left, but its one placement [0,4) covers the 2g at
// 2); 7g.80gb needs more than is left: not stranded, simply full.
TEST_F(DynamicMigGpusTest, ThreeGCannotBeMadeThoughFourSlicesAreFree) {
  DynamicMigGpus d(H100(), 1);
  const int two_g = Profile("2g.20gb");
  const std::vector<int> three = d.FirstFitCount(two_g, 3);
  ASSERT_EQ(three.size(), 3u);
  for (const int k : three) d.Take(k);
  EXPECT_EQ(d.DeviceName(three[2]), "gpu-0-mig-2g20gb-14-4");
  d.Free(three[0]);
  EXPECT_EQ(d.FreeMemorySlices(0), 4);
  EXPECT_EQ(d.SmsLeft(0), 68);
  EXPECT_EQ(d.MemoryMibLeft(0), 40960);
  const int three_g = Profile("3g.40gb");
  EXPECT_EQ(d.FirstFit(three_g), -1);
  EXPECT_TRUE(d.Stranded(0, three_g));
  EXPECT_TRUE(d.Stranded(0, Profile("4g.40gb")));
  EXPECT_FALSE(d.Stranded(0, Profile("7g.80gb")));
  EXPECT_FALSE(d.Stranded(0, two_g));  // 2g at 0 fits again
  d.CheckInvariants();
}

TEST_F(DynamicMigGpusTest, OverlappingTakeIsRefused) {
  DynamicMigGpus d(H100(), 1);
  const int one_g = d.FirstFit(Profile("1g.20gb"));  // slices 0-1
  d.Take(one_g);
  for (size_t k = 0; k < d.partitions().size(); ++k) {
    const NvidiaPartition& p = d.partitions()[k];
    if (p.profile == Profile("2g.20gb") && p.start == 0) {
      EXPECT_FALSE(d.CanTake(static_cast<int>(k)));
    }
    if (p.profile == Profile("2g.20gb") && p.start == 2) {
      EXPECT_TRUE(d.CanTake(static_cast<int>(k)));
    }
  }
}

TEST_F(DynamicMigGpusTest, PartitionsAreTheSlicesDevicesInOrder) {
  NvidiaGpuNode node;
  node.node_name = "n";
  node.model = &H100();
  node.gpu_count = 3;
  std::vector<NvidiaPartition> places;
  const ResourceSlice slice = NvidiaPartitionableResourceSlice(node, &places);
  DynamicMigGpus d(H100(), 3);
  ASSERT_EQ(d.partitions(), places);
  for (size_t k = 0; k < places.size(); ++k) {
    EXPECT_EQ(d.DeviceName(static_cast<int>(k)), slice.devices[k].name);
  }
}

// FirstFitCount against DraAllocator on the slice, with what the tracker
// holds given to the allocator as allocated devices: over random takes and
// frees on two H100s both pick the same devices, or both find none.
TEST_F(DynamicMigGpusTest, FirstFitCountIsTheAllocatorsChoice) {
  NvidiaGpuNode node;
  node.node_name = "n";
  node.model = &H100();
  node.gpu_count = 2;
  const ResourceSlice slice = NvidiaPartitionableResourceSlice(node);
  const MigGeometry& mig = *H100().mig;
  std::vector<DeviceClass> classes = {NvidiaGpuDeviceClass()};
  for (const MigProfile& p : mig.profiles) {
    classes.push_back(NvidiaMigProfileDeviceClass(p.name));
  }
  int allocated = 0;
  int refused = 0;
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    std::mt19937 rng(seed);
    DynamicMigGpus d(H100(), 2);
    std::vector<int> held;
    for (int step = 0; step < 120; ++step) {
      if (rng() % 3 == 0 && !held.empty()) {
        const size_t k = rng() % held.size();
        d.Free(held[k]);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
        continue;
      }
      const int profile =
          static_cast<int>(rng() % (mig.profiles.size() + 1)) - 1;
      const int count = 1 + static_cast<int>(rng() % 3);
      AllocatedDevices in_use;
      for (size_t k = 0; k < d.partitions().size(); ++k) {
        if (d.Held(static_cast<int>(k))) {
          in_use.exclusive.push_back(
              {"gpu.nvidia.com", "n", d.DeviceName(static_cast<int>(k))});
        }
      }
      ResourceClaim claim;
      claim.name = "c";
      DraDeviceRequest r;
      r.name = "gpu";
      r.has_exactly = true;
      r.exactly.device_class_name =
          profile < 0 ? std::string(kNvidiaGpuDriver)
                      : NvidiaMigProfileClassName(mig.profiles[profile].name);
      r.exactly.count = count;
      claim.spec.requests.push_back(r);
      ValidateResourceClaimSpec(claim.name, claim.spec, classes);
      DraAllocator allocator({&slice}, &classes, in_use);
      const AllocationOutcome out = allocator.Allocate("n", {&claim});
      const std::vector<int> mine = d.FirstFitCount(profile, count);
      if (out.status != AllocationOutcome::Status::kAllocated) {
        EXPECT_TRUE(mine.empty()) << "seed " << seed << " step " << step;
        ++refused;
        continue;
      }
      ASSERT_EQ(mine.size(), out.results[0].devices.size())
          << "seed " << seed << " step " << step;
      for (size_t k = 0; k < mine.size(); ++k) {
        EXPECT_EQ(d.DeviceName(mine[k]), out.results[0].devices[k].device);
        d.Take(mine[k]);
        held.push_back(mine[k]);
      }
      d.CheckInvariants();
      ++allocated;
    }
  }
  EXPECT_GT(allocated, 100);
  EXPECT_GT(refused, 50);
}

}  // namespace
}  // namespace gpushare
