#include "gpushare/workload/priority_class.h"

namespace gpushare {

const std::vector<PriorityClass>& SystemPriorityClasses() {
  static const std::vector<PriorityClass> kSystem = {
      {"system-cluster-critical", 2000000000,
       PreemptionPolicy::kPreemptLowerPriority, false},
      {"system-node-critical", 2000001000,
       PreemptionPolicy::kPreemptLowerPriority, false},
  };
  return kSystem;
}

const PriorityClass* FindPriorityClass(
    const std::vector<PriorityClass>& classes, const std::string& name) {
  for (const PriorityClass& c : classes) {
    if (c.name == name) return &c;
  }
  for (const PriorityClass& c : SystemPriorityClasses()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const PriorityClass* GlobalDefaultPriorityClass(
    const std::vector<PriorityClass>& classes) {
  for (const PriorityClass& c : classes) {
    if (c.global_default) return &c;
  }
  return nullptr;
}

}  // namespace gpushare
