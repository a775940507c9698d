// Karpenter NodePools (karpenter.sh/v1) for a scenario's pools that scale
// with Karpenter, and the NodeOverlays (karpenter.sh/v1alpha1) that tell
// Karpenter what a shared GPU node advertises (kubernetes-sigs/karpenter
// pkg/apis/v1/nodepool.go, pkg/apis/v1alpha1/nodeoverlay.go and their CRDs
// in pkg/apis/crds/; docs/emit.md, "Autoscaled pools").
//
// Contract: KarpenterNodePoolsYaml() writes one NodePool per Karpenter pool
// with GPUs, named after the pool (a DNS-1123 subdomain, else InputError):
// spec.template.metadata.labels = the labels its nodes need from boot
// (emit/node_group_template.h; a label of the karpenter.sh domain other than
// karpenter.sh/capacity-type, or kubernetes.io/hostname, which the CRD
// refuses: InputError); spec.template.spec.requirements =
// node.kubernetes.io/instance-type In the pool's instance types (none
// given: for an AWS node class karpenter.k8s.aws/instance-gpu-count In the
// pool's GPUs per node, else no instance requirement and a comment), and
// karpenter.sh/capacity-type In [spot, on-demand] with spot, else
// [on-demand]; nodeClassRef = `node_class` (group, kind, name: each checked
// as the CRD and the API's names take them, else InputError); taints = the
// pool's; spec.limits = nodes: max plus the pool's limits (quantities as
// strings: cpu from millicores as cores or "Nm", memory from MiB as "NMi",
// the scenario reader's units; a `nodes` limit of its own: InputError);
// spec.disruption =
// consolidationPolicy (WhenEmptyOrUnderutilized or WhenEmpty),
// consolidateAfter (a duration of whole s/m/h, or Never for an infinite
// one; InputError for a fraction of a second, which the CRD's pattern
// refuses) and one budget of nodes "N%" (the pool's fraction x 100, a whole
// percent in 0..100, else InputError). Comments say what Karpenter cannot
// see of the pool's sharing and that it keeps no minimum. Throws InputError
// when the scenario has no Karpenter pool. KarpenterNodeOverlaysYaml()
// writes, for each Karpenter pool whose nodes advertise other GPU resources
// than nvidia.com/gpu = physical GPUs (time-slicing and MPS replicas, MIG
// devices, HAMi vGPUs and HAMi's extender resources), one NodeOverlay per
// instance type (`<pool>-<type>`, or `<pool>-gpus` for the pool's own
// shape) whose requirements select the pool (karpenter.sh/nodepool) and the
// type, and whose capacity gives those resources for that type's GPU count;
// "" when no pool needs one. Deterministic.

#ifndef GPUSHARE_EMIT_KARPENTER_NODE_POOLS_H_
#define GPUSHARE_EMIT_KARPENTER_NODE_POOLS_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// spec.template.spec.nodeClassRef: the cloud's NodeClass; the default is
// the AWS provider's EC2NodeClass `default`.
struct KarpenterNodeClassRef {
  std::string group = "karpenter.k8s.aws";
  std::string kind = "EC2NodeClass";
  std::string name = "default";
};

std::string KarpenterNodePoolsYaml(const Scenario& scenario,
                                   const Catalog& catalog,
                                   const KarpenterNodeClassRef& node_class);

std::string KarpenterNodeOverlaysYaml(const Scenario& scenario,
                                      const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KARPENTER_NODE_POOLS_H_
