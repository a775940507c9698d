// OpenGpuSharePolicy: the common base of the FGD paper's six scheduling
// policies (Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD).
//
// Contract: each policy is a ScorePlugin over nodes with an Open-Gpu-Share
// device plugin (cluster/open_gpu_share_device_plugin.h) and a GpuSelector
// for Reserve. The base reads what the policies need of a pod — CPU and
// memory requests and the decoded alibabacloud.com/gpu-milli ask — once per
// cycle in PreScore (PodOf() computes it on the fly for a pod PreScore did
// not see), and gives the node's CPU left and GPU state. The default Reserve
// choice is best fit (allocateGpuIdBasedOnBestFit). Scores are raw 0..100
// values; none needs Normalize unless the policy says so. Single-threaded.
// Score reads only the pod's requests and the node's resources and hosted
// pods, so a caller may memoise it per (pod shape, node state).

#ifndef GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_POLICY_H_
#define GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_POLICY_H_

#include <cstdint>
#include <vector>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/cluster/node.h"
#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sched/framework.h"
#include "gpushare/sched/gpu_selector.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

// The artifact's normalisation constants (open-gpu-share/utils/const.go
// L15-17): the largest node's CPU (128 cores) and GPUs (8) in milli.
inline constexpr double kMaxSpecCpuMilli = 128000;
inline constexpr int64_t kMaxSpecGpuMilli = 8000;

// What the policies read of a pod.
struct OpenGpuSharePod {
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  OpenGpuShareRequest gpu;
  int64_t total_gpu_milli() const { return gpu.gpus * gpu.milli_per_gpu; }
};

class OpenGpuSharePolicy : public ScorePlugin, public GpuSelector {
 public:
  explicit OpenGpuSharePolicy(ResourceRegistry& registry);

  bool PreScore(const Pod& pod) override;
  std::vector<int> SelectGpus(const Pod& pod, const Node& node) override;

 protected:
  const OpenGpuSharePod& PodOf(const Pod& pod) const;
  // The node's Open-Gpu-Share state (GS_CHECK that it has one).
  static const OpenGpuShareDevicePlugin& DevicesOf(
      const Node& node GS_LIFETIMEBOUND);
  static int64_t CpuLeftMilli(const Node& node) {
    return node.Allocatable(ResourceRegistry::kCpuId) -
           node.Requested(ResourceRegistry::kCpuId);
  }

 private:
  ResourceId gpu_milli_id_;
  const Pod* prepared_ = nullptr;
  OpenGpuSharePod prepared_pod_;
  mutable OpenGpuSharePod scratch_pod_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_POLICY_H_
