// Request translation: the resource requests a user would write for a pod's
// needs under a pool's sharing scheme (docs/model.md §3).
//
// Contract: given a pod's needs and the pool it targets, writes the pod's
// requests — cpu and memory as given, plus:
//   exclusive          nvidia.com/gpu = ceil(gpus)
//   time-slicing, MPS  nvidia.com/gpu (or nvidia.com/gpu.shared when the pool
//                      renames) = ceil(gpus) replicas
//   MIG mixed          nvidia.com/mig-<p> = ceil(gpus), p the smallest
//                      profile the pool offers (by memory, then compute
//                      slices) whose memory holds the size and, with
//                      `mig_match_sm_demand`, whose SMs cover its SM demand
//   MIG single         nvidia.com/gpu = ceil(gpus) if the pool's profile fits
//   HAMi               nvidia.com/gpu = ceil(gpus), nvidia.com/gpumem = the
//                      size's MiB, nvidia.com/gpucores = ceil(100 x its SM
//                      demand) (1..100)
//   DRA                deviceclass.resource.kubernetes.io/<class> = ceil(gpus)
//                      (cluster/dra/dra_gpu_devices.h); with consumable
//                      shares, gpu.nvidia.com/memory = ceil(gpus) x the MiB
//                      an imported claim asks (Pod::dra_claim_memory_mib > 0,
//                      any mode), else in `memory` mode x the size (an
//                      imported claim asking none writes none: it takes
//                      the policy's default, the whole GPU)
// The size is the pod's template request (Pod::template_request: its
// class's percentile, the same for every pod of a generated class), or the
// pod's own footprint and SM demand when it has none (trace pods); a pod
// above its class's size is then OOM-killed when it starts under HAMi or
// MIG (sim/), as in a cluster. Pods with explicit requests keep them.
// Returns "" or why the pod can never run in that pool (then `requests`
// still holds a best effort): no MIG profile or GPU holds the size, the
// pod's own footprint exceeds its GPU (exclusive, time-slicing) or the MPS
// per-replica limit (GPU memory / replicas), it needs several MPS
// replicas where failRequestsGreaterThanOne rejects them, or it is given
// several MIG instances (ceil(gpus) > 1 on a MIG pool, static or dynamic;
// explicit nvidia.com/mig-* or, on a MIG pool, nvidia.com/gpu requests
// adding up to more than one) and is not Pod::multi_process: a CUDA
// process sees one MIG instance and instances have no peer path between
// them (docs/model.md §3). A pod running in an imported dump is exempt:
// the cluster runs it.

#ifndef GPUSHARE_WORKLOAD_REQUEST_TRANSLATOR_H_
#define GPUSHARE_WORKLOAD_REQUEST_TRANSLATOR_H_

#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

struct TranslationOptions {
  // MIG: also require the instance's SMs >= SM demand x the GPU's SMs.
  bool mig_match_sm_demand = false;
};

std::string TranslateRequests(Pod& pod, const NodePool& pool,
                              ResourceRegistry& registry,
                              const TranslationOptions& options);

// The first pool (in cluster order) whose nodes the pod may land on: its
// labels satisfy the pod's nodeSelector and required affinity and its
// NoSchedule/NoExecute taints are tolerated (for an imported pool, whose
// nodes keep their own labels and taints, any one node). -1 when none. A
// pod whose imported claims ask a DeviceClass (Pod::dra_device_class) goes
// to the first admitting `devices: dra` pool that serves the class (whole
// GPUs for gpu.nvidia.com, a MIG layout holding the profile for its
// per-profile class) when there is one — the claim, not a label, chooses
// the nodes in a DRA cluster — else as any pod.
// Pods whose claims allow only some GPU models (Pod::dra_gpu_models) go
// only to pools of those models.
int TargetPool(const Pod& pod, const Cluster& cluster);

// Whether `pool`'s GPU model is one `pod`'s claims allow (always, when they
// name none).
bool PoolHasAllowedModel(const Pod& pod, const NodePool& pool);

// Whether pool `pool` may hold the pod (TargetPool's test for one pool).
bool PoolAdmits(const Pod& pod, const Cluster& cluster, int pool);

// Requests written for pool `target` (TranslateRequests) are what a user
// writes for that pool; in a cluster that mixes schemes by node pool the
// same resource name can mean something else elsewhere — `nvidia.com/gpu: 1`
// is a whole A100 in an exclusive pool and a whole-memory vGPU of an L4 in a
// HAMi pool. When another pool the pod's selectors and tolerations admit
// advertises every resource it asks for, but runs another scheme (a
// time-sliced replica is no exclusive GPU: the reason the device plugin has
// renameByDefault), would be asked for differently (its own translation
// differs) or cannot hold the pod, pins the pod to the pools that read its
// request alike — `target` and every admitting pool of the same scheme and
// translation that holds it — as a platform team does: nodeSelector
// gpushare.io/node-pool = the pool when there is one, else that label `In`
// them as required node affinity (added to each of the pod's own terms).
// Returns the pools it is pinned to (`target` first, then cluster order); empty
// when nothing needed pinning. Pods with explicit requests and pods without
// GPUs are left as they are.
// Adds `gpushare.io/node-pool In pools` to each of `terms` (ORed, so every
// way to place the pod is narrowed), or one term of it when there is none.
void RequireNodePools(const std::vector<std::string>& pools,
                      std::vector<NodeSelectorTerm>* terms);

std::vector<std::string> PinToTargetPool(Pod& pod, int target,
                                         const Cluster& cluster,
                                         ResourceRegistry& registry,
                                         const TranslationOptions& options);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_REQUEST_TRANSLATOR_H_
