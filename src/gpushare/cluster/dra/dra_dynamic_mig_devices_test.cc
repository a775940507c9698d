// DraDynamicMigDevices on H100-80GB nodes, worked out by hand from the
// catalog's placement table (catalog/gpus.yaml: 1g.10gb starts 0-6,
// 1g.20gb 0/2/4/6 covering 2 memory slices, 3g.40gb 0/4 covering 4,
// 7g.80gb 0): the bookkeeping counts, the grants as execution domains, the
// Filter under fragmentation and the no-overlap invariant.

#include "gpushare/cluster/dra/dra_dynamic_mig_devices.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

namespace gpushare {
namespace {

class DraDynamicMigDevicesTest : public ::testing::Test {
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
  ResourceId ClassOf(const char* profile) {
    return registry_.Intern(
        DraClassResourceName(NvidiaMigProfileClassName(profile)));
  }
  ResourceList Ask(const char* profile, int64_t count) {
    ResourceList r;
    r.Set(ClassOf(profile), count);
    return r;
  }
  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

// Per profile class: 2 GPUs x its placements (1g.10gb 7, 3g.40gb 2,
// 7g.80gb 1); gpu.nvidia.com: the 2 whole GPUs (H100 toggles MIG mode).
TEST_F(DraDynamicMigDevicesTest, BookkeepingCountsBoundThePlacements) {
  const DraDynamicMigDevices d(H100(), 2, registry_);
  EXPECT_EQ(d.Capacity().Get(ClassOf("1g.10gb")), 14);
  EXPECT_EQ(d.Capacity().Get(ClassOf("3g.40gb")), 4);
  EXPECT_EQ(d.Capacity().Get(ClassOf("7g.80gb")), 2);
  EXPECT_EQ(d.Capacity().Get(
                registry_.Intern(DraClassResourceName(kNvidiaGpuDriver))),
            2);
}

// Two 1g.10gb claims take starts 0 and 1 of GPU 0 (first fit); each grant
// names its execution domain: DynamicMigGpuDomains()[instance] is the
// placement, domain 0 the whole GPU.
TEST_F(DraDynamicMigDevicesTest, GrantsNameThePlacementsDomain) {
  DraDynamicMigDevices d(H100(), 2, registry_);
  const DeviceAllocation a = d.Allocate(Ask("1g.10gb", 2));
  ASSERT_EQ(a.grants.size(), 2u);
  const std::vector<NvidiaPartition> domains = DynamicMigGpuDomains(H100());
  EXPECT_EQ(domains[0].profile, -1);
  for (int k = 0; k < 2; ++k) {
    const DeviceGrant& g = a.grants[static_cast<size_t>(k)];
    EXPECT_EQ(g.gpu, 0);
    ASSERT_GT(g.instance, 0);
    EXPECT_EQ(domains[static_cast<size_t>(g.instance)].profile,
              Profile("1g.10gb"));
    EXPECT_EQ(domains[static_cast<size_t>(g.instance)].start, k);
    EXPECT_EQ(g.memory_mib, 9984);
  }
  d.CheckInvariants();
  d.Release(a);
  EXPECT_EQ(d.partitions().LiveInstances(0), 0);
}

// Three 1g.20gb claims on one GPU take slices [0,2), [2,4), [4,6); the
// first is released: slices 0, 1, 6, 7 are free (4 of 8) and 80 SMs are
// left, but both 3g.40gb placements ([0,4) and [4,8)) cover a live
// instance, so the Filter refuses a 3g.40gb claim and the profile is
// stranded; a 1g.20gb claim still fits (at 0).
TEST_F(DraDynamicMigDevicesTest, ThreeGIsRefusedThoughFourSlicesAreFree) {
  DraDynamicMigDevices d(H100(), 1, registry_);
  const DeviceAllocation a = d.Allocate(Ask("1g.20gb", 1));
  d.Allocate(Ask("1g.20gb", 1));
  d.Allocate(Ask("1g.20gb", 1));
  d.Release(a);
  EXPECT_EQ(d.partitions().FreeMemorySlices(0), 4);
  EXPECT_EQ(d.partitions().SmsLeft(0), 132 - 2 * 26);
  std::string_view reason;
  EXPECT_FALSE(d.Fits(Ask("3g.40gb", 1), &reason));
  EXPECT_EQ(reason, kDraCannotAllocateAllClaims);
  EXPECT_TRUE(d.StrandedAnywhere(Profile("3g.40gb")));
  EXPECT_TRUE(d.Fits(Ask("1g.20gb", 1), nullptr));
  EXPECT_FALSE(d.StrandedAnywhere(Profile("1g.20gb")));
  // The bookkeeping count still admits it: pruning never rejects a node the
  // Filter would accept, but it is only a necessary condition.
  EXPECT_EQ(d.Capacity().Get(ClassOf("3g.40gb")), 2);
  d.CheckInvariants();
}

// A claim of two 3g.40gb takes both halves of one GPU; a third needs the
// second GPU.
TEST_F(DraDynamicMigDevicesTest, CountIsPlacedFirstFitAcrossGpus) {
  DraDynamicMigDevices d(H100(), 2, registry_);
  const DeviceAllocation a = d.Allocate(Ask("3g.40gb", 2));
  ASSERT_EQ(a.grants.size(), 2u);
  EXPECT_EQ(a.grants[0].gpu, 0);
  EXPECT_EQ(a.grants[1].gpu, 0);
  EXPECT_TRUE(d.Fits(Ask("3g.40gb", 2), nullptr));
  EXPECT_FALSE(d.Fits(Ask("3g.40gb", 3), nullptr));
  const DeviceAllocation b = d.Allocate(Ask("3g.40gb", 1));
  EXPECT_EQ(b.grants[0].gpu, 1);
  EXPECT_FALSE(d.Fits(Ask("7g.80gb", 1), nullptr));
  d.CheckInvariants();
}

// The invariant: two live instances never overlap. Reacquiring a released
// placement after another took its slices aborts.
TEST_F(DraDynamicMigDevicesTest, OverlappingInstancesAbort) {
  DraDynamicMigDevices d(H100(), 1, registry_);
  const DeviceAllocation a = d.Allocate(Ask("1g.20gb", 1));  // slices 0-1
  d.Release(a);
  d.Allocate(Ask("3g.40gb", 1));  // slices 0-3
  EXPECT_DEATH(d.Reacquire(a), "does not fit");
}

}  // namespace
}  // namespace gpushare
