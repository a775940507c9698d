#include "gpushare/emit/gpu_operator_values.h"

#include <fmt/format.h>

#include <vector>

#include "gpushare/emit/helm_release.h"
#include "gpushare/emit/mig_parted_config.h"
#include "gpushare/emit/node_target.h"
#include "gpushare/emit/quoting.h"

namespace gpushare {

std::string EqualTolerationsYaml(const std::vector<Taint>& taints) {
  std::string out;
  for (const Taint& t : taints) {
    out += fmt::format(
        "  - key: {}\n    operator: Equal\n    value: {}\n    effect: {}\n",
        YamlScalar(t.key), YamlQuoted(t.value), TaintEffectName(t.effect));
  }
  return out;
}

ClusterMigStrategy ClusterMigStrategyOf(const Scenario& scenario,
                                        const Catalog& catalog) {
  bool has_mig = false;
  bool mps = false;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    // (Dynamic MIG pools have no layout: the DRA driver makes instances.)
    has_mig = has_mig || (p.sharing.mig_enabled && !p.sharing.mig.dynamic);
    // (A "DRA MPS" pool runs no device plugin.)
    mps = mps || (p.sharing.sharing == DeviceSharing::kMps &&
                  p.devices == PoolDevices::kDevicePlugin);
  }
  if (!has_mig) return {"single", ""};
  bool mixed = false;
  bool single = false;
  for (const PoolMigConfig& c : PoolMigConfigs(scenario, catalog)) {
    mixed = mixed || c.mixed;
    single = single || !c.mixed;
  }
  if (mixed && single) return {"", "the pools differ in MIG strategy"};
  if (mixed && mps) {
    return {"", "MPS pools cannot run under the mixed strategy"};
  }
  return {mixed ? "mixed" : "single", ""};
}

std::string GpuOperatorValuesYaml(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const GpuOperatorValuesOptions& options) {
  bool nvidia = false;
  bool mig = false;
  std::vector<Taint> taints;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.gpus_per_node == 0) continue;
    nvidia = nvidia || (p.sharing.sharing != DeviceSharing::kHami &&
                        p.devices != PoolDevices::kDra);
    mig = mig || (p.sharing.mig_enabled && !p.sharing.mig.dynamic);
    for (const Taint& t : p.taints) {
      if (t.key == "nvidia.com/gpu" && t.effect == TaintEffect::kNoSchedule) {
        continue;  // the chart's own toleration (operator Exists) covers it
      }
      AddTaintOnce(&taints, t);
    }
  }
  const ClusterMigStrategy strategy = ClusterMigStrategyOf(scenario, catalog);
  std::string out = fmt::format(
      "# NVIDIA GPU Operator Helm values of scenario '{}' (written by "
      "gpushare-sim).\n# Apply on top of the values the release has:\n"
      "#   helm upgrade {} --reuse-values -f THIS_FILE\n"
      "# (a later helm upgrade keeps them; kubectl patches of "
      "the ClusterPolicy\n# would be overwritten by it). Lists replace the "
      "chart's whole: the tolerations\n# below include the chart's "
      "default.\n",
      CommentText(scenario.name),
      CommentText(HelmReleaseArguments(
          GpuOperatorRelease(scenario.platform, options.namespace_name))));
  if (nvidia) {
    out += fmt::format(
        "devicePlugin:\n  config:\n    name: {}\n    default: default\n",
        YamlScalar(options.device_plugin_config));
  }
  if (mig) {
    out += fmt::format(
        "migManager:\n  config:\n    name: {}\n    default: {}\n",
        YamlScalar(options.mig_parted_config), "all-disabled");
  }
  if (strategy.strategy.empty()) {
    out += fmt::format(
        "# No cluster-wide MIG strategy ({}): each node's device-plugin "
        "config\n# (flags.migStrategy) decides. An empty value leaves "
        "spec.mig.strategy out.\nmig:\n  strategy: \"\"\n",
        strategy.why_per_node);
  } else {
    out += fmt::format("mig:\n  strategy: {}\n", strategy.strategy);
  }
  out +=
      "daemonsets:\n  tolerations:\n  - key: nvidia.com/gpu\n"
      "    operator: Exists\n    effect: NoSchedule\n";
  return out + EqualTolerationsYaml(taints);
}

}  // namespace gpushare
