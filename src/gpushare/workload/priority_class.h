// PriorityClass: a scheduling.k8s.io/v1 PriorityClass as a scenario defines
// it, and the two system classes every cluster has.
//
// Contract: `value` is the priority its pods get; user classes are limited
// to 1,000,000,000 (HighestUserDefinablePriority), the system classes
// system-cluster-critical (2,000,000,000) and system-node-critical
// (2,000,001,000) are always known. `preemption_policy` is copied to its
// pods. At most one class is the global default: pods that name no class
// get its value and policy (pods with neither get priority 0).

#ifndef GPUSHARE_WORKLOAD_PRIORITY_CLASS_H_
#define GPUSHARE_WORKLOAD_PRIORITY_CLASS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare {

inline constexpr int32_t kHighestUserDefinablePriority = 1000000000;

struct PriorityClass {
  std::string name;
  int32_t value = 0;
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  bool global_default = false;
};

// system-cluster-critical and system-node-critical.
const std::vector<PriorityClass>& SystemPriorityClasses();

// The class named `name` among `classes` and the system ones, or null.
const PriorityClass* FindPriorityClass(
    const std::vector<PriorityClass>& classes, const std::string& name);

// The global default among `classes`, or null.
const PriorityClass* GlobalDefaultPriorityClass(
    const std::vector<PriorityClass>& classes);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_PRIORITY_CLASS_H_
