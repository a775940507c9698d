#include "gpushare/sched/kueue/kueue_config.h"

#include <string>

namespace gpushare {

std::string_view QueueingStrategyName(QueueingStrategy s) {
  return s == QueueingStrategy::kStrictFifo ? "StrictFIFO" : "BestEffortFIFO";
}

std::string KueueQuantityText(std::string_view resource, int64_t value) {
  if (resource == "cpu") {
    return value % 1000 == 0 ? std::to_string(value / 1000)
                             : std::to_string(value) + "m";
  }
  if (resource == "memory") {
    return value % 1024 == 0 ? std::to_string(value / 1024) + "Gi"
                             : std::to_string(value) + "Mi";
  }
  return std::to_string(value);
}

std::string_view KueuePreemptionPolicyName(KueuePreemptionPolicy p) {
  switch (p) {
    case KueuePreemptionPolicy::kNever:
      return "Never";
    case KueuePreemptionPolicy::kLowerPriority:
      return "LowerPriority";
    case KueuePreemptionPolicy::kLowerOrNewerEqualPriority:
      return "LowerOrNewerEqualPriority";
    case KueuePreemptionPolicy::kAny:
      return "Any";
  }
  return "Never";
}

const DeviceClassMappingSpec* KueueConfig::MappingOf(
    std::string_view device_class) const {
  for (const DeviceClassMappingSpec& m : device_class_mappings) {
    for (const std::string& c : m.device_class_names) {
      if (c == device_class) return &m;
    }
  }
  return nullptr;
}

}  // namespace gpushare
