// cluster-autoscaler's Helm values (emit/cluster_autoscaler_values.h).

#include "gpushare/emit/cluster_autoscaler_values.h"

#include <fmt/format.h>

#include <functional>

#include "gpushare/emit/node_group_template.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

const char* ExpanderName(CaExpander e) {
  switch (e) {
    case CaExpander::kRandom:
      return "random";
    case CaExpander::kLeastWaste:
      return "least-waste";
    case CaExpander::kMostPods:
      return "most-pods";
    case CaExpander::kPrice:
      return "price";
    case CaExpander::kPriority:
      return "priority";
  }
  return "random";
}

std::string CaBoolText(bool b) { return b ? "true" : "false"; }

// One flag of the deployment: its name and its value as the chart writes it.
struct CaFlag {
  const char* name;
  std::function<std::string(const ClusterAutoscalerSettings&)> value;
};

const std::vector<CaFlag>& CaFlags() {
  static const std::vector<CaFlag> flags = {
      {"scan-interval",
       [](const auto& s) { return GoDuration(s.scan_interval_s); }},
      {"scale-down-unneeded-time",
       [](const auto& s) { return GoDuration(s.scale_down_unneeded_time_s); }},
      {"scale-down-delay-after-add",
       [](const auto& s) {
         return GoDuration(s.scale_down_delay_after_add_s);
       }},
      {"scale-down-utilization-threshold",
       [](const auto& s) {
         return ShortNumber(s.scale_down_utilization_threshold);
       }},
      {"scale-down-gpu-utilization-threshold",
       [](const auto& s) {
         return ShortNumber(s.scale_down_gpu_utilization_threshold);
       }},
      {"max-node-provision-time",
       [](const auto& s) { return GoDuration(s.max_node_provision_time_s); }},
      {"max-graceful-termination-sec",
       [](const auto& s) {
         const double whole = static_cast<double>(
             static_cast<int64_t>(s.max_graceful_termination_s));
         if (whole != s.max_graceful_termination_s || whole < 0) {
           throw InputError(fmt::format(
               "--max-graceful-termination-sec takes whole seconds, not {}",
               s.max_graceful_termination_s));
         }
         return fmt::format("{}", static_cast<int64_t>(whole));
       }},
      {"new-pod-scale-up-delay",
       [](const auto& s) { return GoDuration(s.new_pod_scale_up_delay_s); }},
      {"ignore-daemonsets-utilization",
       [](const auto& s) {
         return CaBoolText(s.ignore_daemonsets_utilization);
       }},
      {"expander", [](const auto& s) { return ExpanderName(s.expander); }},
  };
  return flags;
}

// The per-group option key of `flag` on `cloud`, or "" when `cloud`'s node
// groups cannot carry it.
std::string GroupOptionKey(const std::string& flag, AutoscalerCloud cloud) {
  if (flag == "scale-down-utilization-threshold") {
    return "scaledownutilizationthreshold";
  }
  if (flag == "scale-down-gpu-utilization-threshold") {
    return "scaledowngpuutilizationthreshold";
  }
  if (flag == "scale-down-unneeded-time") return "scaledownunneededtime";
  if (flag == "ignore-daemonsets-utilization" &&
      cloud == AutoscalerCloud::kAws) {
    return "ignoredaemonsetsutilization";
  }
  if (flag == "max-node-provision-time" &&
      cloud == AutoscalerCloud::kClusterApi) {
    return "maxnodeprovisiontime";
  }
  return "";
}

std::string RegexEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) {
      out += '\\';
    }
    out += c;
  }
  return out;
}

}  // namespace

ClusterAutoscalerSettings CaDeploymentSettings(const Scenario& scenario,
                                               AutoscalerCloud cloud) {
  const std::vector<const NodePoolSpec*> pools =
      AutoscaledPools(scenario, AutoscalerProvider::kClusterAutoscaler);
  if (pools.empty()) {
    throw InputError(fmt::format(
        "scenario '{}' has no pool with GPUs that scales with "
        "cluster-autoscaler (autoscaling.provider: cluster-autoscaler): "
        "there is no cluster-autoscaler configuration to write",
        scenario.name));
  }
  const ClusterAutoscalerSettings& first =
      pools[0]->autoscaling.cluster_autoscaler;
  for (const NodePoolSpec* p : pools) {
    const ClusterAutoscalerSettings& s = p->autoscaling.cluster_autoscaler;
    for (const CaFlag& f : CaFlags()) {
      if (!GroupOptionKey(f.name, cloud).empty()) continue;
      const std::string a = f.value(first);
      const std::string b = f.value(s);
      if (a != b) {
        throw InputError(fmt::format(
            "node pools '{}' and '{}' scale with cluster-autoscaler, whose "
            "--{} is one setting of the whole cluster-autoscaler deployment "
            "(no node group of {} overrides it), but the pools give {} and "
            "{}: give them the same value, or run one cluster-autoscaler per "
            "pool",
            pools[0]->name, p->name, f.name,
            cloud == AutoscalerCloud::kAws          ? "AWS"
            : cloud == AutoscalerCloud::kClusterApi ? "Cluster API"
                                                    : "either cloud",
            a, b));
      }
    }
  }
  return first;
}

