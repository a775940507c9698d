// Kueue's objects from a live cluster: `kubectl get resourceflavors -o
// json`, `kubectl get clusterqueues -o json` and `kubectl get localqueues
// -A -o json` (kueue.x-k8s.io v1beta1, and v1beta2's `cohortName`).
//
// Contract: appends what each file holds to `config` (a file path may be
// empty: not given). Reads metadata.name (and namespace), ResourceFlavor
// spec.nodeLabels, ClusterQueue spec.cohort / spec.cohortName,
// queueingStrategy, resourceGroups (coveredResources, flavors, resources
// with nominalQuota, borrowingLimit, lendingLimit), preemption
// (withinClusterQueue, reclaimWithinCohort, borrowWithinCohort), and
// LocalQueue spec.clusterQueue. Fields the model does not use
// (namespaceSelector, fairSharing, admissionChecks, flavorFungibility,
// stopPolicy) are ignored. Throws InputError at FILE:LINE:COL with the
// JSON path on what Kueue's webhooks reject (as scenario/queue_reader.h), on an
// unknown flavor or ClusterQueue, and on a name defined twice.

#ifndef GPUSHARE_SCENARIO_KUBECTL_QUEUE_IMPORT_H_
#define GPUSHARE_SCENARIO_KUBECTL_QUEUE_IMPORT_H_

#include <string>

#include "gpushare/sched/kueue/kueue_config.h"

namespace gpushare {

void ImportKubectlQueues(const std::string& resource_flavors_file,
                         const std::string& cluster_queues_file,
                         const std::string& local_queues_file,
                         KueueConfig* config);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_KUBECTL_QUEUE_IMPORT_H_
