// CapacityRequestPolicy: how a request's share of one consumable capacity of
// a device is rounded (resource.k8s.io/v1 CapacityRequestPolicy, KEP-5075
// consumable capacity).
//
// Contract: a plain value on a capacity of a device that allows multiple
// allocations. ConsumedCapacity is what one request consumes of a capacity
// whose value is `total`, as the scheduler's experimental allocator computes
// it (kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/
// structured/internal/experimental/consumable_capacity.go,
// calculateConsumedQuantity, roundUpRange, roundUpValidValues):
//   - a request that does not name the capacity consumes the policy's
//     default, or, without a default or a policy, the whole `total`;
//   - without a policy the request consumes what it asks;
//   - with a valid range, a request under min consumes min, and with a step
//     it is rounded up to min + k * step;
//   - with valid values, it is rounded up to the first value at least as
//     large (the values are ascending), or stays as asked if none is.
// ViolatesCapacityRequestPolicy then says whether that amount is refused
// (violatesPolicy there): never when it equals the default; over the range's
// max or off its step grid; not one of the valid values. Whole units only
// (quantity.h): the fractional milli-unit path of DRAConsumableCapacity's
// ranges is not modelled. A rounding that would pass 2^63-1 is reported as
// nullopt; upstream aborts that allocation with an error instead
// (errCapacityRequestNotRepresentable), and the allocator here treats the
// device as not fitting.

#ifndef GPUSHARE_CLUSTER_DRA_CAPACITY_REQUEST_POLICY_H_
#define GPUSHARE_CLUSTER_DRA_CAPACITY_REQUEST_POLICY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpushare {

// CapacityRequestPolicyRange: min, with an optional max and step.
struct CapacityRequestPolicyRange {
  int64_t min = 0;
  std::optional<int64_t> max;
  std::optional<int64_t> step;
};

struct CapacityRequestPolicy {
  std::optional<int64_t> default_value;  // "default" in the API
  // At most one of the two; valid_values ascending, at most
  // kMaxCapacityValidValues entries.
  std::vector<int64_t> valid_values;
  std::optional<CapacityRequestPolicyRange> valid_range;
};

// The API's limit on validValues (CapacityPoliciesDiscreteMaxOptions,
// kubernetes/api resource/v1 types.go).
inline constexpr size_t kMaxCapacityValidValues = 10;

// What one request consumes of a capacity of value `total` under `policy`
// (null: none), having asked `requested` (nullopt: not named); nullopt when
// the rounded amount is over 2^63-1.
std::optional<int64_t> ConsumedCapacity(std::optional<int64_t> requested,
                                        int64_t total,
                                        const CapacityRequestPolicy* policy);

// Whether `consumed` is refused by `policy` (null: never).
bool ViolatesCapacityRequestPolicy(int64_t consumed,
                                   const CapacityRequestPolicy* policy);

// "" when `policy` is well-formed for a capacity of value `total`, else what
// is wrong ("validValues must be ascending"), as the API server's validation
// would refuse it: not both validValues and validRange, at most 10 values,
// ascending, a range with 0 <= min <= max and step >= 1, and a default
// within [0, total].
std::string FindCapacityRequestPolicyProblem(
    const CapacityRequestPolicy& policy, int64_t total);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CAPACITY_REQUEST_POLICY_H_
