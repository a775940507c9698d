#include "gpushare/sched/hami_fit_summary.h"

#include <algorithm>
#include <limits>

#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/hami_device_plugin.h"

namespace gpushare {
namespace {

// Clamping keeps `free >= need` necessary (clamping is monotone); it is
// exact when `need` was not clamped.
template <typename T>
T Clamp(int64_t v) {
  return static_cast<T>(std::clamp<int64_t>(v, std::numeric_limits<T>::min(),
                                            std::numeric_limits<T>::max()));
}

template <typename T>
bool InRange(int64_t v) {
  return v > std::numeric_limits<T>::min() &&
         v <= std::numeric_limits<T>::max();
}

}  // namespace

bool HamiFitNeed::Of(const Pod& pod, const ResourceRegistry& registry,
                     bool resources_fit, bool only_these_filters,
                     HamiFitNeed* need) {
  const DeviceRequest r = DeviceRequest::Of(pod.requests, registry);
  if (r.other || (r.gpu <= 0 && r.gpumem <= 0 && r.gpumem_percentage <= 0 &&
                  r.gpucores <= 0)) {
    return false;  // not a HAMi request, or none (HAMi's Fit passes it)
  }
  *need = HamiFitNeed();
  // HamiRequestOf's rules, with the webhook's defaults (which depend on the
  // node's settings and GPUs) left at 0: any node's default is at least that.
  need->vgpus = static_cast<int32_t>(
      r.gpu > 0 ? std::min<int64_t>(r.gpu, std::numeric_limits<int16_t>::max())
                : 1);
  need->gpu_memory_mib = r.gpumem > 0 ? Clamp<int32_t>(r.gpumem) : 0;
  need->gpu_cores =
      static_cast<int16_t>(r.gpucores > 0 ? std::min<int64_t>(r.gpucores, 100)
                                          : 0);
  bool exact = only_these_filters && r.gpumem > 0 &&
               InRange<int32_t>(r.gpumem) && r.gpucores >= 1 &&
               r.gpucores <= 99;
  if (resources_fit) {
    // NodeResourcesFit checks the pod count and every requested resource not
    // ignored by the scheduler: of a HAMi pod's, cpu, memory and
    // nvidia.com/gpu (HAMi's gpumem, gpumem-percentage and gpucores are
    // ignored).
    need->pods = 1;
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (registry.IgnoredByScheduler(id)) continue;
      int32_t* bound = nullptr;
      if (id == ResourceRegistry::kCpuId) {
        bound = &need->cpu;
      } else if (id == ResourceRegistry::kMemoryId) {
        bound = &need->memory;
      } else if (registry.KindOf(id) == ResourceRegistry::Kind::kNvidiaGpuKind) {
        bound = &need->gpu;
      } else {
        exact = false;  // not a HAMi resource: left to the full filter
        continue;
      }
      *bound = Clamp<int32_t>(quantity);
      exact = exact && InRange<int32_t>(quantity);
    }
  }
  need->exact = exact;
  return true;
}

HamiFitSummary HamiFitSummary::Of(const Node& node, ResourceId gpu_resource) {
  HamiFitSummary s;
  auto free_of = [&](ResourceId id) {
    return node.Allocatable(id) - node.Requested(id);
  };
  s.free_cpu_ = Clamp<int32_t>(free_of(ResourceRegistry::kCpuId));
  s.free_memory_ = Clamp<int32_t>(free_of(ResourceRegistry::kMemoryId));
  s.free_gpu_ = gpu_resource >= 0 ? Clamp<int32_t>(free_of(gpu_resource)) : 0;
  s.free_pods_ = Clamp<int8_t>(int64_t{node.max_pods()} - node.pod_count());
  const DevicePlugin* devices = node.devices();
  const HamiDevicePlugin* hami =
      devices != nullptr ? devices->AsHami() : nullptr;
  if (hami == nullptr) {
    // Not HAMi's: GpuDeviceFit asks its own device plugin.
    s.open_ = std::numeric_limits<int16_t>::max();
    std::fill(std::begin(s.gpu_memory_mib_), std::end(s.gpu_memory_mib_),
              std::numeric_limits<int32_t>::max());
    std::fill(std::begin(s.gpu_cores_), std::end(s.gpu_cores_),
              std::numeric_limits<int16_t>::max());
    return s;
  }
  std::fill(std::begin(s.gpu_memory_mib_), std::end(s.gpu_memory_mib_), -1);
  std::fill(std::begin(s.gpu_cores_), std::end(s.gpu_cores_), int16_t{-1});
  const auto& gpus = hami->gpus();
  s.exact_ = gpus.size() <= kMaxGpus ? 1 : 0;
  int open = 0;
  for (const HamiDevicePlugin::Gpu& g : gpus) {
    // HAMi's first two per-GPU checks (CardNotHealth,
    // CardTimeSlicingExhausted); the memory and core checks are Admits'.
    if (!g.healthy || g.used >= g.count) continue;
    const int32_t memory = Clamp<int32_t>(g.total_memory_mib - g.used_memory_mib);
    const int16_t cores = Clamp<int16_t>(int64_t{g.total_cores} - g.used_cores);
    if (s.exact_) {
      s.gpu_memory_mib_[open] = memory;
      s.gpu_cores_[open] = cores;
    } else {
      // The k-th most free memory and cores, each sorted on its own.
      auto insert = [&](auto* kth, auto v) {
        int k = std::min(open, kMaxGpus - 1);
        if (open >= kMaxGpus && kth[k] >= v) return;
        while (k > 0 && kth[k - 1] < v) {
          kth[k] = kth[k - 1];
          --k;
        }
        kth[k] = v;
      };
      insert(s.gpu_memory_mib_, memory);
      insert(s.gpu_cores_, cores);
    }
    ++open;
  }
  s.open_ = Clamp<int16_t>(open);
  return s;
}

}  // namespace gpushare
