// Unit tests of ClusterAutoscaler on hand-built snapshots; each expected
// decision is computed by hand in the comment above it.

#include "gpushare/sim/cluster_autoscaler.h"

#include <gtest/gtest.h>

#include <vector>

#include "gpushare/sim/test_autoscaler_snapshots.h"

namespace gpushare {
namespace {

using State = AutoscalerNodeView::State;
constexpr AutoscalerProvider kCa = AutoscalerProvider::kClusterAutoscaler;

class ClusterAutoscalerTest : public AutoscalerSnapshotTest {
 protected:
  ClusterAutoscaler Make(std::vector<int> pools,
                         ClusterAutoscalerSettings global = {}) {
    return ClusterAutoscaler(std::move(pools), global, Rng(7));
  }
  std::vector<AutoscalerPendingPod> GpuPods(int count, int pool,
                                            int64_t gpus = 1) {
    std::vector<AutoscalerPendingPod> out;
    for (int i = 0; i < count; ++i) out.push_back(Pending(i, pool, GpuPod(gpus)));
    return out;
  }
};

TEST_F(ClusterAutoscalerTest, DecidesEveryScanInterval) {
  ClusterAutoscaler ca = Make({0});
  EXPECT_DOUBLE_EQ(ca.NextDecisionS(0), 10);
  EXPECT_DOUBLE_EQ(ca.NextDecisionS(10), 20);
  EXPECT_DOUBLE_EQ(ca.NextDecisionS(13), 20);
}

// From zero, time-slicing x4: the ready node would advertise 32
// nvidia.com/gpu, but the provider's template has the 8 physical GPUs.
// 10 pods of 1 GPU: first fit on 8-GPU templates = 8 + 2 -> 2 nodes, where
// one real node (32) would hold all 10.
TEST_F(ClusterAutoscalerTest, TimeSlicingFromZeroOverProvisions) {
  NodePoolSpec* spec = Spec(kCa, 0, 10);
  AutoscalerGroupView group = Group(0, spec);
  group.ready_node_allocatable = GpuNode(32);
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d = ca.Decide(Snapshot(100, {group}, GpuPods(10, 0)));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].pool, 0);
  EXPECT_EQ(d.scale_ups[0].nodes, 2);
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 10u);
  EXPECT_TRUE(d.scale_downs.empty());
  EXPECT_TRUE(d.no_scale_up.empty());
}

// With a ready node (ready 120 s > 60 s ago, full: 32 of 32 replicas) the
// template is its copy: 32 per node, so the 10 pods need 1 node.
TEST_F(ClusterAutoscalerTest, TemplateCopiesReadyNode) {
  NodePoolSpec* spec = Spec(kCa, 0, 10);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(
      Ready(0, 0, GpuNode(32), std::vector<ResourceList>(32, GpuPod(1))));
  ClusterAutoscaler ca = Make({0});
  AutoscalerSnapshot snapshot = Snapshot(120, {group}, GpuPods(10, 0));
  EXPECT_EQ(ca.TemplateFor(group, snapshot).Get(gpu_), 32);
  AutoscalerDecision d = ca.Decide(snapshot);
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 1);
  // The copy is cached: once the group is back at zero the template still
  // has 32 (mixed_nodeinfos_processor's cache).
  AutoscalerGroupView empty = Group(0, spec);
  EXPECT_EQ(ca.TemplateFor(empty, Snapshot(5000, {empty})).Get(gpu_), 32);
}

// A node ready for only 30 s (< 60 s) is no template: the provider's 8.
TEST_F(ClusterAutoscalerTest, FreshReadyNodeIsNoTemplate) {
  NodePoolSpec* spec = Spec(kCa, 0, 10);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(Ready(0, 90, GpuNode(32)));
  ClusterAutoscaler ca = Make({0});
  EXPECT_EQ(ca.TemplateFor(group, Snapshot(120, {group})).Get(gpu_), 8);
}

// A launching node (100 s old < 900 s) is upcoming capacity of one
// template (8 GPUs): pods 0..7 fit it, pods 8 and 9 get 1 new node.
TEST_F(ClusterAutoscalerTest, UpcomingNodesHoldPods) {
  NodePoolSpec* spec = Spec(kCa, 0, 10);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(Launching(0, 0));
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d = ca.Decide(Snapshot(100, {group}, GpuPods(10, 0)));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 1);
  EXPECT_EQ(d.scale_ups[0].for_pods, (std::vector<PodIndex>{8, 9}));
}

