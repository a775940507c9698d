// OpenGpuShareFit: the filters of the FGD paper's scheduler profile — kube's
// NodeResourcesFit on pods, CPU and memory, and the Open-Gpu-Share filter.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator
// pkg/simulator/plugin/open_gpu_share.go Filter L81-110): a node passes
// when it has room for one more pod, the pod's CPU and memory requests fit
// what is left of its allocatable, and — for a pod asking for
// alibabacloud.com/gpu-milli — the node has Open-Gpu-Share GPUs, its card
// model is allowed by the pod's required node affinity on
// alibabacloud.com/gpu-card-model (an In list, the trace's gpu_spec; none:
// any model), and enough GPUs have the pod's per-GPU share idle. A pod
// without a GPU ask passes the GPU part on any node. Reasons are kube-style
// and static. PreFilter reads the pod's model list once per cycle.

#ifndef GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_FIT_H_
#define GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_FIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/sched/framework.h"

namespace gpushare {

class OpenGpuShareFit : public FilterPlugin {
 public:
  static constexpr std::string_view kName = "Open-Gpu-Share";

  explicit OpenGpuShareFit(ResourceRegistry& registry);

  std::string_view Name() const override { return kName; }
  void PreFilter(const Pod& pod) override;
  bool Filter(const Pod& pod, const Node& node,
              std::vector<std::string_view>* reasons) const override;

  // The models the pod's required affinity allows; empty: any.
  static std::vector<std::string> AllowedCardModels(const Pod& pod);

 private:
  static bool Check(int64_t cpu, int64_t memory, const OpenGpuShareRequest& gpu,
                    const std::vector<std::string>& allowed, const Node& node,
                    std::vector<std::string_view>* reasons);

  ResourceId gpu_milli_id_;
  const Pod* prepared_ = nullptr;
  int64_t cpu_ = 0;
  int64_t memory_ = 0;
  OpenGpuShareRequest gpu_;
  std::vector<std::string> allowed_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_OPEN_GPU_SHARE_FIT_H_
