// DraAllocator: the kube-scheduler's structured allocator for one node —
// which devices of the node's ResourceSlices a pod's unallocated claims get.
//
// Contract. Faithful to upstream's stable allocator (kubernetes/kubernetes
// staging/src/k8s.io/dynamic-resource-allocation/structured/internal/
// stable/allocator_stable.go) plus consumable capacity from the experimental
// one (internal/experimental/allocator_experimental.go and
// consumable_capacity.go, KEP-5075):
//   - Devices are walked pool by pool (by driver, then pool name), slice by
//     slice (by name), and in slice order (allocatortesting/
//     lexicographical_testing.go). A pool counts on the node when one of
//     its slices is the node's; of its slices (on every node) only those of
//     the newest generation among the node's slices count, and a pool with
//     fewer of them than resourceSliceCount is incomplete and skipped (an
//     All request then fails with an error). A pool whose slices list a
//     device name twice, publish a CounterSet twice, or consume a counter
//     set or counter the pool lacks is invalid and skipped (pools_experimental
//     .go validatePool); when no solution is found without it, the outcome
//     is the error "invalid resource pools were encountered", and an All
//     request fails at once.
//   - The search is exhaustive backtracking that keeps the FIRST full
//     solution: claim after claim, request after request, device after
//     device, trying each candidate in walk order that is not in use,
//     passes the class's selectors and then the request's (results cached
//     per request and device), has the capacity the request needs, and
//     keeps every claim constraint satisfiable; a dead end undoes the last
//     choice and tries the next candidate. There is no scoring of devices:
//     a first-fit choice for one claim may leave a later claim of the same
//     pod, or a later pod, without a device although another choice would
//     have placed both (upstream: "The first full solution is chosen").
//   - firstAvailable: subrequests are tried in order; the first that lets
//     the whole search finish wins and its index is recorded
//     (AllocationResult::selected_subrequest, for prioritized_list_score.h).
//   - allocationMode All: every device of the node's complete pools that
//     passes the selectors (allocated or not) is needed, except a shareable
//     device whose capacities cannot give the request even when unused
//     (allocator_experimental.go: only such devices are left out); at least
//     one must exist and none may be in use or short of capacity now, else
//     there is no solution.
//   - matchAttribute: the devices of the requests a constraint names (all
//     requests when it names none; "req" covers every subrequest of req,
//     "req/sub" only that one) must share the attribute's value; a device
//     without the attribute fails the constraint.
//   - Exclusive devices: those in AllocatedDevices::exclusive or with an
//     entry in AllocatedDevices::shared (a device that was shareable when
//     allocated), or already chosen in this search, are in use. A device
//     with allow_multiple_allocations listed in AllocatedDevices::exclusive
//     (held whole before it became shareable) is in use too; otherwise it
//     is never in use: each request consumes of
//     every capacity of it what capacity_request_policy.h computes
//     (ConsumedCapacity; a request naming a capacity the device lacks does
//     not fit; a policy violation does not fit), and the sum with what
//     other claims consumed (AllocatedDevices::shared) and this search chose
//     must stay within each capacity's value. A request's capacity requests
//     are also checked against an exclusive device's capacities (the
//     request must fit the whole device).
//   - Partitionable devices (KEP-4815; allocator_stable.go
//     checkAvailableCounters and deallocateCountersForDevice): a device
//     with consumes_counters fits only if, for each counter it consumes, the
//     counter's value in its CounterSet (ResourceSlice::shared_counters of
//     the same pool) less what the pool's allocated devices consume (every
//     device in AllocatedDevices::exclusive, counted once) less what the
//     devices chosen so far in this search consume is at least the device's
//     consumption; a dead end gives the counters back. Upstream checks every
//     counter of the pool after adding the device, so an already overdrawn
//     counter would block all of the pool's counter devices; here only the
//     device's own counters are checked (the same as long as nothing is
//     overdrawn, which the simulator never does). A shareable device
//     consumes its counters once, with its first share: not again while it
//     has an entry in AllocatedDevices::shared or an earlier pick in this
//     search, and a dead end gives them back with its last share.
//   - At most kMaxAllocationResults devices per claim.
// Outcomes (filter_messages.h has the words): kAllocated with one
// AllocationResult per claim; kUnschedulable with kDraCannotAllocateAllClaims
// when no solution exists, DraDeviceClassMissing for an unknown class, or
// kDraFilterTimedOut when the search took more than `max_steps` steps;
// kError (upstream's Filter returns Error: the pod's scheduling attempt ends
// on every node and is retried later) for a CEL runtime error in a class's or
// request's selector met during the search, an All request whose devices
// break a constraint, a claim needing more than kMaxAllocationResults
// devices, an All request on an incomplete or invalid pool, and no solution
// while invalid pools were skipped.
//
// Step cap: upstream bounds Filter by wall time (DRASchedulerFilterTimeout,
// 10 s by default, then "timed out trying to allocate devices"). A
// simulator must be deterministic, so a step — one call of the recursive
// search, as upstream's numAllocateOneInvocations counts them — is the unit
// instead: kDefaultMaxAllocationSteps (a choice of gpushare-sim, not an
// upstream number) and the detail "allocation search exceeded N steps".
//
// Cost: the node's devices are flattened once per DraAllocator; Allocate
// allocates its working arrays once per call and nothing per candidate
// device, except the strings of an error.

