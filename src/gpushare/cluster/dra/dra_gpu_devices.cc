#include "gpushare/cluster/dra/dra_gpu_devices.h"

#include <algorithm>
#include <utility>

#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/io/check.h"

namespace gpushare {

std::string DraClassResourceName(const std::string& device_class) {
  return std::string(kDraClassResourcePrefix) + device_class;
}

namespace {

constexpr int64_t kDraBytesPerMib = int64_t{1} << 20;

}  // namespace

DraGpuDevices::DraGpuDevices(std::string node_name, const GpuModel& model,
                             int gpus, std::vector<MigLayout> layouts,
                             ResourceRegistry& registry,
                             DraPoolSettings consumable)
    : node_name_(std::move(node_name)),
      model_(model),
      gpus_(gpus),
      layouts_(std::move(layouts)),
      consumable_(consumable) {
  // Every consumable-shares mode publishes a `memory` capacity that claims
  // asking capacity.requests.memory consume (KEP-5075).
  if (Shared()) memory_resource_ = registry.Intern(kDraMemoryResource);
  for (const MigLayout& layout : layouts_) {
    for (const MigInstance& in : layout) profiles_.push_back(in.profile);
  }
  std::sort(profiles_.begin(), profiles_.end());
  profiles_.erase(std::unique(profiles_.begin(), profiles_.end()),
                  profiles_.end());
  // The slice and the classes are built here for their order and names,
  // and dropped: Filter and Reserve need only the slots (the contract).
  std::vector<NvidiaDevicePlace> places;
  BuildSlice(&places);
  for (const DeviceClass& c : BuildClasses()) {
    // KEP-5004: pods ask the class's extendedResourceName (nvidia.com/gpu,
    // nvidia.com/mig-1g.10gb) and the scheduler makes their claim; else
    // the claim from their template, under the class's implicit name.
    class_names_.push_back(c.name);
    class_resources_.push_back(registry.Intern(
        consumable_.extended_resource && !c.extended_resource_name.empty()
            ? c.extended_resource_name
            : DraClassResourceName(c.name)));
  }
  gpu_first_slot_.assign(static_cast<size_t>(std::max(gpus_, 0)), -1);
  for (const NvidiaDevicePlace& place : places) {
    Slot slot;
    slot.gpu = place.gpu;
    slot.instance = place.instance;
    slot.class_index = 0;
    slot.memory_mib = model_.memory_mib;
    if (slot.instance >= 0) {
      const int profile = layouts_[slot.gpu][slot.instance].profile;
      slot.class_index = static_cast<int>(
          1 + (std::lower_bound(profiles_.begin(), profiles_.end(), profile) -
               profiles_.begin()));
      slot.memory_mib = model_.mig->profiles[profile].memory_mib;
    }
    slot.resource = class_resources_[slot.class_index];
    capacity_.Add(slot.resource, UnitsPerDevice(slot));
    if (memory_resource_ >= 0) capacity_.Add(memory_resource_, slot.memory_mib);
    int& first = gpu_first_slot_[static_cast<size_t>(slot.gpu)];
    if (first < 0) first = static_cast<int>(slots_.size());
    slots_.push_back(slot);
  }
  Recount();
}

ResourceSlice DraGpuDevices::BuildSlice(
    std::vector<NvidiaDevicePlace>* places) const {
  NvidiaGpuNode node;
  node.node_name = node_name_;
  node.model = &model_;
  node.gpu_count = gpus_;
  node.mig_layouts = layouts_;
  node.consumable = consumable_;
  return NvidiaGpuResourceSlice(node, places);
}

std::vector<DeviceClass> DraGpuDevices::BuildClasses() const {
  std::vector<DeviceClass> classes;
  classes.push_back(NvidiaGpuDeviceClass());
  for (int p : profiles_) {
    classes.push_back(
        NvidiaMigProfileDeviceClass(model_.mig->profiles[p].name));
  }
  return classes;
}

const ResourceSlice& DraGpuDevices::slice() const {
  if (!slice_.has_value()) slice_ = BuildSlice(nullptr);
  return *slice_;
}

const std::vector<DeviceClass>& DraGpuDevices::classes() const {
  if (!classes_.has_value()) classes_ = BuildClasses();
  return *classes_;
}

int64_t DraGpuDevices::UnitsPerDevice(const Slot& slot) const {
  switch (consumable_.consumable_shares) {
    case DraConsumableShares::kDisabled: return 1;
    case DraConsumableShares::kCount: return consumable_.shares;
    case DraConsumableShares::kMemoryShares: return slot.memory_mib;
    case DraConsumableShares::kUnlimited: return kDraUnlimitedPicksPerDevice;
  }
  return 1;
}

int64_t DraGpuDevices::PicksLeft(const Slot& slot, int64_t per_pick) const {
  if (!slot.healthy) return 0;
  if (!Shared()) return slot.held ? 0 : 1;
  // What each pick takes of the `memory` capacity (the policy's default
  // when none is asked); over the capacity (the policy's max) never fits.
  const int64_t memory = ClaimMemoryMib(slot, per_pick);
  if (memory > slot.memory_mib) return 0;
  const int64_t by_memory =
      memory > 0 ? (slot.memory_mib - slot.memory_used_mib) / memory
                 : kDraUnlimitedPicksPerDevice;
  switch (consumable_.consumable_shares) {
    case DraConsumableShares::kCount:
      return std::min(by_memory, consumable_.shares - slot.shares_used);
    case DraConsumableShares::kMemoryShares:
    case DraConsumableShares::kUnlimited:
      return by_memory;
    case DraConsumableShares::kDisabled: break;
  }
  return 0;
}

int64_t DraGpuDevices::ClaimMemoryMib(const Slot& slot,
                                      int64_t per_pick) const {
  // The `memory` capacity's policy (ApplyNvidiaConsumableShares): a request
  // takes what it asks (whole MiB: the step is 1Mi); one asking none takes
  // the default, the whole device in memory mode and 0 otherwise; memory
  // mode's min is 1Mi.
  if (!Shared()) return 0;
  if (consumable_.consumable_shares == DraConsumableShares::kMemoryShares) {
    return per_pick < 0 ? slot.memory_mib : std::max<int64_t>(per_pick, 1);
  }
  return std::max<int64_t>(per_pick, 0);
}

void DraGpuDevices::Recount() {
  allocatable_ = ResourceList();
  for (const Slot& s : slots_) {
    if (!s.healthy) continue;
    allocatable_.Add(s.resource, UnitsPerDevice(s));
    if (memory_resource_ >= 0) allocatable_.Add(memory_resource_, s.memory_mib);
  }
}

int DraGpuDevices::SlotOf(int gpu, int instance) const {
  if (gpu < 0 || gpu >= static_cast<int>(gpu_first_slot_.size())) return -1;
  // A GPU's devices are consecutive in slice order.
  const int first = gpu_first_slot_[static_cast<size_t>(gpu)];
  if (first < 0) return -1;
  for (size_t i = static_cast<size_t>(first);
       i < slots_.size() && slots_[i].gpu == gpu; ++i) {
    if (slots_[i].instance == instance) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

int DraGpuDevices::ClassOfResource(ResourceId id) const {
  for (size_t c = 0; c < class_resources_.size(); ++c) {
    if (class_resources_[c] == id) return static_cast<int>(c);
  }
  return -1;
}

void DraGpuDevices::SetHealthy(int gpu, int instance, bool healthy) {
  for (Slot& s : slots_) {
    if (s.gpu == gpu && (instance < 0 || s.instance == instance)) {
      s.healthy = healthy;
    }
  }
  Recount();
}

void DraGpuDevices::AddNodeLabels(Labels* labels) const {
  // gpu-feature-discovery runs beside the DRA driver (GPU Operator); its
  // whole-GPU labels, without the device plugin's sharing labels.
  Labels& l = *labels;
  l["nvidia.com/gpu.present"] = "true";
  l["nvidia.com/gpu.count"] = std::to_string(gpus_);
  l["nvidia.com/gpu.memory"] = std::to_string(model_.memory_mib);
  l["nvidia.com/gpu.family"] = model_.family;
  l["nvidia.com/mig.capable"] = model_.mig ? "true" : "false";
}

bool DraGpuDevices::DraClaimFor(const ResourceList& requests,
                                ResourceClaim* claim) const {
  claim->name = "gpu";
  claim->spec = ResourceClaimSpec();
  const int64_t memory =
      memory_resource_ >= 0 ? requests.Get(memory_resource_) : 0;
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || id == memory_resource_) continue;
    const int c = ClassOfResource(id);
    if (c < 0) return false;
    DraDeviceRequest request;
    const size_t k = claim->spec.requests.size();
    request.name = k == 0 ? "gpu" : "gpu-" + std::to_string(k);
    request.has_exactly = true;
    request.exactly.device_class_name = class_names_[c];
    request.exactly.count = quantity;
    if (memory > 0) {
      // Each device of the claim asks memory / count MiB (the template's
      // capacity.requests.memory, in bytes).
      request.exactly.capacity_requests.push_back(
          {"", "memory", memory / quantity * kDraBytesPerMib});
    }
    claim->spec.requests.push_back(std::move(request));
  }
  return true;
}

AllocatedDevices DraGpuDevices::InUse() const {
  AllocatedDevices in_use;
  for (size_t i = 0; i < slots_.size(); ++i) {
    const Slot& s = slots_[i];
    const DeviceId id{slice().driver, slice().pool_name,
                      slice().devices[i].name};
    if (!Shared()) {
      if (s.held || !s.healthy) in_use.exclusive.push_back(id);
      continue;
    }
    if (s.picks == 0) continue;
    DeviceConsumedCapacity used;
    used.device = id;
    used.consumed.push_back({kNvidiaGpuDriver, "memory",
                             s.memory_used_mib * kDraBytesPerMib,
                             std::nullopt});
    if (consumable_.consumable_shares == DraConsumableShares::kCount) {
      used.consumed.push_back(
          {kNvidiaGpuDriver, "shares", s.shares_used, std::nullopt});
    }
    in_use.shared.push_back(std::move(used));
  }
  return in_use;
}

bool DraGpuDevices::Fits(const ResourceList& requests,
                         std::string_view* reason) const {
  // With one exactly-request per class on devices that are all alike, the
  // allocator's first-fit search succeeds iff the devices of each class
  // still hold as many picks as requested (the contract): the count
  // decides, and Allocate() runs the allocator itself, checking that it
  // agrees.
  const int64_t memory =
      memory_resource_ >= 0 ? requests.Get(memory_resource_) : 0;
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || id == memory_resource_) continue;
    const int c = ClassOfResource(id);
    // Each pick asks memory / count MiB; a claim that asks none takes the
    // policy's default (ClaimMemoryMib).
    const int64_t per_pick = memory > 0 ? memory / quantity : -1;
    int64_t free = 0;
    for (size_t i = 0; c >= 0 && i < slots_.size() && free < quantity; ++i) {
      const Slot& s = slots_[i];
      if (s.class_index != c) continue;
      free += PicksLeft(s, per_pick);
    }
    if (free < quantity) {
      if (reason != nullptr) *reason = kDraCannotAllocateAllClaims;
      return false;
    }
  }
  return true;
}

