#include "gpushare/sched/plugins/gpu_packing_score.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

int64_t GpuPackingScore::Score(const Pod& pod, const Node& node) const {
  const OpenGpuShareRequest& request = PodOf(pod).gpu;
  if (request.milli_per_gpu <= 0) return 0;
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  const std::vector<int64_t>& left = devices.milli_left();
  const int gpus = devices.gpu_count();
  const int free = devices.fully_free_gpus();
  if (free == gpus) {
    return std::max<int64_t>(kMaxNodeScore / 3 - free, free);
  }
  // Indexes by idle share ascending, stable (SortedMilliGpuLeftIndexList).
  constexpr int kMaxGpus = 64;
  GS_CHECK(gpus <= kMaxGpus, "GpuPacking handles at most 64 GPUs a node");
  int order[kMaxGpus];
  const int n = gpus;
  for (int g = 0; g < n; ++g) order[g] = g;
  std::stable_sort(order, order + n,
                   [&](int a, int b) { return left[a] < left[b]; });
  int needed = request.gpus;
  int fully_free_used = 0;
  int64_t idle_percent_sum = 0;
  for (int i = 0; i < n && needed > 0; ++i) {
    const int64_t idle = left[order[i]];
    if (request.milli_per_gpu > idle) continue;
    --needed;
    if (idle == kGpuMilli) ++fully_free_used;
    idle_percent_sum += idle * 100 / kGpuMilli;
  }
  if (needed != 0) return 0;
  if (fully_free_used > 0) {
    return std::max<int64_t>(kMaxNodeScore / 2 - fully_free_used,
                             kMaxNodeScore / 3);
  }
  return std::max<int64_t>(kMaxNodeScore - idle_percent_sum / 10,
                           kMaxNodeScore / 2);
}

}  // namespace gpushare
