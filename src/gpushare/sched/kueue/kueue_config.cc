#include "gpushare/sched/kueue/kueue_config.h"

namespace gpushare {

std::string_view QueueingStrategyName(QueueingStrategy s) {
  return s == QueueingStrategy::kStrictFifo ? "StrictFIFO" : "BestEffortFIFO";
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

}  // namespace gpushare
