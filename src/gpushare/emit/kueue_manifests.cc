#include "gpushare/emit/kueue_manifests.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr const char* kApiVersion = "kueue.x-k8s.io/v1beta2";

std::string Flavor(const ResourceFlavorSpec& f) {
  std::string out = fmt::format(
      "apiVersion: {}\nkind: ResourceFlavor\nmetadata:\n  name: {}\n",
      kApiVersion, YamlScalar(f.name));
  if (!f.node_labels.empty()) {
    out += "spec:\n  nodeLabels:\n";
    for (const auto& [key, value] : f.node_labels) {
      out += fmt::format("    {}: {}\n", YamlScalar(key), YamlQuoted(value));
    }
  }
  return out;
}

std::string ClusterQueue(const ClusterQueueSpec& q) {
  std::string out = fmt::format(
      "apiVersion: {}\nkind: ClusterQueue\nmetadata:\n  name: {}\nspec:\n"
      "  namespaceSelector: {{}}\n",
      kApiVersion, YamlScalar(q.name));
  if (!q.cohort.empty()) {
    out += fmt::format("  cohortName: {}\n", YamlScalar(q.cohort));
  }
  out += fmt::format("  queueingStrategy: {}\n",
                     QueueingStrategyName(q.queueing_strategy));
  out += fmt::format(
      "  preemption:\n    withinClusterQueue: {}\n    reclaimWithinCohort: "
      "{}\n    borrowWithinCohort:\n      policy: {}\n",
      KueuePreemptionPolicyName(q.within_cluster_queue),
      KueuePreemptionPolicyName(q.reclaim_within_cohort),
      KueuePreemptionPolicyName(q.borrow_within_cohort));
  if (q.borrow_max_priority_threshold) {
    out += fmt::format("      maxPriorityThreshold: {}\n",
                       *q.borrow_max_priority_threshold);
  }
  out += "  resourceGroups:\n";
  for (const ResourceGroupSpec& g : q.resource_groups) {
    out += "  - coveredResources:\n";
    for (const std::string& r : g.covered_resources) {
      out += fmt::format("    - {}\n", YamlScalar(r));
    }
    out += "    flavors:\n";
    for (const FlavorQuotasSpec& f : g.flavors) {
      out += fmt::format("    - name: {}\n      resources:\n",
                         YamlScalar(f.flavor));
      for (const ResourceQuotaSpec& r : f.resources) {
        out += fmt::format(
            "      - name: {}\n        nominalQuota: {}\n",
            YamlScalar(r.resource),
            YamlQuoted(KueueQuantityText(r.resource, r.nominal_quota)));
        if (r.borrowing_limit) {
          out += fmt::format(
              "        borrowingLimit: {}\n",
              YamlQuoted(KueueQuantityText(r.resource, *r.borrowing_limit)));
        }
        if (r.lending_limit) {
          out += fmt::format(
              "        lendingLimit: {}\n",
              YamlQuoted(KueueQuantityText(r.resource, *r.lending_limit)));
        }
      }
    }
  }
  return out;
}

std::string LocalQueue(const LocalQueueSpec& l) {
  return fmt::format(
      "apiVersion: {}\nkind: LocalQueue\nmetadata:\n  name: {}\n  namespace: "
      "{}\nspec:\n  clusterQueue: {}\n",
      kApiVersion, YamlScalar(l.name), YamlScalar(l.namespace_name),
      YamlScalar(l.cluster_queue));
}

}  // namespace

std::string KueueManifestsYaml(const Scenario& scenario) {
  const KueueConfig& c = scenario.queues;
  if (!c.enabled()) {
    throw InputError(
        "scenario '" + scenario.name +
        "' has no queues section: there are no Kueue objects to write");
  }
  std::string out = fmt::format(
      "# Kueue objects of scenario '{}' (Kueue v1beta2), written by "
      "gpushare-sim.\n"
      "# Install Kueue first, then:\n"
      "#   kubectl apply --server-side -f kueue-queues.yaml\n"
      "# Pods (or their Jobs) name their LocalQueue with the label\n"
      "#   {}: <LocalQueue>\n"
      "# (emit pod-patches adds it per tenant class).\n",
      CommentText(scenario.name), kKueueQueueNameLabel);
  bool hami = false;
  for (const ClusterQueueSpec& q : c.cluster_queues) {
    for (const ResourceGroupSpec& g : q.resource_groups) {
      hami |= std::find(g.covered_resources.begin(), g.covered_resources.end(),
                        kHamiGpuMem) != g.covered_resources.end();
    }
  }
  if (hami) {
    out +=
        "# vGPU (HAMi) pods request nvidia.com/gpumem and nvidia.com/gpucores "
        "as well as\n# nvidia.com/gpu, and Kueue admits a workload only when "
        "its ClusterQueue covers\n# every resource it requests: a HAMi "
        "flavor's gpumem and gpucores quotas are\n# its nodes' totals scaled "
        "as its nvidia.com/gpu quota (gpushare-sim adds them\n# when the "
        "scenario leaves them out; other flavors of the group list them at "
        "0).\n";
  }
  if (!c.device_class_mappings.empty()) {
    // Names and classes are qualified names (queue_reader.cc), safe in a
    // comment and as plain YAML scalars.
    out +=
        "# DRA pods claim their GPUs through ResourceClaimTemplates; Kueue "
        "counts the\n# devices per DeviceClass through its Configuration "
        "(gate KueueDRAIntegration,\n# on since Kueue 0.18). Merge into the "
        "controller manager's configuration\n# (Helm value "
        "managerConfig.controllerManagerConfigYaml,\n# "
        "config.kueue.x-k8s.io/v1beta2 Configuration):\n"
        "#   resources:\n#     deviceClassMappings:\n";
    for (const DeviceClassMappingSpec& m : c.device_class_mappings) {
      out += fmt::format("#     - name: {}\n#       deviceClassNames:\n",
                         m.name);
      for (const std::string& d : m.device_class_names) {
        out += fmt::format("#       - {}\n", d);
      }
    }
  }
  for (const ResourceFlavorSpec& f : c.resource_flavors) {
    out += "---\n" + Flavor(f);
  }
  for (const ClusterQueueSpec& q : c.cluster_queues) {
    out += "---\n" + ClusterQueue(q);
  }
  for (const LocalQueueSpec& l : c.local_queues) {
    out += "---\n" + LocalQueue(l);
  }
  return out;
}

}  // namespace gpushare
