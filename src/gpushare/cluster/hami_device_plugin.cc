#include "gpushare/cluster/hami_device_plugin.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpushare/io/check.h"

namespace gpushare {

namespace {

// The webhook's rules over the four HAMi quantities as written.
HamiRequest RequestOf(int64_t gpu, int64_t mem, int64_t percentage,
                      int64_t cores, const HamiSettings& settings) {
  const bool cores_given = cores > 0;
  HamiRequest r;
  if (gpu == 0 && mem == 0 && percentage <= 0 && !cores_given) return r;
  r.nums = gpu > 0 ? static_cast<int>(gpu) : 1;  // defaultGPUNum
  if (percentage > 100) percentage = 100;
  if (mem > 0) {
    r.memory_mib = mem;
  } else if (percentage > 0) {
    r.memory_percentage = static_cast<int>(percentage);
  } else if (settings.default_memory_mib > 0) {
    r.memory_mib = settings.default_memory_mib;
  } else {
    r.memory_percentage = 100;
  }
  if (!cores_given) {
    const bool whole_memory = mem == 0 && (percentage <= 0 || percentage == 100);
    // The webhook adds nvidia.com/gpu first (mutateContainerResource), so
    // defaultExclusiveCoreIfNeeded always sees a vGPU count here.
    cores = whole_memory ? 100 : settings.default_cores;
  }
  r.cores = static_cast<int>(std::min<int64_t>(cores, 100));
  return r;
}

}  // namespace

HamiRequest HamiRequestOf(const ResourceList& requests,
                          const ResourceRegistry& registry,
                          const HamiSettings& settings) {
  const DeviceRequest r = DeviceRequest::Of(requests, registry);
  return RequestOf(r.gpu, r.gpumem, r.gpumem_percentage, r.gpucores, settings);
}

HamiDevicePlugin::HamiDevicePlugin(const GpuModel& model, int gpus,
                                   HamiSettings settings,
                                   ResourceRegistry& registry)
    : model_(model), settings_(settings), registry_(registry) {
  Gpu gpu;
  gpu.count = settings_.split_count;
  gpu.total_memory_mib = static_cast<int64_t>(
      std::floor(static_cast<double>(model.memory_mib) *
                 settings_.memory_scaling));
  gpu.total_cores =
      static_cast<int>(std::floor(100.0 * settings_.core_scaling));
  gpus_.assign(gpus, gpu);
  sum_count_ = int64_t{gpus} * gpu.count;
  sum_total_memory_ = gpus * gpu.total_memory_mib;
  sum_total_cores_ = int64_t{gpus} * gpu.total_cores;
  gpu_resource_ = registry.Intern(kNvidiaGpu);
  capacity_.Set(gpu_resource_, int64_t{gpus} * gpu.count);
  capacity_.Set(registry.Intern(kHamiGpuMem), gpus * gpu.total_memory_mib);
  capacity_.Set(registry.Intern(kHamiGpuCores),
                int64_t{gpus} * gpu.total_cores);
  registry.Intern(kHamiGpuMemPercentage);
  allocatable_ = capacity_;
  UpdateSummary();
}

void HamiDevicePlugin::SetHealthy(int gpu, int /*instance*/, bool healthy) {
  Gpu& g = gpus_[gpu];
  if (g.healthy == healthy) return;
  g.healthy = healthy;
  const int sign = healthy ? 1 : -1;
  allocatable_.Add(gpu_resource_, sign * g.count);
  allocatable_.Add(registry_.Find(kHamiGpuMem), sign * g.total_memory_mib);
  allocatable_.Add(registry_.Find(kHamiGpuCores), sign * g.total_cores);
  UpdateSummary();
}

void HamiDevicePlugin::UpdateSummary() {
  open_gpus_ = 0;
  max_free_memory_mib_ = 0;
  max_free_cores_ = 0;
  for (const Gpu& g : gpus_) {
    if (!g.healthy || g.used >= g.count) continue;
    ++open_gpus_;
    max_free_memory_mib_ =
        std::max(max_free_memory_mib_, g.total_memory_mib - g.used_memory_mib);
    max_free_cores_ = std::max(max_free_cores_, g.total_cores - g.used_cores);
  }
}

void HamiDevicePlugin::AddNodeLabels(Labels* labels) const {
  (*labels)["gpu"] = "on";  // HAMi device-plugin nodeSelector (chart)
  (*labels)["nvidia.com/gpu.present"] = "true";
  (*labels)["nvidia.com/gpu.count"] = std::to_string(gpus_.size());
  (*labels)["nvidia.com/gpu.memory"] = std::to_string(model_.memory_mib);
  (*labels)["nvidia.com/gpu.family"] = model_.family;
}

int64_t HamiDevicePlugin::MemoryOf(const HamiRequest& request,
                                   const Gpu& gpu) const {
  if (request.memory_percentage > 0) {
    return gpu.total_memory_mib * request.memory_percentage / 100;
  }
  return request.memory_mib;
}

bool HamiDevicePlugin::Passes(const Gpu& g, const HamiRequest& request,
                              std::string_view* reason) const {
  if (!g.healthy) {
    *reason = "CardNotHealth";
    return false;
  }
  if (g.used >= g.count) {
    *reason = "CardTimeSlicingExhausted";
    return false;
  }
  if (g.total_memory_mib - g.used_memory_mib < MemoryOf(request, g)) {
    *reason = "CardInsufficientMemory";
    return false;
  }
  if (g.total_cores - g.used_cores < request.cores) {
    *reason = "CardInsufficientCore";
    return false;
  }
  if (request.cores == 100 && g.total_cores == 100 && g.used > 0) {
    *reason = "ExclusiveDeviceAllocateConflict";
    return false;
  }
  if (g.total_cores != 0 && g.used_cores == g.total_cores &&
      request.cores == 0) {
    *reason = "CardComputeUnitsExhausted";
    return false;
  }
  return true;
}

std::vector<int> HamiDevicePlugin::Choose(const HamiRequest& request,
                                          std::string_view* reason) const {
  const int n = static_cast<int>(gpus_.size());
  std::vector<double> score(n);
  for (int i = 0; i < n; ++i) {
    const Gpu& g = gpus_[i];
    const double mem = static_cast<double>(MemoryOf(request, g));
    score[i] = g.count == 0 || g.total_cores == 0 || g.total_memory_mib == 0
                   ? 0
                   : 10 * ((1.0 + g.used) / g.count +
                           static_cast<double>(request.cores + g.used_cores) /
                               g.total_cores +
                           (mem + static_cast<double>(g.used_memory_mib)) /
                               static_cast<double>(g.total_memory_mib));
  }
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  const bool binpack = settings_.gpu_policy == HamiPolicy::kBinpack;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return binpack ? score[a] < score[b] : score[a] > score[b];
  });
  std::vector<int> chosen;
  std::string_view last_reason = "CardTimeSlicingExhausted";
  for (int k = n - 1; k >= 0 && static_cast<int>(chosen.size()) < request.nums;
       --k) {
    if (Passes(gpus_[order[k]], request, &last_reason)) {
      chosen.push_back(order[k]);
    }
  }
  if (static_cast<int>(chosen.size()) < request.nums) {
    if (reason) {
      *reason = request.nums > n ? std::string_view("AllocatedCardsInsufficientRequest")
                                 : last_reason;
    }
    chosen.clear();
  }
  return chosen;
}