DeviceAllocation DraGpuDevices::FirstFitGrants(
    const ResourceList& requests) const {
  DeviceAllocation allocation;
  const int64_t memory =
      memory_resource_ >= 0 ? requests.Get(memory_resource_) : 0;
  // As DraClaimFor: a resource of no class makes no claim.
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || id == memory_resource_) continue;
    if (ClassOfResource(id) < 0) return allocation;
  }
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || id == memory_resource_) continue;
    const int c = ClassOfResource(id);
    const int64_t per_pick =
        memory > 0 && quantity > 0 ? memory / quantity : -1;
    int64_t left = quantity;
    for (size_t i = 0; i < slots_.size() && left > 0; ++i) {
      const Slot& s = slots_[i];
      if (s.class_index != c) continue;
      const int64_t picks = std::min(left, PicksLeft(s, per_pick));
      const DeviceGrant grant = GrantOf(s, per_pick);
      for (int64_t k = 0; k < picks; ++k) allocation.grants.push_back(grant);
      left -= picks;
    }
    GS_CHECK(left <= 0, "Allocate called without a fit");
  }
  return allocation;
}

DeviceGrant DraGpuDevices::GrantOf(const Slot& slot, int64_t per_pick) const {
  DeviceGrant grant;
  grant.gpu = slot.gpu;
  grant.instance = slot.instance;
  grant.resource = slot.resource;
  grant.memory_mib = slot.memory_mib;
  grant.claim_memory_mib = ClaimMemoryMib(slot, per_pick);
  ApplyMpsLimits(&grant);
  return grant;
}

