// Reader of a scenario's `kai_queues` section (format: docs/scenario.md):
// KAI-Scheduler's queue tree for fair-share admission.
//
// Contract: reads the top-level `kai_queues` mapping (absent: KAI off) and
// throws InputError at file:line:col on an unknown key, a queue name that
// is not a DNS subdomain or is taken, a parent that is not defined or that
// makes a cycle, a quota or limit below -1 or not a number, a limit below
// its quota, an over-quota weight below 0, a multiplier below 1, or no
// queue at all. `import` adds the Queues of `kubectl get
// queues.scheduling.run.ai -o json` (scenario/kubectl_kai_queue_import.h; a
// path relative to the scenario file) after those written. Only leaf
// queues take jobs: a class's `queue` must name one
// (checked by the workload reader).

#ifndef GPUSHARE_SCENARIO_KAI_QUEUE_READER_H_
#define GPUSHARE_SCENARIO_KAI_QUEUE_READER_H_

#include "gpushare/io/yaml_input.h"
#include "gpushare/sched/kai/kai_config.h"

namespace gpushare {

KaiConfig ReadKaiQueues(const YamlMap& top);

// The names of the leaf queues of `config`, in order.
std::vector<std::string> KaiLeafQueues(const KaiConfig& config);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_KAI_QUEUE_READER_H_
