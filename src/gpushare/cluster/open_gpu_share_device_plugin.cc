#include "gpushare/cluster/open_gpu_share_device_plugin.h"

#include "gpushare/io/check.h"

namespace gpushare {

int OpenGpuShareRequest::affinity() const {
  if (gpus == 0) return kNoAffinity;
  return sharing() ? 0 : gpus;
}

OpenGpuShareRequest OpenGpuShareRequestOf(int64_t total_milli) {
  if (total_milli <= 0) return {};
  if (total_milli <= kGpuMilli) return {1, total_milli};
  GS_CHECK(total_milli % kGpuMilli == 0,
           "a multi-GPU Open-Gpu-Share request takes whole GPUs");
  return {static_cast<int>(total_milli / kGpuMilli), kGpuMilli};
}

OpenGpuShareDevicePlugin::OpenGpuShareDevicePlugin(std::string card_model,
                                                   int gpus,
                                                   ResourceRegistry& registry)
    : card_model_(std::move(card_model)),
      gpu_milli_id_(registry.Intern(kOpenGpuShareGpuMilli)),
      gpu_count_id_(registry.Intern(kOpenGpuShareGpuCount)),
      milli_left_(gpus, kGpuMilli),
      healthy_(gpus, true),
      total_milli_left_(gpus * kGpuMilli),
      affinity_pods_(gpus + 1, 0) {
  capacity_.Set(gpu_milli_id_, gpus * kGpuMilli);
  capacity_.Set(gpu_count_id_, gpus);
  allocatable_ = capacity_;
}

void OpenGpuShareDevicePlugin::SetHealthy(int gpu, int /*instance*/,
                                          bool healthy) {
  GS_CHECK(gpu >= 0 && gpu < gpu_count(), "GPU index out of range");
  if (healthy_[gpu] == healthy) return;
  healthy_[gpu] = healthy;
  const int sign = healthy ? 1 : -1;
  allocatable_.Add(gpu_milli_id_, sign * kGpuMilli);
  allocatable_.Add(gpu_count_id_, sign);
}

void OpenGpuShareDevicePlugin::AddNodeLabels(Labels* labels) const {
  (*labels)[std::string(kOpenGpuShareCardModelLabel)] = card_model_;
}

bool OpenGpuShareDevicePlugin::FitsShare(
    const OpenGpuShareRequest& request) const {
  int found = 0;
  for (int g = 0; g < gpu_count(); ++g) {
    if (healthy_[g] && milli_left_[g] >= request.milli_per_gpu &&
        ++found >= request.gpus) {
      return true;
    }
  }
  return request.gpus == 0;
}

bool OpenGpuShareDevicePlugin::Fits(const ResourceList& requests,
                                    std::string_view* reason) const {
  const bool fits =
      FitsShare(OpenGpuShareRequestOf(requests.Get(gpu_milli_id_)));
  if (!fits && reason != nullptr) *reason = kOpenGpuShareInsufficientGpu;
  return fits;
}

std::vector<int> OpenGpuShareDevicePlugin::ExclusiveGpus(int count) const {
  std::vector<int> gpus;
  for (int g = 0; g < gpu_count() && static_cast<int>(gpus.size()) < count;
       ++g) {
    if (healthy_[g] && milli_left_[g] == kGpuMilli) gpus.push_back(g);
  }
  if (static_cast<int>(gpus.size()) < count) gpus.clear();
  return gpus;
}

std::vector<int> OpenGpuShareDevicePlugin::BestFitGpus(
    const OpenGpuShareRequest& request) const {
  if (request.gpus == 0) return {};
  if (request.milli_per_gpu < kGpuMilli) {
    int best = -1;
    for (int g = 0; g < gpu_count(); ++g) {
      if (healthy_[g] && milli_left_[g] >= request.milli_per_gpu &&
          (best < 0 || milli_left_[g] < milli_left_[best])) {
        best = g;
      }
    }
    if (best < 0) return {};
    return {best};
  }
  return ExclusiveGpus(request.gpus);
}

DeviceAllocation OpenGpuShareDevicePlugin::Allocate(
    const ResourceList& requests) {
  const OpenGpuShareRequest request =
      OpenGpuShareRequestOf(requests.Get(gpu_milli_id_));
  const std::vector<int> gpus = BestFitGpus(request);
  return AllocateGpus(request, gpus);
}

DeviceAllocation OpenGpuShareDevicePlugin::AllocateGpus(
    const OpenGpuShareRequest& request, std::span<const int> gpus) {
  GS_CHECK(static_cast<int>(gpus.size()) == request.gpus,
           "one GPU per requested GPU");
  DeviceAllocation allocation;
  for (const int g : gpus) {
    GS_CHECK(g >= 0 && g < gpu_count(), "GPU index out of range");
    GS_CHECK(milli_left_[g] >= request.milli_per_gpu,
             "the chosen GPU lacks the idle share");
    milli_left_[g] -= request.milli_per_gpu;
    total_milli_left_ -= request.milli_per_gpu;
    DeviceGrant grant;
    grant.gpu = g;
    grant.resource = gpu_milli_id_;
    grant.gpu_milli = request.milli_per_gpu;
    allocation.grants.push_back(grant);
  }
  CountAffinity(request.affinity(), 1);
  return allocation;
}

void OpenGpuShareDevicePlugin::Release(const DeviceAllocation& allocation) {
  if (allocation.grants.empty()) return;
  for (const DeviceGrant& grant : allocation.grants) {
    milli_left_[grant.gpu] += grant.gpu_milli;
    total_milli_left_ += grant.gpu_milli;
  }
  const int n = static_cast<int>(allocation.grants.size());
  CountAffinity(OpenGpuShareRequest{n, allocation.grants[0].gpu_milli}
                    .affinity(),
                -1);
}

void OpenGpuShareDevicePlugin::Reacquire(const DeviceAllocation& allocation) {
  if (allocation.grants.empty()) return;
  for (const DeviceGrant& grant : allocation.grants) {
    GS_CHECK(milli_left_[grant.gpu] >= grant.gpu_milli,
             "reacquire of a GPU share now taken");
    milli_left_[grant.gpu] -= grant.gpu_milli;
    total_milli_left_ -= grant.gpu_milli;
  }
  const int n = static_cast<int>(allocation.grants.size());
  CountAffinity(OpenGpuShareRequest{n, allocation.grants[0].gpu_milli}
                    .affinity(),
                1);
}

void OpenGpuShareDevicePlugin::CountAffinity(int affinity, int delta) {
  if (affinity == kNoAffinity) return;
  int& pods = affinity_pods_[affinity];
  if (pods == 0 && delta > 0) ++affinity_classes_;
  pods += delta;
  if (pods == 0 && delta < 0) --affinity_classes_;
}

int OpenGpuShareDevicePlugin::PodsWithAffinity(int affinity) const {
  if (affinity < 0 || affinity >= static_cast<int>(affinity_pods_.size())) {
    return 0;
  }
  return affinity_pods_[affinity];
}

int OpenGpuShareDevicePlugin::fully_free_gpus() const {
  int free = 0;
  for (const int64_t left : milli_left_) free += left == kGpuMilli;
  return free;
}

void OpenGpuShareDevicePlugin::CheckInvariants() const {
  int64_t total = 0;
  for (const int64_t left : milli_left_) {
    GS_CHECK(left >= 0 && left <= kGpuMilli, "GPU share out of 0..1000");
    total += left;
  }
  GS_CHECK(total == total_milli_left_, "idle share total out of step");
  int classes = 0;
  for (const int pods : affinity_pods_) {
    GS_CHECK(pods >= 0, "negative affinity count");
    classes += pods > 0;
  }
  GS_CHECK(classes == affinity_classes_, "affinity classes out of step");
}

}  // namespace gpushare
