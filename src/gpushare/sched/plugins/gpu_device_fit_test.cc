#include "gpushare/sched/plugins/gpu_device_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {
namespace gpu_device_fit_test {
namespace {

using ::testing::ElementsAre;

// One node per scheme, all A100-80GB (81920 MiB), plus a node without GPUs.
class GpuDeviceFitTest : public ::testing::Test {
 protected:
  enum NodeIndex { kExclusive, kTimeSlicing, kMig, kHami, kCpuOnly };

  GpuDeviceFitTest() : cluster_(Catalog::Builtin()) {
    AddGpuPool("excl", ExclusiveSharing(), 2);
    AddGpuPool("ts", TimeSlicingSharing(4), 1);
    AddGpuPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"), 1);
    AddGpuPool("hami", HamiSharing(), 1);
    NodePoolSpec cpu;
    cpu.name = "cpu";
    cpu.gpus_per_node = 0;
    cluster_.AddPool(cpu);
  }

  void AddGpuPool(std::string name, SharingConfig sharing, int gpus) {
    NodePoolSpec spec;
    spec.name = std::move(name);
    spec.gpu_model = "A100-80GB";
    spec.gpus_per_node = gpus;
    spec.sharing = std::move(sharing);
    cluster_.AddPool(spec);
  }

  ResourceId Id(std::string_view name) {
    return cluster_.resources().Intern(name);
  }
  Node& node(NodeIndex i) { return cluster_.nodes()[i]; }

  Pod PodWith(std::vector<std::pair<std::string_view, int64_t>> requests) {
    Pod pod;
    pod.requests.Set(ResourceRegistry::kCpuId, 1000);
    pod.requests.Set(ResourceRegistry::kMemoryId, 1024);
    for (const auto& [name, quantity] : requests) {
      pod.requests.Set(Id(name), quantity);
    }
    return pod;
  }

  // Reserves the pod's devices on `n` (Fits must hold).
  void Place(NodeIndex n, const Pod& pod) {
    ASSERT_TRUE(plugin_.Filter(pod, node(n), nullptr));
    node(n).devices()->Allocate(pod.requests);
    node(n).Reserve(pod.requests);
  }

  std::vector<std::string> Reasons(const Pod& pod, NodeIndex n) {
    std::vector<std::string_view> reasons;
    EXPECT_FALSE(plugin_.Filter(pod, node(n), &reasons));
    EXPECT_FALSE(plugin_.Filter(pod, node(n), nullptr));
    return std::vector<std::string>(reasons.begin(), reasons.end());
  }

  Cluster cluster_;
  GpuDeviceFit plugin_{cluster_.resources()};
};

// Pods without extended requests pass every node, even one without GPUs.
TEST_F(GpuDeviceFitTest, CpuOnlyPodsPass) {
  Pod pod = PodWith({});
  for (NodeIndex n : {kExclusive, kTimeSlicing, kMig, kHami, kCpuOnly}) {
    EXPECT_TRUE(plugin_.Filter(pod, node(n), nullptr)) << n;
  }
  EXPECT_TRUE(plugin_.Filter(Pod(), node(kCpuOnly), nullptr));
  EXPECT_FALSE(plugin_.Static());
}

TEST_F(GpuDeviceFitTest, NodeWithoutDevicesFails) {
  EXPECT_THAT(Reasons(PodWith({{kNvidiaGpu, 1}}), kCpuOnly),
              ElementsAre("node(s) had no GPU devices"));
}

// Device plugin, MIG strategy none: whole GPUs; a request fits only while that
// many GPUs are free.
TEST_F(GpuDeviceFitTest, ExclusiveWholeGpus) {
  EXPECT_TRUE(
      plugin_.Filter(PodWith({{kNvidiaGpu, 2}}), node(kExclusive), nullptr));
  Place(kExclusive, PodWith({{kNvidiaGpu, 1}}));  // 1 of 2 left
  EXPECT_THAT(Reasons(PodWith({{kNvidiaGpu, 2}}), kExclusive),
              ElementsAre("node(s) did not have enough free GPU devices"));
  Place(kExclusive, PodWith({{kNvidiaGpu, 1}}));
  EXPECT_FALSE(
      plugin_.Filter(PodWith({{kNvidiaGpu, 1}}), node(kExclusive), nullptr));
}

// Device plugin time-slicing with 4 replicas: one GPU serves 4 pods, not 5.
TEST_F(GpuDeviceFitTest, TimeSlicingReplicas) {
  const Pod pod = PodWith({{kNvidiaGpu, 1}});
  for (int i = 0; i < 4; ++i) Place(kTimeSlicing, pod);
  EXPECT_THAT(Reasons(pod, kTimeSlicing),
              ElementsAre("node(s) did not have enough free GPU devices"));
}

// Device plugin mixed MIG strategy: an instance of the requested profile must
// be free (all-balanced: 1×3g.40gb, 2×1g.10gb per GPU).
TEST_F(GpuDeviceFitTest, MigInstanceOfProfile) {
  const Pod big = PodWith({{"nvidia.com/mig-3g.40gb", 1}});
  Place(kMig, big);
  EXPECT_THAT(Reasons(big, kMig),
              ElementsAre("node(s) did not have enough free GPU devices"));
  const Pod small = PodWith({{"nvidia.com/mig-1g.10gb", 2}});
  EXPECT_TRUE(plugin_.Filter(small, node(kMig), nullptr));
  // A whole-GPU request finds no nvidia.com/gpu device on a mixed MIG node.
  EXPECT_FALSE(plugin_.Filter(PodWith({{kNvidiaGpu, 1}}), node(kMig), nullptr));
}

// HAMi Fit (pkg/device/nvidia/device.go): a vGPU whose memory request exceeds
// the card's free memory fails with CardInsufficientMemory.
TEST_F(GpuDeviceFitTest, HamiMemoryShort) {
  Place(kHami, PodWith({{kNvidiaGpu, 1}, {kHamiGpuMem, 60000}}));
  // Free 81920 − 60000 = 21920 MiB < 30000.
  EXPECT_THAT(Reasons(PodWith({{kNvidiaGpu, 1}, {kHamiGpuMem, 30000}}), kHami),
              ElementsAre("CardInsufficientMemory"));
  EXPECT_TRUE(plugin_.Filter(PodWith({{kNvidiaGpu, 1}, {kHamiGpuMem, 20000}}),
                             node(kHami), nullptr));
  // HAMi does not serve MIG resources.
  EXPECT_FALSE(plugin_.Filter(PodWith({{"nvidia.com/mig-1g.10gb", 1}}),
                              node(kHami), nullptr));
}

}  // namespace
}  // namespace gpu_device_fit_test
}  // namespace gpushare
