#include "gpushare/workload/typical_pods.h"

#include <algorithm>
#include <map>

namespace gpushare {

bool PodShape::operator<(const PodShape& o) const {
  if (cpu_milli != o.cpu_milli) return cpu_milli < o.cpu_milli;
  if (gpu_milli != o.gpu_milli) return gpu_milli < o.gpu_milli;
  if (gpu_count != o.gpu_count) return gpu_count < o.gpu_count;
  return gpu_spec < o.gpu_spec;
}

TypicalPods ComputeTypicalPods(const std::vector<PodShape>& workload,
                               double threshold_percent) {
  std::map<PodShape, int64_t> counts;
  for (const PodShape& shape : workload) ++counts[shape];
  std::vector<TypicalPod> groups;
  for (const auto& [shape, count] : counts) {
    groups.push_back({shape, static_cast<double>(count), count});
  }
  // Descending by count, then by shape (sort.Reverse of the artifact's Less).
  std::sort(groups.begin(), groups.end(),
            [](const TypicalPod& a, const TypicalPod& b) {
              if (a.count != b.count) return a.count > b.count;
              return b.shape < a.shape;
            });
  const double total = static_cast<double>(workload.size());
  const double expected = threshold_percent * total / 100.0;
  double cumulative = 0;
  size_t kept = 0;
  while (cumulative < expected && kept < groups.size()) {
    cumulative += groups[kept].popularity;
    groups[kept].popularity = groups[kept].popularity / total;
    ++kept;
  }
  groups.resize(kept);
  TypicalPods out;
  out.coverage = total > 0 ? cumulative / total : 0;
  for (TypicalPod& g : groups) g.popularity /= cumulative / total;
  out.pods = std::move(groups);
  return out;
}

}  // namespace gpushare
