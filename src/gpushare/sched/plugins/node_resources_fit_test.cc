#include "gpushare/sched/plugins/node_resources_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {
namespace node_resources_fit_test {
namespace {

using ::testing::ElementsAre;
using Type = ScoringStrategy::Type;

constexpr ResourceId kCpu = ResourceRegistry::kCpuId;
constexpr ResourceId kMem = ResourceRegistry::kMemoryId;

NodePoolSpec CpuPool(std::string name, int64_t cpu_milli, int64_t memory_mib,
                     int max_pods = kDefaultMaxPods) {
  NodePoolSpec spec;
  spec.name = std::move(name);
  spec.gpus_per_node = 0;
  spec.cpu_milli = cpu_milli;
  spec.memory_mib = memory_mib;
  spec.max_pods = max_pods;
  return spec;
}

NodePoolSpec GpuPool(std::string name, SharingConfig sharing, int gpus,
                     int64_t cpu_milli = 4000, int64_t memory_mib = 8192) {
  NodePoolSpec spec;
  spec.name = std::move(name);
  spec.gpu_model = "A100-80GB";
  spec.gpus_per_node = gpus;
  spec.cpu_milli = cpu_milli;
  spec.memory_mib = memory_mib;
  spec.sharing = std::move(sharing);
  return spec;
}

ResourceList Requests(int64_t cpu, int64_t memory) {
  ResourceList r;
  r.Set(kCpu, cpu);
  r.Set(kMem, memory);
  return r;
}

Pod PodWith(ResourceList requests) {
  Pod pod;
  pod.requests = std::move(requests);
  return pod;
}

ScoringStrategy Strategy(Type type,
                         std::vector<std::pair<std::string, int64_t>> resources,
                         std::vector<std::pair<int64_t, int64_t>> shape = {
                             {0, 10}, {100, 0}}) {
  ScoringStrategy s;
  s.type = type;
  s.resources = std::move(resources);
  s.shape = std::move(shape);
  return s;
}

std::vector<std::string> Strings(const std::vector<std::string_view>& views) {
  return std::vector<std::string>(views.begin(), views.end());
}

// ---------------------------------------------------------------- Filter --

// NodeResourcesFit Filter (fit.go fitsRequest): every shortfall of the
// node is reported, cpu before memory.
TEST(NodeResourcesFitTest, FilterReportsEveryInsufficientResource) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(ScoringStrategy{}, cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(Requests(3500, 8000));  // free: cpu 500, memory 192

  const Pod pod = PodWith(Requests(1000, 500));
  plugin.PreFilter(pod);
  std::vector<std::string_view> reasons;
  EXPECT_FALSE(plugin.Filter(pod, node, &reasons));
  EXPECT_THAT(Strings(reasons),
              ElementsAre("Insufficient cpu", "Insufficient memory"));
  EXPECT_FALSE(plugin.Filter(pod, node, nullptr));

  // Exactly the free amounts fit: 500 <= 500, 192 <= 192.
  const Pod exact = PodWith(Requests(500, 192));
  plugin.PreFilter(exact);
  reasons.clear();
  EXPECT_TRUE(plugin.Filter(exact, node, &reasons));
  EXPECT_TRUE(reasons.empty());
}

// NodeResourcesFit (fit.go): pod count + 1 > allowed pods → "Too many pods",
// reported before the resource shortfalls.
TEST(NodeResourcesFitTest, FilterTooManyPods) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("small", 4000, 8192, /*max_pods=*/2));
  NodeResourcesFit plugin(ScoringStrategy{}, cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(ResourceList());
  const Pod pod = PodWith(Requests(100, 0));
  plugin.PreFilter(pod);
  EXPECT_TRUE(plugin.Filter(pod, node, nullptr));  // 1 + 1 <= 2

  node.Reserve(Requests(3950, 0));  // 2 pods; free cpu 50
  std::vector<std::string_view> reasons;
  EXPECT_FALSE(plugin.Filter(pod, node, &reasons));
  EXPECT_THAT(Strings(reasons),
              ElementsAre("Too many pods", "Insufficient cpu"));

  // A pod without requests still counts as a pod.
  reasons.clear();
  EXPECT_FALSE(plugin.Filter(Pod(), node, &reasons));
  EXPECT_THAT(Strings(reasons), ElementsAre("Too many pods"));
}

// fit.go with the device plugin's mixed MIG strategy: extended resources are
// checked like cpu, with the resource's name in the reason.
TEST(NodeResourcesFitTest, FilterExtendedResources) {
  Cluster cluster(Catalog::Builtin());
  // A100-80GB all-balanced: 2×1g.10gb, 1×2g.20gb, 1×3g.40gb per GPU.
  cluster.AddPool(GpuPool("mig",
                          MigSharing(MigStrategy::kMixed, "all-balanced"),
                          /*gpus=*/1));
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  ResourceRegistry& reg = cluster.resources();
  NodeResourcesFit plugin(ScoringStrategy{}, reg);
  const ResourceId mig3g = reg.Intern("nvidia.com/mig-3g.40gb");
  const ResourceId mig1g = reg.Intern("nvidia.com/mig-1g.10gb");
  const ResourceId gpu = reg.Intern(kNvidiaGpu);
  Node& mig_node = cluster.nodes()[0];
  const Node& cpu_node = cluster.nodes()[1];
  ASSERT_EQ(mig_node.Allocatable(mig3g), 1);
  ASSERT_EQ(mig_node.Allocatable(mig1g), 2);

  ResourceList used;
  used.Set(mig3g, 1);
  mig_node.Reserve(used);
  Pod pod3g;
  pod3g.requests.Set(mig3g, 1);
  std::vector<std::string_view> reasons;
  plugin.PreFilter(pod3g);
  EXPECT_FALSE(plugin.Filter(pod3g, mig_node, &reasons));
  EXPECT_THAT(Strings(reasons),
              ElementsAre("Insufficient nvidia.com/mig-3g.40gb"));

  Pod pod1g;
  pod1g.requests.Set(mig1g, 2);  // 2 <= 2 - 0
  plugin.PreFilter(pod1g);
  EXPECT_TRUE(plugin.Filter(pod1g, mig_node, nullptr));
  pod1g.requests.Set(mig1g, 3);
  plugin.PreFilter(pod1g);  // the framework calls PreFilter for every pod
  EXPECT_FALSE(plugin.Filter(pod1g, mig_node, nullptr));

  // A node that does not advertise the resource has 0 of it.
  Pod gpu_pod = PodWith(Requests(100, 100));
  gpu_pod.requests.Set(gpu, 1);
  plugin.PreFilter(gpu_pod);
  reasons.clear();
  EXPECT_FALSE(plugin.Filter(gpu_pod, cpu_node, &reasons));
  EXPECT_THAT(Strings(reasons), ElementsAre("Insufficient nvidia.com/gpu"));
}

// HAMi's gpumem, gpumem-percentage and gpucores are ignoredByScheduler in
// its extender's managedResources (Project-HAMi/HAMi chart
// templates/scheduler/configmap.yaml; kube-scheduler config/v1/types.go) —
// NodeResourcesFit never checks them.
TEST(NodeResourcesFitTest, FilterSkipsResourcesIgnoredByScheduler) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(GpuPool("hami", HamiSharing(), /*gpus=*/1));
  ResourceRegistry& reg = cluster.resources();
  NodeResourcesFit plugin(ScoringStrategy{}, reg);
  const Node& node = cluster.nodes()[0];
  // 1 GPU × deviceSplitCount 10 = 10 nvidia.com/gpu.
  ASSERT_EQ(node.Allocatable(reg.Intern(kNvidiaGpu)), 10);

