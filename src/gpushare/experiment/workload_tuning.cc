#include "gpushare/experiment/workload_tuning.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace gpushare {

std::vector<int> TunedArrivalOrder(const std::vector<OpenbPod>& pods,
                                   double inflate, int64_t cluster_gpu_milli,
                                   Rng& rng) {
  std::vector<int> order(pods.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return pods[a].name < pods[b].name; });
  for (size_t i = order.size(); i > 1; --i) {
    const size_t j = rng.Below(i);
    std::swap(order[i - 1], order[j]);
  }
  if (inflate <= 0 || order.empty()) return order;
  int64_t total = 0;
  for (const OpenbPod& p : pods) total += p.TotalGpuMilli();
  const double target = inflate * static_cast<double>(cluster_gpu_milli);
  const std::vector<int> workload = order;
  if (static_cast<double>(total) < target) {
    while (true) {
      const int drawn = workload[rng.Below(workload.size())];
      if (static_cast<double>(total + pods[drawn].gpu_milli) > target) break;
      total += pods[drawn].TotalGpuMilli();
      order.push_back(drawn);
    }
  } else {
    while (static_cast<double>(total) > target && !order.empty()) {
      const size_t idx = rng.Below(order.size());
      total -= pods[order[idx]].TotalGpuMilli();
      order.erase(order.begin() + static_cast<std::ptrdiff_t>(idx));
    }
  }
  return order;
}

}  // namespace gpushare