void DraGpuDevices::ApplyMpsLimits(DeviceGrant* grant) const {
  // "DRA MPS": the claim's MPS daemon limits each client process — on the
  // GPUs of MPS claims only, where the pool names them.
  const std::vector<int>& gpus = consumable_.mps_gpus;
  if (!gpus.empty() &&
      !std::binary_search(gpus.begin(), gpus.end(), grant->gpu)) {
    return;
  }
  if (consumable_.mps_active_thread_percentage > 0) {
    grant->cores_percent = consumable_.mps_active_thread_percentage;
  }
  if (consumable_.mps_pinned_memory_limit_mib > 0) {
    grant->memory_mib =
        std::min(grant->memory_mib, consumable_.mps_pinned_memory_limit_mib);
  }
}

DeviceAllocation DraGpuDevices::AllocatorGrants(
    const ResourceList& requests) const {
  DeviceAllocation allocation;
  ResourceClaim claim;
  if (!DraClaimFor(requests, &claim) || claim.spec.requests.empty()) {
    return allocation;
  }
  // Under consumable shares the allocator never counts a device as in use,
  // so unhealthy devices are left out of the slice, as the driver stops
  // publishing them.
  const bool any_unhealthy =
      Shared() && std::any_of(slots_.begin(), slots_.end(),
                              [](const Slot& s) { return !s.healthy; });
  ResourceSlice healthy_slice;
  if (any_unhealthy) {
    healthy_slice = slice();
    healthy_slice.devices.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].healthy) {
        healthy_slice.devices.push_back(slice().devices[i]);
      }
    }
  }
  const DraAllocator allocator({any_unhealthy ? &healthy_slice : &slice()},
                               &classes(), InUse());
  const AllocationOutcome outcome = allocator.Allocate(node_name_, {&claim});
  GS_CHECK(outcome.status == AllocationOutcome::Status::kAllocated,
           "Allocate called without a fit");
  for (const DeviceRequestAllocationResult& r : outcome.results[0].devices) {
    size_t i = 0;
    while (i < slots_.size() && slice().devices[i].name != r.device) ++i;
    GS_CHECK(i < slots_.size(), "DRA allocation of an unknown device");
    const Slot& s = slots_[i];
    DeviceGrant grant;
    grant.gpu = s.gpu;
    grant.instance = s.instance;
    grant.resource = s.resource;
    grant.memory_mib = s.memory_mib;
    for (const DeviceCapacity& used : r.consumed_capacity) {
      if (used.name == "memory") {
        grant.claim_memory_mib = used.value / kDraBytesPerMib;
      }
    }
    ApplyMpsLimits(&grant);
    allocation.grants.push_back(grant);
  }
  return allocation;
}

