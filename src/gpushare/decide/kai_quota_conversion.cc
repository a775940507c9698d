#include "gpushare/decide/kai_quota_conversion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "gpushare/cluster/cluster.h"
#include "gpushare/sched/kai/kai_config.h"

namespace gpushare {

namespace {

// KAI's GPU units of the cluster `pools` build, and its physical GPUs.
std::pair<double, double> KaiUnitsAndGpus(
    const std::vector<NodePoolSpec>& pools, const Catalog& catalog) {
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
  return {units, gpus};
}

}  // namespace

double KaiUnitsPerGpu(const std::vector<NodePoolSpec>& pools,
                      const Catalog& catalog) {
  const auto [units, gpus] = KaiUnitsAndGpus(pools, catalog);
  return gpus > 0 ? units / gpus : 0;
}

std::vector<std::string> ConvertKaiQuotas(const Scenario& original,
                                          Scenario* variant,
                                          const Catalog& catalog,
                                          const QuotaScaling& scaling) {
  if (!variant->kai_queues.enabled()) return {};
  const auto [units_before, gpus_before] =
      KaiUnitsAndGpus(original.pools, catalog);
  const auto [units_after, gpus_after] =
      KaiUnitsAndGpus(variant->pools, catalog);
  if (gpus_before <= 0 || gpus_after <= 0) return {};
  const double before = units_before / gpus_before;
  const double after = units_after / gpus_after;
  if (before <= 0 || after <= 0) return {};
  // Units per GPU for every queue; with the pools' sizes, the cluster's
  // units for the queues not pinned.
  const double per_gpu = after / before;
  const double sized =
      scaling.with_pool_sizes ? units_after / units_before : per_gpu;
  if (std::abs(per_gpu - 1) < 1e-9 && std::abs(sized - 1) < 1e-9) return {};
  std::string example;
  bool changed = false;
  for (KaiQueueSpec& q : variant->kai_queues.queues) {
    const bool pinned = std::find(scaling.pinned.begin(), scaling.pinned.end(),
                                  q.name) != scaling.pinned.end();
    const double factor = pinned ? per_gpu : sized;
    if (std::abs(factor - 1) < 1e-9) continue;
    if (q.gpu_quota > 0 && example.empty()) {
      example = fmt::format(" (queue {}: quota {:g} becomes {:g})", q.name,
                            q.gpu_quota, q.gpu_quota * factor);
    }
    changed = changed || q.gpu_quota > 0 || q.gpu_limit > 0;
    if (q.gpu_quota > 0) q.gpu_quota *= factor;
    if (q.gpu_limit > 0) q.gpu_limit *= factor;
  }
  if (!scaling.with_pool_sizes) {
    return {fmt::format(
        "KAI queues: a GPU is {:g} GPU units instead of {:g}; quotas and "
        "limits scaled by {:g}{}",
        after, before, per_gpu, example)};
  }
  if (!changed) return {};
  return {fmt::format(
      "KAI queues: the cluster has {:g} GPU units instead of {:g}; quotas "
      "and limits scaled by {:g}{}{}",
      units_after, units_before, sized,
      scaling.pinned.empty()
          ? ""
          : fmt::format(" (pinned queues by {:g}, the units per GPU)",
                        per_gpu),
      example)};
}

}  // namespace gpushare
