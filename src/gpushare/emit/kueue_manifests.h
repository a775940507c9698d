// Kueue's objects for a scenario's queues, written by `gpushare-sim emit
// kueue --scenario FILE` and `emit k8s` (Kueue v1beta2; docs/emit.md).
//
// Contract: KueueManifestsYaml() is a multi-document YAML for `kubectl
// apply --server-side -f FILE` on a cluster with Kueue installed: one
// ResourceFlavor per flavor (spec.nodeLabels), one ClusterQueue per queue
// (spec.cohort, queueingStrategy, an empty namespaceSelector — every
// namespace, as the simulator ties namespaces to queues by LocalQueue —,
// preemption and resourceGroups with quantities as Kubernetes writes
// them: cpu in cores or millicores, memory in Gi or Mi) and one LocalQueue
// per local queue. A header says how to apply it and that pods name their
// LocalQueue with the kueue.x-k8s.io/queue-name label (emit pod-patches
// adds it) and, when a queue covers HAMi's nvidia.com/gpumem, that vGPU
// pods request it and nvidia.com/gpucores and how their quotas are sized
// (scenario/queue_reader.h CoverHamiQueueResources). Throws InputError when
// the scenario has no queues.
// Deterministic.

#ifndef GPUSHARE_EMIT_KUEUE_MANIFESTS_H_
#define GPUSHARE_EMIT_KUEUE_MANIFESTS_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string KueueManifestsYaml(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KUEUE_MANIFESTS_H_
