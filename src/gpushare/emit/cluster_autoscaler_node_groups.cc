// Node groups of cluster-autoscaler pools as ASG tags and Cluster API
// annotations (emit/cluster_autoscaler_node_groups.h).

#include "gpushare/emit/cluster_autoscaler_node_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "gpushare/emit/cluster_autoscaler_values.h"
#include "gpushare/emit/node_group_template.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/emit/yaml_text.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr const char* kAwsTemplate = "k8s.io/cluster-autoscaler/node-template/";
constexpr const char* kAwsGpuLabel = "k8s.amazonaws.com/accelerator";
constexpr const char* kCapiGpuLabel = "cluster-api/accelerator";
constexpr const char* kCapacityKey =
    "capacity.cluster-autoscaler.kubernetes.io/";

// The GPU model's name as a label value: lower case, other characters '-'.
std::string AcceleratorValue(const std::string& model) {
  std::string out;
  for (char c : model) {
    const unsigned char u = static_cast<unsigned char>(c);
    out += std::isalnum(u) || c == '.' || c == '_' || c == '-'
               ? static_cast<char>(std::tolower(u))
               : '-';
  }
  return out.substr(0, 63);
}

std::string TaintValue(const Taint& t) {
  return t.value + ":" + std::string(TaintEffectName(t.effect));
}

// What the template closes for this pool, in words (docs/emit.md).
std::string PathologyNote(const NodePoolSpec& pool,
                          const NodeGroupTemplate& t) {
  if (t.dra) {
    return "A DRA pool: its GPUs are ResourceSlices, not extended resources. "
           "Scaling from zero needs the provider to give template "
           "ResourceSlices (kubernetes/autoscaler issues 10199, 10277); "
           "Cluster API's dra-driver annotation does so for whole GPUs.";
  }
  if (pool.sharing.sharing == DeviceSharing::kHami) {
    return "HAMi: the nvidia.com/gpu tag gives the vGPU count (split count x "
           "GPUs). HAMi's pods also ask nvidia.com/gpumem and gpucores, "
           "which its scheduler extender serves and cluster-autoscaler's "
           "simulation does not run (Project-HAMi/HAMi issue 1099): no "
           "template tag closes that (docs/emit.md says what does).";
  }
  std::string missing;
  for (const auto& [name, count] : t.resources) {
    if (name == kNvidiaGpu && count == t.physical_gpus) continue;
    if (name == kNvidiaGpu) {
      missing += fmt::format(
          " It would count nvidia.com/gpu {} where a ready node advertises "
          "{}, and provision up to {}x the nodes the pending pods need.",
          t.physical_gpus, count,
          ShortNumber(static_cast<double>(count) / t.physical_gpus));
    } else {
      missing += fmt::format(
          " It would see no {}: pods asking it never trigger a scale-up.",
          name);
    }
  }
  std::string out =
      missing.empty()
          ? "Whole GPUs: the instance type's own GPU count is right; the "
            "tag makes it explicit."
          : fmt::format(
                "Without the template's resources below, cluster-autoscaler "
                "scaling this group from zero knows only the instance type's "
                "{} physical GPUs.{}",
                t.physical_gpus, missing);
  const auto& declared = pool.autoscaling.cluster_autoscaler.template_resources;
  std::map<std::string, int64_t> written(t.resources.begin(),
                                         t.resources.end());
  if (std::map<std::string, int64_t>(declared.begin(), declared.end()) !=
      written) {
    out += " The simulation ran this group with " +
           (declared.empty() ? std::string("no template resources")
                             : std::string("other template resources")) +
           " (the pool's cluster-autoscaler template_resources); set them to "
           "these to simulate the group as tagged here.";
  }
  return out;
}

std::string CpuQuantity(int64_t milli) {
  return milli % 1000 == 0 ? fmt::format("{}", milli / 1000)
                           : fmt::format("{}m", milli);
}

}  // namespace

