// Node: one Kubernetes node of the simulated cluster.
//
// Contract: a node has a name, its pool, labels (the pool's, the standard
// kubernetes.io/hostname and gpushare.io/node-pool, and those its device
// plugin sets), taints, allocatable cpu (millicores), memory (MiB), pods and
// the extended resources its device plugin advertises, and the running sum of
// what bound pods request. Reserve()/Unreserve() keep `requested` in step with
// the device plugin; the scheduler is the only writer. version() changes
// whenever anything a scheduler plugin reads of the node may have changed:
// Reserve, Unreserve (which always accompany a device Allocate / Release),
// SetLabels, SetTaints and SyncDeviceAllocatable; plugins' results may be
// cached per version. Allocatable extended resources follow the device
// plugin's healthy devices (SyncDeviceAllocatable after a health change), so
// while a device is down what bound pods request may exceed them; extended()
// stays the capacity. While the device plugin is not registered with kubelet
// (SetDevicePluginRegistered(false): a stalled or crashed plugin) every
// extended resource's allocatable is 0, whatever the devices' health.

#ifndef GPUSHARE_CLUSTER_NODE_H_
#define GPUSHARE_CLUSTER_NODE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/device_plugin.h"
#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {

// kubelet's default maxPods.
inline constexpr int kDefaultMaxPods = 110;

class Node {
 public:
  Node(std::string name, int pool, Labels labels, std::vector<Taint> taints,
       const GpuModel* model, int gpus, int64_t cpu_milli, int64_t memory_mib,
       int max_pods, std::unique_ptr<DevicePlugin> devices);

  const std::string& name() const { return name_; }
  int pool() const { return pool_; }
  const Labels& labels() const { return labels_; }
  const std::vector<Taint>& taints() const { return taints_; }
  // Null for a node without GPUs.
  const GpuModel* model() const { return model_; }
  int gpus() const { return gpus_; }
  int max_pods() const { return max_pods_; }
  int pod_count() const { return pod_count_; }
  // Starts at 1; see the contract above.
  uint64_t version() const { return version_; }

  int64_t Allocatable(ResourceId id) const {
    return id < static_cast<int>(allocatable_.size()) ? allocatable_[id] : 0;
  }
  int64_t Requested(ResourceId id) const {
    return id < static_cast<int>(requested_.size()) ? requested_[id] : 0;
  }
  // kube-scheduler's NonZeroRequested for cpu (millicores) and memory (MiB):
  // pods without a request count 100m and 200 MiB.
  int64_t NonZeroRequested(ResourceId id) const {
    return id == ResourceRegistry::kCpuId ? nonzero_cpu_milli_
                                          : nonzero_memory_mib_;
  }
  // The extended resources of the node (the device plugin's capacity).
  const ResourceList& extended() const { return extended_; }
  // Capacity of `id`: allocatable for cpu and memory, extended() otherwise.
  int64_t Capacity(ResourceId id) const {
    return id <= ResourceRegistry::kMemoryId ? Allocatable(id)
                                             : extended_.Get(id);
  }

  DevicePlugin* devices() { return devices_.get(); }
  const DevicePlugin* devices() const { return devices_.get(); }

  // Adds (Reserve) or removes (Unreserve) a pod's requests; `nonzero` is
  // what the pod counts in NonZeroRequested (default: its cpu and memory
  // requests, a request of 0 counting as absent).
  void Reserve(const ResourceList& requests, const NonZeroRequests& nonzero);
  void Unreserve(const ResourceList& requests, const NonZeroRequests& nonzero);
  void Reserve(const ResourceList& requests) {
    Reserve(requests, DefaultNonZeroRequests(requests));
  }
  void Unreserve(const ResourceList& requests) {
    Unreserve(requests, DefaultNonZeroRequests(requests));
  }
  // Adds (HoldClaim) or removes (DropClaim) the extended resources of a
  // shared ResourceClaim's allocation, held apart from the pods that share
  // it (no pod slot, no cpu or memory): from when its first pod's Reserve
  // allocated it until the last of its pods is gone.
  void HoldClaim(const ResourceList& requests);
  void DropClaim(const ResourceList& requests);

  // Re-reads the device plugin's Allocatable() after a device-health change
  // (kubelet's allocatable follows ListAndWatch).
  void SyncDeviceAllocatable();
  // Whether kubelet has the device plugin registered (true from the start);
  // a change takes effect at the next SyncDeviceAllocatable().
  void SetDevicePluginRegistered(bool registered) {
    device_plugin_registered_ = registered;
  }
  bool device_plugin_registered() const { return device_plugin_registered_; }

  // Replaces the labels (a node change event).
  void SetLabels(Labels labels) {
    labels_ = std::move(labels);
    ++version_;
  }
  void SetTaints(std::vector<Taint> taints) {
    taints_ = std::move(taints);
    ++version_;
  }
  // Whether the node exists: a slot of an autoscaled pool (cluster.h) that
  // has no node now is seen by nobody — the scheduler, capacity, cost and
  // samples pass over it. True unless set otherwise.
  bool exists() const { return exists_; }
  void SetExists(bool exists) {
    exists_ = exists;
    ++version_;
  }

 private:
  void Grow(ResourceId id);

  std::string name_;
  int pool_;
  Labels labels_;
  std::vector<Taint> taints_;
  const GpuModel* model_;
  int gpus_;
  int max_pods_;
  int pod_count_ = 0;
  bool device_plugin_registered_ = true;
  bool exists_ = true;
  uint64_t version_ = 1;
  std::vector<int64_t> allocatable_;
  std::vector<int64_t> requested_;
  int64_t nonzero_cpu_milli_ = 0;
  int64_t nonzero_memory_mib_ = 0;
  ResourceList extended_;
  std::unique_ptr<DevicePlugin> devices_;
};


}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_NODE_H_
