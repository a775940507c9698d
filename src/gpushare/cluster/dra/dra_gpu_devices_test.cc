// DraGpuDevices by hand: the DynamicResources Filter and Reserve on one node
// of a DRA pool (first fit in slice order, no device scoring; upstream's
// "cannot allocate all claims"), and the grants they give the share models.

#include "gpushare/cluster/dra/dra_gpu_devices.h"

#include <gtest/gtest.h>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/filter_messages.h"

namespace gpushare {
namespace {

class DraGpuDevicesTest : public ::testing::Test {
 protected:
  const GpuModel& Model(const char* name) { return *catalog_.Find(name); }
  ResourceList Ask(const std::string& device_class, int64_t count) {
    ResourceList r;
    r.Set(ResourceRegistry::kCpuId, 1000);
    r.Set(registry_.Intern(DraClassResourceName(device_class)), count);
    return r;
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

TEST_F(DraGpuDevicesTest, PublishesTheSliceAndCountsDevicesPerClass) {
  DraGpuDevices d("node-a", Model("A100-80GB"), 8, {}, registry_);
  EXPECT_EQ(d.slice().pool_name, "node-a");
  ASSERT_EQ(d.slice().devices.size(), 8u);
  const ResourceId gpu = registry_.Intern("deviceclass.resource.kubernetes.io/"
                                          "gpu.nvidia.com");
  EXPECT_EQ(registry_.KindOf(gpu), ResourceRegistry::Kind::kDraClassKind);
  EXPECT_EQ(d.Capacity().Get(gpu), 8);
  // No device-plugin resource.
  EXPECT_EQ(d.Capacity().Get(registry_.Intern(kNvidiaGpu)), 0);
  Labels labels;
  d.AddNodeLabels(&labels);
  EXPECT_EQ(labels["nvidia.com/gpu.count"], "8");
  d.CheckInvariants();
}

// Issue 52: a pod already running keeps the devices its claim's allocation
// names; a recorded device that is held, or a name the slice lacks, falls
// back to first fit.
TEST_F(DraGpuDevicesTest, RecordedDevicesAreKept) {
  DraGpuDevices d("node-a", Model("A100-80GB"), 4, {}, registry_);
  const DeviceAllocation a =
      d.AllocateRecorded(Ask("gpu.nvidia.com", 2), {"gpu-3", "gpu-1"});
  ASSERT_EQ(a.grants.size(), 2u);
  EXPECT_EQ(a.grants[0].gpu, 3);
  EXPECT_EQ(a.grants[1].gpu, 1);
  EXPECT_EQ(d.HeldDevices(), (std::vector<std::string>{"gpu-1", "gpu-3"}));
  // gpu-3 is held: first fit instead (gpu-0).
  const DeviceAllocation b =
      d.AllocateRecorded(Ask("gpu.nvidia.com", 1), {"gpu-3"});
  ASSERT_EQ(b.grants.size(), 1u);
  EXPECT_EQ(b.grants[0].gpu, 0);
  // A name not in the slice: first fit (gpu-2).
  const DeviceAllocation c =
      d.AllocateRecorded(Ask("gpu.nvidia.com", 1), {"gpu-9"});
  ASSERT_EQ(c.grants.size(), 1u);
  EXPECT_EQ(c.grants[0].gpu, 2);
  d.CheckInvariants();
  d.Release(a);
  EXPECT_EQ(d.HeldDevices(), (std::vector<std::string>{"gpu-0", "gpu-2"}));
}

TEST_F(DraGpuDevicesTest, RecordedDevicesWithMemorySharesKeepTheirDevice) {
  DraPoolSettings memory;
  memory.consumable_shares = DraConsumableShares::kMemoryShares;
  DraGpuDevices d("node-a", Model("L4"), 2, {}, registry_, memory);
  const ResourceId mib = registry_.Intern(std::string(kDraMemoryResource));
  ResourceList ask = Ask("gpu.nvidia.com", 1);
  ask.Set(mib, 6144);
  // Three 6 GiB claims recorded on gpu-1, first fit would take gpu-0.
  for (int k = 0; k < 3; ++k) {
    const DeviceAllocation a = d.AllocateRecorded(ask, {"gpu-1"});
    ASSERT_EQ(a.grants.size(), 1u);
    EXPECT_EQ(a.grants[0].gpu, 1);
    EXPECT_EQ(a.grants[0].claim_memory_mib, 6144);
  }
  // A fourth does not fit beside them (3 x 6144 of the L4's memory left
  // less than 6144): it goes to gpu-0, never over the device's memory.
  const DeviceAllocation fourth = d.AllocateRecorded(ask, {"gpu-1"});
  ASSERT_EQ(fourth.grants.size(), 1u);
  EXPECT_EQ(fourth.grants[0].gpu, 0);
  d.CheckInvariants();
}

TEST_F(DraGpuDevicesTest, FirstFitInSliceOrderAndTheNextPodGetsTheNext) {
  DraGpuDevices d("node-a", Model("A100-80GB"), 8, {}, registry_);
  ResourceClaim claim;
  ASSERT_TRUE(d.DraClaimFor(Ask("gpu.nvidia.com", 2), &claim));
  ASSERT_EQ(claim.spec.requests.size(), 1u);
  EXPECT_EQ(claim.spec.requests[0].exactly.device_class_name,
            "gpu.nvidia.com");
  EXPECT_EQ(claim.spec.requests[0].exactly.count, 2);

  std::string_view reason;
  ASSERT_TRUE(d.Fits(Ask("gpu.nvidia.com", 2), &reason));
  const DeviceAllocation first = d.Allocate(Ask("gpu.nvidia.com", 2));
  ASSERT_EQ(first.grants.size(), 2u);
  EXPECT_EQ(first.grants[0].gpu, 0);
  EXPECT_EQ(first.grants[1].gpu, 1);
  EXPECT_EQ(first.grants[0].instance, -1);
  EXPECT_EQ(first.grants[0].memory_mib, Model("A100-80GB").memory_mib);
  const DeviceAllocation second = d.Allocate(Ask("gpu.nvidia.com", 1));
  ASSERT_EQ(second.grants.size(), 1u);
  EXPECT_EQ(second.grants[0].gpu, 2);
  EXPECT_EQ(d.HeldDevices(),
            (std::vector<std::string>{"gpu-0", "gpu-1", "gpu-2"}));
  // Five left: six do not fit, in upstream's words.
  EXPECT_FALSE(d.Fits(Ask("gpu.nvidia.com", 6), &reason));
  EXPECT_EQ(reason, kDraCannotAllocateAllClaims);
  EXPECT_TRUE(d.Fits(Ask("gpu.nvidia.com", 5), &reason));
  // The first pod ends: its devices are the first free ones again.
  d.Release(first);
  const DeviceAllocation third = d.Allocate(Ask("gpu.nvidia.com", 1));
  EXPECT_EQ(third.grants[0].gpu, 0);
  d.CheckInvariants();
  // The preemption dry run puts a released allocation back.
  d.Release(second);
  d.Reacquire(second);
  EXPECT_EQ(d.HeldDevices(), (std::vector<std::string>{"gpu-0", "gpu-2"}));
}

TEST_F(DraGpuDevicesTest, UnhealthyDevicesAreNeverAllocated) {
  DraGpuDevices d("node-a", Model("A100-80GB"), 2, {}, registry_);
  d.SetHealthy(0, -1, false);
  const ResourceId gpu = registry_.Intern(DraClassResourceName("gpu.nvidia.com"));
  EXPECT_EQ(d.Allocatable().Get(gpu), 1);
  EXPECT_FALSE(d.Fits(Ask("gpu.nvidia.com", 2), nullptr));
  EXPECT_EQ(d.Allocate(Ask("gpu.nvidia.com", 1)).grants[0].gpu, 1);
  d.CheckInvariants();
}

TEST_F(DraGpuDevicesTest, MigDevicesByProfileClass) {
  const GpuModel& h100 = Model("H100-80GB");
  const MigLayout layout =
      ResolveMigLayout(h100, {"3g.40gb@4", "2g.20gb@0", "1g.10gb@2",
                              "1g.10gb@3"});
  DraGpuDevices d("node-m", h100, 2, {layout, layout}, registry_);
  EXPECT_EQ(d.classes().size(), 4u);  // gpu.nvidia.com and three profiles
  const ResourceId small =
      registry_.Intern(DraClassResourceName("mig-1g-10gb.gpu.nvidia.com"));
  EXPECT_EQ(d.Capacity().Get(small), 4);
  const DeviceAllocation a = d.Allocate(Ask("mig-1g-10gb.gpu.nvidia.com", 1));
  ASSERT_EQ(a.grants.size(), 1u);
  // gpu-0-mig-1g10gb-19-2: GPU 0, the instance starting at slice 2.
  EXPECT_EQ(a.grants[0].gpu, 0);
  EXPECT_EQ(layout[a.grants[0].instance].start, 2);
  EXPECT_EQ(a.grants[0].memory_mib,
            h100.mig->profiles[layout[a.grants[0].instance].profile]
                .memory_mib);
  const DeviceAllocation b = d.Allocate(Ask("mig-3g-40gb.gpu.nvidia.com", 2));
  ASSERT_EQ(b.grants.size(), 2u);
  EXPECT_EQ(b.grants[0].gpu, 0);
  EXPECT_EQ(b.grants[1].gpu, 1);
  EXPECT_FALSE(d.Fits(Ask("mig-3g-40gb.gpu.nvidia.com", 1), nullptr));
  // No whole GPU is published while MIG is on.
  EXPECT_FALSE(d.Fits(Ask("gpu.nvidia.com", 1), nullptr));
  d.CheckInvariants();
}

}  // namespace
}  // namespace gpushare