std::string AsgTagsYaml(const Scenario& scenario, const Catalog& catalog) {
  const ClusterAutoscalerSettings deployment =
      CaDeploymentSettings(scenario, AutoscalerCloud::kAws);
  const auto mig = MigConfigsOf(scenario, catalog);
  std::string out = fmt::format(
      "# The Auto Scaling groups of scenario '{}' as cluster-autoscaler "
      "reads them\n# (written by gpushare-sim emit autoscaler).\n",
      CommentText(scenario.name));
  out += CommentLines(
      "Tag each pool's ASG (named after the pool here: write your ASGs' "
      "names as ResourceId): aws autoscaling create-or-update-tags "
      "--cli-input-yaml file://THIS_FILE. cluster-autoscaler reads the "
      "node-template tags when a group has no node to copy "
      "(cloudprovider/aws/aws_manager.go); the labels and taints must also "
      "be set on the instances at boot (the kubelet's --node-labels and "
      "--register-with-taints): cluster-autoscaler does not set them.");
  out += "Tags:\n";
  for (const NodePoolSpec* p :
       AutoscaledPools(scenario, AutoscalerProvider::kClusterAutoscaler)) {
    const auto it = mig.find(p->name);
    const NodeGroupTemplate t =
        NodeGroupTemplateOf(*p, it == mig.end() ? "" : it->second, catalog);
    out += fmt::format(
        "  # pool {}: {} to {} nodes (aws autoscaling "
        "update-auto-scaling-group --auto-scaling-group-name {} --min-size "
        "{} --max-size {}).\n",
        CommentText(p->name), p->autoscaling.min_nodes,
        p->autoscaling.max_nodes, CommentText(ShellWord(p->name)),
        p->autoscaling.min_nodes, p->autoscaling.max_nodes);
    out += IndentLines(CommentLines(PathologyNote(*p, t)), "  ");
    auto tag = [&](const std::string& key, const std::string& value) {
      // The API's limits (CreateOrUpdateTags, Tag: Key 1..128, Value up to
      // 256 characters).
      if (key.size() > 128 || value.size() > 256) {
        throw InputError(fmt::format(
            "node pool '{}': ASG tag '{}' = '{}' is longer than AWS takes "
            "(key 128, value 256 characters)",
            p->name, key, value));
      }
      out += fmt::format(
          "  - ResourceId: {}\n    ResourceType: auto-scaling-group\n"
          "    Key: {}\n    Value: {}\n    PropagateAtLaunch: false\n",
          YamlScalar(p->name), YamlScalar(key), YamlQuoted(value));
    };
    for (const auto& [name, count] : t.resources) {
      tag(std::string(kAwsTemplate) + "resources/" + name,
          fmt::format("{}", count));
    }
    Labels labels = t.labels;
    labels[kAwsGpuLabel] = AcceleratorValue(catalog.Get(p->gpu_model).name);
    for (const auto& [k, v] : labels) {
      tag(std::string(kAwsTemplate) + "label/" + k, v);
    }
    for (const Taint& taint : t.taints) {
      tag(std::string(kAwsTemplate) + "taint/" + taint.key, TaintValue(taint));
    }
    for (const auto& [key, value] :
         CaGroupOptions(p->autoscaling.cluster_autoscaler, deployment,
                        AutoscalerCloud::kAws)) {
      tag(std::string(kAwsTemplate) + "autoscaling-options/" + key, value);
    }
  }
  return out;
}

