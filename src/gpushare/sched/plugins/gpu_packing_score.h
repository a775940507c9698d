// GpuPackingScore: the FGD paper's GpuPacking policy: share used GPUs first,
// then free GPUs of used nodes, then free nodes.
//
// Contract (plugin/gpu_packing_score.go L71-117): a CPU-only pod scores 0.
// (3) every GPU of the node free: max(33 - #free GPUs, #free GPUs);
// otherwise pick GPUs smallest-idle-first (stable by index) among those with
// the per-GPU share idle: (2) when a picked GPU is fully free:
// max(50 - #fully free GPUs picked, 33); (1) otherwise
// max(100 - sum over picked GPUs of (idle x 100 / 1000) / 10, 50), integer
// arithmetic. A pod that cannot be placed scores 0. Reserve: best fit.

#ifndef GPUSHARE_SCHED_PLUGINS_GPU_PACKING_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_GPU_PACKING_SCORE_H_

#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class GpuPackingScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "GpuPacking";

  using OpenGpuSharePolicy::OpenGpuSharePolicy;
  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod& pod, const Node& node) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_GPU_PACKING_SCORE_H_
