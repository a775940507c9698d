#include "gpushare/cluster/dra/dra_dynamic_mig_devices.h"

#include <algorithm>
#include <string>

#include "gpushare/cluster/dra/device_class.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"
#include "gpushare/io/check.h"

namespace gpushare {

std::vector<NvidiaPartition> DynamicMigGpuDomains(const GpuModel& model) {
  const DynamicMigGpus one(model, 1);
  std::vector<NvidiaPartition> out = {NvidiaPartition{0, -1, 0}};
  for (const NvidiaPartition& p : one.partitions()) {
    if (p.profile >= 0) out.push_back(p);
  }
  return out;
}

DraDynamicMigDevices::DraDynamicMigDevices(const GpuModel& model, int gpus,
                                           ResourceRegistry& registry)
    : model_(model), parts_(model, gpus) {
  per_gpu_ = gpus > 0 ? static_cast<int>(parts_.partitions().size()) / gpus
                      : 0;
  first_mig_ = NvidiaMigModeToggles(model) ? 1 : 0;
  class_resources_.push_back(
      registry.Intern(DraClassResourceName(kNvidiaGpuDriver)));
  capacity_.Add(class_resources_[0], first_mig_ != 0 ? gpus : 0);
  const auto& profiles = model.RequireMig().profiles;
  for (const MigProfile& p : profiles) {
    const ResourceId id = registry.Intern(
        DraClassResourceName(NvidiaMigProfileClassName(p.name)));
    class_resources_.push_back(id);
    capacity_.Add(id, static_cast<int64_t>(gpus) *
                          static_cast<int64_t>(p.starts.size()));
  }
}

void DraDynamicMigDevices::SetHealthy(int, int, bool) {
  GS_CHECK(false, "GPU faults on a dynamic MIG pool are not modelled");
}

void DraDynamicMigDevices::AddNodeLabels(Labels* labels) const {
  // gpu-feature-discovery's whole-GPU labels, as on any DRA node.
  Labels& l = *labels;
  l["nvidia.com/gpu.present"] = "true";
  l["nvidia.com/gpu.count"] = std::to_string(parts_.gpus());
  l["nvidia.com/gpu.memory"] = std::to_string(model_.memory_mib);
  l["nvidia.com/gpu.family"] = model_.family;
  l["nvidia.com/mig.capable"] = "true";
}

int DraDynamicMigDevices::ProfileOf(const ResourceList& requests,
                                    int64_t* count) const {
  int profile = -2;
  for (const auto& [id, quantity] : requests.items()) {
    if (id <= ResourceRegistry::kMemoryId || quantity <= 0) continue;
    const auto it =
        std::find(class_resources_.begin(), class_resources_.end(), id);
    if (it == class_resources_.end() || profile != -2) return -2;
    profile = static_cast<int>(it - class_resources_.begin()) - 1;
    *count = quantity;
  }
  return profile;
}

bool DraDynamicMigDevices::Fits(const ResourceList& requests,
                                std::string_view* reason) const {
  int64_t count = 0;
  const int profile = ProfileOf(requests, &count);
  if (profile == -2) {
    // Nothing asked of this node's classes fits only when nothing is asked.
    bool asks = false;
    for (const auto& [id, quantity] : requests.items()) {
      asks |= id > ResourceRegistry::kMemoryId && quantity > 0;
    }
    if (!asks) return true;
  } else if (!parts_.FirstFitCount(profile, static_cast<int>(count))
                  .empty()) {
    return true;
  }
  if (reason != nullptr) *reason = kDraCannotAllocateAllClaims;
  return false;
}

int DraDynamicMigDevices::InstanceOf(int partition) const {
  const int local = partition % per_gpu_;
  if (parts_.partitions()[partition].profile < 0) return -1;
  return local + 1 - first_mig_;
}

int DraDynamicMigDevices::PartitionOf(const DeviceGrant& grant) const {
  const int local = grant.instance < 0 ? 0 : grant.instance - 1 + first_mig_;
  return grant.gpu * per_gpu_ + local;
}

DeviceAllocation DraDynamicMigDevices::Allocate(const ResourceList& requests) {
  DeviceAllocation allocation;
  int64_t count = 0;
  const int profile = ProfileOf(requests, &count);
  if (profile == -2) return allocation;
  const std::vector<int> picks =
      parts_.FirstFitCount(profile, static_cast<int>(count));
  GS_CHECK(!picks.empty(), "Allocate called without a fit");
  for (int k : picks) {
    DeviceGrant grant;
    grant.gpu = parts_.partitions()[k].gpu;
    grant.instance = InstanceOf(k);
    grant.resource = class_resources_[static_cast<size_t>(profile + 1)];
    grant.memory_mib = profile < 0 ? model_.memory_mib
                                   : model_.mig->profiles[profile].memory_mib;
    allocation.grants.push_back(grant);
  }
  Reacquire(allocation);
  return allocation;
}

void DraDynamicMigDevices::Release(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) parts_.Free(PartitionOf(g));
}

void DraDynamicMigDevices::Reacquire(const DeviceAllocation& allocation) {
  for (const DeviceGrant& g : allocation.grants) parts_.Take(PartitionOf(g));
}

void DraDynamicMigDevices::CheckInvariants() const {
  parts_.CheckInvariants();
  // No class holds more live devices than its bookkeeping count.
  std::vector<int64_t> live(class_resources_.size(), 0);
  for (size_t k = 0; k < parts_.partitions().size(); ++k) {
    if (parts_.Held(static_cast<int>(k))) {
      ++live[static_cast<size_t>(parts_.partitions()[k].profile + 1)];
    }
  }
  for (size_t c = 0; c < live.size(); ++c) {
    GS_CHECK(live[c] <= capacity_.Get(class_resources_[c]),
             "dynamic MIG devices over their bookkeeping count");
  }
}

bool DraDynamicMigDevices::StrandedAnywhere(int profile) const {
  for (int g = 0; g < parts_.gpus(); ++g) {
    if (parts_.Stranded(g, profile)) return true;
  }
  return false;
}

}  // namespace gpushare
