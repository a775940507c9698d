// Reader of a scenario's `queues` section (format: docs/scenario.md): Kueue
// ResourceFlavors, ClusterQueues and LocalQueues.
//
// Contract: reads the top-level `queues` mapping (absent: Kueue off) and
// throws InputError at file:line:col on what Kueue's webhooks reject: an
// unknown key, a name that is not a DNS subdomain or is taken, an unknown
// flavor, ClusterQueue or policy, a flavor whose resources differ from its
// group's covered resources, a resource or flavor in two groups of a queue,
// a negative or malformed quantity, a borrowing or lending limit without a
// cohort, a lending limit above the nominal quota, borrowWithinCohort
// without reclaimWithinCohort, a LocalQueue named twice in a namespace.
// Without `resource_flavors` every pool is a flavor named after it, whose
// node label is gpushare.io/node-pool.

#ifndef GPUSHARE_SCENARIO_QUEUE_READER_H_
#define GPUSHARE_SCENARIO_QUEUE_READER_H_

#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/sched/kueue/kueue_config.h"

namespace gpushare {

KueueConfig ReadQueues(const YamlMap& top,
                       const std::vector<NodePoolSpec>& pools);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_QUEUE_READER_H_
