// A shared ResourceClaim through the DynamicResources plugin's steps, by
// hand: the first pod's claim is allocated on the node the allocator fits,
// the second pod that references it is pinned there and takes no device,
// the claim is deallocated only when the last pod ends; a claim reserved for
// 256 pods is "in use" for a 257th.

#include "gpushare/cluster/dra/claim_reservations.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/filter_messages.h"

namespace gpushare {
namespace {

constexpr const char* kSharedClaimDriver = "gpu.nvidia.com";

// A node's slice of `gpus` whole GPUs gpu-0, gpu-1, ...
ResourceSlice SharedClaimSlice(const std::string& node, int gpus) {
  ResourceSlice s;
  s.name = node + "-gpu.nvidia.com";
  s.driver = kSharedClaimDriver;
  s.node_name = node;
  s.pool_name = node;
  for (int i = 0; i < gpus; ++i) {
    Device d;
    d.name = "gpu-" + std::to_string(i);
    d.SetAttribute(kSharedClaimDriver, "type", DeviceAttribute::String("gpu"));
    d.SetCapacity(kSharedClaimDriver, "memory", int64_t{80} << 30);
    s.devices.push_back(std::move(d));
  }
  return s;
}

ResourceClaim SharedClaimOneGpu(const std::string& name) {
  ResourceClaim c;
  c.name = name;
  DraDeviceRequest r;
  r.name = "gpu";
  r.has_exactly = true;
  r.exactly.device_class_name = "gpu.nvidia.com";
  r.exactly.count = 1;
  c.spec.requests.push_back(std::move(r));
  return c;
}

TEST(ClaimReservationsTest, ASharedClaimPinsTheSecondPodToItsNode) {
  const std::vector<DeviceClass> classes = {NvidiaGpuDeviceClass()};
  const ResourceSlice a = SharedClaimSlice("node-a", 1);
  const ResourceSlice b = SharedClaimSlice("node-b", 1);
  const ResourceClaim claim = SharedClaimOneGpu("shared-gpu");
  ValidateResourceClaimSpec(claim.name, claim.spec, classes);
  ClaimReservations reservations;
  const std::vector<std::string> refs = {"shared-gpu"};

  // Pod p1: the claim is unallocated, so Filter is the allocator's on each
  // node; both nodes have a free GPU.
  EXPECT_TRUE(reservations.PreFilter("p1", refs).ok);
  EXPECT_EQ(reservations.Unallocated(refs), refs);
  EXPECT_TRUE(reservations.FilterAllocated(refs, "node-a").ok);
  EXPECT_TRUE(reservations.FilterAllocated(refs, "node-b").ok);
  const AllocationOutcome on_a =
      DraAllocator({&a}, &classes, {}).Allocate("node-a", {&claim});
  ASSERT_EQ(on_a.status, AllocationOutcome::Status::kAllocated);
  // Reserve on node-a (the node the scheduler picked).
  reservations.Allocate("shared-gpu", on_a.results[0]);
  reservations.Reserve("shared-gpu", "p1");

  // Pod p2 references the same claim: nothing to allocate; only node-a.
  EXPECT_TRUE(reservations.PreFilter("p2", refs).ok);
  EXPECT_TRUE(reservations.Unallocated(refs).empty());
  const ClaimCheck on_b = reservations.FilterAllocated(refs, "node-b");
  EXPECT_FALSE(on_b.ok);
  EXPECT_EQ(on_b.message, kDraClaimNotAvailableOnNode);
  EXPECT_EQ(on_b.claim, "shared-gpu");
  EXPECT_TRUE(reservations.FilterAllocated(refs, "node-a").ok);
  reservations.Reserve("shared-gpu", "p2");
  const ClaimReservations::Status& s = reservations.StatusOf("shared-gpu");
  EXPECT_EQ(s.reserved_for, (std::vector<std::string>{"p1", "p2"}));
  ASSERT_EQ(s.allocation.devices.size(), 1u);
  EXPECT_EQ(s.allocation.devices[0].pool, "node-a");
  EXPECT_EQ(s.allocation.devices[0].device, "gpu-0");

  // p1 ends: p2 still holds it. p2 ends: deallocated, gpu-0 free again.
  AllocationResult freed;
  EXPECT_FALSE(reservations.Release("shared-gpu", "p1", &freed));
  EXPECT_TRUE(reservations.StatusOf("shared-gpu").allocated);
  EXPECT_TRUE(reservations.Release("shared-gpu", "p2", &freed));
  ASSERT_EQ(freed.devices.size(), 1u);
  EXPECT_EQ(freed.devices[0].device, "gpu-0");
  EXPECT_FALSE(reservations.StatusOf("shared-gpu").allocated);
  // Unallocated again: a third pod may land on either node.
  EXPECT_TRUE(reservations.FilterAllocated(refs, "node-b").ok);
  EXPECT_EQ(reservations.Unallocated(refs), refs);
}

TEST(ClaimReservationsTest, ReservedForIsFullAt256Pods) {
  ClaimReservations reservations;
  AllocationResult r;
  r.node_name = "node-a";
  reservations.Allocate("c", r);
  for (size_t i = 0; i < kResourceClaimReservedForMaxSize; ++i) {
    reservations.Reserve("c", "p" + std::to_string(i));
  }
  // Reserving one already in the list adds nothing.
  reservations.Reserve("c", "p0");
  EXPECT_EQ(reservations.StatusOf("c").reserved_for.size(), 256u);
  const ClaimCheck full = reservations.PreFilter("p256", {"c"});
  EXPECT_FALSE(full.ok);
  EXPECT_EQ(full.message, kDraClaimInUse);
  // A pod already reserved passes.
  EXPECT_TRUE(reservations.PreFilter("p7", {"c"}).ok);
  // One leaves: room again.
  EXPECT_FALSE(reservations.Release("c", "p3"));
  EXPECT_TRUE(reservations.PreFilter("p256", {"c"}).ok);
}

TEST(ClaimReservationsTest, ReleasingAPodThatHoldsNothingChangesNothing) {
  ClaimReservations reservations;
  EXPECT_FALSE(reservations.Release("unknown", "p"));
  AllocationResult r;
  r.node_name = "node-a";
  reservations.Allocate("c", r);
  reservations.Reserve("c", "p1");
  EXPECT_FALSE(reservations.Release("c", "p2"));
  EXPECT_EQ(reservations.StatusOf("c").reserved_for,
            std::vector<std::string>{"p1"});
}

}  // namespace
}  // namespace gpushare
