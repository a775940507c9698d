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
// saying why. NeedsClusterMigStrategy() is true when a GPU pool has MIG
// layouts (static MIG, not the DRA driver's dynamic MIG) or runs MPS through
// the device plugin; only then is `mig.strategy` written, else the release's
// stays (an exclusive or time-sliced plan has no say in it).
// GpuOperatorValuesYaml() writes the values, each key only when the plan
// needs it (with `helm upgrade --reuse-values` a key left out keeps the
// release's value): `devicePlugin.config` {name, default: default} naming
// the device-plugin ConfigMap when a pool is served by NVIDIA's device
// plugin; `migManager.config` {name, default: all-disabled} naming the
// mig-parted ConfigMap when a pool uses MIG layouts; `mig.strategy` as
// above; `daemonsets.tolerations` and
// `node-feature-discovery.worker.tolerations` when a taint of the GPU pools
// (every GPU pool: the driver, toolkit and validator run on HAMi's and DRA's
// nodes too, and NFD labels them all; a written pool's `taints`, an imported
// pool's members' own and its new_node_taints, never node.kubernetes.io/*,
// which the DaemonSet controller tolerates) is not tolerated by the list
// today —
// `scenario.platform`'s, said or imported from a kubectl dump, else the
// chart's default (GpuOperatorDaemonsetTolerationsDefault,
// NfdWorkerTolerationsDefault) — and then that list, in its order, followed
// by one Equal toleration per such taint in pool order, since a Helm list
// replaces the release's whole. The header says how to apply the file
// (helm upgrade --reuse-values -f), where each list came from, and, when
// today's list is unknown, that a toleration the release added may be lost.
// Deterministic; throws InputError as PoolMigConfigs.
//
// TolerationsYaml() writes v1.Tolerations as YAML list items at `indent`
// (key when not empty, a YamlScalar; operator; value YamlQuoted for Equal;
// effect when set). EqualTolerationsYaml() writes, at two spaces, an Equal
// toleration per taint.

#ifndef GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_
#define GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_

#include <string>
#include <vector>

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

std::string TolerationsYaml(const std::vector<Toleration>& tolerations,
                            const std::string& indent);

// The gpu-operator chart's `daemonsets.tolerations` (deployments/
// gpu-operator/values.yaml: nvidia.com/gpu Exists NoSchedule, v23.9 to
// v26.7).
std::vector<Toleration> GpuOperatorDaemonsetTolerationsDefault();
// Its `node-feature-discovery.worker.tolerations` for `chart_version`:
// control-plane Equal "" NoSchedule and nvidia.com/gpu Exists NoSchedule
// from v26.3.0, with node-role.kubernetes.io/master before it (and when the
// version is unknown: the longer list tolerates no fewer nodes).
std::vector<Toleration> NfdWorkerTolerationsDefault(
    const std::string& chart_version);

bool NeedsClusterMigStrategy(const Scenario& scenario);

std::string GpuOperatorValuesYaml(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const GpuOperatorValuesOptions& options = {});

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_GPU_OPERATOR_VALUES_H_