bool HamiDevicePlugin::Fits(const ResourceList& requests,
                            std::string_view* reason) const {
  return FitsRequest(DeviceRequest::Of(requests, registry_), reason);
}

bool HamiDevicePlugin::FitsRequest(const DeviceRequest& prepared,
                                   std::string_view* reason) const {
  if (prepared.other) {
    // A resource HAMi does not serve (e.g. nvidia.com/mig-*).
    if (reason) *reason = "node(s) did not have enough free GPU devices";
    return false;
  }
  const HamiRequest request =
      RequestOf(prepared.gpu, prepared.gpumem, prepared.gpumem_percentage,
                prepared.gpucores, settings_);
  if (!request.any()) return true;
  if (reason == nullptr && !gpus_.empty() &&
      (open_gpus_ < request.nums || max_free_cores_ < request.cores ||
       max_free_memory_mib_ < MemoryOf(request, gpus_[0]))) {
    return false;  // no GPU, or too few, could pass (the walk would say why)
  }
  // Whether a GPU passes does not depend on the order HAMi tries them in:
  // count the passing GPUs without sorting (no allocation in Filter).
  const int n = static_cast<int>(gpus_.size());
  std::string_view last_reason = "CardTimeSlicingExhausted";
  int passing = 0;
  for (int k = n - 1; k >= 0 && passing < request.nums; --k) {
    passing += Passes(gpus_[k], request, &last_reason) ? 1 : 0;
  }
  if (passing >= request.nums) return true;
  if (reason) {
    *reason = request.nums > n
                  ? std::string_view("AllocatedCardsInsufficientRequest")
                  : last_reason;
  }
  return false;
}