DeviceAllocation DraGpuDevices::Allocate(const ResourceList& requests) {
  const DeviceAllocation allocation = FirstFitGrants(requests);
  Reacquire(allocation);
  return allocation;
}

DeviceAllocation DraGpuDevices::AllocateRecorded(
    const ResourceList& requests, const std::vector<std::string>& devices) {
  // The recorded names as slots (slice order is slot order).
  const std::vector<Device>& published = slice().devices;
  std::vector<int> recorded;
  for (const std::string& name : devices) {
    int found = -1;
    for (size_t i = 0; i < published.size() && found < 0; ++i) {
      if (published[i].name == name) found = static_cast<int>(i);
    }
    if (found < 0) return Allocate(requests);
    recorded.push_back(found);
  }
  const int64_t memory =
      memory_resource_ >= 0 ? requests.Get(memory_resource_) : 0;
  DeviceAllocation allocation;
  std::vector<int64_t> taken(slots_.size(), 0);  // picks given here
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || id == memory_resource_) continue;
    const int c = ClassOfResource(id);
    if (c < 0) return Allocate(requests);
    const int64_t per_pick =
        memory > 0 && quantity > 0 ? memory / quantity : -1;
    int64_t left = quantity;
    for (const int i : recorded) {
      if (left == 0) break;
      const Slot& s = slots_[i];
      if (s.class_index != c) continue;
      if (PicksLeft(s, per_pick) - taken[i] < 1) continue;
      ++taken[i];
      allocation.grants.push_back(GrantOf(s, per_pick));
      --left;
    }
    if (left > 0) return Allocate(requests);
  }
  Reacquire(allocation);
  return allocation;
}

