#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "gpushare/base/fake_uuid.h"
#include "gpushare/io/check.h"

namespace gpushare {
namespace {

constexpr int64_t kPartitionBytesPerMib = int64_t{1} << 20;

// Removes the static path's memorySlice<i> capacities.
void DropMemorySliceCapacities(Device* device) {
  std::erase_if(device->capacities, [](const DeviceCapacity& c) {
    return c.name.starts_with("memorySlice");
  });
}

}  // namespace

bool NvidiaMigModeToggles(const GpuModel& model) {
  return model.family != "ampere";
}

std::string NvidiaCounterSetName(int gpu) {
  return fmt::format("gpu-{}-counter-set", gpu);
}

std::string NvidiaMemorySliceCounter(int slice) {
  return fmt::format("memory-slice-{}", slice);
}

ResourceSlice NvidiaPartitionableResourceSlice(
    const NvidiaGpuNode& node, std::vector<NvidiaPartition>* places) {
  GS_CHECK(node.model != nullptr && node.model->mig_capable(),
           "a dynamic MIG node needs a MIG-capable GPU model");
  GS_CHECK(node.mig_layouts.empty(), "dynamic MIG takes no static layout");
  const MigGeometry& mig = *node.model->mig;
  int64_t max_sms = 0;
  int64_t max_memory = 0;
  for (const MigProfile& p : mig.profiles) {
    max_sms = std::max<int64_t>(max_sms, p.sms);
    max_memory = std::max(max_memory, p.memory_mib * kPartitionBytesPerMib);
  }
  ResourceSlice slice = EmptyNvidiaNodeSlice(node.node_name);
  if (places != nullptr) places->clear();
  for (int gpu = 0; gpu < node.gpu_count; ++gpu) {
    const std::string set_name = NvidiaCounterSetName(gpu);
    CounterSet set;
    set.name = set_name;
    set.counters.push_back({"multiprocessors", max_sms});
    set.counters.push_back({"memory", max_memory});
    for (int s = 0; s < mig.memory_slices; ++s) {
      set.counters.push_back({NvidiaMemorySliceCounter(s), 1});
    }
    const std::string uuid =
        FakeNvmlUuid("GPU", fmt::format("{}/{}", node.node_name, gpu));
    std::vector<std::pair<Device, NvidiaPartition>> devices;
    if (NvidiaMigModeToggles(*node.model)) {
      Device full = NvidiaFullGpuDevice(node, gpu, uuid);
      full.SetCapacity(kNvidiaGpuDriver, "multiprocessors", max_sms);
      full.SetCapacity(kNvidiaGpuDriver, "memory", max_memory);
      full.consumes_counters.push_back({set_name, set.counters});
      devices.emplace_back(std::move(full), NvidiaPartition{gpu, -1, 0});
    }
    for (size_t p = 0; p < mig.profiles.size(); ++p) {
      const MigProfile& profile = mig.profiles[p];
      for (const int start : profile.starts) {
        const MigInstance instance{static_cast<int>(p), start};
        Device device = NvidiaMigDevice(node, gpu, uuid, instance);
        DropMemorySliceCapacities(&device);
        DeviceCounterConsumption use{set_name, {}};
        use.counters.push_back({"multiprocessors", profile.sms});
        use.counters.push_back(
            {"memory", profile.memory_mib * kPartitionBytesPerMib});
        for (int s = start; s < start + profile.memory_slices; ++s) {
          use.counters.push_back({NvidiaMemorySliceCounter(s), 1});
        }
        device.consumes_counters.push_back(std::move(use));
        devices.emplace_back(std::move(device),
                             NvidiaPartition{gpu, static_cast<int>(p), start});
      }
    }
    std::sort(devices.begin(), devices.end(),
              [](const auto& a, const auto& b) {
                return a.first.name < b.first.name;
              });
    for (auto& [device, place] : devices) {
      slice.devices.push_back(std::move(device));
      if (places != nullptr) places->push_back(place);
    }
    slice.shared_counters.push_back(std::move(set));
  }
  return slice;
}

}  // namespace gpushare
