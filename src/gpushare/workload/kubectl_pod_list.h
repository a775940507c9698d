// `kubectl get pods -A -o json`: a live cluster's pods as a workload.
//
// Contract: per Pod object — metadata.name (non-empty; the pod is named
// NAMESPACE/NAME, which must be unique), metadata.namespace ("default" when
// absent), metadata.labels; the pod's effective requests as kube-scheduler
// computes them: per container a limit stands in for a missing request,
// containers are summed and the largest init container wins where it is larger
// (overhead, ephemeral-storage and hugepages are not modelled and ignored);
// spec.priority, spec.restartPolicy, spec.nodeSelector, required node affinity
// (matchExpressions; matchFields on metadata.name become the node's
// kubernetes.io/hostname label), preferred node affinity, tolerations,
// spec.nodeName and status.phase. Running pods (and Pending pods already
// bound to a node) come first, bound to their node (Pod::node_name); then
// Pending pods, to be scheduled; Succeeded, Failed and Unknown pods hold
// nothing and are skipped. Every pod arrives at time 0. Its `nvidia.com/*`
// requests are kept as written (Pod::explicit_requests; other extended
// resources are dropped: the simulated nodes do not advertise them), and its
// needs are derived from them (docs/scenario.md "kubectl pods"): GPUs from
// nvidia.com/gpu (a HAMi pod with gpucores or memory below a whole GPU is
// the fraction they give; a MIG instance is its compute slices over the
// GPU's), the footprint from nvidia.com/gpumem, gpumem-percentage or the MIG
// profile's memory (the smallest among catalog models that have it), else
// `defaults`. The tenant and workload classes are as ClassifyKubectlPod()
// (kubectl_pod_classes.h) makes them from `classes`. Errors are InputErrors
// at FILE:LINE:COL naming the JSON path.
//
// Dynamic Resource Allocation: the List may also hold ResourceClaims,
// ResourceClaimTemplates and DeviceClasses (and Nodes and ResourceSlices,
// skipped; kubectl_mixed_list.h). A pod's spec.resourceClaims asking NVIDIA
// GPUs (kubectl_resource_claims.h) give it, when it has no nvidia.com
// requests, N whole GPUs (footprint: the claim's memory capacity, else
// `defaults`) or N MIG devices of a profile (as nvidia.com/mig-<profile>
// would); no explicit requests are written, so the pool's request
// translator asks its DRA claim (or a device-plugin resource on a
// device-plugin pool). A pod without spec.nodeName whose claim is allocated
// is bound to the claim's node. A pod with ResourceClaims in a list without
// DRA objects is an InputError.

#ifndef GPUSHARE_WORKLOAD_KUBECTL_POD_LIST_H_
#define GPUSHARE_WORKLOAD_KUBECTL_POD_LIST_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/kubectl_pod_classes.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/trace_defaults.h"

namespace gpushare {

struct KubectlPodOptions {
  TraceDefaults defaults;
  KubectlClassRules classes;
  bool gpu_pods_only = false;  // skip pods without nvidia.com/* requests
};

// `notes` (if set) gets what the import of DRA claims approximated or
// skipped, one sentence each.
std::vector<Pod> ParseKubectlPods(const std::string& file,
                                  const std::string& text,
                                  const Catalog& catalog,
                                  const KubectlPodOptions& options,
                                  std::vector<std::string>* notes = nullptr);
std::vector<Pod> ReadKubectlPods(const std::string& path,
                                 const Catalog& catalog,
                                 const KubectlPodOptions& options,
                                 std::vector<std::string>* notes = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_KUBECTL_POD_LIST_H_
