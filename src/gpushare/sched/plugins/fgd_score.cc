#include "gpushare/sched/plugins/fgd_score.h"

#include <cmath>

namespace gpushare {
namespace {

int64_t ScoreOf(double before, double after) {
  const double x = (before - after) / 1000;
  const double sigmoid = 1.0 / (1.0 + std::exp(-x));
  return static_cast<int64_t>(sigmoid * static_cast<double>(kMaxNodeScore));
}

}  // namespace

std::pair<int64_t, std::vector<int>> FgdScore::Evaluate(
    const Pod& pod, const Node& node) const {
  const OpenGpuSharePod& p = PodOf(pod);
  if (p.cpu_milli == 0 && p.memory_mib == 0 && p.gpu.gpus == 0) {
    return {kMaxNodeScore, {}};
  }
  const OpenGpuShareDevicePlugin& devices = DevicesOf(node);
  const std::vector<int64_t>& left = devices.milli_left();
  GpuNodeView view{CpuLeftMilli(node), left, devices.card_model()};
  const double before = measure_->NodeMilli(view);
  view.cpu_left_milli -= p.cpu_milli;
  scratch_.assign(left.begin(), left.end());
  view.milli_left = scratch_;
  if (p.gpu.sharing()) {
    int64_t best = 0;
    int best_gpu = -1;
    for (int g = 0; g < devices.gpu_count(); ++g) {
      if (left[g] < p.gpu.milli_per_gpu) continue;
      // An earlier GPU with the same idle share gives the same score and
      // wins ties: skip the repeat.
      bool repeat = false;
      for (int h = 0; h < g && !repeat; ++h) repeat = left[h] == left[g];
      if (repeat) continue;
      scratch_[g] -= p.gpu.milli_per_gpu;
      const int64_t score = ScoreOf(before, measure_->NodeMilli(view));
      scratch_[g] += p.gpu.milli_per_gpu;
      if (best_gpu < 0 || score > best) {
        best = score;
        best_gpu = g;
      }
    }
    if (best_gpu < 0) return {0, {}};
    return {best, {best_gpu}};
  }
  std::vector<int> gpus = devices.ExclusiveGpus(p.gpu.gpus);
  for (const int g : gpus) scratch_[g] -= p.gpu.milli_per_gpu;
  return {ScoreOf(before, measure_->NodeMilli(view)), std::move(gpus)};
}

int64_t FgdScore::Score(const Pod& pod, const Node& node) const {
  return Evaluate(pod, node).first;
}

std::vector<int> FgdScore::SelectGpus(const Pod& pod, const Node& node) {
  return Evaluate(pod, node).second;
}

}  // namespace gpushare
