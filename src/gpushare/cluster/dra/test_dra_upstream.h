// Test-only fixture for the DRA allocator cases ported from upstream's
// structured-allocator table (kubernetes/kubernetes staging/src/k8s.io/
// dynamic-resource-allocation/structured/internal/allocatortesting/
// allocator_testing.go, read at commit 3c6bdf290c3a54b55bbea253cce51b99af339d83
// of the omeryahud/kubernetes mirror of kubernetes/kubernetes master).
//
// Contract: builders for the table's objects under its names (driver-a,
// class-a, pool-1, node-1, device-1, req-0, capacity-0, ...; its subReq-0
// is written subreq-0, because subrequest names are DNS labels and our
// claim validation refuses capitals, which the table never validates): a
// class selects `device.driver == "<driver>"`, attributes and capacities of
// a device live in its driver's domain, a slice is of node-1, pool
// generation 1 and resourceSliceCount 1 unless told. UpRun runs DraAllocator
// for a node over every given slice (node-aware constructor) and UpResults
// writes each claim's devices sorted ("req-0=driver-a/pool-1/device-1" plus
// "{capacity-0=2}" on a shareable device), claims joined by " | ", because
// upstream compares the devices of a result as a set (gomega.ConsistOf).
// Facts carried over from the table; no upstream code.

#ifndef GPUSHARE_CLUSTER_DRA_TEST_DRA_UPSTREAM_H_
#define GPUSHARE_CLUSTER_DRA_TEST_DRA_UPSTREAM_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/resource_claim.h"
#include "gpushare/cluster/dra/resource_slice.h"

namespace gpushare {
namespace upstream_table {

inline constexpr const char* kDriverA = "driver-a";
inline constexpr const char* kDriverB = "driver-b";
inline constexpr const char* kClassA = "class-a";
inline constexpr const char* kClassB = "class-b";
inline constexpr const char* kNode1 = "node-1";
inline constexpr const char* kNode2 = "node-2";
inline constexpr int64_t kGi = int64_t{1} << 30;

// A device of `driver` (attributes and capacities in its domain).
class UpDevice {
 public:
  explicit UpDevice(std::string name, std::string driver = kDriverA)
      : driver_(std::move(driver)) {
    d_.name = std::move(name);
  }
  UpDevice& Str(const std::string& key, const std::string& value) {
    d_.SetAttribute(driver_, key, DeviceAttribute::String(value));
    return *this;
  }
  UpDevice& Int(const std::string& key, int64_t value) {
    d_.SetAttribute(driver_, key, DeviceAttribute::Int(value));
    return *this;
  }
  UpDevice& Bool(const std::string& key, bool value) {
    d_.SetAttribute(driver_, key, DeviceAttribute::Bool(value));
    return *this;
  }
  UpDevice& Version(const std::string& key, int major, int minor, int patch) {
    d_.SetAttribute(driver_, key,
                    DeviceAttribute::Version({major, minor, patch}));
    return *this;
  }
  UpDevice& Cap(const std::string& key, int64_t value) {
    d_.SetCapacity(driver_, key, value);
    return *this;
  }
  // allowMultipleAllocations: true.
  UpDevice& Multi() {
    d_.allow_multiple_allocations = true;
    return *this;
  }
  // The table's withCapacityRequestPolicyRange: default 2, min 2, step 2,
  // max 4.
  UpDevice& RangePolicy(const std::string& key, int64_t value) {
    Cap(key, value);
    CapacityRequestPolicy p;
    p.default_value = 2;
    p.valid_range = CapacityRequestPolicyRange{2, 4, 2};
    Last().request_policy = p;
    return *this;
  }
  // The table's withCapacityRequestPolicyValidValues: default `def`, valid
  // values `def` and `more`.
  UpDevice& ValidValues(const std::string& key, int64_t value, int64_t def,
                        std::vector<int64_t> more = {}) {
    Cap(key, value);
    CapacityRequestPolicy p;
    p.default_value = def;
    p.valid_values.push_back(def);
    for (int64_t v : more) p.valid_values.push_back(v);
    Last().request_policy = p;
    return *this;
  }
  // consumesCounters of `set`; `as_capacity`: also a capacity of the same
  // name and value (the table's capacity "fromCounters").
  UpDevice& Consumes(const std::string& set,
                     std::vector<DeviceCounter> counters,
                     bool as_capacity = false) {
    if (as_capacity) {
      for (const DeviceCounter& c : counters) Cap(c.name, c.value);
    }
    d_.consumes_counters.push_back({set, std::move(counters)});
    return *this;
  }
  operator Device() const { return d_; }  // NOLINT: builder

