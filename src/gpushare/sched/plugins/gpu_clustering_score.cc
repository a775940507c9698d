#include "gpushare/sched/plugins/gpu_clustering_score.h"

namespace gpushare {

int64_t GpuClusteringScore::Score(const Pod& pod, const Node& node) const {
  const int affinity = PodOf(pod).gpu.affinity();
  if (affinity == kNoAffinity) return 0;
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  const int64_t quarter = kMaxNodeScore / 4;
  const int64_t base = quarter *
                       (kMaxSpecGpuMilli - devices.total_milli_left()) /
                       kMaxSpecGpuMilli;
  if (devices.PodsWithAffinity(affinity) > 0) {
    return base + (devices.affinity_classes() == 1 ? kMaxNodeScore * 3 / 4
                                                   : kMaxNodeScore * 2 / 4);
  }
  return base + (devices.affinity_classes() == 0 ? quarter : 0);
}

}  // namespace gpushare
