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

DraGpuDevices::DraGpuDevices(std::string node_name, const GpuModel& model,
                             int gpus, std::vector<MigLayout> layouts,
                             ResourceRegistry& registry)
    : node_name_(std::move(node_name)),
      model_(model),
      gpus_(gpus),
      layouts_(std::move(layouts)) {
  NvidiaGpuNode node;
  node.node_name = node_name_;
  node.model = &model_;
  node.gpu_count = gpus_;
  node.mig_layouts = layouts_;
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
    class_resources_.push_back(registry.Intern(DraClassResourceName(c.name)));
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
    capacity_.Add(slot.resource, 1);
    slots_.push_back(slot);
  }
  Recount();
}

void DraGpuDevices::Recount() {
  allocatable_ = ResourceList();
  for (const Slot& s : slots_) {
    if (s.healthy) allocatable_.Add(s.resource, 1);
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
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId) continue;
    const int c = ClassOfResource(id);
    if (c < 0) return false;
    DraDeviceRequest request;
    const size_t k = claim->spec.requests.size();
    request.name = k == 0 ? "gpu" : "gpu-" + std::to_string(k);
    request.has_exactly = true;
    request.exactly.device_class_name = classes_[c].name;
    request.exactly.count = quantity;
    claim->spec.requests.push_back(std::move(request));
  }
  return true;
}

AllocatedDevices DraGpuDevices::InUse() const {
  AllocatedDevices in_use;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].held || !slots_[i].healthy) {
      in_use.exclusive.push_back(
          {slice_.driver, slice_.pool_name, slice_.devices[i].name});
    }
  }
  return in_use;
}

bool DraGpuDevices::Fits(const ResourceList& requests,
                         std::string_view* reason) const {
  // With one exactly-request per class on devices that are all alike, the
  // allocator's first-fit search succeeds iff each class has as many free
  // devices as requested (the contract): the count decides, and Allocate()
  // runs the allocator itself, checking that it agrees.
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId) continue;
    const int c = ClassOfResource(id);
    int64_t free = 0;
    for (const Slot& s : slots_) {
      free += s.class_index == c && s.healthy && !s.held;
    }
    if (c < 0 || free < quantity) {
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
  const DraAllocator allocator({&slice_}, &classes_, InUse());
  const AllocationOutcome outcome = allocator.Allocate(node_name_, {&claim});
  GS_CHECK(outcome.status == AllocationOutcome::Status::kAllocated,
           "Allocate called without a fit");
  for (const DeviceRequestAllocationResult& r : outcome.results[0].devices) {
    size_t i = 0;
    while (i < slots_.size() && slice_.devices[i].name != r.device) ++i;
    GS_CHECK(i < slots_.size(), "DRA allocation of an unknown device");
    Slot& s = slots_[i];
    GS_CHECK(!s.held, "DRA device allocated twice");
    s.held = true;
    DeviceGrant grant;
    grant.gpu = s.gpu;
    grant.instance = s.instance;
    grant.resource = s.resource;
    grant.memory_mib = s.memory_mib;
    allocation.grants.push_back(grant);
  }
  return allocation;
}

void DraGpuDevices::Release(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) {
    const int i = SlotOf(g.gpu, g.instance);
    GS_CHECK(i >= 0 && slots_[i].held, "release of a free DRA device");
    slots_[i].held = false;
  }
}

void DraGpuDevices::Reacquire(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) {
    const int i = SlotOf(g.gpu, g.instance);
    GS_CHECK(i >= 0 && !slots_[i].held, "reacquire of a held DRA device");
    slots_[i].held = true;
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
    if (s.healthy) healthy.Add(s.resource, 1);
  }
  for (const auto& [id, quantity] : capacity_.items()) {
    GS_CHECK(quantity >= 0 && allocatable_.Get(id) >= 0 &&
                 allocatable_.Get(id) <= quantity,
             "DRA device counts out of range");
    GS_CHECK(healthy.Get(id) == allocatable_.Get(id),
             "DRA allocatable out of sync");
  }
}

std::vector<std::string> DraGpuDevices::HeldDevices() const {
  std::vector<std::string> held;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].held) held.push_back(slice_.devices[i].name);
  }
  return held;
}

}  // namespace gpushare
