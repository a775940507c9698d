#include "gpushare/cluster/node.h"

#include "gpushare/io/check.h"

namespace gpushare {

Node::Node(std::string name, int pool, Labels labels,
           std::vector<Taint> taints, const GpuModel* model, int gpus,
           int64_t cpu_milli, int64_t memory_mib, int max_pods,
           std::unique_ptr<DevicePlugin> devices)
    : name_(std::move(name)),
      pool_(pool),
      labels_(std::move(labels)),
      taints_(std::move(taints)),
      model_(model),
      gpus_(gpus),
      max_pods_(max_pods),
      devices_(std::move(devices)) {
  Grow(ResourceRegistry::kMemoryId);
  allocatable_[ResourceRegistry::kCpuId] = cpu_milli;
  allocatable_[ResourceRegistry::kMemoryId] = memory_mib;
  if (devices_) {
    extended_ = devices_->Capacity();
    for (const auto& [id, quantity] : extended_.items()) {
      Grow(id);
      allocatable_[id] = quantity;
    }
  }
}

void Node::SyncDeviceAllocatable() {
  if (!devices_) return;
  const ResourceList& allocatable = devices_->Allocatable();
  for (const auto& [id, quantity] : extended_.items()) {
    allocatable_[id] = device_plugin_registered_ ? allocatable.Get(id) : 0;
  }
  ++version_;
}

void Node::Grow(ResourceId id) {
  if (id >= static_cast<int>(allocatable_.size())) {
    allocatable_.resize(id + 1, 0);
    requested_.resize(id + 1, 0);
  }
}

void Node::Reserve(const ResourceList& requests,
                   const NonZeroRequests& nonzero) {
  for (const auto& [id, quantity] : requests.items()) {
    Grow(id);
    requested_[id] += quantity;
  }
  nonzero_cpu_milli_ += nonzero.cpu_milli;
  nonzero_memory_mib_ += nonzero.memory_mib;
  ++pod_count_;
  ++version_;
}

void Node::Unreserve(const ResourceList& requests,
                     const NonZeroRequests& nonzero) {
  for (const auto& [id, quantity] : requests.items()) {
    GS_CHECK(id < static_cast<int>(requested_.size()) &&
                 requested_[id] >= quantity,
             "unreserve of more than was reserved");
    requested_[id] -= quantity;
  }
  nonzero_cpu_milli_ -= nonzero.cpu_milli;
  nonzero_memory_mib_ -= nonzero.memory_mib;
  GS_CHECK(pod_count_ > 0, "unreserve on an empty node");
  --pod_count_;
  ++version_;
}

void Node::HoldClaim(const ResourceList& requests) {
  for (const auto& [id, quantity] : requests.items()) {
    Grow(id);
    requested_[id] += quantity;
  }
  ++version_;
}

void Node::DropClaim(const ResourceList& requests) {
  for (const auto& [id, quantity] : requests.items()) {
    GS_CHECK(id < static_cast<int>(requested_.size()) &&
                 requested_[id] >= quantity,
             "a claim dropped more than was held");
    requested_[id] -= quantity;
  }
  ++version_;
}

}  // namespace gpushare
