// The files an administrator deploys for a scenario's autoscaled pools,
// written by `gpushare-sim emit autoscaler` and, among the others, by
// `emit k8s` (docs/emit.md, "Autoscaled pools").
//
// Contract: AutoscalerFiles() returns, in this order, only those that
// apply: for pools that scale with cluster-autoscaler
// `cluster-autoscaler-values.yaml` (emit/cluster_autoscaler_values.h),
// `cluster-autoscaler-asg-tags.yaml` unless the cloud is Cluster API and
// `cluster-autoscaler-machinedeployments.sh` unless it is AWS
// (emit/cluster_autoscaler_node_groups.h); for pools that scale with
// Karpenter `karpenter-nodepools.yaml` and, where a pool's nodes advertise
// shared GPU resources, `karpenter-node-overlays.yaml`
// (emit/karpenter_node_pools.h). Throws InputError when the scenario has
// no autoscaled pool with GPUs, and as those emitters do. BundleText()
// joins files into one text for a single output: a lone file as it is,
// several each after a `# ==== file: NAME ====` line. Deterministic.

#ifndef GPUSHARE_EMIT_AUTOSCALER_FILES_H_
#define GPUSHARE_EMIT_AUTOSCALER_FILES_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/emit/autoscaler_cloud.h"
#include "gpushare/emit/k8s_config.h"
#include "gpushare/emit/karpenter_node_pools.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct AutoscalerEmitOptions {
  AutoscalerCloud cloud = AutoscalerCloud::kAny;
  KarpenterNodeClassRef node_class;
};

std::vector<EmittedFile> AutoscalerFiles(const Scenario& scenario,
                                         const Catalog& catalog,
                                         const AutoscalerEmitOptions& options);

std::string BundleText(const std::vector<EmittedFile>& files);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_AUTOSCALER_FILES_H_
