#include "gpushare/sched/plugins/dot_product_score.h"

namespace gpushare {

int64_t DotProductScore::Score(const Pod& pod, const Node& node) const {
  const OpenGpuSharePod& p = PodOf(pod);
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  const int64_t cpu_left = CpuLeftMilli(node);
  if (cpu_left < p.cpu_milli) return 0;
  const double max_gpu = static_cast<double>(kMaxSpecGpuMilli);
  const double node_cpu = static_cast<double>(cpu_left) / kMaxSpecCpuMilli;
  const double node_gpu =
      static_cast<double>(devices.total_milli_left()) / max_gpu;
  const double pod_cpu = static_cast<double>(p.cpu_milli) / kMaxSpecCpuMilli;
  const double pod_gpu = static_cast<double>(p.total_gpu_milli()) / max_gpu;
  double dot = 0;
  dot += node_cpu * pod_cpu;
  dot += node_gpu * pod_gpu;
  dot /= 2;
  const double score = 1 - dot;
  return static_cast<int64_t>(static_cast<double>(kMaxNodeScore) * score);
}

}  // namespace gpushare
