// MakeAutoscaler: the decision model of each provider (see autoscaler.h).

#include "gpushare/sim/autoscaler.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "gpushare/io/check.h"
#include "gpushare/sim/cluster_autoscaler.h"
#include "gpushare/sim/karpenter.h"

namespace gpushare {

std::unique_ptr<Autoscaler> MakeAutoscaler(AutoscalerProvider provider,
                                           const Cluster& cluster,
                                           const std::vector<int>& pools,
                                           Rng rng) {
  GS_CHECK(!pools.empty(), "an autoscaler needs at least one pool");
  // Flags an autoscaler deployment takes once (cluster-autoscaler: scan
  // interval, delays, expander; Karpenter: batch windows) come from the
  // first of its pools.
  const int first = *std::min_element(pools.begin(), pools.end());
  const NodeGroupAutoscaling& settings = cluster.pools()[first].spec.autoscaling;
  switch (provider) {
    case AutoscalerProvider::kClusterAutoscaler:
      return std::make_unique<ClusterAutoscaler>(
          pools, settings.cluster_autoscaler, rng);
    case AutoscalerProvider::kKarpenter:
      return std::make_unique<Karpenter>(pools, settings.karpenter, rng);
    case AutoscalerProvider::kNone:
      break;
  }
  GS_CHECK(false, "MakeAutoscaler: provider kNone has no autoscaler");
  return nullptr;
}

}  // namespace gpushare
