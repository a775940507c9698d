// OpenGpuShareDevicePlugin: Alibaba's Open-Gpu-Share (gpushare) GPU sharing
// on one node, as the FGD paper's simulator models it.
//
// Contract (hkust-adsl/kubernetes-scheduler-simulator pkg/type/resource.go,
// cache/gpunodeinfo.go AllocateGpuId): the node advertises
// alibabacloud.com/gpu-milli = GPUs x 1000 and alibabacloud.com/gpu-count =
// GPUs, and labels itself alibabacloud.com/gpu-card-model = its card model
// (the trace's name, e.g. "G2", which pods' GPU-model lists match). Each GPU
// has an idle share in thousandths (1000 when free). A pod asks for
// alibabacloud.com/gpu-milli = num_gpu x gpu_milli in total: up to 1000 is
// one GPU with that share (a sharing pod when below 1000), more is that many
// thousands of whole GPUs (OpenGpuShareRequestOf). The pod fits when it has
// as many GPUs with an idle share >= its per-GPU share
// (cache/gpunodeinfo.go AllocateGpuId). Allocate() makes the default choice
// (BestFitGpus); AllocateGpus() takes the GPUs a policy chose at Reserve.
// The plugin also counts the GPU pods it hosts by GpuClustering's affinity
// class ("share", or "<k>-gpu"). An Unhealthy GPU (SetHealthy) leaves
// Allocatable() and is never chosen by the fit or the GPU choices here; the
// FGD experiment injects no faults, so the policies' scores read the idle
// shares as they are (milli_left). Single-threaded.

#ifndef GPUSHARE_CLUSTER_OPEN_GPU_SHARE_DEVICE_PLUGIN_H_
#define GPUSHARE_CLUSTER_OPEN_GPU_SHARE_DEVICE_PLUGIN_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/device_plugin.h"

namespace gpushare {

inline constexpr std::string_view kOpenGpuShareGpuMilli =
    "alibabacloud.com/gpu-milli";
inline constexpr std::string_view kOpenGpuShareGpuCount =
    "alibabacloud.com/gpu-count";
inline constexpr std::string_view kOpenGpuShareCardModelLabel =
    "alibabacloud.com/gpu-card-model";
// The reason a node is short of gpu-milli (the plugin's and the scheduler's).
inline constexpr std::string_view kOpenGpuShareInsufficientGpu =
    "Insufficient alibabacloud.com/gpu-milli";
// One GPU in thousandths (gpushareutils.MILLI).
inline constexpr int64_t kGpuMilli = 1000;

// A pod's GPU ask: `gpus` GPUs with `milli_per_gpu` each (0 GPUs: none).
struct OpenGpuShareRequest {
  int gpus = 0;
  int64_t milli_per_gpu = 0;
  bool sharing() const { return gpus == 1 && milli_per_gpu < kGpuMilli; }
  // GpuClustering's affinity class: kNoAffinity, 0 for "share", k for
  // "<k>-gpu".
  int affinity() const;
};
inline constexpr int kNoAffinity = -1;

// Decodes the total alibabacloud.com/gpu-milli of a pod.
OpenGpuShareRequest OpenGpuShareRequestOf(int64_t total_milli);

class OpenGpuShareDevicePlugin : public DevicePlugin {
 public:
  OpenGpuShareDevicePlugin(std::string card_model, int gpus,
                           ResourceRegistry& registry);

  const ResourceList& Capacity() const override { return capacity_; }
  const ResourceList& Allocatable() const override { return allocatable_; }
  // `instance` is ignored: Open-Gpu-Share has no MIG.
  void SetHealthy(int gpu, int instance, bool healthy) override;
  void AddNodeLabels(Labels* labels) const override;
  bool Fits(const ResourceList& requests,
            std::string_view* reason) const override;
  DeviceAllocation Allocate(const ResourceList& requests) override;
  void Release(const DeviceAllocation& allocation) override;
  void Reacquire(const DeviceAllocation& allocation) override;
  void CheckInvariants() const override;
  const OpenGpuShareDevicePlugin* AsOpenGpuShare() const override {
    return this;
  }

  // Whether `request` fits the idle shares now.
  bool FitsShare(const OpenGpuShareRequest& request) const;
  // Gives `request` exactly `gpus` (one index per requested GPU, each with
  // enough idle share; GS_CHECK).
  DeviceAllocation AllocateGpus(const OpenGpuShareRequest& request,
                                std::span<const int> gpus);

  // The default GPU choice (open_gpu_share.go allocateGpuIdBasedOnBestFit):
  // a sharing pod gets the GPU with the smallest idle share that still fits
  // (lowest index on ties); a whole-GPU pod the lowest-index free GPUs
  // (resource.go AllocateExclusiveGpuId). Empty when it does not fit.
  std::vector<int> BestFitGpus(const OpenGpuShareRequest& request) const;
  // The lowest-index `count` fully free GPUs; empty when too few.
  std::vector<int> ExclusiveGpus(int count) const;

  const std::string& card_model() const { return card_model_; }
  int gpu_count() const { return static_cast<int>(milli_left_.size()); }
  // Idle share of each GPU, by index.
  const std::vector<int64_t>& milli_left() const { return milli_left_; }
  int64_t total_milli_left() const { return total_milli_left_; }
  int fully_free_gpus() const;
  // GPU pods hosted with `affinity` (OpenGpuShareRequest::affinity()).
  int PodsWithAffinity(int affinity) const;
  // Distinct affinity classes among the hosted GPU pods.
  int affinity_classes() const { return affinity_classes_; }
  ResourceId gpu_milli_id() const { return gpu_milli_id_; }

 private:
  void CountAffinity(int affinity, int delta);

  std::string card_model_;
  ResourceId gpu_milli_id_;
  ResourceList capacity_;
  ResourceList allocatable_;
  ResourceId gpu_count_id_;
  std::vector<int64_t> milli_left_;
  std::vector<bool> healthy_;
  int64_t total_milli_left_ = 0;
  std::vector<int> affinity_pods_;  // by affinity class
  int affinity_classes_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_OPEN_GPU_SHARE_DEVICE_PLUGIN_H_
