#include "gpushare/emit/kueue_manifests.h"

#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// (minor, patch) of a Kueue 0.x release; MAJOR >= 1 reads as minor 1000.
std::pair<int, int> KueueMinor(const std::string& version) {
  static const std::regex kVersion(R"(v?([0-9]+)\.([0-9]+)\.([0-9]+))");
  std::smatch m;
  if (!std::regex_match(version, m, kVersion)) return {1000, 0};
  if (std::stoi(m[1].str()) > 0) return {1000, 0};
  return {std::stoi(m[2].str()), std::stoi(m[3].str())};
}

std::string Flavor(const ResourceFlavorSpec& f, const KueueApi& api) {
  std::string out = fmt::format(
      "apiVersion: {}\nkind: ResourceFlavor\nmetadata:\n  name: {}\n",
      api.api_version, YamlScalar(f.name));
  if (!f.node_labels.empty()) {
    out += "spec:\n  nodeLabels:\n";
    for (const auto& [key, value] : f.node_labels) {
      out += fmt::format("    {}: {}\n", YamlScalar(key), YamlQuoted(value));
    }
  }
  return out;
}

std::string ClusterQueue(const ClusterQueueSpec& q, const KueueApi& api) {
  std::string out = fmt::format(
      "apiVersion: {}\nkind: ClusterQueue\nmetadata:\n  name: {}\nspec:\n"
      "  namespaceSelector: {{}}\n",
      api.api_version, YamlScalar(q.name));
  if (!q.cohort.empty()) {
    out += fmt::format("  {}: {}\n", api.cohort_field, YamlScalar(q.cohort));
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

std::string LocalQueue(const LocalQueueSpec& l, const KueueApi& api) {
  return fmt::format(
      "apiVersion: {}\nkind: LocalQueue\nmetadata:\n  name: {}\n  namespace: "
      "{}\nspec:\n  clusterQueue: {}\n",
      api.api_version, YamlScalar(l.name), YamlScalar(l.namespace_name),
      YamlScalar(l.cluster_queue));
}

[[noreturn]] void Refuse(const Scenario& scenario, const std::string& message) {
  throw InputError(scenario.file, 0, 0,
                   fmt::format("platform.kueue.version {}: {}",
                               scenario.platform.kueue_version, message));
}

}  // namespace

KueueApi KueueApiOf(const Scenario& scenario) {
  KueueApi api;
  const std::string& version = scenario.platform.kueue_version;
  if (version.empty()) return api;
  const auto [minor, patch] = KueueMinor(version);
  (void)patch;
  api.installed = "Kueue " + version + " as installed";
  if (minor >= kKueueV1beta2Minor) return api;
  if (minor < 6) {
    Refuse(scenario,
           "kueue-queues.yaml needs Kueue 0.6 or later (its ClusterQueues "
           "set preemption.borrowWithinCohort, which Kueue serves from "
           "0.6); upgrade Kueue");
  }
  const KueueConfig& c = scenario.queues;
  if (minor < 9) {
    for (const ClusterQueueSpec& q : c.cluster_queues) {
      for (const ResourceGroupSpec& g : q.resource_groups) {
        for (const FlavorQuotasSpec& f : g.flavors) {
          for (const ResourceQuotaSpec& r : f.resources) {
            if (!r.lending_limit) continue;
            Refuse(scenario,
                   fmt::format(
                       "ClusterQueue '{}' sets a lending_limit (queues."
                       "cluster_queues), which Kueue honours from 0.9 (its "
                       "LendingLimit gate is alpha and off before); upgrade "
                       "Kueue or drop the key",
                       q.name));
          }
        }
      }
    }
  }
  if (minor < 14 && !c.device_class_mappings.empty()) {
    Refuse(scenario,
           "queues.device_class_mappings needs Kueue 0.14 or later (the "
           "first with DRA quotas, gate DynamicResourceAllocation); upgrade "
           "Kueue or drop the key");
  }
  api.api_version = "kueue.x-k8s.io/v1beta1";
  api.cohort_field = "cohort";
  api.config_api_version = "config.kueue.x-k8s.io/v1beta1";
  return api;
}

std::string KueueManifestsNeed(const Scenario& scenario) {
  const KueueApi api = KueueApiOf(scenario);
  if (api.installed.empty()) {
    return "Kueue 0.15 or later, the first release that serves "
           "kueue.x-k8s.io/v1beta2 (say platform.kueue.version for an older "
           "one)";
  }
  return api.installed;
}

std::string KueueManifestsYaml(const Scenario& scenario) {
  const KueueConfig& c = scenario.queues;
  if (!c.enabled()) {
    throw InputError(
        "scenario '" + scenario.name +
        "' has no queues section: there are no Kueue objects to write");
  }
  const KueueApi api = KueueApiOf(scenario);
  std::string out = fmt::format(
      "# Kueue objects of scenario '{}' ({}), written by gpushare-sim.\n"
      "{}"
      "# Install Kueue first, then:\n"
      "#   kubectl apply --server-side -f kueue-queues.yaml\n"
      "# Pods (or their Jobs) name their LocalQueue with the label\n"
      "#   {}: <LocalQueue>\n"
      "# (emit pod-patches adds it per tenant class).\n",
      CommentText(scenario.name), api.api_version,
      CommentLines("They need " + KueueManifestsNeed(scenario) + "."),
      kKueueQueueNameLabel);
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
    const int minor = KueueMinor(scenario.platform.kueue_version).first;
    out += CommentLines(fmt::format(
        "DRA pods claim their GPUs through ResourceClaimTemplates; Kueue "
        "counts the devices per DeviceClass through its Configuration, {}. "
        "Merge into the controller manager's configuration (Helm value "
        "managerConfig.controllerManagerConfigYaml, {} Configuration):",
        scenario.platform.kueue_version.empty()
            ? "with the gate KueueDRAIntegration (on from Kueue 0.18; in 0.14 "
              "to 0.17 turn on the alpha gate DynamicResourceAllocation)"
        : minor >= 18 ? "with the gate KueueDRAIntegration (on from Kueue 0.18)"
                      : "once its alpha gate DynamicResourceAllocation is "
                        "turned on (Kueue 0.14 to 0.17)",
        api.config_api_version));
    out += "#   resources:\n#     deviceClassMappings:\n";
    for (const DeviceClassMappingSpec& m : c.device_class_mappings) {
      out += fmt::format("#     - name: {}\n#       deviceClassNames:\n",
                         m.name);
      for (const std::string& d : m.device_class_names) {
        out += fmt::format("#       - {}\n", d);
      }
    }
  }
  for (const ResourceFlavorSpec& f : c.resource_flavors) {
    out += "---\n" + Flavor(f, api);
  }
  for (const ClusterQueueSpec& q : c.cluster_queues) {
    out += "---\n" + ClusterQueue(q, api);
  }
  for (const LocalQueueSpec& l : c.local_queues) {
    out += "---\n" + LocalQueue(l, api);
  }
  return out;
}

}  // namespace gpushare
