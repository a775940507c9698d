// Kueue's queueing objects, as a scenario describes them (Kueue v1beta1
// API, docs/model.md §4.3): ResourceFlavors, ClusterQueues with quotas per
// flavor and resource, cohorts, and the LocalQueues pods name.
//
// Contract: plain data, validated by its readers (scenario/queue_reader.h,
// scenario/kubectl_queue_import.h); quantities are in
// the simulator's units of their resource (cpu millicores, memory MiB,
// extended resources whole devices or units).

#ifndef GPUSHARE_SCHED_KUEUE_KUEUE_CONFIG_H_
#define GPUSHARE_SCHED_KUEUE_KUEUE_CONFIG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"

namespace gpushare {

// The label a pod (or its Job) carries to name its LocalQueue.
inline constexpr std::string_view kKueueQueueNameLabel =
    "kueue.x-k8s.io/queue-name";

// A ResourceFlavor: the nodes its quota stands for. An admitted workload's
// pods get the flavor's node labels as a node selector.
struct ResourceFlavorSpec {
  std::string name;
  Labels node_labels;
};

// One resource's quota in a flavor. nil limits are std::nullopt: no
// borrowing limit (all the cohort's unused quota) and no lending limit (all
// the nominal quota may be lent).
struct ResourceQuotaSpec {
  std::string resource;  // "nvidia.com/gpu", "cpu", …
  int64_t nominal_quota = 0;
  std::optional<int64_t> borrowing_limit;
  std::optional<int64_t> lending_limit;
};

struct FlavorQuotasSpec {
  std::string flavor;
  std::vector<ResourceQuotaSpec> resources;
};

// Resources covered together: a workload gets one flavor for all of them,
// the first in order where its request fits.
struct ResourceGroupSpec {
  std::vector<std::string> covered_resources;
  std::vector<FlavorQuotasSpec> flavors;
};

enum class QueueingStrategy { kBestEffortFifo, kStrictFifo };

// ClusterQueue preemption policies (spec.preemption).
enum class KueuePreemptionPolicy {
  kNever,
  kLowerPriority,
  kLowerOrNewerEqualPriority,  // withinClusterQueue only
  kAny,                        // reclaimWithinCohort only
};

struct ClusterQueueSpec {
  std::string name;
  std::string cohort;  // "" none: it neither borrows nor lends
  QueueingStrategy queueing_strategy = QueueingStrategy::kBestEffortFifo;
  std::vector<ResourceGroupSpec> resource_groups;
  KueuePreemptionPolicy within_cluster_queue = KueuePreemptionPolicy::kNever;
  KueuePreemptionPolicy reclaim_within_cohort = KueuePreemptionPolicy::kNever;
  // borrowWithinCohort: Never or LowerPriority, with an optional
  // maxPriorityThreshold on the victims.
  KueuePreemptionPolicy borrow_within_cohort = KueuePreemptionPolicy::kNever;
  std::optional<int32_t> borrow_max_priority_threshold;
};

struct LocalQueueSpec {
  std::string name;
  std::string namespace_name = "default";
  std::string cluster_queue;
};

// A DeviceClass mapping of Kueue's Configuration
// (`resources.deviceClassMappings`, kubernetes-sigs/kueue
// apis/config/v1beta1/configuration_types.go, gate KueueDRAIntegration, beta
// and on since Kueue 0.18): the devices a workload's ResourceClaimTemplates
// ask of any of `device_class_names` count, one per device, against quota
// resource `name` (pkg/dra/claims.go).
struct DeviceClassMappingSpec {
  std::string name;
  std::vector<std::string> device_class_names;
};

struct KueueConfig {
  std::vector<ResourceFlavorSpec> resource_flavors;
  std::vector<ClusterQueueSpec> cluster_queues;
  std::vector<LocalQueueSpec> local_queues;
  std::vector<DeviceClassMappingSpec> device_class_mappings;
  // The mapping that lists DeviceClass `device_class`, or null.
  const DeviceClassMappingSpec* MappingOf(std::string_view device_class) const;
  bool enabled() const { return !cluster_queues.empty(); }
};

std::string_view QueueingStrategyName(QueueingStrategy s);
// A quota in the simulator's unit of `resource` as a Kubernetes quantity:
// cpu millicores as cores or "<n>m", memory MiB as "<n>Gi" or "<n>Mi",
// anything else as a count.
std::string KueueQuantityText(std::string_view resource, int64_t value);
std::string_view KueuePreemptionPolicyName(KueuePreemptionPolicy p);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KUEUE_KUEUE_CONFIG_H_
