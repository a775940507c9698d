#include "gpushare/cluster/dra/allocator.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "gpushare/cluster/dra/capacity_request_policy.h"
#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/io/check.h"

namespace gpushare {

// The search's own types (named, not in an unnamed namespace: AllocSearch,
// a friend of DraAllocator, holds them).

// One request of a claim with `exactly`, or one subrequest.
struct AllocRequestData {
  int claim = 0;
  int request = 0;
  int sub = -1;  // -1: exactly
  const DeviceSelection* selection = nullptr;
  const DeviceClass* device_class = nullptr;
  std::string name;  // "gpu" or "gpu/big"
  size_t num_devices = 0;
  std::vector<size_t> all_devices;          // allocationMode All
  std::vector<uint8_t> constraint_applies;  // per constraint of the claim
};

// A matchAttribute constraint while the search runs.
struct AllocConstraintState {
  std::string_view domain;
  std::string_view name;
  const DeviceAttribute* value = nullptr;
  int count = 0;
};

// One device chosen so far.
struct AllocPick {
  size_t request_data = 0;
  size_t candidate = 0;
  size_t consumed_offset = 0;  // into AllocSearch::pick_consumed_
  size_t consumed_count = 0;   // capacities of a shareable device, else 0
};

enum class AllocStep { kFound, kNotFound, kStop };

// The state of one DraAllocator::Allocate call.
class AllocSearch {
 public:
  AllocSearch(const DraAllocator& a, const std::vector<const ResourceClaim*>& c)
      : alloc_(a), claims_(c) {}

  AllocationOutcome Run(const std::string& node_name);

 private:
  using Candidate = DraAllocator::Candidate;

  bool Prepare(AllocationOutcome* out);
  AllocStep Step(int claim, int request, int sub, size_t device,
                 bool allocating_sub);
  // Whether candidate `cand` passes the class's and the request's
  // selectors; nullopt after a CEL runtime error (in error_).
  std::optional<bool> Selectable(size_t rd, size_t cand);
  // Checks and records `cand` for request data `rd`; false if it does not
  // fit; sets error_ (and returns false) when `must` and a constraint fails.
  bool TryAllocate(size_t rd, size_t cand, bool must);
  void Deallocate(size_t rd);
  // Whether `cand` has room for `rd`; fills consumed_scratch_ for a
  // shareable device. `count_used`: false to check against the whole
  // device, as if nothing of it were consumed.
  bool CapacityFits(const AllocRequestData& rd, size_t cand,
                    bool count_used = true);
  // Whether the counters `cand` consumes are left (KEP-4815).
  bool CountersFit(size_t cand) const;
  // Adds (sign 1) or gives back (-1) what `cand` consumes.
  void AddCounters(size_t cand, int sign);
  std::string IdOf(size_t cand) const;