  Pod pod;
  pod.requests.Set(reg.Intern(kNvidiaGpu), 1);
  pod.requests.Set(reg.Intern(kHamiGpuMem), 10000000);  // far over 81920
  pod.requests.Set(reg.Intern(kHamiGpuCores), 500);
  pod.requests.Set(reg.Intern(kHamiGpuMemPercentage), 300);
  plugin.PreFilter(pod);
  EXPECT_TRUE(plugin.Filter(pod, node, nullptr));

  pod.requests.Set(reg.Intern(kNvidiaGpu), 11);  // 11 > 10
  plugin.PreFilter(pod);
  std::vector<std::string_view> reasons;
  EXPECT_FALSE(plugin.Filter(pod, node, &reasons));
  EXPECT_THAT(Strings(reasons), ElementsAre("Insufficient nvidia.com/gpu"));
}

// framework.h contract: reasons outlive the cycle. The plugin owns them; they
// stay in place while its cache grows, and Filter works without PreFilter.
TEST(NodeResourcesFitTest, ReasonStringsStayValid) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 1000, 1024));
  ResourceRegistry& reg = cluster.resources();
  NodeResourcesFit plugin(ScoringStrategy{}, reg);
  const Node& node = cluster.nodes()[0];

  const Pod big = PodWith(Requests(2000, 2048));
  std::vector<std::string_view> first;
  EXPECT_FALSE(plugin.Filter(big, node, &first));  // no PreFilter
  ASSERT_EQ(first.size(), 2u);

  // Many new resources make the cache grow several times.
  for (int i = 0; i < 64; ++i) {
    Pod other;
    other.requests.Set(reg.Intern("example.com/r" + std::to_string(i)), 1);
    plugin.PreFilter(other);
    EXPECT_FALSE(plugin.Filter(other, node, nullptr));
  }
  EXPECT_EQ(first[0], "Insufficient cpu");
  EXPECT_EQ(first[1], "Insufficient memory");
  std::vector<std::string_view> again;
  plugin.PreFilter(big);
  EXPECT_FALSE(plugin.Filter(big, node, &again));
  ASSERT_EQ(again.size(), 2u);
  EXPECT_EQ(again[0].data(), first[0].data());  // the same owned string
  EXPECT_EQ(again[1].data(), first[1].data());
}

