#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <utility>

#include "gpushare/base/fake_uuid.h"
#include "gpushare/cluster/dra/nvidia_device_name.h"
#include "gpushare/io/check.h"

namespace gpushare {
namespace {

constexpr int64_t kBytesPerMib = int64_t{1} << 20;

// The attributes a GPU and its MIG devices share (deviceinfo.go
// GpuInfo.Attributes, mig.go CommonAttributesMig).
void AddNvidiaCommonAttributes(const NvidiaGpuNode& node, Device& device) {
  const GpuModel& model = *node.model;
  device.SetAttribute(kNvidiaGpuDriver, "productName",
                      DeviceAttribute::String(NvidiaProductName(model)));
  device.SetAttribute(kNvidiaGpuDriver, "brand",
                      DeviceAttribute::String(NvidiaBrand(model)));
  device.SetAttribute(kNvidiaGpuDriver, "architecture",
                      DeviceAttribute::String(NvidiaArchitecture(model)));
  const std::optional<Semver> cc = NormalizeSemver(model.compute_capability);
  device.SetAttribute(kNvidiaGpuDriver, "cudaComputeCapability",
                      DeviceAttribute::Version(cc.value_or(Semver{})));
  device.SetAttribute(kNvidiaGpuDriver, "driverVersion",
                      DeviceAttribute::Version(node.versions.driver_version));
  device.SetAttribute(
      kNvidiaGpuDriver, "cudaDriverVersion",
      DeviceAttribute::Version(node.versions.cuda_driver_version));
}

}  // namespace

Device NvidiaFullGpuDevice(const NvidiaGpuNode& node, int gpu,
                           const std::string& uuid) {
  Device device;
  device.name = fmt::format("gpu-{}", gpu);
  device.SetAttribute(kNvidiaGpuDriver, "type", DeviceAttribute::String("gpu"));
  device.SetAttribute(kNvidiaGpuDriver, "uuid", DeviceAttribute::String(uuid));
  AddNvidiaCommonAttributes(node, device);
  device.SetCapacity(kNvidiaGpuDriver, "memory",
                     node.model->memory_mib * kBytesPerMib);
  return device;
}

Device NvidiaMigDevice(const NvidiaGpuNode& node, int gpu,
                       const std::string& parent_uuid,
                       const MigInstance& instance) {
  const GpuModel& model = *node.model;
  const MigProfile& profile = model.mig->profiles[instance.profile];
  Device device;
  device.name =
      fmt::format("gpu-{}-mig-{}-{}-{}", gpu, NvidiaMigDeviceNamePart(profile.name),
                  NvidiaMigProfileId(model, instance.profile), instance.start);
  device.SetAttribute(kNvidiaGpuDriver, "type", DeviceAttribute::String("mig"));
  device.SetAttribute(kNvidiaGpuDriver, "parentUUID",
                      DeviceAttribute::String(parent_uuid));
  device.SetAttribute(kNvidiaGpuDriver, "profile",
                      DeviceAttribute::String(profile.name));
  AddNvidiaCommonAttributes(node, device);
  device.SetAttribute(kNvidiaGpuDriver, "uuid",
                      DeviceAttribute::String(FakeNvmlUuid(
                          "MIG", fmt::format("{}/{}/{}@{}", node.node_name, gpu,
                                             profile.name, instance.start))));
  device.SetCapacity(kNvidiaGpuDriver, "multiprocessors", profile.sms);
  device.SetCapacity(kNvidiaGpuDriver, "memory",
                     profile.memory_mib * kBytesPerMib);
  for (int s = instance.start; s < instance.start + profile.memory_slices;
       ++s) {
    device.SetCapacity(kNvidiaGpuDriver, fmt::format("memorySlice{}", s), 1);
  }
  return device;
}

int NvidiaMigProfileId(const GpuModel& model, int profile) {
  const MigGeometry& mig = model.RequireMig();
  GS_CHECK(profile >= 0 && profile < static_cast<int>(mig.profiles.size()),
           "MIG profile index out of range");
  const MigProfile& p = mig.profiles[static_cast<size_t>(profile)];
  const bool me = p.media_extension();
  const bool full = p.compute_slices == mig.compute_slices;
  if (mig.memory_slices == 8) {
    if (full && !me) return 0;
    if (p.compute_slices == 4 && !me) return 5;
    if (p.compute_slices == 3 && !me) return 9;
    if (p.compute_slices == 2 && !me) return 14;
    if (p.compute_slices == 1 && p.memory_slices == 2 && !me) return 15;
    if (p.compute_slices == 1 && p.memory_slices == 1) return me ? 20 : 19;
  } else if (mig.memory_slices == 4) {
    if (full && !me) return 0;
    if (p.compute_slices == 2) return me ? 6 : 5;
    if (p.compute_slices == 1) return me ? 21 : 14;
  }
  return 100 + profile;
}

std::string NvidiaProductName(const GpuModel& model) {
  for (const std::string& alias : model.aliases) {
    if (alias.starts_with("NVIDIA-") || alias.starts_with("Tesla-")) {
      std::string name = alias;
      name[name.find('-')] = ' ';
      return name;
    }
  }
  return "NVIDIA " + model.name;
}

std::string NvidiaBrand(const GpuModel& model) {
  for (const std::string& alias : model.aliases) {
    if (alias.starts_with("Tesla-")) return "Tesla";
  }
  return "Nvidia";
}

std::string NvidiaArchitecture(const GpuModel& model) {
  std::string out;
  bool word_start = true;
  for (const char c : model.family) {
    if (c == '-' || c == ' ') {
      out.push_back(' ');
      word_start = true;
      continue;
    }
    out.push_back(word_start && c >= 'a' && c <= 'z'
                      ? static_cast<char>(c - 'a' + 'A')
                      : c);
    word_start = false;
  }
  return out;
}

void ApplyNvidiaConsumableShares(const DraPoolSettings& consumable,
                                 Device* device) {
  if (consumable.consumable_shares == DraConsumableShares::kDisabled) return;
  device->allow_multiple_allocations = true;
  const DeviceCapacity* found =
      device->FindCapacity(kNvidiaGpuDriver, "memory");
  if (found == nullptr) return;
  const int64_t max = found->value / kBytesPerMib * kBytesPerMib;
  CapacityRequestPolicy memory;
  memory.valid_range = CapacityRequestPolicyRange{0, max, kBytesPerMib};
  memory.default_value = 0;
  if (consumable.consumable_shares == DraConsumableShares::kMemoryShares) {
    memory.default_value = max;
    memory.valid_range->min = kBytesPerMib;
  }
  device->SetCapacity(kNvidiaGpuDriver, "memory", max);
  for (DeviceCapacity& c : device->capacities) {
    if (c.domain == kNvidiaGpuDriver && c.name == "memory") {
      c.request_policy = memory;
    }
  }
  if (consumable.consumable_shares == DraConsumableShares::kCount &&
      consumable.shares > 0) {
    const int64_t n = consumable.shares;
    device->SetCapacity(kNvidiaGpuDriver, "shares", n);
    CapacityRequestPolicy shares;
    shares.default_value = 1;
    shares.valid_range = CapacityRequestPolicyRange{1, n, 1};
    for (DeviceCapacity& c : device->capacities) {
      if (c.domain == kNvidiaGpuDriver && c.name == "shares") {
        c.request_policy = shares;
      }
    }
  }
}

ResourceSlice EmptyNvidiaNodeSlice(const std::string& node_name) {
  ResourceSlice slice;
  slice.name = node_name + "-" + kNvidiaGpuDriver;
  slice.driver = kNvidiaGpuDriver;
  slice.node_name = node_name;
  slice.pool_name = node_name;
  return slice;
}

ResourceSlice NvidiaGpuResourceSlice(const NvidiaGpuNode& node,
                                     std::vector<NvidiaDevicePlace>* places) {
  GS_CHECK(node.model != nullptr, "a DRA node without a GPU model");
  GS_CHECK(node.mig_layouts.empty() ||
               static_cast<int>(node.mig_layouts.size()) == node.gpu_count,
           "MIG layouts must be none or one per GPU");
  ResourceSlice slice = EmptyNvidiaNodeSlice(node.node_name);
  if (places != nullptr) places->clear();
  for (int gpu = 0; gpu < node.gpu_count; ++gpu) {
    const std::string uuid =
        FakeNvmlUuid("GPU", fmt::format("{}/{}", node.node_name, gpu));
    const MigLayout* layout = node.mig_layouts.empty()
                                  ? nullptr
                                  : &node.mig_layouts[static_cast<size_t>(gpu)];
    if (layout == nullptr || layout->empty()) {
      slice.devices.push_back(NvidiaFullGpuDevice(node, gpu, uuid));
      ApplyNvidiaConsumableShares(node.consumable, &slice.devices.back());
      if (places != nullptr) places->push_back({gpu, -1});
      continue;
    }
    GS_CHECK(FindMigLayoutProblem(*node.model, *layout).empty(),
             "an invalid MIG layout on a DRA node");
    // The GPU's MIG devices, by name (instances by their layout index).
    std::vector<std::pair<Device, int>> devices;
    for (size_t k = 0; k < layout->size(); ++k) {
      devices.emplace_back(NvidiaMigDevice(node, gpu, uuid, (*layout)[k]),
                           static_cast<int>(k));
    }
    std::sort(devices.begin(), devices.end(),
              [](const auto& a, const auto& b) {
                return a.first.name < b.first.name;
              });
    for (auto& [device, instance] : devices) {
      ApplyNvidiaConsumableShares(node.consumable, &device);
      slice.devices.push_back(std::move(device));
      if (places != nullptr) places->push_back({gpu, instance});
    }
  }
  return slice;
}

}  // namespace gpushare
