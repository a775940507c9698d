#include "gpushare/sched/plugins/random_score.h"

namespace gpushare {

void RandomScore::Normalize(std::vector<int64_t>& scores) const {
  if (scores.empty()) return;
  const uint64_t chosen = rng_.Below(scores.size());
  for (size_t i = 0; i < scores.size(); ++i) {
    scores[i] = i == chosen ? kMaxNodeScore : 0;
  }
}

std::vector<int> RandomScore::SelectGpus(const Pod& pod, const Node& node) {
  const OpenGpuShareRequest& request = PodOf(pod).gpu;
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  if (!request.sharing()) return devices.ExclusiveGpus(request.gpus);
  int chosen = -1;
  uint64_t candidates = 0;
  for (int g = 0; g < devices.gpu_count(); ++g) {
    if (devices.milli_left()[g] < request.milli_per_gpu) continue;
    if (rng_.Below(++candidates) == 0) chosen = g;
  }
  if (chosen < 0) return {};
  return {chosen};
}

}  // namespace gpushare