void DraGpuDevices::Release(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) {
    const int i = SlotOf(g.gpu, g.instance);
    GS_CHECK(i >= 0 && slots_[i].held, "release of a free DRA device");
    Slot& s = slots_[i];
    --s.picks;
    if (consumable_.consumable_shares == DraConsumableShares::kCount) {
      --s.shares_used;
    }
    s.memory_used_mib -= g.claim_memory_mib;
    GS_CHECK(s.picks >= 0 && s.shares_used >= 0 && s.memory_used_mib >= 0,
             "DRA device released below zero");
    s.held = s.picks > 0;
  }
}

void DraGpuDevices::Reacquire(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) {
    const int i = SlotOf(g.gpu, g.instance);
    GS_CHECK(i >= 0 && (Shared() || !slots_[i].held),
             "reacquire of a held DRA device");
    Slot& s = slots_[i];
    ++s.picks;
    if (consumable_.consumable_shares == DraConsumableShares::kCount) {
      ++s.shares_used;
    }
    s.memory_used_mib += g.claim_memory_mib;
    GS_CHECK(consumable_.consumable_shares != DraConsumableShares::kCount ||
                 s.shares_used <= consumable_.shares,
             "DRA device over its shares");
    GS_CHECK(s.memory_used_mib <= s.memory_mib, "DRA device over its memory");
    s.held = true;
  }
}

void DraGpuDevices::CheckInvariants() const {
  ResourceList healthy;
  for (const Slot& s : slots_) {
    GS_CHECK(s.class_index >= 0 &&
                 s.class_index < static_cast<int>(class_names_.size()),
             "DRA device of no class");
    if (s.healthy) healthy.Add(s.resource, UnitsPerDevice(s));
    if (s.healthy && memory_resource_ >= 0) {
      healthy.Add(memory_resource_, s.memory_mib);
    }
    GS_CHECK(s.picks >= 0 && s.held == (s.picks > 0),
             "DRA device picks out of step");
    GS_CHECK(Shared() || s.picks <= 1, "DRA exclusive device held twice");
    const bool counted =
        consumable_.consumable_shares == DraConsumableShares::kCount;
    GS_CHECK(s.shares_used >= 0 &&
                 (!counted || s.shares_used <= consumable_.shares),
             "DRA device over its shares");
    GS_CHECK(s.memory_used_mib >= 0 && s.memory_used_mib <= s.memory_mib,
             "DRA device over its memory");
  }
  for (const auto& [id, quantity] : capacity_.items()) {
    GS_CHECK(quantity >= 0 && allocatable_.Get(id) >= 0 &&
                 allocatable_.Get(id) <= quantity,
             "DRA device counts out of range");
    GS_CHECK(healthy.Get(id) == allocatable_.Get(id),
             "DRA allocatable out of sync");
  }
}

std::vector<DraDeviceUse> DraGpuDevices::DeviceUse() const {
  std::vector<DraDeviceUse> use;
  for (size_t i = 0; i < slots_.size(); ++i) {
    use.push_back({slice().devices[i].name, slots_[i].picks,
                   slots_[i].shares_used, slots_[i].memory_used_mib});
  }
  return use;
}

std::vector<std::string> DraGpuDevices::HeldDevices() const {
  std::vector<std::string> held;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].held) held.push_back(slice().devices[i].name);
  }
  return held;
}

}  // namespace gpushare