// max 3, empty group, 40 one-GPU pods on 8-GPU templates: 5 nodes needed,
// capped at 3 - 0 = 3 nodes holding 24 pods.
TEST_F(ClusterAutoscalerTest, EstimateCappedAtMax) {
  NodePoolSpec* spec = Spec(kCa, 0, 3);
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d =
      ca.Decide(Snapshot(100, {Group(0, spec)}, GpuPods(40, 0)));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 3);
  EXPECT_EQ(d.scale_ups[0].for_pods.size(), 24u);
}

// First fit decreasing: pods of 6, 2, 5, 3 GPUs; CA orders by cpu+memory
// share, all equal here, so the order stays: node A gets 6+2, 5 opens B,
// 3 joins B (5+3 = 8) -> 2 nodes.
TEST_F(ClusterAutoscalerTest, FirstFitOnTemplates) {
  NodePoolSpec* spec = Spec(kCa, 0, 10);
  ClusterAutoscaler ca = Make({0});
  std::vector<AutoscalerPendingPod> pods = {
      Pending(0, 0, GpuPod(6)), Pending(1, 0, GpuPod(2)),
      Pending(2, 0, GpuPod(5)), Pending(3, 0, GpuPod(3))};
  AutoscalerDecision d = ca.Decide(Snapshot(100, {Group(0, spec)}, pods));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 2);
}

// HAMi: the pods ask nvidia.com/gpumem, which no Node object advertises (the
// extender manages it); the copied ready node lacks it -> no scale-up.
// A second group the pod does not target adds the affinity reason.
TEST_F(ClusterAutoscalerTest, HamiPodsNeverTriggerScaleUp) {
  NodePoolSpec* hami = Spec(kCa, 0, 4);
  NodePoolSpec* other = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, hami);
  group.nodes.push_back(Ready(
      0, 0, Res(96000, 1048576, {{gpu_, 80}, {gpumem_, 8 * 81920}}),
      std::vector<ResourceList>(8, Res(1000, 1024, {{gpu_, 10}, {gpumem_, 81920}}))));
  ClusterAutoscaler ca = Make({0, 1});
  AutoscalerDecision d = ca.Decide(Snapshot(
      200, {group, Group(1, other)},
      {Pending(5, 0, Res(1000, 1024, {{gpu_, 1}, {gpumem_, 20000}}))}));
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 1u);
  EXPECT_EQ(d.no_scale_up[0].pod, 5);
  EXPECT_EQ(d.no_scale_up[0].pool, 0);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "pod didn't trigger scale-up: 1 Insufficient nvidia.com/gpumem, "
            "1 node(s) didn't match Pod's node affinity/selector");
  EXPECT_EQ(d.no_scale_up[0].upstream, "Project-HAMi/HAMi#1099");
}

// The node-template annotation declaring gpumem (8 x 81920 MiB) lets the
// group scale from zero: 2 pods of 20000 MiB fit one template node.
TEST_F(ClusterAutoscalerTest, HamiTemplateResourcesScaleFromZero) {
  NodePoolSpec* hami = Spec(kCa, 0, 4);
  hami->autoscaling.cluster_autoscaler.template_resources = {
      {"nvidia.com/gpumem", 8 * 81920}};
  ClusterAutoscaler ca = Make({0});
  ResourceList pod = Res(1000, 1024, {{gpu_, 1}, {gpumem_, 20000}});
  AutoscalerDecision d = ca.Decide(
      Snapshot(100, {Group(0, hami)}, {Pending(0, 0, pod), Pending(1, 0, pod)}));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 1);
  EXPECT_TRUE(d.no_scale_up.empty());
}

// DRA from zero: no template ResourceSlices -> the DynamicResources filter
// fails on the template: no scale-up; with slices -> 1 node.
TEST_F(ClusterAutoscalerTest, DraFromZeroNeedsTemplateSlices) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.ready_node_allocatable = Res(96000, 1048576, {{dra_, 8}});
  const AutoscalerPendingPod pod =
      Pending(3, 0, Res(1000, 1024, {{dra_, 1}}), 0, /*claims=*/true);
  {
    ClusterAutoscaler ca = Make({0});
    AutoscalerDecision d = ca.Decide(Snapshot(100, {group}, {pod}));
    EXPECT_TRUE(d.scale_ups.empty());
    ASSERT_EQ(d.no_scale_up.size(), 1u);
    EXPECT_EQ(d.no_scale_up[0].reason,
              "pod didn't trigger scale-up: 1 cannot allocate all claims");
    EXPECT_EQ(d.no_scale_up[0].upstream, "kubernetes/autoscaler#10277");
  }
  spec->autoscaling.cluster_autoscaler.template_resource_slices = true;
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d = ca.Decide(Snapshot(100, {group}, {pod}));
  ASSERT_EQ(d.scale_ups.size(), 1u);
  EXPECT_EQ(d.scale_ups[0].nodes, 1);
}

