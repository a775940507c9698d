// Per tenant class, the pod-template patches its workloads need under the
// scheme of the pool its pods land on, written by
// `gpushare-sim emit pod-patches --scenario FILE`.
//
// Contract: the scenario's pods are generated (BuildWorkload, the scenario's
// seed), each routed to the pool it runs on in the simulation
// (emit/run_pool.h: its node's pool when it is bound to one, else
// TargetPool) and translated as the
// simulation translates them (TranslateRequests with the scenario's
// translation options); the pods of each tenant class (in the order of
// ScenarioTenantClasses) are grouped by their extended-resource requests
// (cpu and memory left out: they do not depend on the scheme). Each group,
// most pods first (ties: by request text), is one YAML document: a strategic
// merge patch of a workload's pod template (`spec.template`) with the
// `kueue.x-k8s.io/queue-name` label when the class names a LocalQueue,
// `nodeSelector` and `tolerations` (the class's), `schedulerName` (always:
// hami-scheduler for HAMi pools, else kai-scheduler for a class in a KAI
// queue, else the scenario's scheduler profile, default-scheduler), and
// the requests as container `limits` and `requests` of a container named
// `main`. A patch replaces whatever the workload asked under the scheme it
// leaves (pod_patch_removals.h, with `today` — the scenario the cluster
// runs now, may be null — and the scenario): every GPU resource name of
// the cluster the class does not ask now is `null` in both maps (a
// strategic merge deletes the key); where DRA runs, a class that gets no
// claim deletes the container's `resources.claims` and the pod's claim
// named kDraClaimName (`$patch: delete`), and one that gets a claim sets
// the other of resourceClaimName / resourceClaimTemplateName to null;
// `nodeSelector` deletes gpushare.io/node-pool when the patch pins none.
// Where HAMi runs (a HAMi pool in either scenario), a class on any other
// pool carries the pod label `hami.io/webhook: ignore`, which HAMi's
// admission webhook skips (else it sends the pod to hami-scheduler), and a
// class on a HAMi pool deletes it.
// A comment before it names the class, pool, scheme and its share of the
// class's pods, and how many of them need more memory than the request
// grants (HAMi's gpumem, the MIG instance: OOM-killed when they start).
// Every pod of a generated class asks its class's size (docs/model.md §3),
// so such a class is one document per pool (and GPU count). On a pool
// shared without memory isolation (time-slicing), an inference class, or
// a class that names its `engine`, gets its LLM engine's memory cap — its
// request over the memory it sees, rounded down to 2 decimals — as the
// container env GPUSHARE_GPU_MEMORY_FRACTION (engine none or vllm; a
// comment gives the vLLM and TGI flags that read it) or TGI's own
// CUDA_MEMORY_FRACTION (engine tgi). At most `max_per_class` documents per
// class; the rest are summarized in a comment with each resource's range.
// Pods no pool admits, or that the scheme cannot run, are counted in a
// comment with the reason. Deterministic.

#ifndef GPUSHARE_EMIT_POD_TEMPLATE_PATCHES_H_
#define GPUSHARE_EMIT_POD_TEMPLATE_PATCHES_H_

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

inline constexpr int kPodPatchesPerClass = 5;

std::string PodTemplatePatchesYaml(const Scenario& scenario,
                                   const Catalog& catalog,
                                   int max_per_class = kPodPatchesPerClass,
                                   const Scenario* today = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_POD_TEMPLATE_PATCHES_H_
