#include "gpushare/emit/dra_driver_values.h"

#include <fmt/format.h>

#include <vector>

#include "gpushare/emit/comment_wrap.h"
#include "gpushare/emit/dra_feature_gates.h"
#include "gpushare/emit/gpu_operator_values.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {

std::string DraDriverRoot(const Scenario& scenario, std::string* why) {
  const PlatformSpec& p = scenario.platform;
  if (!p.dra_driver_root.empty()) {
    *why = "platform.dra_driver.driver_root";
    return p.dra_driver_root;
  }
  if (p.gpu_operator_driver.has_value() && !*p.gpu_operator_driver) {
    *why =
        "the kubectl dump shows GPU Operator pods but none of its driver "
        "DaemonSet: the driver is installed on the host";
    return "/";
  }
  if (p.gpu_operator_driver.has_value()) {
    *why =
        "the GPU Operator's driver DaemonSet runs in the kubectl dump; its "
        "driver container's root";
  } else {
    *why =
        "the GPU Operator that gpu-operator-values.yaml configures installs "
        "the driver, as its chart does by default (driver.enabled: true); "
        "for a driver installed on the host set platform.dra_driver."
        "driver_root: /";
  }
  return kGpuOperatorDriverRoot;
}

std::string DraDriverValuesYaml(const Scenario& scenario) {
  std::vector<const NodePoolSpec*> pools;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.devices == PoolDevices::kDra && p.gpus_per_node > 0) {
      pools.push_back(&p);
    }
  }
  if (pools.empty()) return "";
  const DraPoolSettings driver = DraDriverSettings(scenario.pools);
  const std::string shares = DraConsumableSharesValue(driver);
  bool interval = false;
  bool mps = false;
  bool dynamic = false;
  std::string static_mig;  // a DRA pool with a static MIG layout
  std::vector<Taint> taints;
  std::string names;
  for (const NodePoolSpec* p : pools) {
    const DraPoolSettings dra = EffectiveDraPoolSettings(p->dra, p->sharing);
    // A MIG device's config has no interval (MigDeviceSharing).
    interval =
        interval || (!p->sharing.mig_enabled &&
                     dra.time_slice_interval != DraTimeSliceInterval::kDefault);
    mps = mps || p->sharing.scheme() == SharingScheme::kMps;
    if (p->sharing.mig_enabled && p->sharing.mig.dynamic) {
      dynamic = true;
    } else if (p->sharing.mig_enabled && static_mig.empty()) {
      static_mig = p->name;
    }
    for (const Taint& t : p->taints) AddTaintOnce(&taints, t);
    names += (names.empty() ? "" : ", ") + p->name;
  }
  const bool consumable =
      driver.consumable_shares != DraConsumableShares::kDisabled;
  if (dynamic && mps) {
    throw InputError(
        "DRA pools with dynamic MIG and DRA MPS need one release of the DRA "
        "driver with the gates DynamicMIG and MPSSupport, which the driver "
        "refuses together (pkg/featuregates/featuregates.go: \"currently "
        "mutually exclusive\")");
  }
  if (dynamic && !static_mig.empty()) {
    throw InputError(fmt::format(
        "DRA pool '{}' has a static MIG layout beside dynamic MIG pools: one "
        "release of the DRA driver serves every DRA pool, and with the "
        "DynamicMIG gate it publishes partitionable devices, not static MIG "
        "devices, on every MIG-capable GPU (cmd/gpu-kubelet-plugin/"
        "driver.go)",
        static_mig));
  }
  if (dynamic && consumable) {
    throw InputError(
        "DRA pools with dynamic MIG beside consumable shares (DRA "
        "time-slicing) are not modelled in one release of the DRA driver");
  }
  CheckDraDriverFeatures(scenario);
  CheckDraKubernetes(scenario);
  const HelmReleaseSpec release = DraDriverRelease(scenario);
  const std::string name_override = DraDriverNameOverride(scenario);
  std::string root_why;
  const std::string root = DraDriverRoot(scenario, &root_why);
  const std::string repo_add = DraDriverRepoAdd(release.chart_version);
  const auto& today = scenario.platform.dra_driver_today;
  std::string out = WrappedComment(fmt::format(
      "Helm values of NVIDIA's DRA driver for GPUs for the DRA pools of "
      "scenario '{}' ({}), written by gpushare-sim emit k8s for chart "
      "version {} ({}; the chart's values.yaml, templates/validation.yaml "
      "and templates/kubeletplugin.yaml of that version).",
      scenario.name, names, release.chart_version,
      DraDriverVersionSource(scenario)));
  out += WrappedComment(fmt::format(
      "Release {} in namespace {}{}:", release.release, release.namespace_name,
      today.found
          ? " (the release installed today: its pods in " + today.source + ")"
          : std::string()));
  if (!repo_add.empty()) out += "#   " + CommentText(repo_add) + "\n";
  out += "#   " +
         CommentText(DraDriverHelmUpgrade(scenario, "dra-driver-values.yaml")) +
         "\n";
  out +=
      "# The chart refuses resources.gpus.enabled without "
      "gpuResourcesEnabledOverride:\n# the driver must not run beside "
      "NVIDIA's device plugin on a node; node-setup.sh\n# labels these "
      "pools' nodes nvidia.com/gpu.deploy.device-plugin=false, so the GPU\n"
      "# Operator runs no device plugin there.\n";
  out +=
      WrappedComment(fmt::format("nvidiaDriverRoot {}: {}.", root, root_why));
  if (!name_override.empty()) {
    out += WrappedComment(fmt::format(
        "nameOverride {}: today's driver objects carry that name (the chart "
        "before 0.4.0); without it the chart would make a second kubelet "
        "plugin DaemonSet beside the first (docs/upgrade.md of the driver).",
        name_override));
  }
  out += DraKubernetesNeeds(DraFeaturesOf(scenario), scenario.platform);
  if (consumable || interval || mps || dynamic) {
    out +=
        "# The feature gates below are alpha and off by default in the "
        "driver\n# (pkg/featuregates/featuregates.go):\n";
    if (consumable) {
      out +=
          "#   ConsumableShares: devices are published for several claims "
          "to share.\n";
    }
    if (dynamic) {
      out +=
          "#   DynamicMIG: MIG-capable GPUs are published as partitionable "
          "devices\n#   (KEP-4815; Kubernetes gate DRAPartitionableDevices) "
          "and a MIG instance\n#   is made when a claim is prepared, "
          "destroyed when it is released.\n#   No MIG manager runs on these "
          "nodes (node-setup.sh labels them\n#   "
          "nvidia.com/gpu.deploy.mig-manager=false).\n";
    }
    if (interval) {
      out +=
          "#   TimeSlicingSettings: the claims' TimeSlicing interval is "
          "accepted.\n";
    }
    if (mps) {
      out +=
          "#   MPSSupport: the claims' GpuConfig sharing strategy MPS starts "
          "an MPS\n#   control daemon per claim.\n";
      out += "# DynamicMIG (alpha, off) is not needed.\n";
    } else if (dynamic) {
      out += "# MPSSupport (alpha, off) is not needed.\n";
    } else {
      out += "# MPSSupport and DynamicMIG (alpha, off) are not needed.\n";
    }
  }
  out += fmt::format("nvidiaDriverRoot: {}\n", YamlQuoted(root));
  if (!name_override.empty()) {
    out += fmt::format("nameOverride: {}\n", YamlQuoted(name_override));
  }
  out +=
      "resources:\n  gpus:\n    enabled: true\ngpuResourcesEnabledOverride: "
      "true\n";
  if (consumable) {
    out += fmt::format("consumableShares: \"{}\"\n", shares);
  }
  if (consumable || interval || mps || dynamic) {
    out += "featureGates:\n";
    if (consumable) out += "  ConsumableShares: true\n";
    if (dynamic) out += "  DynamicMIG: true\n";
    if (mps) out += "  MPSSupport: true\n";
    if (interval) out += "  TimeSlicingSettings: true\n";
  }
  out +=
      "kubeletPlugin:\n  affinity:\n    nodeAffinity:\n"
      "      requiredDuringSchedulingIgnoredDuringExecution:\n"
      "        nodeSelectorTerms:\n"
      "          # the DRA pools' nodes, by the pool label node-setup.sh "
      "sets\n"
      "          - matchExpressions:\n"
      "              - key: " +
      YamlQuoted(kNodePoolLabel) +
      "\n                operator: In\n                values:\n";
  for (const NodePoolSpec* p : pools) {
    out += fmt::format("                  - {}\n", YamlQuoted(p->name));
  }
  out +=
      "  tolerations:\n  - key: nvidia.com/gpu\n    operator: Exists\n"
      "    effect: NoSchedule\n";
  return out + EqualTolerationsYaml(taints);
}