#ifndef GPUSHARE_CLUSTER_DRA_ALLOCATOR_H_
#define GPUSHARE_CLUSTER_DRA_ALLOCATOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/resource_claim.h"
#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {

inline constexpr int64_t kDefaultMaxAllocationSteps = 1000000;

// A device as the allocator names it (DeviceID): driver, pool, device.
struct DeviceId {
  std::string driver;
  std::string pool;
  std::string device;

  bool operator==(const DeviceId&) const = default;
  // "gpu.nvidia.com/node-a/gpu-0".
  std::string ToString() const;
};

// What a shareable device has already given to allocated claims: the sum
// per capacity.
struct DeviceConsumedCapacity {
  DeviceId device;
  std::vector<DeviceCapacity> consumed;
};

// The devices other claims hold. Only entries of the node's own pools
// matter; DraAllocator's constructor matches every device against every
// entry, so callers pass the node's entries, not the cluster's.
struct AllocatedDevices {
  std::vector<DeviceId> exclusive;
  std::vector<DeviceConsumedCapacity> shared;
};

struct AllocationOutcome {
  enum class Status { kAllocated, kUnschedulable, kError };

  Status status = Status::kUnschedulable;
  // The plugin's status message (filter_messages.h); "" when allocated.
  std::string message;
  // More detail: "allocation search exceeded N steps" on a timeout.
  std::string detail;
  std::vector<AllocationResult> results;  // one per claim when allocated
  int64_t steps = 0;
};

class DraAllocator {
 public:
  // `slices` are those of one node; `classes` must outlive the allocator,
  // as must the slices.
  DraAllocator(const std::vector<const ResourceSlice*>& slices,
               const std::vector<DeviceClass>* classes,
               const AllocatedDevices& allocated,
               int64_t max_steps = kDefaultMaxAllocationSteps);
  // The same for node `node_name` when `slices` may include slices of other
  // nodes: those only complete and validate their pools, lend their
  // CounterSets and, when allocated, consume counters; only devices of
  // slices whose node_name is `node_name` are allocated.
  DraAllocator(const std::string& node_name,
               const std::vector<const ResourceSlice*>& slices,
               const std::vector<DeviceClass>* classes,
               const AllocatedDevices& allocated,
               int64_t max_steps = kDefaultMaxAllocationSteps);

  // Allocates `claims` (validated, unallocated; all of one pod) together
  // on node `node_name`.
  AllocationOutcome Allocate(
      const std::string& node_name,
      const std::vector<const ResourceClaim*>& claims) const;

  // One device of the node in walk order.
  struct Candidate {
    const ResourceSlice* slice = nullptr;
    const Device* device = nullptr;
    // Held by another claim: listed in AllocatedDevices::exclusive (even a
    // shareable device), or an exclusive device with a shared entry.
    bool allocated = false;
    // Shareable and already shared (a shared entry): its counters are
    // consumed already and are not charged again.
    bool shared_before = false;
    size_t capacity_base = 0;  // into consumed_ (one entry per capacity)
    // Into counter_uses_: the counters it consumes (KEP-4815).
    size_t counter_begin = 0;
    size_t counter_count = 0;
  };
  // One counter a candidate consumes: an index into counters_available_.
  struct CounterUse {
    size_t counter = 0;
    int64_t value = 0;
  };

 private:
  friend class AllocSearch;

  // Builds the candidates; `node` null: every slice is the node's.
  void Build(const std::string* node,
             const std::vector<const ResourceSlice*>& slices,
             const AllocatedDevices& allocated);

  const std::vector<DeviceClass>* classes_;
  int64_t max_steps_;
  std::vector<Candidate> candidates_;
  // Per candidate and capacity: what other claims already consumed.
  std::vector<int64_t> consumed_;
  // Per counter of the node's counter sets: its value less what allocated
  // devices consume (may be negative: then nothing fits).
  std::vector<int64_t> counters_available_;
  std::vector<CounterUse> counter_uses_;
  // Resolves the counter uses of candidates [first, candidates_.size())
  // against the counter sets of `pool_slices` (the pool's slices on every
  // node) and subtracts what the held devices among them consume (`held`:
  // per device of `pool_slices` in order, whether it is held).
  void ResolveCounters(const std::vector<const ResourceSlice*>& pool_slices,
                       const std::vector<uint8_t>& held, size_t first);
  // Pools skipped as incomplete ("driver/pool").
  std::vector<std::string> incomplete_pools_;
  // Pools skipped as invalid ("driver/pool: why").
  std::vector<std::string> invalid_pools_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_ALLOCATOR_H_
