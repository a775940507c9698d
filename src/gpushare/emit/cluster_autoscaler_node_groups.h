// The node groups of a scenario's cluster-autoscaler pools as the cloud
// providers describe them to cluster-autoscaler: their size bounds, the
// per-group flags that differ from the deployment's, and the template of a
// node scaled from zero — what its device plugin advertises once ready, its
// labels and taints (docs/emit.md, "Autoscaled pools").
//
// Contract: both throw InputError as CaDeploymentSettings() does (no
// cluster-autoscaler pool, pools that disagree on a deployment-wide flag)
// and as Cluster::AddPool does. Deterministic.
//
// AsgTagsYaml() is the input of `aws autoscaling create-or-update-tags
// --cli-input-yaml file://FILE` (AWS CLI v2): `Tags:`, one item per tag
// (ResourceId = the pool's name as its ASG's name, ResourceType
// auto-scaling-group, Key, Value, PropagateAtLaunch false), which
// kubernetes/autoscaler cloudprovider/aws/aws_manager.go reads when the
// group has no node to copy: per extended resource of the ready node
// `k8s.io/cluster-autoscaler/node-template/resources/<name>` = its count
// (emit/node_group_template.h; none for a DRA pool, which AWS cannot
// describe), per label `.../node-template/label/<key>` (with
// `k8s.amazonaws.com/accelerator`, the AWS provider's GPU label, = the GPU
// model's name in lower case), per taint `.../node-template/taint/<key>` =
// `value:Effect`, and per option of CaGroupOptions(kAws)
// `.../node-template/autoscaling-options/<key>`. Comments per pool give
// its min/max (`aws autoscaling update-auto-scaling-group`), the scale-from-
// zero pathology the tags close (or, for HAMi, do not) and the kubelet
// labels the instances must get at boot.
//
// MachineDeploymentAnnotationsScript() is a POSIX sh script (`sh -n`
// clean) for the Cluster API management cluster: per pool one `kubectl
// annotate --overwrite machinedeployment NAME -n "$NAMESPACE"` (NAME = the
// pool's name; NAMESPACE from the environment, default `default`) with
// kubernetes/autoscaler cloudprovider/clusterapi's keys:
// `cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size` / `max-size`,
// `capacity.cluster-autoscaler.kubernetes.io/cpu` (cores, or millicores
// "Nm"), `memory` ("NMi"), `maxPods`, `labels` ("k=v,...", with
// `cluster-api/accelerator`, the provider's GPU label), `taints`
// ("k=v:Effect,..."), and either `gpu-type` (the resource name) +
// `gpu-count` — one resource only: the pool's largest by count, the others
// named in a comment as not expressible — or, for a DRA pool, `dra-driver`
// gpu.nvidia.com + `gpu-count` (physical GPUs); per option of
// CaGroupOptions(kClusterApi) `cluster.x-k8s.io/autoscaling-options-<key>`.
// Every word is a shell word (emit/quoting.h).

#ifndef GPUSHARE_EMIT_CLUSTER_AUTOSCALER_NODE_GROUPS_H_
#define GPUSHARE_EMIT_CLUSTER_AUTOSCALER_NODE_GROUPS_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string AsgTagsYaml(const Scenario& scenario, const Catalog& catalog);

std::string MachineDeploymentAnnotationsScript(const Scenario& scenario,
                                               const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_CLUSTER_AUTOSCALER_NODE_GROUPS_H_