// ----------------------------------------------------------------- Score --

// least_allocated.go: LeastAllocated with the default cpu/memory weights 1.
TEST(NodeResourcesFitTest, LeastAllocatedDefault) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(ScoringStrategy{}, cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(Requests(1000, 1024));
  // cpu (4000−1100)×100/4000 = 72, memory (8192−1224)×100/8192 = 85
  // → (72+85)/2 = 78.
  EXPECT_EQ(plugin.Score(PodWith(Requests(100, 200)), node), 78);
  // Empty node, pod cpu 4000 memory 8192: 0 and 0 → 0.
  node.Unreserve(Requests(1000, 1024));
  EXPECT_EQ(plugin.Score(PodWith(Requests(4000, 8192)), node), 0);
}

// resource_allocation.go: requested_r uses the non-zero request (100m, 200 MiB
// for a pod without one) for the node's pods and for the incoming pod.
TEST(NodeResourcesFitTest, NonZeroDefaults) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(ScoringStrategy{}, cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(ResourceList());     // counts cpu 100, memory 200
  node.Reserve(Requests(2000, 0));  // counts cpu 2000, memory 200
  ASSERT_EQ(node.NonZeroRequested(kCpu), 2100);
  ASSERT_EQ(node.NonZeroRequested(kMem), 400);
  // Pod without requests: cpu 2100+100 = 2200, memory 400+200 = 600.
  // cpu (4000−2200)×100/4000 = 45, memory (8192−600)×100/8192 = 92
  // → (45+92)/2 = 68. (Actual requests would give (50+100)/2 = 75.)
  EXPECT_EQ(plugin.Score(Pod(), node), 68);
}

// GetNonzeroRequestForResource: only an absent request gets the default; a
// pod whose containers ask cpu: 0 and memory: 0 explicitly counts 0, on the
// node and as the incoming pod (issue 52).
TEST(NodeResourcesFitTest, ExplicitZeroRequestsCountZero) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(ScoringStrategy{}, cluster.resources());
  Node& node = cluster.nodes()[0];
  Pod zero;
  zero.nonzero_cpu_milli = 0;
  zero.nonzero_memory_mib = 0;
  EXPECT_EQ(NonZeroOf(zero).cpu_milli, 0);
  EXPECT_EQ(NonZeroOf(Pod()).cpu_milli, kDefaultMilliCpuRequest);
  node.Reserve(zero.requests, NonZeroOf(zero));
  node.Reserve(ResourceList());  // no requests: 100m, 200 MiB
  ASSERT_EQ(node.NonZeroRequested(kCpu), 100);
  ASSERT_EQ(node.NonZeroRequested(kMem), 200);
  // Incoming explicit zero: cpu (4000−100)×100/4000 = 97, memory
  // (8192−200)×100/8192 = 97 → 97. With defaults it would be (95+95)/2 = 95.
  EXPECT_EQ(plugin.Score(zero, node), 97);
  EXPECT_EQ(plugin.Score(Pod(), node), 95);
  // The prepared path (PreScore) gives the same.
  ASSERT_TRUE(plugin.PreScore(zero));
  EXPECT_EQ(plugin.Score(zero, node), 97);
  node.Unreserve(zero.requests, NonZeroOf(zero));
  EXPECT_EQ(node.NonZeroRequested(kCpu), 100);
}