  const DraAllocator& alloc_;
  const std::vector<const ResourceClaim*>& claims_;
  std::vector<AllocRequestData> requests_;
  // Per claim: index of its first request pair; per pair: first request
  // data and how many (1, or the number of subrequests).
  std::vector<size_t> pair_offset_;
  std::vector<size_t> pair_first_;
  std::vector<size_t> pair_count_;
  std::vector<int> selected_;  // per pair
  std::vector<int8_t> match_;  // per request data x candidate: -1 unknown
  std::vector<uint8_t> in_use_;
  std::vector<int64_t> allocating_;        // per candidate capacity
  std::vector<int64_t> counters_allocating_;  // per counter
  std::vector<int> share_count_;  // per candidate: picks of a shareable one
  std::vector<size_t> constraint_offset_;  // per claim
  std::vector<AllocConstraintState> constraints_;
  std::vector<std::vector<AllocPick>> picks_;  // per claim
  std::vector<int64_t> pick_consumed_;
  std::vector<int64_t> consumed_scratch_;
  int64_t steps_ = 0;
  bool timed_out_ = false;
  std::string error_;
};

std::string DeviceId::ToString() const {
  return driver + "/" + pool + "/" + device;
}

DraAllocator::DraAllocator(const std::vector<const ResourceSlice*>& slices,
                           const std::vector<DeviceClass>* classes,
                           const AllocatedDevices& allocated, int64_t max_steps)
    : classes_(classes), max_steps_(max_steps) {
  Build(nullptr, slices, allocated);
}

DraAllocator::DraAllocator(const std::string& node_name,
                           const std::vector<const ResourceSlice*>& slices,
                           const std::vector<DeviceClass>* classes,
                           const AllocatedDevices& allocated, int64_t max_steps)
    : classes_(classes), max_steps_(max_steps) {
  Build(&node_name, slices, allocated);
}

namespace {

// Why the pool of `pool_slices` is invalid, or "" (upstream's pool
// validation: device names unique in the pool, CounterSets published once,
// every consumed counter set and counter present).
std::string FindPoolProblem(
    const std::vector<const ResourceSlice*>& pool_slices) {
  std::unordered_map<std::string_view, const CounterSet*> sets;
  for (const ResourceSlice* slice : pool_slices) {
    for (const CounterSet& set : slice->shared_counters) {
      if (!sets.emplace(set.name, &set).second) {
        return "counter set " + set.name + " is published twice";
      }
    }
  }
  std::unordered_map<std::string_view, int> names;
  for (const ResourceSlice* slice : pool_slices) {
    for (const Device& device : slice->devices) {
      if (++names[device.name] == 2) {
        return "device " + device.name + " is listed twice";
      }
      for (const DeviceCounterConsumption& use : device.consumes_counters) {
        const auto it = sets.find(use.counter_set);
        if (it == sets.end()) {
          return "device " + device.name + " consumes unknown counter set " +
                 use.counter_set;
        }
        for (const DeviceCounter& counter : use.counters) {
          bool known = false;
          for (const DeviceCounter& c : it->second->counters) {
            known = known || c.name == counter.name;
          }
          if (!known) {
            return "device " + device.name + " consumes unknown counter " +
                   counter.name + " of counter set " + use.counter_set;
          }
        }
      }
    }
  }
  return "";
}

}  // namespace

void DraAllocator::Build(const std::string* node,
                         const std::vector<const ResourceSlice*>& slices,
                         const AllocatedDevices& allocated) {
  std::vector<const ResourceSlice*> sorted = slices;
  std::sort(sorted.begin(), sorted.end(),
            [](const ResourceSlice* a, const ResourceSlice* b) {
              if (a->driver != b->driver) return a->driver < b->driver;
              if (a->pool_name != b->pool_name) {
                return a->pool_name < b->pool_name;
              }
              return a->name < b->name;
            });
  const auto on_node = [node](const ResourceSlice* slice) {
    return node == nullptr || slice->node_name == *node;
  };
  // The devices other claims hold, by device name (a node's devices are
  // many and a Reserve runs this per pod: no scan of the list per device).
  std::unordered_multimap<std::string_view, const DeviceId*> exclusive_by_name;
  for (const DeviceId& id : allocated.exclusive) {
    exclusive_by_name.emplace(id.device, &id);
  }
  std::unordered_multimap<std::string_view, const DeviceConsumedCapacity*>
      shared_by_name;
  for (const DeviceConsumedCapacity& s : allocated.shared) {
    shared_by_name.emplace(s.device.device, &s);
  }
  const auto held_exclusive = [&](const ResourceSlice* slice,
                                  const Device& device) {
    const auto [lo, hi] = exclusive_by_name.equal_range(device.name);
    for (auto it = lo; it != hi; ++it) {
      if (it->second->pool == slice->pool_name &&
          it->second->driver == slice->driver) {
        return true;
      }
    }
    return false;
  };
  const auto held_shared = [&](const ResourceSlice* slice,
                               const Device& device) {
    const auto [lo, hi] = shared_by_name.equal_range(device.name);
    for (auto it = lo; it != hi; ++it) {
      if (it->second->device.pool == slice->pool_name &&
          it->second->device.driver == slice->driver) {
        return true;
      }
    }
    return false;
  };
  size_t begin = 0;
  while (begin < sorted.size()) {
    size_t end = begin;
    bool any_on_node = false;
    int64_t generation = 0;
    while (end < sorted.size() &&
           sorted[end]->driver == sorted[begin]->driver &&
           sorted[end]->pool_name == sorted[begin]->pool_name) {
      if (on_node(sorted[end]) &&
          (!any_on_node || sorted[end]->pool_generation > generation)) {
        generation = sorted[end]->pool_generation;
        any_on_node = true;
      }
      ++end;
    }
    const std::string pool_id =
        sorted[begin]->driver + "/" + sorted[begin]->pool_name;
    std::vector<const ResourceSlice*> pool_slices;
    for (size_t i = begin; i < end && any_on_node; ++i) {
      if (sorted[i]->pool_generation == generation) {
        pool_slices.push_back(sorted[i]);
      }
    }
    begin = end;
    if (!any_on_node) continue;
    if (static_cast<int64_t>(pool_slices.size()) !=
        pool_slices.back()->resource_slice_count) {
      incomplete_pools_.push_back(pool_id);
      continue;
    }
    const std::string problem = FindPoolProblem(pool_slices);
    if (!problem.empty()) {
      invalid_pools_.push_back(pool_id + ": " + problem);
      continue;
    }
    const size_t pool_first = candidates_.size();
    std::vector<uint8_t> held;
    for (const ResourceSlice* slice : pool_slices) {
      for (const Device& device : slice->devices) {
        const bool exclusive = held_exclusive(slice, device);
        const bool shared = held_shared(slice, device);
        held.push_back(exclusive || shared ? 1 : 0);
        if (!on_node(slice)) continue;
        Candidate c;
        c.slice = slice;
        c.device = &device;
        c.allocated =
            exclusive || (shared && !device.allow_multiple_allocations);
        c.shared_before = shared && device.allow_multiple_allocations;
        c.capacity_base = consumed_.size();
        consumed_.resize(consumed_.size() + device.capacities.size(), 0);
        const auto [sh_lo, sh_hi] = shared_by_name.equal_range(device.name);
        for (auto it = sh_lo; it != sh_hi; ++it) {
          const DeviceConsumedCapacity& s = *it->second;
          if (s.device.pool != slice->pool_name ||
              s.device.driver != slice->driver) {
            continue;
          }
          for (const DeviceCapacity& used : s.consumed) {
            for (size_t k = 0; k < device.capacities.size(); ++k) {
              if (device.capacities[k].name == used.name &&
                  device.capacities[k].domain == used.domain) {
                consumed_[c.capacity_base + k] += used.value;
              }
            }
          }
        }
        candidates_.push_back(c);
      }
    }
    ResolveCounters(pool_slices, held, pool_first);
  }
}

void DraAllocator::ResolveCounters(
    const std::vector<const ResourceSlice*>& pool_slices,
    const std::vector<uint8_t>& held, size_t first) {
  bool any = false;
  for (const ResourceSlice* slice : pool_slices) {
    any = any || !slice->shared_counters.empty();
  }
  if (!any) return;
  // "<set>/<counter>" -> index into counters_available_.
  std::unordered_map<std::string, size_t> index;
  for (const ResourceSlice* slice : pool_slices) {
    for (const CounterSet& set : slice->shared_counters) {
      for (const DeviceCounter& counter : set.counters) {
        index.emplace(set.name + "/" + counter.name,
                      counters_available_.size());
        counters_available_.push_back(counter.value);
      }
    }
  }
  // What the held devices of the pool (on any node) consume.
  size_t d = 0;
  for (const ResourceSlice* slice : pool_slices) {
    for (const Device& device : slice->devices) {
      if (held[d++] == 0) continue;
      for (const DeviceCounterConsumption& use : device.consumes_counters) {
        for (const DeviceCounter& counter : use.counters) {
          const auto it = index.find(use.counter_set + "/" + counter.name);
          if (it != index.end()) counters_available_[it->second] -= counter.value;
        }
      }
    }
  }
  for (size_t k = first; k < candidates_.size(); ++k) {
    Candidate& c = candidates_[k];
    c.counter_begin = counter_uses_.size();
    for (const DeviceCounterConsumption& use : c.device->consumes_counters) {
      for (const DeviceCounter& counter : use.counters) {
        // The pool was validated: every consumed counter exists.
        const auto it = index.find(use.counter_set + "/" + counter.name);
        if (it == index.end()) continue;
        counter_uses_.push_back({it->second, counter.value});
      }
    }
    c.counter_count = counter_uses_.size() - c.counter_begin;
  }
}

AllocationOutcome DraAllocator::Allocate(
    const std::string& node_name,
    const std::vector<const ResourceClaim*>& claims) const {
  AllocSearch search(*this, claims);
  return search.Run(node_name);
}

std::string AllocSearch::IdOf(size_t cand) const {
  const Candidate& c = alloc_.candidates_[cand];
  return c.slice->driver + "/" + c.slice->pool_name + "/" + c.device->name;
}

bool AllocSearch::Prepare(AllocationOutcome* out) {
  const size_t num_candidates = alloc_.candidates_.size();
  for (size_t ci = 0; ci < claims_.size(); ++ci) {
    const ResourceClaim& claim = *claims_[ci];
    pair_offset_.push_back(pair_first_.size());
    constraint_offset_.push_back(constraints_.size());
    for (const DeviceConstraint& k : claim.spec.constraints) {
      const size_t slash = k.match_attribute.find('/');
      AllocConstraintState s;
      s.domain = std::string_view(k.match_attribute).substr(0, slash);
      s.name = std::string_view(k.match_attribute).substr(slash + 1);
      constraints_.push_back(s);
    }
    for (size_t ri = 0; ri < claim.spec.requests.size(); ++ri) {
      const DraDeviceRequest& request = claim.spec.requests[ri];
      pair_first_.push_back(requests_.size());
      const size_t subs =
          request.has_exactly ? 1 : request.first_available.size();
      pair_count_.push_back(subs);
      for (size_t si = 0; si < subs; ++si) {
        AllocRequestData rd;
        rd.claim = static_cast<int>(ci);
        rd.request = static_cast<int>(ri);
        rd.sub = request.has_exactly ? -1 : static_cast<int>(si);
        rd.selection = request.has_exactly
                           ? &request.exactly
                           : &request.first_available[si].selection;
        rd.name = request.has_exactly
                      ? request.name
                      : request.name + "/" + request.first_available[si].name;
        for (const DeviceClass& c : *alloc_.classes_) {
          if (c.name == rd.selection->device_class_name) rd.device_class = &c;
        }
        if (rd.device_class == nullptr) {
          out->status = AllocationOutcome::Status::kUnschedulable;
          out->message =
              DraDeviceClassMissing(rd.name, rd.selection->device_class_name);
          return false;
        }
        for (const DeviceConstraint& k : claim.spec.constraints) {
          bool applies = k.requests.empty();
          for (const std::string& ref : k.requests) {
            applies = applies || ref == request.name || ref == rd.name;
          }
          rd.constraint_applies.push_back(applies ? 1 : 0);
        }
        requests_.push_back(std::move(rd));
      }
    }
  }
  selected_.assign(pair_first_.size(), -1);
  match_.assign(requests_.size() * num_candidates, -1);
  in_use_.assign(num_candidates, 0);
  share_count_.assign(num_candidates, 0);
  allocating_.assign(alloc_.consumed_.size(), 0);
  counters_allocating_.assign(alloc_.counters_available_.size(), 0);
  picks_.resize(claims_.size());

  // Device counts, in claim and request order as upstream validates them.
  for (size_t ci = 0; ci < claims_.size(); ++ci) {
    size_t min_devices = 0;
    const size_t pairs_end =
        ci + 1 < claims_.size() ? pair_offset_[ci + 1] : pair_first_.size();
    for (size_t p = pair_offset_[ci]; p < pairs_end; ++p) {
      size_t min_for_request = static_cast<size_t>(-1);
      for (size_t i = 0; i < pair_count_[p]; ++i) {
        const size_t r = pair_first_[p] + i;
        AllocRequestData& rd = requests_[r];
        if (rd.selection->allocation_mode == DeviceAllocationMode::kAll) {
          if (!alloc_.incomplete_pools_.empty()) {
            out->status = AllocationOutcome::Status::kError;
            out->message = "claim " + claims_[ci]->name + ", request " +
                           rd.name +
                           ": asks for all devices, but resource pool " +
                           alloc_.incomplete_pools_.front() +
                           " is currently being updated";
            return false;
          }
          if (!alloc_.invalid_pools_.empty()) {
            const std::string& pool = alloc_.invalid_pools_.front();
            out->status = AllocationOutcome::Status::kError;
            out->message = "claim " + claims_[ci]->name + ", request " +
                           rd.name +
                           ": asks for all devices, but resource pool " +
                           pool.substr(0, pool.find(':')) +
                           " is currently invalid";
            return false;
          }
          for (size_t cand = 0; cand < num_candidates; ++cand) {
            std::optional<bool> ok = Selectable(r, cand);
            if (!ok.has_value()) {
              out->status = AllocationOutcome::Status::kError;
              out->message = error_;
              return false;
            }
            // A shareable device that could not give the request even
            // unused is not one of "all" (allocator_experimental.go).
            if (*ok && alloc_.candidates_[cand].device
                           ->allow_multiple_allocations) {
              *ok = CapacityFits(rd, cand, /*count_used=*/false);
            }
            if (*ok) rd.all_devices.push_back(cand);
          }
          rd.num_devices = rd.all_devices.size();
        } else {
          rd.num_devices = static_cast<size_t>(rd.selection->count);
        }
        min_for_request = std::min(min_for_request, rd.num_devices);
      }
      min_devices += min_for_request;
    }
    if (min_devices > kMaxAllocationResults) {
      out->status = AllocationOutcome::Status::kError;
      out->message = DraTooManyDevices(claims_[ci]->name, min_devices,
                                       kMaxAllocationResults);
      return false;
    }
    picks_[ci].reserve(kMaxAllocationResults);
  }
  pick_consumed_.reserve(64);
  consumed_scratch_.reserve(16);
  return true;
}

AllocationOutcome AllocSearch::Run(const std::string& node_name) {
  AllocationOutcome out;
  if (!Prepare(&out)) return out;
  const AllocStep step = Step(0, 0, 0, 0, false);
  out.steps = steps_;
  if (step == AllocStep::kStop) {
    if (timed_out_) {
      out.status = AllocationOutcome::Status::kUnschedulable;
      out.message = kDraFilterTimedOut;
      out.detail = "allocation search exceeded " +
                   std::to_string(alloc_.max_steps_) + " steps";
    } else {
      out.status = AllocationOutcome::Status::kError;
      out.message = error_;
    }
    return out;
  }
  if (step == AllocStep::kNotFound) {
    if (!alloc_.invalid_pools_.empty()) {
      // Upstream: a failure that skipped invalid pools is an error, not
      // "no fit", because the pools may have held the solution.
      out.status = AllocationOutcome::Status::kError;
      out.message = "invalid resource pools were encountered: ";
      for (size_t i = 0; i < alloc_.invalid_pools_.size(); ++i) {
        out.message += (i == 0 ? "" : "; ") + alloc_.invalid_pools_[i];
      }
      return out;
    }
    out.status = AllocationOutcome::Status::kUnschedulable;
    out.message = kDraCannotAllocateAllClaims;
    return out;
  }
  out.status = AllocationOutcome::Status::kAllocated;
  for (size_t ci = 0; ci < claims_.size(); ++ci) {
    AllocationResult result;
    result.node_name = node_name;
    for (const AllocPick& pick : picks_[ci]) {
      const Candidate& c = alloc_.candidates_[pick.candidate];
      DeviceRequestAllocationResult d;
      d.request = requests_[pick.request_data].name;
      d.driver = c.slice->driver;
      d.pool = c.slice->pool_name;
      d.device = c.device->name;
      for (size_t k = 0; k < pick.consumed_count; ++k) {
        const DeviceCapacity& cap = c.device->capacities[k];
        d.consumed_capacity.push_back({cap.domain, cap.name,
                                       pick_consumed_[pick.consumed_offset + k],
                                       std::nullopt});
      }
      result.devices.push_back(std::move(d));
    }
    const size_t pairs_end =
        ci + 1 < claims_.size() ? pair_offset_[ci + 1] : pair_first_.size();
    for (size_t p = pair_offset_[ci]; p < pairs_end; ++p) {
      result.selected_subrequest.push_back(
          requests_[pair_first_[p]].sub < 0 ? -1 : selected_[p]);
    }
    out.results.push_back(std::move(result));
  }
  return out;
}

AllocStep AllocSearch::Step(int claim, int request, int sub, size_t device,
                            bool allocating_sub) {
  if (++steps_ > alloc_.max_steps_) {
    timed_out_ = true;
    return AllocStep::kStop;
  }
  if (claim >= static_cast<int>(claims_.size())) return AllocStep::kFound;
  const ResourceClaim& rc = *claims_[claim];
  if (request >= static_cast<int>(rc.spec.requests.size())) {
    return Step(claim + 1, 0, 0, 0, false);
  }
  const size_t pair = pair_offset_[claim] + static_cast<size_t>(request);
  if (!allocating_sub && requests_[pair_first_[pair]].sub >= 0) {
    for (size_t s = 0; s < pair_count_[pair]; ++s) {
      const AllocStep result =
          Step(claim, request, static_cast<int>(s), 0, true);
      if (result == AllocStep::kStop) return result;
      if (result == AllocStep::kFound) {
        selected_[pair] = static_cast<int>(s);
        return result;
      }
    }
    return AllocStep::kNotFound;
  }
  const size_t r = pair_first_[pair] + static_cast<size_t>(sub < 0 ? 0 : sub);
  const AllocRequestData& rd = requests_[r];
  const bool all = rd.selection->allocation_mode == DeviceAllocationMode::kAll;
  if (all && rd.all_devices.empty()) return AllocStep::kNotFound;
  if (device >= rd.num_devices) {
    return Step(claim, request + 1, 0, 0, false);
  }
  if (picks_[claim].size() + rd.num_devices - device > kMaxAllocationResults) {
    return AllocStep::kNotFound;
  }
  if (all) {
    if (!TryAllocate(r, rd.all_devices[device], true)) {
      return error_.empty() ? AllocStep::kNotFound : AllocStep::kStop;
    }
    const AllocStep result =
        Step(claim, request, sub, device + 1, allocating_sub);
    if (result != AllocStep::kFound) Deallocate(r);
    return result;
  }
  const std::vector<Candidate>& candidates = alloc_.candidates_;
  for (size_t cand = 0; cand < candidates.size(); ++cand) {
    const Candidate& c = candidates[cand];
    if (c.allocated ||
        (!c.device->allow_multiple_allocations && in_use_[cand] != 0)) {
      continue;
    }
    const std::optional<bool> selectable = Selectable(r, cand);
    if (!selectable.has_value()) return AllocStep::kStop;
    if (!*selectable) continue;
    if (!TryAllocate(r, cand, false)) continue;
    const AllocStep result =
        Step(claim, request, sub, device + 1, allocating_sub);
    if (result == AllocStep::kFound) return result;
    Deallocate(r);
    if (result == AllocStep::kStop) return result;
  }
  return AllocStep::kNotFound;
}

std::optional<bool> AllocSearch::Selectable(size_t r, size_t cand) {
  int8_t& cached = match_[r * alloc_.candidates_.size() + cand];
  if (cached >= 0) return cached != 0;
  const AllocRequestData& rd = requests_[r];
  const Candidate& c = alloc_.candidates_[cand];
  const std::vector<CelSelector>& class_selectors = rd.device_class->selectors;
  for (size_t i = 0; i < class_selectors.size(); ++i) {
    const CelResult result =
        class_selectors[i].Evaluate(*c.device, c.slice->driver);
    if (result.failed()) {
      error_ = DraClassSelectorError(rd.device_class->name, i, IdOf(cand),
                                     result.ErrorMessage());
      return std::nullopt;
    }
    if (!result.matches()) {
      cached = 0;
      return false;
    }
  }
  const std::vector<CelSelector>& selectors = rd.selection->selectors;
  for (size_t i = 0; i < selectors.size(); ++i) {
    const CelResult result = selectors[i].Evaluate(*c.device, c.slice->driver);
    if (result.failed()) {
      error_ = DraClaimSelectorError(claims_[rd.claim]->name, i, IdOf(cand),
                                     result.ErrorMessage());
      return std::nullopt;
    }
    if (!result.matches()) {
      cached = 0;
      return false;
    }
  }
  cached = 1;
  return true;
}

bool AllocSearch::CapacityFits(const AllocRequestData& rd, size_t cand,
                               bool count_used) {
  const Candidate& c = alloc_.candidates_[cand];
  const Device& device = *c.device;
  const std::vector<CapacityRequest>& asked = rd.selection->capacity_requests;
  consumed_scratch_.clear();
  if (!device.allow_multiple_allocations && asked.empty()) return true;
  for (const CapacityRequest& q : asked) {
    const std::string& domain = q.domain.empty() ? c.slice->driver : q.domain;
    if (device.FindCapacity(domain, q.name) == nullptr) return false;
  }
  for (size_t k = 0; k < device.capacities.size(); ++k) {
    const DeviceCapacity& cap = device.capacities[k];
    std::optional<int64_t> requested;
    for (const CapacityRequest& q : asked) {
      const std::string& domain = q.domain.empty() ? c.slice->driver : q.domain;
      if (q.name == cap.name && domain == cap.domain) requested = q.value;
    }
    const CapacityRequestPolicy* policy =
        device.allow_multiple_allocations && cap.request_policy.has_value()
            ? &*cap.request_policy
            : nullptr;
    const std::optional<int64_t> consumed =
        ConsumedCapacity(requested, cap.value, policy);
    if (!consumed.has_value() || *consumed < 0) return false;
    if (ViolatesCapacityRequestPolicy(*consumed, policy)) return false;
    int64_t used = 0;
    if (device.allow_multiple_allocations && count_used) {
      used = alloc_.consumed_[c.capacity_base + k] +
             allocating_[c.capacity_base + k];
    }
    if (*consumed > cap.value - used) return false;
    if (device.allow_multiple_allocations)
      consumed_scratch_.push_back(*consumed);
  }
  return true;
}

bool AllocSearch::TryAllocate(size_t r, size_t cand, bool must) {
  const AllocRequestData& rd = requests_[r];
  const Candidate& c = alloc_.candidates_[cand];
  const bool shareable = c.device->allow_multiple_allocations;
  if (c.allocated || (!shareable && in_use_[cand] != 0)) return false;
  if (!CapacityFits(rd, cand)) return false;
  // A shareable device takes its counters with its first share only.
  const bool takes_counters =
      !shareable || (!c.shared_before && share_count_[cand] == 0);
  if (takes_counters && !CountersFit(cand)) return false;
  const size_t first = constraint_offset_[rd.claim];
  const size_t count = rd.constraint_applies.size();
  for (size_t k = 0; k < count; ++k) {
    if (rd.constraint_applies[k] == 0) continue;
    AllocConstraintState& s = constraints_[first + k];
    const DeviceAttribute* value = c.device->FindAttribute(s.domain, s.name);
    const bool ok = value != nullptr && (s.count == 0 || *value == *s.value);
    if (!ok) {
      for (size_t j = 0; j < k; ++j) {
        if (rd.constraint_applies[j] != 0) --constraints_[first + j].count;
      }
      if (must) {
        error_ =
            DraAllConstraintError(claims_[rd.claim]->name, rd.name, IdOf(cand));
      }
      return false;
    }
    if (s.count == 0) s.value = value;
    ++s.count;
  }
  AllocPick pick;
  pick.request_data = r;
  pick.candidate = cand;
  pick.consumed_offset = pick_consumed_.size();
  if (shareable) {
    pick.consumed_count = consumed_scratch_.size();
    for (size_t k = 0; k < consumed_scratch_.size(); ++k) {
      pick_consumed_.push_back(consumed_scratch_[k]);
      allocating_[c.capacity_base + k] += consumed_scratch_[k];
    }
    ++share_count_[cand];
  } else {
    in_use_[cand] = 1;
  }
  if (takes_counters) AddCounters(cand, 1);
  picks_[rd.claim].push_back(pick);
  return true;
}

void AllocSearch::Deallocate(size_t r) {
  const AllocRequestData& rd = requests_[r];
  std::vector<AllocPick>& picks = picks_[rd.claim];
  GS_CHECK(!picks.empty() && picks.back().request_data == r,
           "deallocating the last pick");
  const AllocPick pick = picks.back();
  picks.pop_back();
  const Candidate& c = alloc_.candidates_[pick.candidate];
  const size_t first = constraint_offset_[rd.claim];
  for (size_t k = 0; k < rd.constraint_applies.size(); ++k) {
    if (rd.constraint_applies[k] == 0) continue;
    AllocConstraintState& s = constraints_[first + k];
    if (--s.count == 0) s.value = nullptr;
  }
  if (c.device->allow_multiple_allocations) {
    for (size_t k = 0; k < pick.consumed_count; ++k) {
      allocating_[c.capacity_base + k] -=
          pick_consumed_[pick.consumed_offset + k];
    }
    pick_consumed_.resize(pick.consumed_offset);
    if (--share_count_[pick.candidate] == 0 && !c.shared_before) {
      AddCounters(pick.candidate, -1);
    }
  } else {
    in_use_[pick.candidate] = 0;
    AddCounters(pick.candidate, -1);
  }
}

bool AllocSearch::CountersFit(size_t cand) const {
  const Candidate& c = alloc_.candidates_[cand];
  for (size_t k = 0; k < c.counter_count; ++k) {
    const DraAllocator::CounterUse& use =
        alloc_.counter_uses_[c.counter_begin + k];
    if (alloc_.counters_available_[use.counter] -
            counters_allocating_[use.counter] <
        use.value) {
      return false;
    }
  }
  return true;
}

void AllocSearch::AddCounters(size_t cand, int sign) {
  const Candidate& c = alloc_.candidates_[cand];
  for (size_t k = 0; k < c.counter_count; ++k) {
    const DraAllocator::CounterUse& use =
        alloc_.counter_uses_[c.counter_begin + k];
    counters_allocating_[use.counter] += sign * use.value;
  }
}

}  // namespace gpushare
