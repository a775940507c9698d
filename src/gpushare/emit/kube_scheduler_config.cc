#include "gpushare/emit/kube_scheduler_config.h"

#include <fmt/format.h>

#include "gpushare/emit/quoting.h"

namespace gpushare {
namespace {

const char* TypeName(ScoringStrategy::Type type) {
  switch (type) {
    case ScoringStrategy::Type::kLeastAllocated:
      return "LeastAllocated";
    case ScoringStrategy::Type::kMostAllocated:
      return "MostAllocated";
    case ScoringStrategy::Type::kRequestedToCapacityRatio:
      return "RequestedToCapacityRatio";
  }
  return "";
}

// Back-off on in the scenario with other values than kube-scheduler's
// defaults (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10). With it
// off the simulation approximates a cluster that has those defaults.
bool BackoffDiffers(const SchedulerProfile& profile) {
  return profile.pod_initial_backoff_s > 0 &&
         (profile.pod_initial_backoff_s != 1 ||
          profile.pod_max_backoff_s != 10);
}

}  // namespace

bool NeedsKubeSchedulerConfig(const SchedulerProfile& profile) {
  const ScoringStrategy defaults;
  const ScoringStrategy& s = profile.scoring_strategy;
  return s.type != defaults.type || s.resources != defaults.resources ||
         profile.percentage_of_nodes_to_score != 0 || BackoffDiffers(profile);
}

std::string KubeSchedulerConfigYaml(const SchedulerProfile& profile,
                                    bool hami_pools) {
  const ScoringStrategy& s = profile.scoring_strategy;
  std::string out =
      "# kube-scheduler configuration of the scenario's scheduler profile\n"
      "# (written by gpushare-sim emit k8s). Pass it to kube-scheduler with\n"
      "# --config, or run it as a second scheduler under its schedulerName.\n";
  if (hami_pools) {
    out +=
        "# It does not score the pods of the vGPU (HAMi) pools: their patches\n"
        "# (pod-patches.yaml) name schedulerName hami-scheduler, whose node "
        "and\n"
        "# GPU scoring is scheduler.defaultSchedulerPolicy in "
        "hami-values.yaml.\n";
  }
  out +=
      "apiVersion: kubescheduler.config.k8s.io/v1\n"
      "kind: KubeSchedulerConfiguration\n";
  if (profile.percentage_of_nodes_to_score != 0) {
    out += fmt::format("percentageOfNodesToScore: {}\n",
                       profile.percentage_of_nodes_to_score);
  }
  if (BackoffDiffers(profile)) {
    out +=
        fmt::format("podInitialBackoffSeconds: {}\npodMaxBackoffSeconds: {}\n",
                    static_cast<int64_t>(profile.pod_initial_backoff_s),
                    static_cast<int64_t>(profile.pod_max_backoff_s));
  }
  out += fmt::format(
      "profiles:\n  - schedulerName: {}\n    pluginConfig:\n"
      "      - name: NodeResourcesFit\n        args:\n"
      "          scoringStrategy:\n            type: {}\n"
      "            resources:\n",
      YamlScalar(profile.scheduler_name), TypeName(s.type));
  for (const auto& [name, weight] : s.resources) {
    out += fmt::format("              - name: {}\n                weight: {}\n",
                       YamlScalar(name), weight);
  }
  if (s.type == ScoringStrategy::Type::kRequestedToCapacityRatio) {
    out += "            requestedToCapacityRatio:\n              shape:\n";
    for (const auto& [utilization, score] : s.shape) {
      out += fmt::format(
          "                - utilization: {}\n                  score: {}\n",
          utilization, score);
    }
  }
  return out;
}

}  // namespace gpushare
