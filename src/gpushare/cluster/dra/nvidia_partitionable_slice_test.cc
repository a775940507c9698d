// The DynamicMIG ResourceSlice of an H100-80GB node, checked by hand against
// the catalog's geometry (catalog/gpus.yaml) and the NVIDIA DRA driver's
// KEP-4815 announcement (cmd/gpu-kubelet-plugin/partitions.go, commit
// 95932046).

#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpushare/catalog/catalog.h"

namespace gpushare {
namespace {

constexpr int64_t kPartTestMi = int64_t{1} << 20;

// "name=value,..." of one consumption or counter list.
std::string PartTestCounters(const std::vector<DeviceCounter>& counters) {
  std::string out;
  for (const DeviceCounter& c : counters) {
    out += (out.empty() ? "" : ",") + c.name + "=" + std::to_string(c.value);
  }
  return out;
}

class NvidiaPartitionableSliceTest : public ::testing::Test {
 protected:
  ResourceSlice H100Slice(int gpus, std::vector<NvidiaPartition>* places) {
    NvidiaGpuNode node;
    node.node_name = "node-d";
    node.model = catalog_.Find("H100-80GB");
    node.gpu_count = gpus;
    return NvidiaPartitionableResourceSlice(node, places);
  }
  Catalog catalog_ = Catalog::Builtin();
};

TEST_F(NvidiaPartitionableSliceTest, OneCounterSetPerGpuWithEverySlice) {
  const ResourceSlice slice = H100Slice(2, nullptr);
  ASSERT_EQ(slice.shared_counters.size(), 2u);
  EXPECT_EQ(slice.shared_counters[0].name, "gpu-0-counter-set");
  EXPECT_EQ(slice.shared_counters[1].name, "gpu-1-counter-set");
  // The maxima over all profiles are the 7g.80gb's: 132 SMs, 81152 MiB.
  EXPECT_EQ(PartTestCounters(slice.shared_counters[0].counters),
            "multiprocessors=132,memory=" + std::to_string(81152 * kPartTestMi) +
                ",memory-slice-0=1,memory-slice-1=1,memory-slice-2=1,"
                "memory-slice-3=1,memory-slice-4=1,memory-slice-5=1,"
                "memory-slice-6=1,memory-slice-7=1");
}

TEST_F(NvidiaPartitionableSliceTest, EveryPlacementOfEveryProfileByName) {
  std::vector<NvidiaPartition> places;
  const ResourceSlice slice = H100Slice(1, &places);
  // H100-80GB starts: 1g.10gb 0-6 (7), 1g.10gb+me 0-6 (7), 1g.20gb 0,2,4,6
  // (4), 2g.20gb 0,2,4 (3), 3g.40gb 0,4 (2), 4g.40gb 0, 7g.80gb 0: 25
  // placements and the whole GPU.
  ASSERT_EQ(slice.devices.size(), 26u);
  ASSERT_EQ(places.size(), 26u);
  EXPECT_EQ(slice.devices[0].name, "gpu-0");
  EXPECT_EQ(slice.devices[1].name, "gpu-0-mig-1g10gb-19-0");
  EXPECT_EQ(slice.devices[7].name, "gpu-0-mig-1g10gb-19-6");
  EXPECT_EQ(slice.devices[8].name, "gpu-0-mig-1g10gb-me-20-0");
  EXPECT_EQ(slice.devices[15].name, "gpu-0-mig-1g20gb-15-0");
  EXPECT_EQ(slice.devices[19].name, "gpu-0-mig-2g20gb-14-0");
  EXPECT_EQ(slice.devices[22].name, "gpu-0-mig-3g40gb-9-0");
  EXPECT_EQ(slice.devices[23].name, "gpu-0-mig-3g40gb-9-4");
  EXPECT_EQ(slice.devices[24].name, "gpu-0-mig-4g40gb-5-0");
  EXPECT_EQ(slice.devices[25].name, "gpu-0-mig-7g80gb-0-0");
  for (size_t k = 1; k < slice.devices.size(); ++k) {
    EXPECT_LT(slice.devices[k - 1].name, slice.devices[k].name);
  }
  EXPECT_EQ(places[23], (NvidiaPartition{0, 4, 4}));  // profile 4: 3g.40gb
}

TEST_F(NvidiaPartitionableSliceTest, ThreeGAtFourConsumesSlicesFourToSeven) {
  const ResourceSlice slice = H100Slice(1, nullptr);
  const Device* d = slice.FindDevice("gpu-0-mig-3g40gb-9-4");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->consumes_counters.size(), 1u);
  EXPECT_EQ(d->consumes_counters[0].counter_set, "gpu-0-counter-set");
  // 3 compute slices but 4 memory slices (catalog: sms 60, 40448 MiB).
  EXPECT_EQ(PartTestCounters(d->consumes_counters[0].counters),
            "multiprocessors=60,memory=" + std::to_string(40448 * kPartTestMi) +
                ",memory-slice-4=1,memory-slice-5=1,memory-slice-6=1,"
                "memory-slice-7=1");
  // No memorySlice<i> capacities on the dynamic path (CommonCapacitiesMig).
  EXPECT_EQ(d->capacities.size(), 2u);
  EXPECT_EQ(d->FindCapacity("gpu.nvidia.com", "multiprocessors")->value, 60);
  EXPECT_EQ(d->FindAttribute("gpu.nvidia.com", "type")->string_value(), "mig");
  // The whole GPU consumes every counter of its set.
  const Device* whole = slice.FindDevice("gpu-0");
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(PartTestCounters(whole->consumes_counters[0].counters),
            PartTestCounters(slice.shared_counters[0].counters));
  EXPECT_EQ(whole->FindCapacity("gpu.nvidia.com", "memory")->value,
            81152 * kPartTestMi);
}

// Ampere cannot toggle MIG mode without a reset: the driver publishes only
// the placements (MIG mode enabled beforehand), still with the counter set.
TEST_F(NvidiaPartitionableSliceTest, AmperePublishesNoFullGpu) {
  NvidiaGpuNode node;
  node.node_name = "node-a";
  node.model = catalog_.Find("A100-40GB");
  node.gpu_count = 1;
  const ResourceSlice slice = NvidiaPartitionableResourceSlice(node);
  EXPECT_FALSE(NvidiaMigModeToggles(*node.model));
  EXPECT_EQ(slice.FindDevice("gpu-0"), nullptr);
  ASSERT_EQ(slice.shared_counters.size(), 1u);
  EXPECT_EQ(slice.devices.front().name, "gpu-0-mig-1g10gb-15-0");
}

}  // namespace
}  // namespace gpushare
