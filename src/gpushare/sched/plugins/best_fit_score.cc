#include "gpushare/sched/plugins/best_fit_score.h"

#include <algorithm>

namespace gpushare {

int64_t BestFitScore::Score(const Pod& pod, const Node& node) const {
  const OpenGpuSharePod& p = PodOf(pod);
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  const double free_cpu = static_cast<double>(CpuLeftMilli(node));
  const double free_gpu = static_cast<double>(devices.total_milli_left());
  const double req_cpu = static_cast<double>(p.cpu_milli);
  const double req_gpu = static_cast<double>(p.total_gpu_milli());
  if (free_cpu < req_cpu || free_gpu < req_gpu) return 0;
  constexpr double kWeight = 0.5;
  double s = 0;
  s += (free_cpu - req_cpu) / kMaxSpecCpuMilli * kWeight;
  s += (free_gpu - req_gpu) / static_cast<double>(kMaxSpecGpuMilli) * kWeight;
  s = (1.0 - s) * static_cast<double>(kMaxNodeScore);
  return static_cast<int64_t>(s);
}

void BestFitScore::Normalize(std::vector<int64_t>& scores) const {
  if (scores.empty()) return;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const int64_t lowest = *lo;
  const int64_t range = *hi - lowest;
  for (int64_t& s : scores) {
    s = range == 0 ? 0 : (s - lowest) * kMaxNodeScore / range;
  }
}

}  // namespace gpushare