// A group at max (2 of 2 nodes, both full) is skipped with CA's reason.
TEST_F(ClusterAutoscalerTest, MaxNodeGroupSizeReached) {
  NodePoolSpec* spec = Spec(kCa, 0, 2);
  AutoscalerGroupView group = Group(0, spec);
  for (int n = 0; n < 2; ++n) {
    group.nodes.push_back(
        Ready(n, 0, GpuNode(8), std::vector<ResourceList>(8, GpuPod(1))));
  }
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d = ca.Decide(Snapshot(100, {group}, GpuPods(1, 0)));
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 1u);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "pod didn't trigger scale-up: 1 max node group size reached");
  EXPECT_EQ(d.no_scale_up[0].upstream, "");
}

// --new-pod-scale-up-delay 10 s: a pod pending since 95 s is ignored at
// 100 s (no scale-up, no note) and scaled for at 110 s.
TEST_F(ClusterAutoscalerTest, NewPodScaleUpDelay) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  ClusterAutoscalerSettings global;
  global.new_pod_scale_up_delay_s = 10;
  ClusterAutoscaler ca = Make({0}, global);
  std::vector<AutoscalerPendingPod> pods = {Pending(0, 0, GpuPod(1), 95)};
  AutoscalerDecision early = ca.Decide(Snapshot(100, {Group(0, spec)}, pods));
  EXPECT_TRUE(early.scale_ups.empty());
  EXPECT_TRUE(early.no_scale_up.empty());
  AutoscalerDecision later = ca.Decide(Snapshot(110, {Group(0, spec)}, pods));
  ASSERT_EQ(later.scale_ups.size(), 1u);
}

// A node launched at 0 and not ready at 910 s (> 900 s) is no longer
// upcoming and backs the group off 300 s: at 910 s the pod is noted "in
// backoff"; at 1220 s (backoff until 1210 s) the group scales up again.
TEST_F(ClusterAutoscalerTest, ProvisionTimeoutBacksOff) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(Launching(0, 0));
  ClusterAutoscaler ca = Make({0});
  AutoscalerDecision d = ca.Decide(Snapshot(910, {group}, GpuPods(1, 0)));
  EXPECT_TRUE(d.scale_ups.empty());
  ASSERT_EQ(d.no_scale_up.size(), 1u);
  EXPECT_EQ(d.no_scale_up[0].reason,
            "pod didn't trigger scale-up: 1 in backoff after failed scale-up");
  EXPECT_TRUE(ca.Decide(Snapshot(1200, {group}, GpuPods(1, 0))).scale_ups.empty());
  AutoscalerDecision after = ca.Decide(Snapshot(1220, {group}, GpuPods(1, 0)));
  ASSERT_EQ(after.scale_ups.size(), 1u);
  EXPECT_EQ(after.scale_ups[0].nodes, 1);
}

