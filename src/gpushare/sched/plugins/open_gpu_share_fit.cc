#include "gpushare/sched/plugins/open_gpu_share_fit.h"

#include <algorithm>

#include "gpushare/sched/plugins/node_resources_fit.h"

namespace gpushare {
namespace {

constexpr std::string_view kInsufficientCpu = "Insufficient cpu";
constexpr std::string_view kInsufficientMemory = "Insufficient memory";
constexpr std::string_view kNoGpus = "node(s) have no GPU";
constexpr std::string_view kWrongModel =
    "node(s) didn't match Pod's GPU card model";

}  // namespace

OpenGpuShareFit::OpenGpuShareFit(ResourceRegistry& registry)
    : gpu_milli_id_(registry.Intern(kOpenGpuShareGpuMilli)) {}

std::vector<std::string> OpenGpuShareFit::AllowedCardModels(const Pod& pod) {
  std::vector<std::string> allowed;
  for (const NodeSelectorTerm& term : pod.required_affinity) {
    for (const NodeSelectorRequirement& r : term.match_expressions) {
      if (r.key == kOpenGpuShareCardModelLabel &&
          r.op == NodeSelectorRequirement::Operator::kIn) {
        allowed.insert(allowed.end(), r.values.begin(), r.values.end());
      }
    }
  }
  return allowed;
}

void OpenGpuShareFit::PreFilter(const Pod& pod) {
  prepared_ = &pod;
  cpu_ = pod.requests.Get(ResourceRegistry::kCpuId);
  memory_ = pod.requests.Get(ResourceRegistry::kMemoryId);
  gpu_ = OpenGpuShareRequestOf(pod.requests.Get(gpu_milli_id_));
  allowed_ = AllowedCardModels(pod);
}

bool OpenGpuShareFit::Filter(const Pod& pod, const Node& node,
                             std::vector<std::string_view>* reasons) const {
  if (prepared_ == &pod) {
    return Check(cpu_, memory_, gpu_, allowed_, node, reasons);
  }
  return Check(pod.requests.Get(ResourceRegistry::kCpuId),
               pod.requests.Get(ResourceRegistry::kMemoryId),
               OpenGpuShareRequestOf(pod.requests.Get(gpu_milli_id_)),
               AllowedCardModels(pod), node, reasons);
}

bool OpenGpuShareFit::Check(int64_t cpu, int64_t memory,
                            const OpenGpuShareRequest& gpu,
                            const std::vector<std::string>& allowed,
                            const Node& node,
                            std::vector<std::string_view>* reasons) {
  bool fits = true;
  auto fail = [&](std::string_view reason) {
    fits = false;
    if (reasons != nullptr) reasons->push_back(reason);
    return reasons == nullptr;
  };
  if (node.pod_count() + 1 > node.max_pods() &&
      fail(NodeResourcesFit::kTooManyPods)) {
    return false;
  }
  if (cpu > node.Allocatable(ResourceRegistry::kCpuId) -
                 node.Requested(ResourceRegistry::kCpuId) &&
      fail(kInsufficientCpu)) {
    return false;
  }
  if (memory > node.Allocatable(ResourceRegistry::kMemoryId) -
                    node.Requested(ResourceRegistry::kMemoryId) &&
      fail(kInsufficientMemory)) {
    return false;
  }
  if (gpu.gpus == 0) return fits;
  const DevicePlugin* devices = node.devices();
  const OpenGpuShareDevicePlugin* ogs =
      devices == nullptr ? nullptr : devices->AsOpenGpuShare();
  if (ogs == nullptr || ogs->gpu_count() == 0) {
    fail(kNoGpus);
    return false;
  }
  if (!allowed.empty() &&
      std::find(allowed.begin(), allowed.end(), ogs->card_model()) ==
          allowed.end()) {
    fail(kWrongModel);
    return false;
  }
  if (!ogs->FitsShare(gpu)) {
    fail(kOpenGpuShareInsufficientGpu);
    return false;
  }
  return fits;
}

}  // namespace gpushare
