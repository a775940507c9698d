// The NVIDIA GPU Operator's Helm values a scenario needs
// (`gpu-operator-values.yaml`, written by `emit k8s` and `plan --out`;
// docs/emit.md, "gpu-operator-values.yaml").
//
// Contract: ClusterMigStrategyOf() is the value of the operator's
// `mig.strategy` (ClusterPolicy spec.mig.strategy, which the operator turns
// into every device plugin's MIG_STRATEGY, outranking each node's
// flags.migStrategy): "single" when every MIG pool uses single or there is
// no MIG pool (the chart's default), "mixed" when every MIG pool uses mixed
// and no pool runs MPS (the plugin refuses MPS under mixed), else "" — no
// strategy, each node's device-plugin config decides — with `why_per_node`
// saying why. GpuOperatorValuesYaml() writes the values: `devicePlugin.config`
// {name, default: default} naming the device-plugin ConfigMap when a pool is
// served by NVIDIA's device plugin; `migManager.config` {name, default:
// all-disabled} naming the mig-parted ConfigMap when a pool uses MIG;
// `mig.strategy`; and `daemonsets.tolerations`: the chart's default
// (nvidia.com/gpu Exists NoSchedule) and one Equal toleration per distinct
// taint of the GPU pools that NVIDIA's operands run on (every GPU pool: the
// driver, toolkit and validator run on HAMi's nodes too), since a Helm list
// replaces the chart's whole. The header says how to apply it (helm upgrade
// --reuse-values -f). Deterministic; throws InputError as PoolMigConfigs.

#ifndef GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_
#define GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct ClusterMigStrategy {
  std::string strategy;      // "single", "mixed" or "" (per node)
  std::string why_per_node;  // when strategy is ""
};

ClusterMigStrategy ClusterMigStrategyOf(const Scenario& scenario,
                                        const Catalog& catalog);

struct GpuOperatorValuesOptions {
  std::string device_plugin_config = "gpushare-device-plugin-config";
  std::string mig_parted_config = "custom-mig-config";
  std::string namespace_name = "gpu-operator";
};

// A YAML list item (two-space indent) per taint: an Equal toleration of
// its key, value and effect, the key a YamlScalar, the value YamlQuoted.
std::string EqualTolerationsYaml(const std::vector<Taint>& taints);

std::string GpuOperatorValuesYaml(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const GpuOperatorValuesOptions& options = {});

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_
