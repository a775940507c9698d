// The allocator's KEP-4815 counter check on an H100-80GB dynamic MIG slice,
// worked out by hand: what allocated devices consume, and backtracking that
// gives counters back (allocator_stable.go checkAvailableCounters,
// deallocateCountersForDevice).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/dynamic_mig_gpus.h"
#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"

namespace gpushare {
namespace {

class DraCounterAllocatorTest : public ::testing::Test {
 protected:
  DraCounterAllocatorTest() {
    node_.node_name = "n";
    node_.model = catalog_.Find("H100-80GB");
    node_.gpu_count = 1;
    slice_ = NvidiaPartitionableResourceSlice(node_);
    classes_.push_back(NvidiaGpuDeviceClass());
    for (const MigProfile& p : node_.model->mig->profiles) {
      classes_.push_back(NvidiaMigProfileDeviceClass(p.name));
    }
  }

  static DraDeviceRequest Request(const std::string& name,
                                  const std::string& device_class) {
    DraDeviceRequest r;
    r.name = name;
    r.has_exactly = true;
    r.exactly.device_class_name = device_class;
    r.exactly.count = 1;
    return r;
  }

  // The devices the claim gets, "a,b", or "" when none.
  std::string Allocate(const std::vector<DraDeviceRequest>& requests,
                       const std::vector<std::string>& held) {
    ResourceClaim claim;
    claim.name = "c";
    claim.spec.requests = requests;
    ValidateResourceClaimSpec(claim.name, claim.spec, classes_);
    AllocatedDevices allocated;
    for (const std::string& d : held) {
      allocated.exclusive.push_back({"gpu.nvidia.com", "n", d});
    }
    DraAllocator allocator({&slice_}, &classes_, allocated);
    const AllocationOutcome out = allocator.Allocate("n", {&claim});
    if (out.status != AllocationOutcome::Status::kAllocated) return "";
    std::string s;
    for (const auto& d : out.results[0].devices) {
      s += (s.empty() ? "" : ",") + d.device;
    }
    return s;
  }

  Catalog catalog_ = Catalog::Builtin();
  NvidiaGpuNode node_;
  ResourceSlice slice_;
  std::vector<DeviceClass> classes_;
};

TEST_F(DraCounterAllocatorTest, AllocatedDevicesConsumeTheirCounters) {
  // Nothing held: the 1g goes to start 0.
  EXPECT_EQ(Allocate({Request("a", "mig-1g-10gb.gpu.nvidia.com")}, {}),
            "gpu-0-mig-1g10gb-19-0");
  // The whole GPU consumes every memory slice: no instance fits.
  EXPECT_EQ(Allocate({Request("a", "mig-1g-10gb.gpu.nvidia.com")}, {"gpu-0"}),
            "");
  // A 1g at 0 holds memory-slice-0: the whole GPU does not fit; a 3g goes
  // to 4.
  EXPECT_EQ(Allocate({Request("a", "gpu.nvidia.com")},
                     {"gpu-0-mig-1g10gb-19-0"}),
            "");
  EXPECT_EQ(Allocate({Request("a", "mig-3g-40gb.gpu.nvidia.com")},
                     {"gpu-0-mig-1g10gb-19-0"}),
            "gpu-0-mig-3g40gb-9-4");
}

// A 1g at 5 is live, so 3g.40gb fits only at 0 ([0,4)). A claim asking a
// 1g and a 3g: first fit puts the 1g at 0, then no 3g fits ([0,4) holds
// the new 1g, [4,8) the one at 5); the search backtracks, giving back the
// 1g's counters, and tries the 1g at 1, 2, 3 (each inside [0,4)) and at 4,
// where the 3g at 0 fits. Picking one profile at a time (DynamicMigGpus
// FirstFit) would have failed: claims of several profiles need the search.
TEST_F(DraCounterAllocatorTest, BacktrackingGivesCountersBack) {
  const std::vector<std::string> held = {"gpu-0-mig-1g10gb-19-5"};
  EXPECT_EQ(Allocate({Request("small", "mig-1g-10gb.gpu.nvidia.com"),
                      Request("big", "mig-3g-40gb.gpu.nvidia.com")},
                     held),
            "gpu-0-mig-1g10gb-19-4,gpu-0-mig-3g40gb-9-0");
  DynamicMigGpus greedy(*node_.model, 1);
  for (size_t k = 0; k < greedy.partitions().size(); ++k) {
    if (greedy.DeviceName(static_cast<int>(k)) == held[0]) {
      greedy.Take(static_cast<int>(k));
    }
  }
  greedy.Take(greedy.FirstFit(0));  // 1g.10gb: profile 0, at start 0
  EXPECT_EQ(greedy.FirstFit(4), -1);  // 3g.40gb: profile 4
}

}  // namespace
}  // namespace gpushare