DeviceAllocation HamiDevicePlugin::Allocate(const ResourceList& requests) {
  const HamiRequest request = HamiRequestOf(requests, registry_, settings_);
  DeviceAllocation allocation;
  if (!request.any()) return allocation;
  std::string_view reason;
  const std::vector<int> chosen = Choose(request, &reason);
  GS_CHECK(!chosen.empty(), "Allocate called without a fit");
  for (int i : chosen) {
    Gpu& g = gpus_[i];
    const int64_t mem = MemoryOf(request, g);
    ++g.used;
    g.used_memory_mib += mem;
    g.used_cores += request.cores;
    ++sum_used_;
    sum_used_memory_ += mem;
    sum_used_cores_ += request.cores;
    DeviceGrant grant;
    grant.gpu = i;
    grant.resource = gpu_resource_;
    grant.memory_mib = mem;
    grant.cores_percent = request.cores;
    allocation.grants.push_back(grant);
  }
  UpdateSummary();
  return allocation;
}

void HamiDevicePlugin::Release(const DeviceAllocation& allocation) {
  for (const DeviceGrant& grant : allocation.grants) {
    Gpu& g = gpus_[grant.gpu];
    --g.used;
    g.used_memory_mib -= grant.memory_mib;
    g.used_cores -= grant.cores_percent;
    --sum_used_;
    sum_used_memory_ -= grant.memory_mib;
    sum_used_cores_ -= grant.cores_percent;
  }
  UpdateSummary();
}

void HamiDevicePlugin::Reacquire(const DeviceAllocation& allocation) {
  for (const DeviceGrant& grant : allocation.grants) {
    Gpu& g = gpus_[grant.gpu];
    ++g.used;
    g.used_memory_mib += grant.memory_mib;
    g.used_cores += grant.cores_percent;
    ++sum_used_;
    sum_used_memory_ += grant.memory_mib;
    sum_used_cores_ += grant.cores_percent;
  }
  UpdateSummary();
}

void HamiDevicePlugin::CheckInvariants() const {
  int64_t used = 0, used_memory = 0, used_cores = 0;
  for (const Gpu& g : gpus_) {
    used += g.used;
    used_memory += g.used_memory_mib;
    used_cores += g.used_cores;
  }
  GS_CHECK(used == sum_used_ && used_memory == sum_used_memory_ &&
               used_cores == sum_used_cores_,
           "HAMi node totals out of sync");
  int open = 0;
  int64_t max_memory = 0;
  int max_cores = 0;
  for (const Gpu& g : gpus_) {
    GS_CHECK(g.total_memory_mib == gpus_[0].total_memory_mib,
             "HAMi GPUs of one node differ in memory");
    if (!g.healthy || g.used >= g.count) continue;
    ++open;
    max_memory = std::max(max_memory, g.total_memory_mib - g.used_memory_mib);
    max_cores = std::max(max_cores, g.total_cores - g.used_cores);
  }
  GS_CHECK(open == open_gpus_ && max_memory == max_free_memory_mib_ &&
               max_cores == max_free_cores_,
           "HAMi free summary out of sync");
  int64_t healthy_slots = 0;
  for (const Gpu& g : gpus_) healthy_slots += g.healthy ? g.count : 0;
  GS_CHECK(healthy_slots == allocatable_.Get(gpu_resource_),
           "HAMi allocatable out of sync with device health");
  for (const Gpu& g : gpus_) {
    GS_CHECK(g.used >= 0 && g.used <= g.count, "HAMi slots over split count");
    GS_CHECK(g.used_memory_mib >= 0 && g.used_memory_mib <= g.total_memory_mib,
             "HAMi memory over-allocated");
    GS_CHECK(g.used_cores >= 0 && g.used_cores <= g.total_cores,
             "HAMi cores over-allocated");
  }
}

double HamiDevicePlugin::NodeScore() const {
  if (sum_count_ == 0 || sum_total_memory_ == 0 || sum_total_cores_ == 0) {
    return 0;
  }
  return 10 * (static_cast<double>(sum_used_) / sum_count_ +
               static_cast<double>(sum_used_cores_) / sum_total_cores_ +
               static_cast<double>(sum_used_memory_) / sum_total_memory_);
}

}  // namespace gpushare
