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
//
// CoverHamiQueueResources(): HAMi's pods request nvidia.com/gpumem and
// nvidia.com/gpucores beside nvidia.com/gpu, and Kueue leaves a workload
// pending when its ClusterQueue covers none of a resource it requests
// ("resource ... unavailable in ClusterQueue", kubernetes-sigs/kueue
// pkg/scheduler/flavorassigner). For each resource group of a ClusterQueue
// that covers nvidia.com/gpu and has a flavor selecting vGPU (HAMi) nodes,
// adds whichever of gpumem and gpucores no group of the queue covers, after
// the group's resources, with a quota in every flavor of the group (Kueue:
// each flavor lists every covered resource, in order): a HAMi flavor's
// nominal quota, borrowing and lending limits are its nodes' advertised
// total (GPUs x memory MiB x memory_scaling; GPUs x 100 x core_scaling)
// times its nvidia.com/gpu figure over its nodes' nvidia.com/gpu total,
// rounded down; a flavor without vGPU nodes gets 0. Returns one note per
// queue and group completed. Idempotent; deterministic.

#ifndef GPUSHARE_SCENARIO_QUEUE_READER_H_
#define GPUSHARE_SCENARIO_QUEUE_READER_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/sched/kueue/kueue_config.h"

namespace gpushare {

KueueConfig ReadQueues(const YamlMap& top,
                       const std::vector<NodePoolSpec>& pools);

std::vector<std::string> CoverHamiQueueResources(
    const std::vector<NodePoolSpec>& pools, const Catalog& catalog,
    KueueConfig* queues);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_QUEUE_READER_H_
