// Resource names and quantities, as Kubernetes counts them.
//
// Contract: ResourceRegistry interns resource names to dense small integers
// so that per-node bookkeeping is a flat array. `cpu` (millicores) and
// `memory` (MiB) are always ids 0 and 1; extended resources such as
// nvidia.com/gpu or nvidia.com/mig-3g.40gb are interned as clusters and pods
// name them. Ids are stable for the registry's lifetime. ResourceList is a
// small list of (id, quantity) pairs sorted by id, with no zero quantities.

#ifndef GPUSHARE_CLUSTER_RESOURCES_H_
#define GPUSHARE_CLUSTER_RESOURCES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpushare {

// Well-known resource names (NVIDIA/k8s-device-plugin README;
// Project-HAMi/HAMi charts/hami/values.yaml).
inline constexpr std::string_view kCpu = "cpu";
inline constexpr std::string_view kMemory = "memory";
inline constexpr std::string_view kNvidiaGpu = "nvidia.com/gpu";
inline constexpr std::string_view kNvidiaGpuShared = "nvidia.com/gpu.shared";
inline constexpr std::string_view kHamiGpuMem = "nvidia.com/gpumem";
inline constexpr std::string_view kHamiGpuMemPercentage =
    "nvidia.com/gpumem-percentage";
inline constexpr std::string_view kHamiGpuCores = "nvidia.com/gpucores";
// KEP-5004's implicit extended resource name of a DeviceClass is this prefix
// and the class name; DRA pools account their claims under it
// (cluster/dra/dra_gpu_devices.h).
inline constexpr std::string_view kDraClassResourcePrefix =
    "deviceclass.resource.kubernetes.io/";

using ResourceId = int;

class ResourceRegistry {
 public:
  static constexpr ResourceId kCpuId = 0;     // millicores
  static constexpr ResourceId kMemoryId = 1;  // MiB

  ResourceRegistry();

  // The id of `name`, adding it if new.
  ResourceId Intern(std::string_view name);
  // The id of `name`, or -1.
  ResourceId Find(std::string_view name) const;
  const std::string& Name(ResourceId id) const { return names_[id]; }
  int size() const { return static_cast<int>(names_.size()); }

  // Whether kube-scheduler's NodeResourcesFit skips this resource because an
  // extender manages it (HAMi's gpumem, gpumem-percentage and gpucores are
  // `ignoredByScheduler: true` in HAMi's scheduler config, chart
  // templates/scheduler/configmap.yaml).
  bool IgnoredByScheduler(ResourceId id) const { return ignored_[id]; }

  // Which of the names the device plugins read an id is, known at Intern so
  // that hot paths compare ids, not strings.
  enum class Kind : uint8_t {
    kOther,
    kCpuKind,
    kMemoryKind,
    kNvidiaGpuKind,
    kGpuMemKind,
    kGpuMemPercentageKind,
    kGpuCoresKind,
    kDraClassKind  // kDraClassResourcePrefix...: a DRA claim's devices
  };
  Kind KindOf(ResourceId id) const { return kinds_[id]; }

 private:
  std::vector<std::string> names_;
  std::vector<bool> ignored_;
  std::vector<Kind> kinds_;
  std::unordered_map<std::string, ResourceId> ids_;
};

// (resource, quantity) pairs sorted by resource id; quantities > 0.
class ResourceList {
 public:
  ResourceList() = default;

  // Sets `id` to `quantity` (removes it when quantity is 0).
  void Set(ResourceId id, int64_t quantity);
  // Adds `quantity` to `id`.
  void Add(ResourceId id, int64_t quantity);
  int64_t Get(ResourceId id) const {
    // Lists are short (a handful of resources): a linear scan is fastest.
    for (const Item& item : items_) {
      if (item.first == id) return item.second;
      if (item.first > id) break;
    }
    return 0;
  }
  bool empty() const { return items_.empty(); }

  using Item = std::pair<ResourceId, int64_t>;
  const std::vector<Item>& items() const { return items_; }
  bool operator==(const ResourceList&) const = default;

  // "cpu=500m memory=1024Mi nvidia.com/gpu=1" with `registry` names.
  std::string ToString(const ResourceRegistry& registry) const;

 private:
  std::vector<Item> items_;
};

// kube-scheduler's defaults for pods without cpu / memory requests
// (pkg/scheduler/util DefaultMilliCPURequest, DefaultMemoryRequest).
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequestMib = 200;

// A pod's cpu (millicores) and memory (MiB) as NodeResourcesFit's scoring
// counts them (component-helpers GetNonzeroRequestForResource, applied per
// container): a container that names no request counts the default, one
// that names 0 counts 0.
struct NonZeroRequests {
  int64_t cpu_milli = kDefaultMilliCpuRequest;
  int64_t memory_mib = kDefaultMemoryRequestMib;
};

// The non-zero requests of a pod known only by its total requests (a
// generated or trace pod): a total of 0 is taken as no request.
inline NonZeroRequests DefaultNonZeroRequests(const ResourceList& requests) {
  const int64_t cpu = requests.Get(ResourceRegistry::kCpuId);
  const int64_t memory = requests.Get(ResourceRegistry::kMemoryId);
  return {cpu > 0 ? cpu : kDefaultMilliCpuRequest,
          memory > 0 ? memory : kDefaultMemoryRequestMib};
}

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_RESOURCES_H_
