#include "gpushare/cluster/dra/capacity_request_policy.h"

#include <limits>

namespace gpushare {

std::optional<int64_t> ConsumedCapacity(std::optional<int64_t> requested,
                                        int64_t total,
                                        const CapacityRequestPolicy* policy) {
  if (!requested.has_value()) {
    if (policy != nullptr && policy->default_value.has_value()) {
      return *policy->default_value;
    }
    return total;
  }
  const int64_t asked = *requested;
  if (policy == nullptr) return asked;
  if (policy->valid_range.has_value()) {
    const CapacityRequestPolicyRange& range = *policy->valid_range;
    if (asked < range.min) return range.min;
    if (!range.step.has_value() || *range.step <= 0) return asked;
    const int64_t step = *range.step;
    const int64_t added = asked - range.min;
    int64_t steps = added / step;
    if (added % step != 0) ++steps;
    if (range.min >= 0 &&
        steps > (std::numeric_limits<int64_t>::max() - range.min) / step) {
      return std::nullopt;
    }
    return range.min + steps * step;
  }
  if (!policy->valid_values.empty()) {
    for (const int64_t value : policy->valid_values) {
      if (asked <= value) return value;
    }
    return asked;
  }
  return asked;
}

bool ViolatesCapacityRequestPolicy(int64_t consumed,
                                   const CapacityRequestPolicy* policy) {
  if (policy == nullptr) return false;
  if (policy->default_value.has_value() && consumed == *policy->default_value) {
    return false;
  }
  if (policy->valid_range.has_value()) {
    const CapacityRequestPolicyRange& range = *policy->valid_range;
    if (range.max.has_value() && consumed > *range.max) return true;
    if (range.step.has_value() && *range.step > 0 &&
        (consumed - range.min) % *range.step != 0) {
      return true;
    }
    return false;
  }
  if (!policy->valid_values.empty()) {
    for (const int64_t value : policy->valid_values) {
      if (value == consumed) return false;
    }
    return true;
  }
  return false;
}

std::string FindCapacityRequestPolicyProblem(
    const CapacityRequestPolicy& policy, int64_t total) {
  if (!policy.valid_values.empty() && policy.valid_range.has_value()) {
    return "a requestPolicy has validValues or validRange, not both";
  }
  if (policy.valid_values.size() > kMaxCapacityValidValues) {
    return "validValues has " + std::to_string(policy.valid_values.size()) +
           " entries (at most " + std::to_string(kMaxCapacityValidValues) + ")";
  }
  for (size_t i = 0; i < policy.valid_values.size(); ++i) {
    if (policy.valid_values[i] < 0) return "validValues must be >= 0";
    if (i > 0 && policy.valid_values[i] <= policy.valid_values[i - 1]) {
      return "validValues must be ascending without repeats";
    }
  }
  if (policy.valid_range.has_value()) {
    const CapacityRequestPolicyRange& range = *policy.valid_range;
    if (range.min < 0) return "validRange.min must be >= 0";
    if (range.max.has_value() && *range.max < range.min) {
      return "validRange.max must be >= validRange.min";
    }
    if (range.step.has_value() && *range.step < 1) {
      return "validRange.step must be >= 1";
    }
  }
  if (policy.default_value.has_value() &&
      (*policy.default_value < 0 || *policy.default_value > total)) {
    return "default must be between 0 and the capacity's value";
  }
  return "";
}

}  // namespace gpushare
