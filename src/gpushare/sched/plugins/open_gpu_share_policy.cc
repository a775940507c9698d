#include "gpushare/sched/plugins/open_gpu_share_policy.h"

#include "gpushare/base/lifetimebound.h"
#include "gpushare/io/check.h"

namespace gpushare {
namespace {

OpenGpuSharePod Read(const Pod& pod, ResourceId gpu_milli_id) {
  OpenGpuSharePod out;
  out.cpu_milli = pod.requests.Get(ResourceRegistry::kCpuId);
  out.memory_mib = pod.requests.Get(ResourceRegistry::kMemoryId);
  out.gpu = OpenGpuShareRequestOf(
      pod.requests.Get(gpu_milli_id));
  return out;
}

}  // namespace

OpenGpuSharePolicy::OpenGpuSharePolicy(ResourceRegistry& registry)
    : gpu_milli_id_(registry.Intern(kOpenGpuShareGpuMilli)) {}

bool OpenGpuSharePolicy::PreScore(const Pod& pod) {
  prepared_pod_ = Read(pod, gpu_milli_id_);
  prepared_ = &pod;
  return true;
}

const OpenGpuSharePod& OpenGpuSharePolicy::PodOf(const Pod& pod) const {
  if (&pod == prepared_) return prepared_pod_;
  scratch_pod_ = Read(pod, gpu_milli_id_);
  return scratch_pod_;
}

const OpenGpuShareDevicePlugin& OpenGpuSharePolicy::DevicesOf(
    const Node& node GS_LIFETIMEBOUND) {
  const DevicePlugin* devices = node.devices();
  const OpenGpuShareDevicePlugin* ogs =
      devices == nullptr ? nullptr : devices->AsOpenGpuShare();
  GS_CHECK(ogs != nullptr, "the FGD policies need Open-Gpu-Share nodes");
  return *ogs;
}

std::vector<int> OpenGpuSharePolicy::SelectGpus(const Pod& pod,
                                                const Node& node) {
  return DevicesOf(node).BestFitGpus(PodOf(pod).gpu);
}

}  // namespace gpushare
