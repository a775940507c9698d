// HamiDevicePlugin: HAMi's software vGPU (hami-core mode) on one node.
//
// Contract (Project-HAMi/HAMi pkg/device/nvidia/device.go,
// pkg/scheduler/policy/gpu_policy.go and node_policy.go, charts/hami): each
// physical GPU registers Count = deviceSplitCount slots, Totalmem = memory MiB
// x deviceMemoryScaling and Totalcore = 100 x deviceCoreScaling. A pod asks for
// nvidia.com/gpu vGPUs (each on a different GPU), nvidia.com/gpumem MiB (or
// nvidia.com/gpumem-percentage) and nvidia.com/gpucores % per vGPU; the
// admission webhook's defaults are applied by HamiRequestOf(). Devices are
// ordered by the GPU policy score 10 x ((1 + Used)/Count + (cores +
// Usedcores)/Totalcore + (mem + Usedmem)/Totalmem) and tried as HAMi's Fit
// walks its sorted list backwards: binpack takes the fullest GPU first, spread
// the emptiest; among equal scores the higher index first. A GPU is rejected,
// in HAMi's order, when its slots are exhausted, its free memory or cores are
// short, a 100 %-core request meets a used GPU, or a 0-core request meets a GPU
// whose cores are all taken; before all that, an unhealthy GPU is rejected
// ("CardNotHealth": HAMi's device plugin reports health in its node
// registration, and its ListAndWatch takes the GPU's split-count slots out of
// kubelet's allocatable; Allocatable() also leaves out the GPU's gpumem and
// gpucores). (Speed: the plugin keeps the most free memory and cores of any GPU
// with a free slot, so Filter rejects a node that cannot hold one vGPU without
// walking its GPUs; every GPU of a node has the same totals.)

#ifndef GPUSHARE_CLUSTER_HAMI_DEVICE_PLUGIN_H_
#define GPUSHARE_CLUSTER_HAMI_DEVICE_PLUGIN_H_

#include <string_view>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {

// A container's HAMi request after the webhook's defaults.
struct HamiRequest {
  int nums = 0;               // vGPUs, each on a distinct GPU
  int64_t memory_mib = 0;     // per vGPU; used when memory_percentage == 0
  int memory_percentage = 0;  // per vGPU, 1..100; 0: use memory_mib
  int cores = 0;              // per vGPU, 0..100
  bool any() const { return nums > 0; }
};

// Reads nvidia.com/gpu, gpumem, gpumem-percentage and gpucores from
// `requests` and applies the webhook rules (HAMi MutateAdmission,
// GenerateResourceRequests): a memory or core request without nvidia.com/gpu
// gets 1 vGPU; no memory request means defaultMemory, or 100 % when that is 0;
// a vGPU request without cores whose memory is 100 % (or unspecified) gets 100
// cores (an exclusive card); cores default to defaultCores; values over 100 are
// clamped.
HamiRequest HamiRequestOf(const ResourceList& requests,
                          const ResourceRegistry& registry,
                          const HamiSettings& settings);

class HamiDevicePlugin : public DevicePlugin {
 public:
  HamiDevicePlugin(const GpuModel& model, int gpus, HamiSettings settings,
                   ResourceRegistry& registry);

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return allocatable_; }
  // HAMi has no MIG here: `instance` is ignored.
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  bool FitsRequest(const DeviceRequest& request,
                   std::string_view* reason) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;
  const HamiDevicePlugin* AsHami() const override { return this; }

  // HAMi's node policy score before placing a pod (node_policy.go):
  // 10 x (ΣUsed/ΣCount + ΣUsedcores/ΣTotalcore + ΣUsedmem/ΣTotalmem).
  double NodeScore() const;

  struct Gpu {
    int count = 0;
    int used = 0;
    int64_t total_memory_mib = 0;
    int64_t used_memory_mib = 0;
    int total_cores = 0;
    int used_cores = 0;
    bool healthy = true;
  };
  const std::vector<Gpu>& gpus() const { return gpus_; }
  const HamiSettings& settings() const { return settings_; }
  // Over the healthy GPUs with a free slot: how many, and the most free
  // memory and free cores of any of them. A request for `nums` vGPUs of
  // `memory` MiB and `cores` % each fits only if open_gpus() >= nums,
  // max_free_memory_mib() >= memory and max_free_cores() >= cores.
  int open_gpus() const { return open_gpus_; }
  int64_t max_free_memory_mib() const { return max_free_memory_mib_; }
  int max_free_cores() const { return max_free_cores_; }

 private:
  // The GPUs HAMi would give `request`, in order, or empty with `reason`.
  std::vector<int> Choose(const HamiRequest& request,
                          std::string_view* reason) const;
  int64_t MemoryOf(const HamiRequest& request, const Gpu& gpu) const;
  // HAMi's per-GPU rejection checks, in its order; on false `*reason` is
  // HAMi's reason name.
  bool Passes(const Gpu& gpu, const HamiRequest& request,
              std::string_view* reason) const;
  // Recomputes the summary below after a GPU's usage changed.
  void UpdateSummary();

  const GpuModel& model_;
  HamiSettings settings_;
  std::vector<Gpu> gpus_;
  ResourceList capacity_;
  ResourceList allocatable_;
  const ResourceRegistry& registry_;
  // Node totals for NodeScore, kept in step by Allocate and Release.
  int64_t sum_used_ = 0, sum_count_ = 0;
  int64_t sum_used_memory_ = 0, sum_total_memory_ = 0;
  int64_t sum_used_cores_ = 0, sum_total_cores_ = 0;
  ResourceId gpu_resource_;
  // Over the healthy GPUs with a free slot: how many, and the most free memory and
  // free cores of any of them (necessary conditions of Passes).
  int open_gpus_ = 0;
  int64_t max_free_memory_mib_ = 0;
  int max_free_cores_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_HAMI_DEVICE_PLUGIN_H_
