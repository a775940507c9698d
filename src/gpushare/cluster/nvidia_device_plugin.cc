#include "gpushare/cluster/nvidia_device_plugin.h"

#include <algorithm>

#include <fmt/format.h>

#include "gpushare/io/check.h"

namespace gpushare {
namespace {

bool IsReplicated(const SharingConfig& config) {
  return config.sharing == DeviceSharing::kTimeSlicing ||
         config.sharing == DeviceSharing::kMps;
}

// The nvidia.com/gpu.product value: GFD's sanitized product name (the first
// alias that looks like one), else the catalog name.
std::string ProductName(const GpuModel& model) {
  for (const std::string& alias : model.aliases) {
    if (alias.rfind("NVIDIA-", 0) == 0 || alias.rfind("Tesla-", 0) == 0) {
      return alias;
    }
  }
  return model.name;
}

}  // namespace

NvidiaDevicePlugin::NvidiaDevicePlugin(const GpuModel& model, int gpus,
                                       SharingConfig config,
                                       std::vector<MigLayout> layouts,
                                       ResourceRegistry& registry)
    : model_(model),
      gpus_(gpus),
      config_(std::move(config)),
      layouts_(std::move(layouts)),
      registry_(registry) {
  GS_CHECK(!config_.mig_enabled || static_cast<int>(layouts_.size()) == gpus,
           "one MIG layout per GPU");
  const bool replicated = IsReplicated(config_);
  const int replicas = replicated ? config_.replicas.replicas : 1;
  auto resource_for = [&](std::string name) {
    if (replicated && config_.replicas.rename_by_default) name += ".shared";
    return registry.Intern(name);
  };
  for (int gpu = 0; gpu < gpus; ++gpu) {
    if (!config_.mig_enabled) {
      Device d;
      d.gpu = gpu;
      d.resource = resource_for(std::string(kNvidiaGpu));
      d.replicas = replicas;
      d.replica_used.assign(replicas, false);
      d.memory_mib = model.memory_mib;
      d.sms = model.sms;
      devices_.push_back(std::move(d));
      continue;
    }
    const MigLayout& layout = layouts_[gpu];
    for (size_t i = 0; i < layout.size(); ++i) {
      const MigProfile& p = model.mig->profiles[layout[i].profile];
      Device d;
      d.gpu = gpu;
      d.instance = static_cast<int>(i);
      d.resource = resource_for(config_.mig.strategy == MigStrategy::kSingle
                                    ? std::string(kNvidiaGpu)
                                    : p.ResourceName());
      d.replicas = replicas;
      d.replica_used.assign(replicas, false);
      d.memory_mib = p.memory_mib;
      d.sms = p.sms;
      devices_.push_back(std::move(d));
    }
  }
  for (size_t i = 0; i < devices_.size(); ++i) {
    const ResourceId r = devices_[i].resource;
    ResourceDevices* entry = EntryOf(r);
    if (entry == nullptr) {
      by_resource_.push_back({r, {}, 0});
      entry = &by_resource_.back();
    }
    entry->devices.push_back(static_cast<int>(i));
    entry->free += devices_[i].replicas;
    capacity_.Add(r, devices_[i].replicas);
  }
  allocatable_ = capacity_;
}

void NvidiaDevicePlugin::SetHealthy(int gpu, int instance, bool healthy) {
  for (Device& d : devices_) {
    if (d.gpu != gpu || (instance >= 0 && d.instance != instance) ||
        d.healthy == healthy) {
      continue;
    }
    d.healthy = healthy;
    const int sign = healthy ? 1 : -1;
    unhealthy_devices_ -= sign;
    EntryOf(d.resource)->free += sign * (d.replicas - d.used);
    allocatable_.Add(d.resource, sign * d.replicas);
  }
}

void NvidiaDevicePlugin::AddNodeLabels(Labels* labels) const {
  Labels& l = *labels;
  const bool replicated = IsReplicated(config_);
  const bool shared_suffix =
      replicated && !config_.replicas.rename_by_default;
  std::string product = ProductName(model_);
  int count = gpus_;
  int64_t memory = model_.memory_mib;
  if (config_.mig_enabled && config_.mig.strategy == MigStrategy::kSingle) {
    const MigProfile& p = model_.mig->profiles[layouts_[0][0].profile];
    product += "-MIG-" + p.name;
    count = static_cast<int>(devices_.size());
    memory = p.memory_mib;
  }
  l["nvidia.com/gpu.present"] = "true";
  l["nvidia.com/gpu.product"] = product + (shared_suffix ? "-SHARED" : "");
  l["nvidia.com/gpu.count"] = std::to_string(count);
  l["nvidia.com/gpu.memory"] = std::to_string(memory);
  l["nvidia.com/gpu.family"] = model_.family;
  const size_t dot = model_.compute_capability.find('.');
  l["nvidia.com/gpu.compute.major"] = model_.compute_capability.substr(0, dot);
  l["nvidia.com/gpu.compute.minor"] = model_.compute_capability.substr(dot + 1);
  l["nvidia.com/gpu.replicas"] =
      std::to_string(replicated ? config_.replicas.replicas : 1);
  l["nvidia.com/gpu.sharing-strategy"] =
      config_.sharing == DeviceSharing::kTimeSlicing ? "time-slicing"
      : config_.sharing == DeviceSharing::kMps       ? "mps"
                                                     : "none";
  l["nvidia.com/mig.capable"] = model_.mig ? "true" : "false";
  l["nvidia.com/mps.capable"] =
      config_.sharing == DeviceSharing::kMps ? "true" : "false";
  if (!model_.mig) return;
  l["nvidia.com/mig.strategy"] =
      config_.mig.strategy == MigStrategy::kSingle ? "single" : "mixed";
  if (!config_.mig_enabled) {
    l["nvidia.com/mig.config"] = "all-disabled";
    l["nvidia.com/mig.config.state"] = "success";
    return;
  }
  l["nvidia.com/mig.config"] =
      config_.mig.config_name.empty() ? "custom" : config_.mig.config_name;
  l["nvidia.com/mig.config.state"] = "success";
  if (config_.mig.strategy == MigStrategy::kSingle) {
    const MigProfile& p = model_.mig->profiles[layouts_[0][0].profile];
    l["nvidia.com/gpu.multiprocessors"] = std::to_string(p.sms);
    l["nvidia.com/gpu.slices.gi"] = std::to_string(p.compute_slices);
    l["nvidia.com/gpu.slices.ci"] = std::to_string(p.compute_slices);
    return;
  }
  for (const ResourceDevices& entry : by_resource_) {
    const std::vector<int>& members = entry.devices;
    const Device& d = devices_[members.front()];
    const MigProfile& p =
        model_.mig->profiles[layouts_[d.gpu][d.instance].profile];
    std::string prefix = "nvidia.com/mig-" + p.name;
    std::replace(prefix.begin(), prefix.end(), '+', '.');
    l[prefix + ".count"] = std::to_string(members.size());
    l[prefix + ".memory"] = std::to_string(p.memory_mib);
    l[prefix + ".multiprocessors"] = std::to_string(p.sms);
    l[prefix + ".slices.gi"] = std::to_string(p.compute_slices);
    l[prefix + ".slices.ci"] = std::to_string(p.compute_slices);
    l[prefix + ".replicas"] = std::to_string(d.replicas);
    l[prefix + ".sharing-strategy"] = replicated ? "time-slicing" : "none";
  }
}

NvidiaDevicePlugin::ResourceDevices* NvidiaDevicePlugin::EntryOf(
    ResourceId resource) {
  for (ResourceDevices& entry : by_resource_) {
    if (entry.resource == resource) return &entry;
  }
  return nullptr;
}

const NvidiaDevicePlugin::ResourceDevices* NvidiaDevicePlugin::EntryOf(
    ResourceId resource) const {
  for (const ResourceDevices& entry : by_resource_) {
    if (entry.resource == resource) return &entry;
  }
  return nullptr;
}

bool NvidiaDevicePlugin::Fits(const ResourceList& requests,
                              std::string_view* reason) const {
  for (const auto& [resource, quantity] : requests.items()) {
    if (resource == ResourceRegistry::kCpuId ||
        resource == ResourceRegistry::kMemoryId) {
      continue;
    }
    if (registry_.IgnoredByScheduler(resource)) {
      if (reason) *reason = "node(s) had no HAMi vGPU devices";
      return false;
    }
    const ResourceDevices* entry = EntryOf(resource);
    if (entry == nullptr || entry->free < quantity) {
      if (reason) *reason = "node(s) did not have enough free GPU devices";
      return false;
    }
  }
  return true;
}

std::string NvidiaDevicePlugin::AdmissionError(
    const ResourceList& requests) const {
  if (!IsReplicated(config_) ||
      !config_.replicas.fail_requests_greater_than_one) {
    return "";
  }
  for (const auto& [resource, quantity] : requests.items()) {
    if (EntryOf(resource) != nullptr && quantity > 1) {
      return fmt::format(
          "UnexpectedAdmissionError: maximum request size for shared "
          "resources is 1; found {}={}",
          registry_.Name(resource), quantity);
    }
  }
  return "";
}

int NvidiaDevicePlugin::PickDevice(const std::vector<int>& candidates,
                                   const std::vector<int>& picked) const {
  const bool packed = config_.replicas.policy == ReplicaPolicy::kPacked;
  int best = -1;
  for (size_t k = 0; k < candidates.size(); ++k) {
    const Device& d = devices_[candidates[k]];
    if (!d.healthy || d.used >= d.replicas) continue;
    if (best < 0) {
      best = static_cast<int>(k);
      continue;
    }
    const Device& b = devices_[candidates[best]];
    if (d.replicas > 1 && d.used != b.used) {
      if (packed ? d.used > b.used : d.used < b.used) best = static_cast<int>(k);
      continue;
    }
    if (d.replicas > 1 && picked[k] < picked[best]) best = static_cast<int>(k);
  }
  return best;
}

DeviceAllocation NvidiaDevicePlugin::Allocate(const ResourceList& requests) {
  DeviceAllocation allocation;
  for (const auto& [resource, quantity] : requests.items()) {
    ResourceDevices* entry = EntryOf(resource);
    if (entry == nullptr) continue;
    std::vector<int> picked(entry->devices.size(), 0);
    for (int64_t n = 0; n < quantity; ++n) {
      const int k = PickDevice(entry->devices, picked);
      GS_CHECK(k >= 0, "Allocate called without a fit");
      ++picked[k];
      --entry->free;
      Device& d = devices_[entry->devices[k]];
      DeviceGrant grant;
      grant.gpu = d.gpu;
      grant.instance = d.instance;
      grant.resource = resource;
      grant.memory_mib = d.memory_mib;
      if (d.replicas > 1) {
        const auto slot =
            std::find(d.replica_used.begin(), d.replica_used.end(), false);
        grant.replica = static_cast<int>(slot - d.replica_used.begin());
        *slot = true;
        if (config_.sharing == DeviceSharing::kMps) {
          grant.memory_mib = d.memory_mib / d.replicas;
          grant.cores_percent = 100 / d.replicas;
        }
      } else {
        d.replica_used[0] = true;
      }
      ++d.used;
      allocation.grants.push_back(grant);
    }
  }
  return allocation;
}

void NvidiaDevicePlugin::Release(const DeviceAllocation& allocation) {
  for (const DeviceGrant& grant : allocation.grants) {
    ResourceDevices* entry = EntryOf(grant.resource);
    GS_CHECK(entry != nullptr, "release of a foreign resource");
    bool found = false;
    for (int i : entry->devices) {
      Device& d = devices_[i];
      if (d.gpu != grant.gpu || d.instance != grant.instance) continue;
      const int slot = grant.replica < 0 ? 0 : grant.replica;
      GS_CHECK(d.replica_used[slot], "release of a free replica");
      d.replica_used[slot] = false;
      --d.used;
      if (d.healthy) ++entry->free;
      found = true;
      break;
    }
    GS_CHECK(found, "release of an unknown device");
  }
}

void NvidiaDevicePlugin::Reacquire(const DeviceAllocation& allocation) {
  for (const DeviceGrant& grant : allocation.grants) {
    ResourceDevices* entry = EntryOf(grant.resource);
    GS_CHECK(entry != nullptr, "reacquire of a foreign resource");
    bool found = false;
    for (int i : entry->devices) {
      Device& d = devices_[i];
      if (d.gpu != grant.gpu || d.instance != grant.instance) continue;
      const int slot = grant.replica < 0 ? 0 : grant.replica;
      GS_CHECK(!d.replica_used[slot], "reacquire of a held replica");
      d.replica_used[slot] = true;
      ++d.used;
      if (d.healthy) --entry->free;
      found = true;
      break;
    }
    GS_CHECK(found, "reacquire of an unknown device");
  }
}

int64_t NvidiaDevicePlugin::FreeDevices(ResourceId resource) const {
  const ResourceDevices* entry = EntryOf(resource);
  return entry == nullptr ? -1 : entry->free;
}

int64_t NvidiaDevicePlugin::HealthyGrants(const DeviceAllocation& allocation,
                                          ResourceId resource) const {
  const ResourceDevices* entry = EntryOf(resource);
  if (entry == nullptr) return 0;
  int64_t healthy = 0;
  for (const DeviceGrant& grant : allocation.grants) {
    if (grant.resource != resource) continue;
    for (int i : entry->devices) {
      const Device& d = devices_[i];
      if (d.gpu == grant.gpu && d.instance == grant.instance) {
        healthy += d.healthy ? 1 : 0;
        break;
      }
    }
  }
  return healthy;
}

void NvidiaDevicePlugin::CheckInvariants() const {
  for (const ResourceDevices& entry : by_resource_) {
    int64_t free = 0;
    int64_t allocatable = 0;
    for (int i : entry.devices) {
      if (!devices_[i].healthy) continue;
      free += devices_[i].replicas - devices_[i].used;
      allocatable += devices_[i].replicas;
    }
    GS_CHECK(free == entry.free, "free replica count out of sync");
    GS_CHECK(allocatable == allocatable_.Get(entry.resource),
             "allocatable out of sync with device health");
  }
  for (const Device& d : devices_) {
    GS_CHECK(d.used >= 0 && d.used <= d.replicas, "replicas over-allocated");
    const int marked = static_cast<int>(
        std::count(d.replica_used.begin(), d.replica_used.end(), true));
    GS_CHECK(marked == d.used, "replica bookkeeping out of sync");
  }
  for (const MigLayout& layout : layouts_) {
    GS_CHECK(FindMigLayoutProblem(model_, layout).empty(),
             "illegal MIG layout");
  }
}

}  // namespace gpushare
