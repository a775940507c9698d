// Test-only helpers that build AutoscalerSnapshots by hand for the
// autoscaler models' unit tests (cluster_autoscaler_test.cc,
// karpenter_test.cc).
//
// Contract: the fixture owns the registry, the GPU model and the pool specs
// the views point at (a std::deque keeps the pointers valid). Resources:
// cpu (millicores), memory (MiB), nvidia.com/gpu, HAMi's nvidia.com/gpumem
// (extender-managed) and one DRA device class.

#ifndef GPUSHARE_SIM_TEST_AUTOSCALER_SNAPSHOTS_H_
#define GPUSHARE_SIM_TEST_AUTOSCALER_SNAPSHOTS_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sim/autoscaler.h"

namespace gpushare {

class AutoscalerSnapshotTest : public ::testing::Test {
 protected:
  AutoscalerSnapshotTest()
      : gpu_(registry_.Intern(kNvidiaGpu)),
        gpumem_(registry_.Intern(kHamiGpuMem)),
        dra_(registry_.Intern(std::string(kDraClassResourcePrefix) +
                              "gpu.nvidia.com")) {
    model_.name = "H100-80GB";
  }

  // An 8-GPU node pool (96 cores, 1 TiB, 110 pods) scaled by `provider`.
  NodePoolSpec* Spec(AutoscalerProvider provider, int min_nodes,
                     int max_nodes) {
    NodePoolSpec spec;
    spec.name = "pool" + std::to_string(specs_.size());
    spec.gpus_per_node = 8;
    spec.cpu_milli = 96000;
    spec.memory_mib = 1048576;
    spec.max_pods = 110;
    spec.autoscaling.provider = provider;
    spec.autoscaling.min_nodes = min_nodes;
    spec.autoscaling.max_nodes = max_nodes;
    specs_.push_back(spec);
    return &specs_.back();
  }

  ResourceList Res(int64_t cpu, int64_t memory,
                   std::vector<std::pair<ResourceId, int64_t>> extra = {}) {
    ResourceList out;
    out.Set(ResourceRegistry::kCpuId, cpu);
    out.Set(ResourceRegistry::kMemoryId, memory);
    for (const auto& [id, quantity] : extra) out.Set(id, quantity);
    return out;
  }
  // A pod of 1 core, 1 GiB and `gpus` nvidia.com/gpu.
  ResourceList GpuPod(int64_t gpus) { return Res(1000, 1024, {{gpu_, gpus}}); }
  // A node of the 8-GPU shape advertising `gpus` nvidia.com/gpu.
  ResourceList GpuNode(int64_t gpus) {
    return Res(96000, 1048576, {{gpu_, gpus}});
  }

  AutoscalerGroupView Group(int pool, const NodePoolSpec* spec,
                            double price = 0) {
    AutoscalerGroupView group;
    group.pool = pool;
    group.spec = spec;
    group.model = &model_;
    group.price_per_node_hour = price;
    return group;
  }

  static AutoscalerNodeView Node(int node, AutoscalerNodeView::State state,
                                 double since, ResourceList allocatable,
                                 std::vector<ResourceList> pods = {},
                                 bool evictable = true) {
    AutoscalerNodeView view;
    view.node = node;
    view.state = state;
    view.state_since_s = since;
    view.allocatable = std::move(allocatable);
    PodIndex next = 1000 * (node + 1);
    for (ResourceList& requests : pods) {
      for (const auto& [id, quantity] : requests.items()) {
        view.requested.Add(id, quantity);
      }
      view.pods.push_back({next++, std::move(requests), evictable});
    }
    return view;
  }
  static AutoscalerNodeView Ready(int node, double since,
                                  ResourceList allocatable,
                                  std::vector<ResourceList> pods = {},
                                  bool evictable = true) {
    return Node(node, AutoscalerNodeView::State::kReady, since,
                std::move(allocatable), std::move(pods), evictable);
  }
  static AutoscalerNodeView Launching(int node, double since) {
    return Node(node, AutoscalerNodeView::State::kLaunching, since, {});
  }

  static AutoscalerPendingPod Pending(PodIndex pod, int pool,
                                      ResourceList requests,
                                      double since = 0, bool claims = false) {
    AutoscalerPendingPod pending;
    pending.pod = pod;
    pending.pool = pool;
    pending.requests = std::move(requests);
    pending.pending_since_s = since;
    pending.uses_resource_claims = claims;
    return pending;
  }

  AutoscalerSnapshot Snapshot(double now, std::vector<AutoscalerGroupView> groups,
                              std::vector<AutoscalerPendingPod> pending = {}) {
    AutoscalerSnapshot snapshot;
    snapshot.now_s = now;
    snapshot.resources = &registry_;
    snapshot.groups = std::move(groups);
    snapshot.pending = std::move(pending);
    return snapshot;
  }

  ResourceRegistry registry_;
  GpuModel model_;
  std::deque<NodePoolSpec> specs_;
  ResourceId gpu_;
  ResourceId gpumem_;
  ResourceId dra_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_TEST_AUTOSCALER_SNAPSHOTS_H_
