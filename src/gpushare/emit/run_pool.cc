#include "gpushare/emit/run_pool.h"

#include "gpushare/workload/request_translator.h"

namespace gpushare {

RunPools::RunPools(const Cluster& cluster) : cluster_(cluster) {
  for (const Node& n : cluster.nodes()) node_pool_.emplace(n.name(), n.pool());
}

int RunPools::Of(const Pod& pod) const {
  if (!pod.node_name.empty()) {
    const auto it = node_pool_.find(pod.node_name);
    if (it != node_pool_.end()) return it->second;
  }
  return TargetPool(pod, cluster_);
}

}  // namespace gpushare