 private:
  DeviceCapacity& Last() { return d_.capacities.back(); }

  std::string driver_;
  Device d_;
};

inline ResourceSlice UpSlice(const std::string& name, const std::string& node,
                             const std::string& pool,
                             const std::string& driver,
                             std::vector<Device> devices, int64_t count = 1,
                             int64_t generation = 1) {
  ResourceSlice s;
  s.name = name;
  s.node_name = node;
  s.pool_name = pool;
  s.driver = driver;
  s.resource_slice_count = count;
  s.pool_generation = generation;
  s.devices = std::move(devices);
  return s;
}

inline ResourceSlice UpCounterSlice(const std::string& name,
                                    const std::string& node,
                                    const std::string& pool,
                                    const std::string& driver,
                                    std::vector<CounterSet> sets,
                                    int64_t count = 2) {
  ResourceSlice s = UpSlice(name, node, pool, driver, {}, count);
  s.shared_counters = std::move(sets);
  return s;
}

inline CelSelector UpCel(const std::string& expression) {
  CelCompileError error;
  std::optional<CelSelector> s = CelSelector::Compile(expression, &error);
  if (!s.has_value()) {
    ADD_FAILURE() << expression << ": " << error.message;
    std::abort();
  }
  return std::move(*s);
}

// class(name, driver): device.driver == "<driver>".
inline DeviceClass UpClass(const std::string& name,
                           const std::string& driver) {
  DeviceClass c;
  c.name = name;
  c.selectors.push_back(UpCel("device.driver == \"" + driver + "\""));
  return c;
}

// classWithAllowMultipleAllocations(name, driver, multi).
inline DeviceClass UpClassMulti(const std::string& name,
                                const std::string& driver, bool multi) {
  DeviceClass c;
  c.name = name;
  c.selectors.push_back(UpCel("device.driver == \"" + driver +
                              "\" && device.allowMultipleAllocations == " +
                              (multi ? "true" : "false")));
  return c;
}

// `device.capacity["driver-a"].memory.compareTo(quantity("<q>")) >= 0`.
inline std::string UpMemoryAtLeast(const std::string& quantity) {
  return "device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" +
         quantity + "\")) >= 0";
}

inline DeviceSelection UpSelection(const std::string& device_class,
                                   int64_t count,
                                   const std::string& selector = "") {
  DeviceSelection s;
  s.device_class_name = device_class;
  s.count = count;
  if (!selector.empty()) s.selectors.push_back(UpCel(selector));
  return s;
}

// An exactly request of `count` devices.
inline DraDeviceRequest UpReq(const std::string& name,
                              const std::string& device_class,
                              int64_t count = 1,
                              const std::string& selector = "") {
  DraDeviceRequest r;
  r.name = name;
  r.has_exactly = true;
  r.exactly = UpSelection(device_class, count, selector);
  return r;
}

// allocationMode All.
inline DraDeviceRequest UpAll(const std::string& name,
                              const std::string& device_class,
                              const std::string& selector = "") {
  DraDeviceRequest r = UpReq(name, device_class, 1, selector);
  r.exactly.allocation_mode = DeviceAllocationMode::kAll;
  return r;
}

// capacity.requests of capacity-0 (the device's driver domain).
inline DeviceSelection& UpAsk(DeviceSelection& s, int64_t value,
                              const std::string& key = "capacity-0") {
  s.capacity_requests.push_back({"", key, value});
  return s;
}
inline DraDeviceRequest UpAsk(DraDeviceRequest r, int64_t value) {
  UpAsk(r.exactly, value);
  return r;
}

inline DeviceSubRequest UpSub(const std::string& name,
                              const std::string& device_class,
                              int64_t count = 1,
                              const std::string& selector = "") {
  return {name, UpSelection(device_class, count, selector)};
}
inline DeviceSubRequest UpSubAll(const std::string& name,
                                 const std::string& device_class,
                                 const std::string& selector = "") {
  DeviceSubRequest s = UpSub(name, device_class, 1, selector);
  s.selection.allocation_mode = DeviceAllocationMode::kAll;
  return s;
}

inline DraDeviceRequest UpFirst(const std::string& name,
                                std::vector<DeviceSubRequest> subs) {
  DraDeviceRequest r;
  r.name = name;
  r.first_available = std::move(subs);
  return r;
}

// matchAttribute "driver-a/<attribute>" over `requests` (none: all).
inline DeviceConstraint UpMatch(const std::string& attribute,
                                std::vector<std::string> requests = {}) {
  return {std::move(requests), std::string(kDriverA) + "/" + attribute};
}

inline ResourceClaim UpClaim(const std::string& name,
                             std::vector<DraDeviceRequest> requests,
                             std::vector<DeviceConstraint> constraints = {}) {
  ResourceClaim c;
  c.name = name;
  c.spec.requests = std::move(requests);
  c.spec.constraints = std::move(constraints);
  return c;
}

// The devices other claims hold: "driver/pool/device" each.
inline AllocatedDevices UpHeld(const std::vector<std::string>& exclusive) {
  AllocatedDevices held;
  for (const std::string& id : exclusive) {
    const size_t a = id.find('/');
    const size_t b = id.find('/', a + 1);
    held.exclusive.push_back(
        {id.substr(0, a), id.substr(a + 1, b - a - 1), id.substr(b + 1)});
  }
  return held;
}

// What a shareable device already gave: capacity-0 of driver-a/pool/device
// (nullopt: a share that consumed no capacity).
inline void UpShared(AllocatedDevices* held, const std::string& pool,
                     const std::string& device,
                     std::optional<int64_t> capacity0) {
  DeviceConsumedCapacity c;
  c.device = {kDriverA, pool, device};
  if (capacity0.has_value()) {
    c.consumed.push_back({kDriverA, "capacity-0", *capacity0, std::nullopt});
  }
  held->shared.push_back(std::move(c));
}

// Runs the allocator for `node` over all `slices` (validating the claims
// against `classes` first unless `validate` is false).
inline AllocationOutcome UpRun(const std::vector<ResourceSlice>& slices,
                               const std::vector<DeviceClass>& classes,
                               const std::vector<ResourceClaim>& claims,
                               const AllocatedDevices& held = {},
                               const std::string& node = kNode1,
                               bool validate = true) {
  std::vector<const ResourceSlice*> pointers;
  for (const ResourceSlice& s : slices) pointers.push_back(&s);
  std::vector<const ResourceClaim*> claim_pointers;
  for (const ResourceClaim& c : claims) {
    if (validate) ValidateResourceClaimSpec(c.name, c.spec, classes);
    claim_pointers.push_back(&c);
  }
  const DraAllocator allocator(node, pointers, &classes, held);
  return allocator.Allocate(node, claim_pointers);
}

// Each claim's devices, sorted, claims joined by " | "; or the status and
// message when nothing was allocated ("Unschedulable: ...", "Error: ...").
inline std::string UpResults(const AllocationOutcome& out) {
  if (out.status == AllocationOutcome::Status::kUnschedulable) {
    return "Unschedulable: " + out.message;
  }
  if (out.status == AllocationOutcome::Status::kError) {
    return "Error: " + out.message;
  }
  std::string all;
  for (size_t i = 0; i < out.results.size(); ++i) {
    std::vector<std::string> devices;
    for (const DeviceRequestAllocationResult& d : out.results[i].devices) {
      std::string s = d.request + "=" + d.driver + "/" + d.pool + "/" +
                      d.device;
      if (!d.consumed_capacity.empty()) {
        s += "{";
        for (size_t k = 0; k < d.consumed_capacity.size(); ++k) {
          s += (k == 0 ? "" : ",") + d.consumed_capacity[k].name + "=" +
               std::to_string(d.consumed_capacity[k].value);
        }
        s += "}";
      }
      devices.push_back(std::move(s));
    }
    std::sort(devices.begin(), devices.end());
    std::string claim;
    for (const std::string& d : devices) {
      claim += (claim.empty() ? "" : " ") + d;
    }
    all += (i == 0 ? "" : " | ") + claim;
  }
  return all;
}

inline constexpr const char* kUpNoFit =
    "Unschedulable: cannot allocate all claims";

}  // namespace upstream_table
}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_TEST_DRA_UPSTREAM_H_
