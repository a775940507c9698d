// TargetPool for pods whose imported ResourceClaims ask a DeviceClass
// (Pod::dra_device_class): the first DRA pool serving the class.

#include <gtest/gtest.h>

#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {
namespace {

TEST(DraTargetPoolTest, TheClaimClassChoosesTheTargetPool) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec plugin;
  plugin.name = "plugin";
  plugin.gpu_model = "A100-40GB";
  plugin.gpus_per_node = 1;
  cluster.AddPool(plugin);
  NodePoolSpec whole = plugin;
  whole.name = "dra";
  whole.gpus_per_node = 8;
  whole.devices = PoolDevices::kDra;
  cluster.AddPool(whole);
  NodePoolSpec mig = whole;
  mig.name = "dra-mig";
  mig.gpus_per_node = 1;
  mig.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  cluster.AddPool(mig);

  Pod pod;
  pod.name = "p";
  pod.needs.gpus = 1;
  EXPECT_EQ(TargetPool(pod, cluster), 0);
  pod.dra_device_class = "gpu.nvidia.com";
  EXPECT_EQ(TargetPool(pod, cluster), 1);
  pod.dra_device_class = "mig-2g-10gb.gpu.nvidia.com";
  EXPECT_EQ(TargetPool(pod, cluster), 2);
  pod.dra_device_class = "mig-7g-40gb.gpu.nvidia.com";  // not all-balanced's
  EXPECT_EQ(TargetPool(pod, cluster), 0);
  // A selector that excludes the serving pool wins.
  pod.dra_device_class = "gpu.nvidia.com";
  pod.node_selector[kNodePoolLabel] = "plugin";
  EXPECT_EQ(TargetPool(pod, cluster), 0);
}

}  // namespace
}  // namespace gpushare