// Expanders over group A (8 GPUs, 96 cores, 1 TiB) and B (4 GPUs, 32 cores,
// 256 GiB); 4 pods of 1 GPU, 4 cores, 16 GiB -> 1 node either way.
// least-waste: A (96-16)/96 + (1024-64)/1024 = 1.771, B (32-16)/32 +
// (256-64)/256 = 1.25 -> B. price per pod: A 100/4 = 25, B 40/4 = 10 -> B;
// with B at 120 -> A. priority: A 10 > B 5 -> A.
TEST_F(ClusterAutoscalerTest, Expanders) {
  NodePoolSpec* a = Spec(kCa, 0, 4);
  NodePoolSpec* b = Spec(kCa, 0, 4);
  b->gpus_per_node = 4;
  b->cpu_milli = 32000;
  b->memory_mib = 262144;
  a->autoscaling.cluster_autoscaler.priority = 10;
  b->autoscaling.cluster_autoscaler.priority = 5;
  std::vector<AutoscalerPendingPod> pods;
  for (int i = 0; i < 4; ++i) {
    const ResourceList r = Res(4000, 16384, {{gpu_, 1}});
    pods.push_back(Pending(i, 0, r));
    pods.push_back(Pending(i, 1, r));
  }
  auto chosen = [&](CaExpander expander, double price_b) {
    ClusterAutoscalerSettings global;
    global.expander = expander;
    ClusterAutoscaler ca = Make({0, 1}, global);
    AutoscalerDecision d = ca.Decide(
        Snapshot(100, {Group(0, a, 100), Group(1, b, price_b)}, pods));
    EXPECT_EQ(d.scale_ups.size(), 1u);
    return d.scale_ups.empty() ? -1 : d.scale_ups[0].pool;
  };
  EXPECT_EQ(chosen(CaExpander::kLeastWaste, 40), 1);
  EXPECT_EQ(chosen(CaExpander::kPrice, 40), 1);
  EXPECT_EQ(chosen(CaExpander::kPrice, 120), 0);
  EXPECT_EQ(chosen(CaExpander::kPriority, 40), 0);
  // most-pods ties (4 and 4): the Rng picks, the same way every time.
  EXPECT_EQ(chosen(CaExpander::kMostPods, 40), chosen(CaExpander::kMostPods, 40));
}

