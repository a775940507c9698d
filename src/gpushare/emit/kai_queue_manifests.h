// KAI-Scheduler's Queue objects for a scenario's kai_queues, written by
// `gpushare-sim emit kai-queues --scenario FILE` and `emit k8s`
// (scheduling.run.ai/v2; docs/emit.md).
//
// Contract: KaiQueueManifestsYaml() is a multi-document YAML for `kubectl
// apply -f FILE` on a cluster with KAI-Scheduler installed: one Queue per
// queue, parents before their children, with spec.parentQueue,
// spec.priority (when not 0) and spec.resources: gpu as the scenario gives
// it (quota, overQuotaWeight, limit in GPU units), cpu and memory with no
// guarantee and no limit (quota 0, limit -1), as the simulator accounts
// GPU units only. A header says how to apply it, that pods name their leaf
// queue with the kai.scheduler/queue label and schedulerName kai-scheduler
// (emit pod-patches sets both). Throws InputError without kai_queues.
// Deterministic.

#ifndef GPUSHARE_EMIT_KAI_QUEUE_MANIFESTS_H_
#define GPUSHARE_EMIT_KAI_QUEUE_MANIFESTS_H_

#include <string>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::string KaiQueueManifestsYaml(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_KAI_QUEUE_MANIFESTS_H_
