// Tests of the Open-Gpu-Share device plugin: requests, fit, GPU choice,
// release and the affinity counts GpuClustering reads.

#include "gpushare/cluster/open_gpu_share_device_plugin.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

ResourceList Ask(ResourceRegistry& registry, int64_t total_milli) {
  ResourceList r;
  r.Set(registry.Intern(kOpenGpuShareGpuMilli), total_milli);
  return r;
}

TEST(OpenGpuShareRequestTest, DecodesTotalShare) {
  EXPECT_EQ(OpenGpuShareRequestOf(0).gpus, 0);
  EXPECT_EQ(OpenGpuShareRequestOf(470).gpus, 1);
  EXPECT_EQ(OpenGpuShareRequestOf(470).milli_per_gpu, 470);
  EXPECT_TRUE(OpenGpuShareRequestOf(470).sharing());
  EXPECT_FALSE(OpenGpuShareRequestOf(1000).sharing());
  EXPECT_EQ(OpenGpuShareRequestOf(4000).gpus, 4);
  EXPECT_EQ(OpenGpuShareRequestOf(4000).milli_per_gpu, 1000);
  EXPECT_EQ(OpenGpuShareRequestOf(470).affinity(), 0);
  EXPECT_EQ(OpenGpuShareRequestOf(2000).affinity(), 2);
  EXPECT_EQ(OpenGpuShareRequestOf(0).affinity(), kNoAffinity);
}

TEST(OpenGpuShareDevicePluginTest, AdvertisesAndLabels) {
  ResourceRegistry registry;
  OpenGpuShareDevicePlugin plugin("G2", 8, registry);
  EXPECT_EQ(plugin.Capacity().Get(registry.Find(kOpenGpuShareGpuMilli)), 8000);
  EXPECT_EQ(plugin.Capacity().Get(registry.Find(kOpenGpuShareGpuCount)), 8);
  Labels labels;
  plugin.AddNodeLabels(&labels);
  EXPECT_EQ(labels.at(std::string(kOpenGpuShareCardModelLabel)), "G2");
}

TEST(OpenGpuShareDevicePluginTest, BestFitSharesTheFullestGpuThatFits) {
  ResourceRegistry registry;
  OpenGpuShareDevicePlugin plugin("T4", 3, registry);
  plugin.Allocate(Ask(registry, 600));  // GPU 0 -> 400 left
  plugin.Allocate(Ask(registry, 800));  // GPU 1 (0 has too little) -> 200
  EXPECT_EQ(plugin.milli_left(), (std::vector<int64_t>{400, 200, 1000}));
  // 300 fits GPUs 0 and 2; 0 has the least idle share.
  const DeviceAllocation a = plugin.Allocate(Ask(registry, 300));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].gpu, 0);
  EXPECT_EQ(plugin.total_milli_left(), 1300);
  std::string_view reason;
  EXPECT_FALSE(plugin.Fits(Ask(registry, 2000), &reason));
  EXPECT_EQ(reason, "Insufficient alibabacloud.com/gpu-milli");
  EXPECT_TRUE(plugin.Fits(Ask(registry, 1000), &reason));
  EXPECT_EQ(plugin.ExclusiveGpus(1), (std::vector<int>{2}));
  EXPECT_TRUE(plugin.ExclusiveGpus(2).empty());
  plugin.Release(a);
  EXPECT_EQ(plugin.milli_left()[0], 400);
  plugin.CheckInvariants();
}

TEST(OpenGpuShareDevicePluginTest, CountsAffinityClasses) {
  ResourceRegistry registry;
  OpenGpuShareDevicePlugin plugin("G2", 8, registry);
  EXPECT_EQ(plugin.affinity_classes(), 0);
  const DeviceAllocation share = plugin.Allocate(Ask(registry, 500));
  plugin.Allocate(Ask(registry, 500));
  EXPECT_EQ(plugin.PodsWithAffinity(0), 2);
  EXPECT_EQ(plugin.affinity_classes(), 1);
  const DeviceAllocation two = plugin.Allocate(Ask(registry, 2000));
  EXPECT_EQ(two.grants.size(), 2u);
  EXPECT_EQ(two.grants[0].gpu, 1);  // GPU 0 is shared; 1 and 2 are free
  EXPECT_EQ(two.grants[1].gpu, 2);
  EXPECT_EQ(plugin.PodsWithAffinity(2), 1);
  EXPECT_EQ(plugin.affinity_classes(), 2);
  plugin.Release(two);
  EXPECT_EQ(plugin.affinity_classes(), 1);
  EXPECT_EQ(plugin.fully_free_gpus(), 7);
  plugin.Release(share);
  EXPECT_EQ(plugin.PodsWithAffinity(0), 1);
  plugin.CheckInvariants();
}

}  // namespace
}  // namespace gpushare