// Scale-down: node 0 has 2 of 8 GPUs requested (25 % < 50 %) but 90 cores
// of 96 (CPU is not counted on a GPU node); node 1 has 4 of 8 (50 %, not
// under). Node 0's 2 pods (1 GPU, 1 core each) fit node 1's free 4 GPUs.
// Unneeded from 1000 s: kept at 1590 s (590 < 600), removed at 1600 s.
TEST_F(ClusterAutoscalerTest, ScaleDownAfterUnneededTime) {
  NodePoolSpec* spec = Spec(kCa, 1, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(
      Ready(0, 0, GpuNode(8), {Res(45000, 1024, {{gpu_, 1}}), Res(45000, 1024, {{gpu_, 1}})}));
  group.nodes.push_back(
      Ready(1, 0, GpuNode(8), std::vector<ResourceList>(4, GpuPod(1))));
  ClusterAutoscaler ca = Make({0});
  EXPECT_TRUE(ca.Decide(Snapshot(1000, {group})).scale_downs.empty());
  EXPECT_TRUE(ca.Decide(Snapshot(1590, {group})).scale_downs.empty());
  AutoscalerDecision d = ca.Decide(Snapshot(1600, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 0);
  EXPECT_EQ(d.scale_downs[0].reason,
            "unneeded for 600 s (nvidia.com/gpu requested 2 of 8 (25 %) < 50 % "
            "threshold, its pods fit on other nodes)");
}

// A pod that may not be evicted keeps its node; min_nodes keeps the last.
TEST_F(ClusterAutoscalerTest, ScaleDownBlockers) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(Ready(0, 0, GpuNode(8), {GpuPod(1)}, /*evictable=*/false));
  group.nodes.push_back(Ready(1, 0, GpuNode(8)));
  ClusterAutoscaler ca = Make({0});
  ca.Decide(Snapshot(0, {group}));
  AutoscalerDecision d = ca.Decide(Snapshot(600, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 1);  // empty; node 0 is blocked
  spec->autoscaling.min_nodes = 2;
  ClusterAutoscaler at_min = Make({0});
  at_min.Decide(Snapshot(0, {group}));
  EXPECT_TRUE(at_min.Decide(Snapshot(600, {group})).scale_downs.empty());
}

// A failed drain simulation leaves no trace. Node 0: 7 of 8 GPUs used.
// Node 1 (2 of 8): its evictable pod (1 GPU) would go to node 0, then its
// non-evictable pod (94 cores) blocks it; node 1 keeps only 1 core free.
// Node 2 (1 of 8): its pod (1 GPU, 2 cores) fits only node 0's free GPU,
// which the blocked trial must have given back -> node 2 removed at 600 s.
TEST_F(ClusterAutoscalerTest, BlockedDrainTrialIsUndone) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.nodes.push_back(
      Ready(0, 0, GpuNode(8), std::vector<ResourceList>(7, GpuPod(1))));
  group.nodes.push_back(Ready(1, 0, GpuNode(8), {GpuPod(1)}));
  AutoscalerNodeView& blocked = group.nodes.back();
  blocked.pods.push_back({1999, Res(94000, 1024, {{gpu_, 1}}), false});
  blocked.requested = Res(95000, 2048, {{gpu_, 2}});
  group.nodes.push_back(Ready(2, 0, GpuNode(8), {Res(2000, 1024, {{gpu_, 1}})}));
  ClusterAutoscaler ca = Make({0});
  ca.Decide(Snapshot(0, {group}));
  AutoscalerDecision d = ca.Decide(Snapshot(600, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 2);
}

// Empty nodes go in bulk, nodes to drain one at a time. Nodes 0-2 empty,
// nodes 3 and 4 with one 1-GPU pod each (12.5 %), min 0. In node order:
// 0, 1, 2 leave the simulation; node 3's pod moves to node 4 (the only node
// left); node 4's pod then has nowhere to go. Unneeded: 0, 1, 2 (empty) and
// 3 -> all three empty ones and node 3 are removed in one loop.
TEST_F(ClusterAutoscalerTest, EmptyNodesInBulkOneDrainAtATime) {
  NodePoolSpec* spec = Spec(kCa, 0, 8);
  AutoscalerGroupView group = Group(0, spec);
  for (int n = 0; n < 3; ++n) group.nodes.push_back(Ready(n, 0, GpuNode(8)));
  group.nodes.push_back(Ready(3, 0, GpuNode(8), {GpuPod(1)}));
  group.nodes.push_back(Ready(4, 0, GpuNode(8), {GpuPod(1)}));
  ClusterAutoscaler ca = Make({0});
  ca.Decide(Snapshot(0, {group}));
  AutoscalerDecision d = ca.Decide(Snapshot(600, {group}));
  std::vector<int> removed;
  for (const ScaleDownAction& a : d.scale_downs) removed.push_back(a.node);
  EXPECT_EQ(removed, (std::vector<int>{0, 1, 2, 3}));
}

// --scale-down-delay-after-add 600 s: after a scale-up at 100 s an unneeded
// empty node is not removed before 700 s.
TEST_F(ClusterAutoscalerTest, ScaleDownDelayAfterAdd) {
  NodePoolSpec* full = Spec(kCa, 0, 4);
  NodePoolSpec* idle = Spec(kCa, 0, 4);
  AutoscalerGroupView busy = Group(0, full);
  AutoscalerGroupView spare = Group(1, idle);
  spare.nodes.push_back(Ready(9, 0, GpuNode(8)));
  ClusterAutoscaler ca = Make({0, 1});
  // The pod targets only pool 0, which grows.
  ASSERT_EQ(ca.Decide(Snapshot(100, {busy, spare}, GpuPods(1, 0))).scale_ups.size(), 1u);
  EXPECT_TRUE(ca.Decide(Snapshot(110, {busy, spare})).scale_downs.empty());
  EXPECT_TRUE(ca.Decide(Snapshot(690, {busy, spare})).scale_downs.empty());
  AutoscalerDecision d = ca.Decide(Snapshot(710, {busy, spare}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 9);
}

// A CPU pool: utilization is the larger of cpu and memory. Node 0: 40 of
// 96 cores (41.7 %), 600 of 1024 GiB (58.6 %) -> 58.6 %, needed. Node 1:
// 40 cores (41.7 %), 400 GiB (39.1 %) -> 41.7 % < 50 %; its pod fits node
// 0's free 56 cores and 424 GiB -> removed after 600 s.
TEST_F(ClusterAutoscalerTest, CpuNodeUsesLargerOfCpuAndMemory) {
  NodePoolSpec* spec = Spec(kCa, 0, 4);
  AutoscalerGroupView group = Group(0, spec);
  group.model = nullptr;
  group.nodes.push_back(Ready(0, 0, Res(96000, 1048576), {Res(40000, 614400)}));
  group.nodes.push_back(Ready(1, 0, Res(96000, 1048576), {Res(40000, 409600)}));
  ClusterAutoscaler ca = Make({0});
  ca.Decide(Snapshot(0, {group}));
  AutoscalerDecision d = ca.Decide(Snapshot(600, {group}));
  ASSERT_EQ(d.scale_downs.size(), 1u);
  EXPECT_EQ(d.scale_downs[0].node, 1);
  EXPECT_EQ(d.scale_downs[0].reason,
            "unneeded for 600 s (cpu requested 40000 of 96000 (42 %) < 50 % "
            "threshold, its pods fit on other nodes)");
}

}  // namespace
}  // namespace gpushare
