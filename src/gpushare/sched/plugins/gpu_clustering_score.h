// GpuClusteringScore: the FGD paper's GpuClustering policy: keep pods of one
// kind together.
//
// Contract (plugin/gpu_clustering_score.go L32-56): a pod's class is "share"
// (one GPU, below 1000 milli) or "<k>-gpu"; a CPU-only pod scores 0
// everywhere. Base = 25 x (8000 - total idle GPU share) / 8000 in integer
// arithmetic; plus 75 when the node hosts only GPU pods of the pod's class,
// 50 when it hosts that class among others, 25 when it hosts no GPU pod,
// 0 when it hosts only other classes. Reserve: best fit.

#ifndef GPUSHARE_SCHED_PLUGINS_GPU_CLUSTERING_SCORE_H_
#define GPUSHARE_SCHED_PLUGINS_GPU_CLUSTERING_SCORE_H_

#include "gpushare/sched/plugins/open_gpu_share_policy.h"

namespace gpushare {

class GpuClusteringScore : public OpenGpuSharePolicy {
 public:
  static constexpr std::string_view kName = "GpuClustering";

  using OpenGpuSharePolicy::OpenGpuSharePolicy;
  std::string_view Name() const override { return kName; }
  int64_t Score(const Pod& pod, const Node& node) const override;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGINS_GPU_CLUSTERING_SCORE_H_
