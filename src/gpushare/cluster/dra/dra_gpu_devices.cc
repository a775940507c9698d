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
  NvidiaGpuNode node;
  node.node_name = node_name_;
  node.model = &model_;
  node.gpu_count = gpus_;
  node.mig_layouts = layouts_;
  node.consumable = consumable_;
  if (consumable_.consumable_shares == DraConsumableShares::kMemoryShares) {
    memory_resource_ = registry.Intern(kDraMemoryResource);
  }
  std::vector<NvidiaDevicePlace> places;
  slice_ = NvidiaGpuResourceSlice(node, &places);
  classes_.push_back(NvidiaGpuDeviceClass());
  std::vector<int> profiles;
  for (const MigLayout& layout : layouts_) {
    for (const MigInstance& in : layout) profiles.push_back(in.profile);
  }
  std::sort(profiles.begin(), profiles.end());
  profiles.erase(std::unique(profiles.begin(), profiles.end()),
                 profiles.end());
  for (int p : profiles) {
    classes_.push_back(NvidiaMigProfileDeviceClass(model_.mig->profiles[p].name));
  }
  for (const DeviceClass& c : classes_) {
    // KEP-5004: pods ask the class's extendedResourceName (nvidia.com/gpu,
    // nvidia.com/mig-1g.10gb) and the scheduler makes their claim; else
    // the claim from their template, under the class's implicit name.
    class_resources_.push_back(registry.Intern(
        consumable_.extended_resource && !c.extended_resource_name.empty()
            ? c.extended_resource_name
            : DraClassResourceName(c.name)));
  }
  for (const NvidiaDevicePlace& place : places) {
    Slot slot;
    slot.gpu = place.gpu;
    slot.instance = place.instance;
    slot.class_index = 0;
    slot.memory_mib = model_.memory_mib;
    if (slot.instance >= 0) {
      const int profile = layouts_[slot.gpu][slot.instance].profile;
      slot.class_index = static_cast<int>(
          1 + (std::lower_bound(profiles.begin(), profiles.end(), profile) -
               profiles.begin()));
      slot.memory_mib = model_.mig->profiles[profile].memory_mib;
    }
    slot.resource = class_resources_[slot.class_index];
    capacity_.Add(slot.resource, UnitsPerDevice(slot));
    if (memory_resource_ >= 0) capacity_.Add(memory_resource_, slot.memory_mib);
    slots_.push_back(slot);
  }
  Recount();
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

int64_t DraGpuDevices::PicksLeft(const Slot& slot, int64_t memory_mib) const {
  if (!slot.healthy) return 0;
  switch (consumable_.consumable_shares) {
    case DraConsumableShares::kDisabled: return slot.held ? 0 : 1;
    case DraConsumableShares::kCount:
      return consumable_.shares - slot.shares_used;
    case DraConsumableShares::kMemoryShares:
      if (memory_mib <= 0 || memory_mib > slot.memory_mib) return 0;
      return (slot.memory_mib - slot.memory_used_mib) / memory_mib;
    case DraConsumableShares::kUnlimited: return kDraUnlimitedPicksPerDevice;
  }
  return 0;
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
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].gpu == gpu && slots_[i].instance == instance) {
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
    request.exactly.device_class_name = classes_[c].name;
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
    const DeviceId id{slice_.driver, slice_.pool_name, slice_.devices[i].name};
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
    // Memory mode: each pick asks memory / count MiB; a claim that asks
    // none takes the policy's default, the whole device.
    const int64_t per_pick = memory > 0 ? memory / quantity : -1;
    int64_t free = 0;
    for (size_t i = 0; c >= 0 && i < slots_.size() && free < quantity; ++i) {
      const Slot& s = slots_[i];
      if (s.class_index != c) continue;
      free += PicksLeft(s, per_pick < 0 ? s.memory_mib : per_pick);
    }
    if (free < quantity) {
      if (reason != nullptr) *reason = kDraCannotAllocateAllClaims;
      return false;
    }
  }
  return true;
}

DeviceAllocation DraGpuDevices::Allocate(const ResourceList& requests) {
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
    healthy_slice = slice_;
    healthy_slice.devices.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].healthy) healthy_slice.devices.push_back(slice_.devices[i]);
    }
  }
  const DraAllocator allocator({any_unhealthy ? &healthy_slice : &slice_},
                               &classes_, InUse());
  const AllocationOutcome outcome = allocator.Allocate(node_name_, {&claim});
  GS_CHECK(outcome.status == AllocationOutcome::Status::kAllocated,
           "Allocate called without a fit");
  for (const DeviceRequestAllocationResult& r : outcome.results[0].devices) {
    size_t i = 0;
    while (i < slots_.size() && slice_.devices[i].name != r.device) ++i;
    GS_CHECK(i < slots_.size(), "DRA allocation of an unknown device");
    Slot& s = slots_[i];
    GS_CHECK(Shared() || !s.held, "DRA device allocated twice");
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
    // "DRA MPS": the claim's MPS daemon limits each client process.
    if (consumable_.mps_active_thread_percentage > 0) {
      grant.cores_percent = consumable_.mps_active_thread_percentage;
    }
    if (consumable_.mps_pinned_memory_limit_mib > 0) {
      grant.memory_mib =
          std::min(grant.memory_mib, consumable_.mps_pinned_memory_limit_mib);
    }
    allocation.grants.push_back(grant);
    Reacquire(DeviceAllocation{{grant}});
  }
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
  GS_CHECK(slots_.size() == slice_.devices.size(),
           "DRA slots out of step with the slice");
  ResourceList healthy;
  for (const Slot& s : slots_) {
    GS_CHECK(s.class_index >= 0 &&
                 s.class_index < static_cast<int>(classes_.size()),
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
    use.push_back({slice_.devices[i].name, slots_[i].picks,
                   slots_[i].shares_used, slots_[i].memory_used_mib});
  }
  return use;
}

std::vector<std::string> DraGpuDevices::HeldDevices() const {
  std::vector<std::string> held;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].held) held.push_back(slice_.devices[i].name);
  }
  return held;
}

}  // namespace gpushare
