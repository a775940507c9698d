// KAI-Scheduler's queues from a live cluster: `kubectl get
// queues.scheduling.run.ai -o json` (Queue, scheduling.run.ai/v2).
//
// Contract: appends every Queue of `file` to `config`: metadata.name,
// spec.parentQueue, spec.priority and spec.resources.gpu (quota, default 0;
// overQuotaWeight, default 1; limit, default -1 as scenario/kai_queue_reader.h
// decides). cpu and memory resources, displayName and status are ignored
// (not modelled, docs/model.md §4.4). Throws InputError at FILE:LINE:COL
// with the JSON path on a name that is not a DNS subdomain or is taken, a
// quota or limit that is neither -1 nor ≥ 0, a limit below its quota, a
// negative weight, and a parent that neither `config` nor the file defines
// or that makes a cycle.

#ifndef GPUSHARE_SCENARIO_KUBECTL_KAI_QUEUE_IMPORT_H_
#define GPUSHARE_SCENARIO_KUBECTL_KAI_QUEUE_IMPORT_H_

#include <string>

#include "gpushare/sched/kai/kai_config.h"

namespace gpushare {

void ImportKubectlKaiQueues(const std::string& file, KaiConfig* config);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_KUBECTL_KAI_QUEUE_IMPORT_H_
