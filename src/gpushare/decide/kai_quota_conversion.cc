#include "gpushare/decide/kai_quota_conversion.h"

#include <fmt/format.h>

#include <cmath>

#include "gpushare/cluster/cluster.h"
#include "gpushare/sched/kai/kai_config.h"

namespace gpushare {

double KaiUnitsPerGpu(const std::vector<NodePoolSpec>& pools,
                      const Catalog& catalog) {
  Cluster cluster(catalog);
  for (const NodePoolSpec& p : pools) cluster.AddPool(p);
  double units = 0;
  double gpus = 0;
  for (const Node& node : cluster.nodes()) {
    gpus += node.gpus();
    for (const auto& [id, quantity] : node.extended().items()) {
      units += static_cast<double>(GpuUnitsOf(cluster.resources().Name(id)) *
                                   quantity);
    }
  }
  return gpus > 0 ? units / gpus : 0;
}

std::vector<std::string> ConvertKaiQuotas(const Scenario& original,
                                          Scenario* variant,
                                          const Catalog& catalog) {
  if (!variant->kai_queues.enabled()) return {};
  const double before = KaiUnitsPerGpu(original.pools, catalog);
  const double after = KaiUnitsPerGpu(variant->pools, catalog);
  if (before <= 0 || after <= 0 || std::abs(after - before) < 1e-9) return {};
  const double factor = after / before;
  std::string example;
  for (KaiQueueSpec& q : variant->kai_queues.queues) {
    if (q.gpu_quota > 0 && example.empty()) {
      example = fmt::format(" (queue {}: quota {:g} becomes {:g})", q.name,
                            q.gpu_quota, q.gpu_quota * factor);
    }
    if (q.gpu_quota > 0) q.gpu_quota *= factor;
    if (q.gpu_limit > 0) q.gpu_limit *= factor;
  }
  return {fmt::format(
      "KAI queues: a GPU is {:g} GPU units instead of {:g}; quotas and "
      "limits scaled by {:g}{}",
      after, before, factor, example)};
}

}  // namespace gpushare