// most_allocated.go: MostAllocated with weights cpu 3, memory 1.
TEST(NodeResourcesFitTest, MostAllocatedWeighted) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(
      Strategy(Type::kMostAllocated, {{"cpu", 3}, {"memory", 1}}),
      cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(Requests(1000, 1024));
  // cpu 2000×100/4000 = 50, memory 2048×100/8192 = 25
  // → (50×3 + 25×1)/4 = 175/4 = 43.
  EXPECT_EQ(plugin.Score(PodWith(Requests(1000, 1024)), node), 43);
}

// req > alloc scores 0 under LeastAllocated and 100 (min(req, alloc))
// under MostAllocated.
TEST(NodeResourcesFitTest, RequestedOverAllocatable) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit least(ScoringStrategy{}, cluster.resources());
  NodeResourcesFit most(
      Strategy(Type::kMostAllocated, {{"cpu", 1}, {"memory", 1}}),
      cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(Requests(3900, 1024));
  const Pod pod = PodWith(Requests(500, 1024));
  // cpu 4400 > 4000; memory 2048.
  // Least: cpu 0, memory (8192−2048)×100/8192 = 75 → 75/2 = 37.
  EXPECT_EQ(least.Score(pod, node), 37);
  // Most: cpu min(4400, 4000)×100/4000 = 100, memory 25 → 125/2 = 62.
  EXPECT_EQ(most.Score(pod, node), 62);
}

// resource_allocation.go: resources with alloc 0 are skipped (out of the weight
// sum too), and kube also skips an extended resource the pod does not request
// (resource_allocation.go calculateResourceAllocatableRequest → (0, 0)).
TEST(NodeResourcesFitTest, SkipsZeroAllocatableAndUnrequestedExtended) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(GpuPool("gpu", ExclusiveSharing(), /*gpus=*/8));
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  ResourceRegistry& reg = cluster.resources();
  NodeResourcesFit plugin(
      Strategy(Type::kMostAllocated,
               {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 5}}),
      reg);
  const ResourceId gpu = reg.Intern(kNvidiaGpu);
  Node& gpu_node = cluster.nodes()[0];
  Node& cpu_node = cluster.nodes()[1];
  ResourceList used = Requests(1000, 1024);
  used.Set(gpu, 6);
  gpu_node.Reserve(used);
  cpu_node.Reserve(Requests(1000, 1024));

  Pod gpu_pod = PodWith(Requests(1000, 1024));
  gpu_pod.requests.Set(gpu, 1);
  // GPU node: cpu 50, memory 25, gpu (6+1)×100/8 = 87
  // → (50 + 25 + 87×5)/7 = 510/7 = 72.
  EXPECT_EQ(plugin.Score(gpu_pod, gpu_node), 72);
  // CPU node: gpu alloc 0, skipped → (50 + 25)/2 = 37.
  EXPECT_EQ(plugin.Score(gpu_pod, cpu_node), 37);
  // A pod without a GPU request on the GPU node: gpu skipped → 37 (counting
  // it would give (50 + 25 + 75×5)/7 = 64).
  EXPECT_EQ(plugin.Score(PodWith(Requests(1000, 1024)), gpu_node), 37);
}

// Σw = 0 (every resource skipped) scores 0.
TEST(NodeResourcesFitTest, NoScoredResourceScoresZero) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  ResourceRegistry& reg = cluster.resources();
  NodeResourcesFit plugin(
      Strategy(Type::kLeastAllocated, {{"nvidia.com/gpu", 1}}), reg);
  Pod pod;
  pod.requests.Set(reg.Intern(kNvidiaGpu), 1);
  EXPECT_EQ(plugin.Score(pod, cluster.nodes()[0]), 0);  // gpu alloc 0
}