std::string MachineDeploymentAnnotationsScript(const Scenario& scenario,
                                               const Catalog& catalog) {
  const ClusterAutoscalerSettings deployment =
      CaDeploymentSettings(scenario, AutoscalerCloud::kClusterApi);
  const auto mig = MigConfigsOf(scenario, catalog);
  std::string out = fmt::format(
      "#!/bin/sh\n# The MachineDeployments of scenario '{}' as "
      "cluster-autoscaler reads them\n# (written by gpushare-sim emit "
      "autoscaler).\n",
      CommentText(scenario.name));
  out += CommentLines(
      "Run against the Cluster API management cluster: NAMESPACE=NS sh "
      "THIS_FILE (default namespace: default). Each pool's MachineDeployment "
      "is named after the pool here: write yours. cluster-autoscaler reads "
      "the capacity annotations when a group has no node to copy "
      "(cloudprovider/clusterapi/clusterapi_unstructured.go "
      "InstanceCapacity); the labels and taints must also be the machines' "
      "own at boot.");
  out += "set -eu\nNAMESPACE=\"${NAMESPACE:-default}\"\n";
  for (const NodePoolSpec* p :
       AutoscaledPools(scenario, AutoscalerProvider::kClusterAutoscaler)) {
    const auto it = mig.find(p->name);
    const NodeGroupTemplate t =
        NodeGroupTemplateOf(*p, it == mig.end() ? "" : it->second, catalog);
    out += "\n# pool " + CommentText(p->name) + "\n";
    out += CommentLines(PathologyNote(*p, t));
    std::vector<std::string> args = {
        fmt::format("cluster.x-k8s.io/cluster-api-autoscaler-node-group-"
                    "min-size={}",
                    p->autoscaling.min_nodes),
        fmt::format("cluster.x-k8s.io/cluster-api-autoscaler-node-group-"
                    "max-size={}",
                    p->autoscaling.max_nodes),
        fmt::format("{}cpu={}", kCapacityKey, CpuQuantity(p->cpu_milli)),
        fmt::format("{}memory={}Mi", kCapacityKey, p->memory_mib),
        fmt::format("{}maxPods={}", kCapacityKey, p->max_pods),
    };
    if (t.dra) {
      args.push_back(std::string(kCapacityKey) + "dra-driver=gpu.nvidia.com");
      args.push_back(
          fmt::format("{}gpu-count={}", kCapacityKey, t.physical_gpus));
    } else if (!t.resources.empty()) {
      auto largest = std::max_element(
          t.resources.begin(), t.resources.end(),
          [](const auto& a, const auto& b) { return a.second < b.second; });
      args.push_back(std::string(kCapacityKey) + "gpu-type=" + largest->first);
      args.push_back(
          fmt::format("{}gpu-count={}", kCapacityKey, largest->second));
      std::string others;
      for (const auto& r : t.resources) {
        if (r.first == largest->first) continue;
        others += fmt::format("{}{} {}", others.empty() ? "" : ", ", r.first,
                              r.second);
      }
      if (!others.empty()) {
        out += CommentLines(
            "Cluster API's template takes one GPU resource (gpu-type, "
            "gpu-count); these the node also advertises cannot be given, so "
            "pods asking only them never scale this group up from zero: " +
            others + ".");
      }
    }
    // The Cluster API provider's GPU label (clusterapi_provider.go
    // GPULabel), which the kubelet must set too (its README, "Special note
    // on GPU instances").
    Labels template_labels = t.labels;
    template_labels[kCapiGpuLabel] =
        AcceleratorValue(catalog.Get(p->gpu_model).name);
    std::string labels;
    for (const auto& [k, v] : template_labels) {
      labels += (labels.empty() ? "" : ",") + k + "=" + v;
    }
    args.push_back(std::string(kCapacityKey) + "labels=" + labels);
    if (!t.taints.empty()) {
      std::string taints;
      for (const Taint& taint : t.taints) {
        taints +=
            (taints.empty() ? "" : ",") + taint.key + "=" + TaintValue(taint);
      }
      args.push_back(std::string(kCapacityKey) + "taints=" + taints);
    }
    for (const auto& [key, value] :
         CaGroupOptions(p->autoscaling.cluster_autoscaler, deployment,
                        AutoscalerCloud::kClusterApi)) {
      args.push_back("cluster.x-k8s.io/autoscaling-options-" + key + "=" +
                     value);
    }
    out += "kubectl annotate --overwrite machinedeployment " +
           ShellWord(p->name) + " -n \"$NAMESPACE\"";
    for (const std::string& a : args) out += " \\\n  " + ShellWord(a);
    out += "\n";
  }
  return out;
}

}  // namespace gpushare
