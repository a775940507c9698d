// cluster-autoscaler's Helm values for a scenario's pools that scale with
// cluster-autoscaler (chart kubernetes/autoscaler
// charts/cluster-autoscaler 9.59.0, app 1.35.0: values.yaml and
// templates/deployment.yaml), written by `gpushare-sim emit autoscaler`.
//
// Contract: CaDeploymentSettings() returns the flags of the one
// cluster-autoscaler deployment that serves every cluster-autoscaler pool of
// the scenario: the first such pool's settings. A flag a node group may
// override on `cloud` (CaGroupOptions) may differ between the pools: the
// groups whose value differs carry it themselves (emit/
// cluster_autoscaler_node_groups.h). Any other flag must agree — scan
// interval, scale-down delay after add, max graceful termination, new-pod
// scale-up delay, expander, and (unless `cloud` carries them per group)
// ignore-daemonsets-utilization (AWS only) and max-node-provision-time
// (Cluster API only) — else InputError names both pools, the flag and the
// two values. InputError too when the scenario has no cluster-autoscaler
// pool. CaGroupOptions() lists, for `pool`, the per-group option keys and
// values that differ from `deployment`'s flags, as `cloud`'s provider
// spells the key (the AWS README's and clusterapi README's
// autoscaling-options: scaledownutilizationthreshold,
// scaledowngpuutilizationthreshold, scaledownunneededtime, and
// ignoredaemonsetsutilization (AWS) or maxnodeprovisiontime (Cluster API);
// kAny: the first three only), values as the flags take them (0.5, 10m).
// ClusterAutoscalerValuesYaml() writes `extraArgs` with every flag above
// (the chart passes each as --KEY=VALUE), `expanderPriorities` under the
// priority expander (each pool's priority, its node group matched by
// ^(.*/)?NAME$), and for kAws `cloudProvider: aws` with `autoscalingGroups`
// (name = the pool's name, minSize, maxSize), for kClusterApi
// `cloudProvider: clusterapi` (sizes live on the MachineDeployments); kAny
// leaves the cloud to the installed release and names both forms in
// comments. Header comments give the `helm upgrade --reuse-values` command.
// Deterministic.

#ifndef GPUSHARE_EMIT_CLUSTER_AUTOSCALER_VALUES_H_
#define GPUSHARE_EMIT_CLUSTER_AUTOSCALER_VALUES_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/emit/autoscaler_cloud.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The chart version the values are written for.
inline constexpr const char* kClusterAutoscalerChartVersion = "9.59.0";

ClusterAutoscalerSettings CaDeploymentSettings(const Scenario& scenario,
                                               AutoscalerCloud cloud);

std::vector<std::pair<std::string, std::string>> CaGroupOptions(
    const ClusterAutoscalerSettings& pool,
    const ClusterAutoscalerSettings& deployment, AutoscalerCloud cloud);

std::string ClusterAutoscalerValuesYaml(const Scenario& scenario,
                                        AutoscalerCloud cloud);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_CLUSTER_AUTOSCALER_VALUES_H_