// requested_to_capacity_ratio.go: piecewise-linear interpolation (kube's
// BuildBrokenLinearFunction, Go integer division truncating toward zero).
TEST(NodeResourcesFitTest, RequestedToCapacityRatioInterpolation) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  // Shape (10,2) (50,10) (80,5) → scaled ×10: (10,20) (50,100) (80,50).
  NodeResourcesFit plugin(Strategy(Type::kRequestedToCapacityRatio,
                                   {{"cpu", 1}}, {{10, 2}, {50, 10}, {80, 5}}),
                          cluster.resources());
  const Node& node = cluster.nodes()[0];  // nothing requested yet
  auto score = [&](int64_t cpu) {
    return plugin.Score(PodWith(Requests(cpu, 1024)), node);
  };
  // util = cpu×100/4000.
  EXPECT_EQ(score(200), 20);   // util 5 <= 10: first point's score
  EXPECT_EQ(score(1200), 60);  // util 30: 20 + 80×(30−10)/40 = 60
  EXPECT_EQ(score(2079), 99);  // util 51: 100 + (−50×1)/30 = 100 − 1 = 99
  EXPECT_EQ(score(2080), 97);  // util 52: 100 + (−100)/30 = 100 − 3 = 97
  EXPECT_EQ(score(2600), 75);  // util 65: 100 + (−50×15)/30 = 75
  EXPECT_EQ(score(3200), 50);  // util 80: the last point
  EXPECT_EQ(score(3600), 50);  // util 90: past the last point → 50
  EXPECT_EQ(score(5000), 50);  // req > alloc → f(100) = 50
}

// requested_to_capacity_ratio.go: round(Σ score·w / Σ w) in floating point,
// over resources whose score is > 0.
TEST(NodeResourcesFitTest, RequestedToCapacityRatioRoundingAndZeroScores) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  // Bin-packing shape (0,0) (100,10) → f(util) = util.
  const std::vector<std::pair<int64_t, int64_t>> binpack = {{0, 0}, {100, 10}};
  NodeResourcesFit equal(Strategy(Type::kRequestedToCapacityRatio,
                                  {{"cpu", 1}, {"memory", 1}}, binpack),
                         cluster.resources());
  NodeResourcesFit weighted(Strategy(Type::kRequestedToCapacityRatio,
                                     {{"cpu", 1}, {"memory", 3}}, binpack),
                            cluster.resources());
  Node& node = cluster.nodes()[0];
  node.Reserve(Requests(1000, 1024));
  // cpu util 2000×100/4000 = 50, memory 2048×100/8192 = 25
  // → round(75/2 = 37.5) = 38 (integer division would give 37).
  EXPECT_EQ(equal.Score(PodWith(Requests(1000, 1024)), node), 38);
  // Weighted: round((50×1 + 25×3)/4 = 31.25) = 31.
  EXPECT_EQ(weighted.Score(PodWith(Requests(1000, 1024)), node), 31);

  node.Unreserve(Requests(1000, 1024));
  // Memory 50 MiB: util 50×100/8192 = 0 → score 0, left out of the weights:
  // round(50×1/1) = 50 (counting it would give round(50/4) = 13).
  EXPECT_EQ(weighted.Score(PodWith(Requests(2000, 50)), node), 50);
  // Both scores 0 → Σw = 0 → 0.
  EXPECT_EQ(weighted.Score(PodWith(Requests(10, 50)), node), 0);
}

// RequestedToCapacityRatio: the default LeastAllocated-like shape (0,10)
// (100,0) prefers empty nodes; scores are already in 0..100.
TEST(NodeResourcesFitTest, RequestedToCapacityRatioDefaultShape) {
  Cluster cluster(Catalog::Builtin());
  cluster.AddPool(CpuPool("cpu", 4000, 8192));
  NodeResourcesFit plugin(
      Strategy(Type::kRequestedToCapacityRatio, {{"cpu", 1}, {"memory", 1}}),
      cluster.resources());
  const Node& node = cluster.nodes()[0];
  // cpu util 1000×100/4000 = 25 → 100 + (−100×25)/100 = 75;
  // memory 6144×100/8192 = 75 → 25 → round(100/2) = 50.
  EXPECT_EQ(plugin.Score(PodWith(Requests(1000, 6144)), node), 50);
  // cpu util 100 → 0 (left out); memory util 200×100/8192 = 2 → 100 − 2 =
  // 98 → round(98/1) = 98.
  EXPECT_EQ(plugin.Score(PodWith(Requests(4000, 200)), node), 98);
}

}  // namespace
}  // namespace node_resources_fit_test
}  // namespace gpushare
