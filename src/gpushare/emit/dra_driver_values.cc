#include "gpushare/emit/dra_driver_values.h"

#include <fmt/format.h>

#include <vector>

#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/emit/pool_node_set.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {

std::string DraDriverValuesYaml(const Scenario& scenario) {
  std::vector<const NodePoolSpec*> pools;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.devices == PoolDevices::kDra && p.gpus_per_node > 0) {
      pools.push_back(&p);
    }
  }
  if (pools.empty()) return "";
  const std::string shares = DraConsumableSharesValue(pools[0]->dra);
  bool interval = false;
  std::vector<Taint> taints;
  std::string names;
  for (const NodePoolSpec* p : pools) {
    if (DraConsumableSharesValue(p->dra) != shares) {
      throw InputError(fmt::format(
          "node pools '{}' and '{}': NVIDIA's DRA driver reads one "
          "consumable-shares mode per kubelet plugin and its chart installs "
          "the cluster-wide DeviceClass gpu.nvidia.com, so one release "
          "serves every DRA pool, but the pools set dra.consumable_shares "
          "'{}' and '{}'",
          pools[0]->name, p->name, shares, DraConsumableSharesValue(p->dra)));
    }
    // A MIG device's config has no interval (MigDeviceSharing).
    interval = interval || (!p->sharing.mig_enabled &&
                            p->dra.time_slice_interval !=
                                DraTimeSliceInterval::kDefault);
    for (const Taint& t : p->taints) AddTaintOnce(&taints, t);
    names += (names.empty() ? "" : ", ") + p->name;
  }
  const bool consumable = pools[0]->dra.consumable_shares !=
                          DraConsumableShares::kDisabled;
  std::string out = fmt::format(
      "# Helm values of NVIDIA's DRA driver for GPUs for the DRA pools of "
      "scenario\n# '{}' ({}), written by gpushare-sim emit k8s. Chart: "
      "kubernetes-sigs/\n# dra-driver-nvidia-gpu deployments/helm/"
      "dra-driver-nvidia-gpu, read at commit\n# 95932046 (values.yaml, "
      "templates/validation.yaml, templates/kubeletplugin.yaml).\n#   helm "
      "upgrade --install {} \\\n#     {} \\\n#     --namespace {} "
      "--create-namespace -f dra-driver-values.yaml\n"
      "# The chart refuses resources.gpus.enabled without "
      "gpuResourcesEnabledOverride:\n# the driver must not run beside "
      "NVIDIA's device plugin on a node; node-setup.sh\n# labels these "
      "pools' nodes nvidia.com/gpu.deploy.device-plugin=false, so the GPU\n"
      "# Operator runs no device plugin there.\n",
      CommentText(scenario.name), CommentText(names), kDraDriverRelease,
      kDraDriverChart, kDraDriverRelease);
  if (consumable || interval) {
    out +=
        "# The feature gates below are alpha and off by default in the "
        "driver\n# (pkg/featuregates/featuregates.go):\n";
    if (consumable) {
      out +=
          "#   ConsumableShares: devices are published for several claims "
          "to share.\n";
    }
    if (interval) {
      out +=
          "#   TimeSlicingSettings: the claims' TimeSlicing interval is "
          "accepted.\n";
    }
    out += "# MPSSupport and DynamicMIG (alpha, off) are not needed.\n";
  }
  out += "resources:\n  gpus:\n    enabled: true\ngpuResourcesEnabledOverride: true\n";
  if (consumable) {
    out += fmt::format("consumableShares: \"{}\"\n", shares);
  }
  if (consumable || interval) {
    out += "featureGates:\n";
    if (consumable) out += "  ConsumableShares: true\n";
    if (interval) out += "  TimeSlicingSettings: true\n";
  }
  out +=
      "kubeletPlugin:\n  affinity:\n    nodeAffinity:\n"
      "      requiredDuringSchedulingIgnoredDuringExecution:\n"
      "        nodeSelectorTerms:\n";
  for (const NodePoolSpec* p : pools) {
    const PoolNodeSet set = PoolNodeSetOf(*p);
    out += fmt::format("          # pool {}\n", CommentText(p->name));
    if (set.by_name() && !set.names.empty()) {
      out +=
          "          - matchFields:\n              - key: metadata.name\n"
          "                operator: In\n                values:\n";
      for (const std::string& n : set.names) {
        out += fmt::format("                  - {}\n", YamlQuoted(n));
      }
      continue;
    }
    // A pool of nodes still to provision only: its pool label.
    const Labels selector =
        set.by_name() ? Labels{{kNodePoolLabel, p->name}} : set.selector;
    out += "          - matchExpressions:\n";
    for (const auto& [k, v] : selector) {
      out += fmt::format(
          "              - key: {}\n                operator: In\n"
          "                values: [{}]\n",
          YamlQuoted(k), YamlQuoted(v));
    }
  }
  out +=
      "  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n"
      "    effect: NoSchedule\n";
  return out + EqualTolerationsYaml(taints);
}

}  // namespace gpushare