std::vector<std::pair<std::string, std::string>> CaGroupOptions(
    const ClusterAutoscalerSettings& pool,
    const ClusterAutoscalerSettings& deployment, AutoscalerCloud cloud) {
  std::vector<std::pair<std::string, std::string>> options;
  for (const CaFlag& f : CaFlags()) {
    const std::string key = GroupOptionKey(f.name, cloud);
    if (key.empty()) continue;
    const std::string value = f.value(pool);
    if (value != f.value(deployment)) options.emplace_back(key, value);
  }
  return options;
}

std::string ClusterAutoscalerValuesYaml(const Scenario& scenario,
                                        AutoscalerCloud cloud) {
  const ClusterAutoscalerSettings deployment =
      CaDeploymentSettings(scenario, cloud);
  const std::vector<const NodePoolSpec*> pools =
      AutoscaledPools(scenario, AutoscalerProvider::kClusterAutoscaler);
  std::string names;
  std::string overrides;
  for (const NodePoolSpec* p : pools) {
    names += (names.empty() ? "" : ", ") + p->name;
    std::string list;
    for (const auto& [key, value] :
         CaGroupOptions(p->autoscaling.cluster_autoscaler, deployment, cloud)) {
      list += (list.empty() ? "" : ", ") + key + "=" + value;
    }
    if (!list.empty()) overrides += "  pool " + p->name + ": " + list + ".";
  }
  std::string out = fmt::format(
      "# cluster-autoscaler Helm values of scenario '{}' (chart "
      "cluster-autoscaler {}; written by gpushare-sim emit autoscaler).\n",
      CommentText(scenario.name), kClusterAutoscalerChartVersion);
  out += CommentLines(
      "Its node groups: the pools " + names +
      ". Upgrade the release that runs today, keeping its cloud settings "
      "(region, credentials, auto-discovery): helm upgrade RELEASE "
      "autoscaler/cluster-autoscaler -n NAMESPACE --version " +
      kClusterAutoscalerChartVersion +
      " --reuse-values -f THIS_FILE. These flags are one set for the whole "
      "deployment, not per node group; the pools' settings that differ from "
      "them are carried by the node groups themselves (their ASG tags or "
      "MachineDeployment annotations, the other files of emit autoscaler)." +
      (overrides.empty() ? std::string() : overrides));
  out += "extraArgs:\n";
  for (const CaFlag& f : CaFlags()) {
    // Generated values (durations, numbers, booleans, expander names),
    // plain as the chart's own values.yaml writes them.
    out += fmt::format("  {}: {}\n", f.name, f.value(deployment));
  }
  if (deployment.expander == CaExpander::kPriority) {
    std::map<int, std::vector<std::string>> by_priority;
    for (const NodePoolSpec* p : pools) {
      by_priority[p->autoscaling.cluster_autoscaler.priority].push_back(
          "^(.*/)?" + RegexEscape(p->name) + "$");
    }
    out += CommentLines(
        "The priority expander: the chart writes these into the "
        "cluster-autoscaler-priority-expander ConfigMap; higher numbers win. "
        "A node group is matched by its name (an ASG's name, or "
        "MachineDeployment/NAMESPACE/NAME).");
    out += "expanderPriorities:\n";
    for (auto it = by_priority.rbegin(); it != by_priority.rend(); ++it) {
      out += fmt::format("  {}:\n", it->first);
      for (const std::string& re : it->second) {
        out += "    - " + YamlScalar(re) + "\n";
      }
    }
  }
  if (cloud == AutoscalerCloud::kAws) {
    out += CommentLines(
        "Each pool's Auto Scaling group, named after the pool: write your "
        "ASGs' names here. The chart passes them as --nodes=MIN:MAX:NAME; "
        "leave autoDiscovery.clusterName unset with them (the AWS README: "
        "no --nodes with --node-group-auto-discovery). Helm replaces this "
        "list whole.");
    out += "cloudProvider: aws\nautoscalingGroups:\n";
    for (const NodePoolSpec* p : pools) {
      out += fmt::format("  - name: {}\n    minSize: {}\n    maxSize: {}\n",
                         YamlScalar(p->name), p->autoscaling.min_nodes,
                         p->autoscaling.max_nodes);
    }
  } else if (cloud == AutoscalerCloud::kClusterApi) {
    out += CommentLines(
        "Cluster API: each pool's MachineDeployment carries its minimum and "
        "maximum size as annotations (cluster-autoscaler-machinedeployments."
        "sh); the release's autoDiscovery (clusterName, namespace or labels) "
        "must select them.");
    out += "cloudProvider: clusterapi\n";
  } else {
    std::string groups;
    for (const NodePoolSpec* p : pools) {
      groups += fmt::format(" {{name: {}, minSize: {}, maxSize: {}}}", p->name,
                            p->autoscaling.min_nodes, p->autoscaling.max_nodes);
    }
    out += CommentLines(
        "The cloud is the installed release's. On AWS without "
        "auto-discovery, add autoscalingGroups:" +
        groups +
        " (your ASGs' names); on Cluster API the sizes are the "
        "MachineDeployments' annotations. emit autoscaler --cloud aws or "
        "--cloud clusterapi writes them.");
  }
  return out;
}

}  // namespace gpushare