DraPoolSettings DraDriverSettings(const std::vector<NodePoolSpec>& pools) {
  DraPoolSettings driver;
  const NodePoolSpec* sharing = nullptr;  // the first pool that shares
  const NodePoolSpec* alone = nullptr;    // the first that does not
  for (const NodePoolSpec& p : pools) {
    if (p.devices != PoolDevices::kDra || p.gpus_per_node == 0) continue;
    const DraPoolSettings dra = EffectiveDraPoolSettings(p.dra, p.sharing);
    if (dra.consumable_shares == DraConsumableShares::kDisabled) {
      if (alone == nullptr) alone = &p;
      continue;
    }
    if (sharing == nullptr) {
      sharing = &p;
      driver.consumable_shares = dra.consumable_shares;
      driver.shares = dra.shares;
      continue;
    }
    if (DraConsumableSharesValue(dra) != DraConsumableSharesValue(driver)) {
      throw InputError(fmt::format(
          "node pools '{}' and '{}': NVIDIA's DRA driver reads one "
          "consumable-shares mode per kubelet plugin and its chart installs "
          "the cluster-wide DeviceClass gpu.nvidia.com, so one release "
          "serves every DRA pool, but the pools share GPUs with "
          "consumable shares '{}' and '{}'",
          sharing->name, p.name, DraConsumableSharesValue(driver),
          DraConsumableSharesValue(dra)));
    }
  }
  for (const NodePoolSpec& p : pools) {
    if (sharing != nullptr && p.devices == PoolDevices::kDra &&
        p.sharing.scheme() == SharingScheme::kMps) {
      // device_state.go applyGpuConfig: "MPS sharing is not supported when
      // consumable shares is enabled".
      throw InputError(fmt::format(
          "node pools '{}' and '{}': pool '{}' shares GPUs through MPS, "
          "which NVIDIA's DRA driver refuses while consumable shares are "
          "enabled, and pool '{}' needs them ('{}'); one release serves "
          "every DRA pool",
          p.name, sharing->name, p.name, sharing->name,
          DraConsumableSharesValue(driver)));
    }
  }
  if (driver.consumable_shares == DraConsumableShares::kUnlimited &&
      alone != nullptr) {
    throw InputError(fmt::format(
        "node pools '{}' and '{}': with consumable shares 'unlimited' (pool "
        "'{}') every device of the driver is shareable and a claim asking no "
        "memory takes none of it, so pool '{}' could not hand a claim a "
        "device of its own; give the sharing pool dra.consumable_shares "
        "memory or a count",
        sharing->name, alone->name, sharing->name, alone->name));
  }
  return driver;
}

}  // namespace gpushare
