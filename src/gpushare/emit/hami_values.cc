#include "gpushare/emit/hami_values.h"

#include <fmt/format.h>

#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/emit/pool_node_set.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

const char* PolicyName(HamiPolicy p) {
  return p == HamiPolicy::kSpread ? "spread" : "binpack";
}

// Numbers as the chart writes them: 1, not 1.000000.
std::string ShortNum(double v) { return fmt::format("{:g}", v); }

bool SameDevicePluginSettings(const HamiSettings& a, const HamiSettings& b) {
  return a.split_count == b.split_count &&
         a.memory_scaling == b.memory_scaling &&
         a.core_scaling == b.core_scaling;
}

}  // namespace

std::string HamiValuesYaml(const Scenario& scenario, const Catalog& catalog) {
  std::vector<const NodePoolSpec*> pools;
  for (const NodePoolSpec& pool : scenario.pools) {
    if (pool.gpus_per_node > 0 &&
        pool.sharing.sharing == DeviceSharing::kHami) {
      pools.push_back(&pool);
    }
  }
  if (pools.empty()) {
    throw InputError(fmt::format(
        "scenario '{}' has no HAMi pool (sharing scheme hami): there are no "
        "HAMi values to write",
        scenario.name));
  }
  const HamiSettings& first = pools[0]->sharing.hami;
  for (const NodePoolSpec* pool : pools) {
    const HamiSettings& h = pool->sharing.hami;
    if (h.default_memory_mib != first.default_memory_mib ||
        h.default_cores != first.default_cores) {
      throw InputError(fmt::format(
          "node pools '{}' and '{}': HAMi's defaultMemory and defaultCores "
          "are one cluster-wide setting (the scheduler's device-config), but "
          "the pools give {} MiB / {} cores and {} MiB / {} cores",
          pools[0]->name, pool->name, first.default_memory_mib,
          first.default_cores, h.default_memory_mib, h.default_cores));
    }
  }
  Cluster cluster(catalog);
  for (const NodePoolSpec& pool : scenario.pools) cluster.AddPool(pool);
  std::string labels;
  std::string nodeconfig;
  std::string annotations;
  std::string unnamed;  // pools whose per-node entries need real names
  std::vector<Taint> taints;
  for (const NodePool& pool : cluster.pools()) {
    const NodePoolSpec& spec = pool.spec;
    if (spec.gpus_per_node == 0 ||
        spec.sharing.sharing != DeviceSharing::kHami) {
      continue;
    }
    const HamiSettings& h = spec.sharing.hami;
    const PoolNodeSet set = PoolNodeSetOf(spec);
    labels += LabelCommandComments(set, "gpu=on");
    labels += LabelCommandComments(set, "nvidia.com/gpu.deploy.device-plugin=false");
    for (const Taint& t : spec.taints) AddTaintOnce(&taints, t);
    if (SameDevicePluginSettings(h, first)) continue;
    if (!set.by_name()) {
      unnamed += fmt::format(
          "#   pool {}: one entry per node of `kubectl get nodes -l {}`\n",
          CommentText(spec.name), CommentText(ShellWord(SelectorText(set.selector))));
    }
    for (int n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      const std::string& node = cluster.nodes()[n].name();
      nodeconfig += fmt::format(
          "{}        {{\"name\": {}, \"operatingmode\": \"hami-core\", "
          "\"devicesplitcount\": {}, \"devicememoryscaling\": {}, "
          "\"devicecorescaling\": {}}}",
          nodeconfig.empty() ? "" : ",\n", JsonString(node), h.split_count,
          ShortNum(h.memory_scaling), ShortNum(h.core_scaling));
    }
    if (h.node_policy != first.node_policy ||
        h.gpu_policy != first.gpu_policy) {
      annotations += fmt::format(
          "#   pool {}: hami.io/node-scheduler-policy: \"{}\", "
          "hami.io/gpu-scheduler-policy: \"{}\"\n",
          CommentText(spec.name), PolicyName(h.node_policy),
          PolicyName(h.gpu_policy));
    }
  }
  std::string out = fmt::format(
      "# HAMi Helm values of scenario '{}' (chart hami {}; written by\n"
      "# gpushare-sim emit hami).\n#\n"
      "# 1. Install or upgrade HAMi (with --reuse-values where installed):\n"
      "#   helm upgrade --install {} -f THIS_FILE\n"
      "# 2. Let HAMi's device plugin serve the vGPU nodes, and the GPU "
      "Operator's not\n#    (node-setup.sh of emit k8s sets these labels):\n{}",
      CommentText(scenario.name),
      CommentText(HamiRelease(scenario.platform).version),
      CommentText(HelmReleaseArguments(HamiRelease(scenario.platform))),
      labels);
  if (!annotations.empty()) {
    out +=
        "# 3. Pods of these pools ask for their pool's policies (pod "
        "annotations;\n#    the values below hold the first HAMi pool's):\n" +
        annotations;
  }
  out += fmt::format(
      "scheduler:\n  defaultSchedulerPolicy:\n"
      "    nodeSchedulerPolicy: {}\n    gpuSchedulerPolicy: {}\n"
      "devicePlugin:\n  deviceSplitCount: {}\n  deviceMemoryScaling: {}\n"
      "  deviceCoreScaling: {}\n  nvidiaNodeSelector:\n    gpu: \"on\"\n",
      PolicyName(first.node_policy), PolicyName(first.gpu_policy),
      first.split_count, ShortNum(first.memory_scaling),
      ShortNum(first.core_scaling));
  if (!taints.empty()) {
    out += "  tolerations:\n" + EqualTolerationsYaml(taints);
  }
  if (!unnamed.empty()) {
    out += "  # The entries below name the simulator's nodes of these pools; "
           "name the real ones:\n" + unnamed;
  }
  if (!nodeconfig.empty()) {
    out += "  nodeConfiguration:\n    config: |\n      {\"nodeconfig\": [\n" +
           nodeconfig + "\n      ]}\n";
  }
  if (first.default_memory_mib != 0 || first.default_cores != 0) {
    out += fmt::format(
        "# defaultMemory and defaultCores live in the scheduler's "
        "device-config, not in\n# Helm values: this content replaces the "
        "chart's device-config.yaml whole\n# (its other vendors' sections "
        "are dropped).\n"
        "device-config:\n  content: |\n    nvidia:\n"
        "      resourceCountName: nvidia.com/gpu\n"
        "      resourceMemoryName: nvidia.com/gpumem\n"
        "      resourceMemoryPercentageName: nvidia.com/gpumem-percentage\n"
        "      resourceCoreName: nvidia.com/gpucores\n"
        "      resourcePriorityName: nvidia.com/priority\n"
        "      overwriteEnv: false\n"
        "      defaultMemory: {}\n      defaultCores: {}\n"
        "      defaultGPUNum: 1\n      memoryFactor: 1\n"
        "      deviceSplitCount: {}\n      deviceMemoryScaling: {}\n"
        "      deviceCoreScaling: {}\n",
        first.default_memory_mib, first.default_cores, first.split_count,
        ShortNum(first.memory_scaling), ShortNum(first.core_scaling));
  }
  return out;
}

}  // namespace gpushare
