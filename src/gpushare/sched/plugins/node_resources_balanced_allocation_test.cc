#include "gpushare/sched/plugins/node_resources_balanced_allocation.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"

namespace gpushare {
namespace node_resources_balanced_allocation_test {
namespace {

constexpr ResourceId kCpu = ResourceRegistry::kCpuId;
constexpr ResourceId kMem = ResourceRegistry::kMemoryId;

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

// One node with 4000m cpu and 8192 MiB.
class NodeResourcesBalancedAllocationTest : public ::testing::Test {
 protected:
  NodeResourcesBalancedAllocationTest() : cluster_(Catalog::Builtin()) {
    NodePoolSpec spec;
    spec.name = "cpu";
    spec.gpus_per_node = 0;
    spec.cpu_milli = 4000;
    spec.memory_mib = 8192;
    cluster_.AddPool(spec);
  }
  Node& node() { return cluster_.nodes()[0]; }

  Cluster cluster_;
  NodeResourcesBalancedAllocation plugin_;
};

// balanced_allocation.go, two resources: std = |f1 − f2| / 2.
TEST_F(NodeResourcesBalancedAllocationTest, TwoResources) {
  node().Reserve(Requests(1000, 1024));
  const Pod pod = PodWith(Requests(1000, 1024));
  ASSERT_TRUE(plugin_.PreScore(pod));
  // cpu 2000/4000 = 0.5, memory 2048/8192 = 0.25 → std 0.125
  // → (1 − 0.125)×100 = 87.5 → 87.
  EXPECT_EQ(plugin_.Score(pod, node()), 87);
  // Equal fractions: cpu 2000/4000 = memory 4096/8192 = 0.5 → std 0 → 100.
  node().Unreserve(Requests(1000, 1024));
  EXPECT_EQ(plugin_.Score(PodWith(Requests(2000, 4096)), node()), 100);
}

// balanced_allocation.go: fraction = min(req/alloc, 1).
TEST_F(NodeResourcesBalancedAllocationTest, FractionCappedAtOne) {
  node().Reserve(Requests(3000, 2048));
  // cpu 5000/4000 → 1, memory 4096/8192 = 0.5 → std 0.25 → 75.
  EXPECT_EQ(plugin_.Score(PodWith(Requests(2000, 2048)), node()), 75);
}

// balanced_allocation.go (uses useRequested): actual requests, not the
// non-zero defaults of NodeResourcesFit.
TEST_F(NodeResourcesBalancedAllocationTest, UsesActualRequests) {
  node().Reserve(ResourceList());  // non-zero 100m/200 MiB, actual 0/0
  const Pod pod = PodWith(Requests(2000, 0));
  ASSERT_TRUE(plugin_.PreScore(pod));  // it requests cpu
  // cpu 2000/4000 = 0.5, memory 0/8192 = 0 → std 0.25 → 75.
  EXPECT_EQ(plugin_.Score(pod, node()), 75);
}

// balanced_allocation.go: best-effort pods (no cpu, no memory request) are
// skipped.
TEST_F(NodeResourcesBalancedAllocationTest, SkipsBestEffortPods) {
  EXPECT_FALSE(plugin_.PreScore(Pod()));
  Pod gpu_only;
  gpu_only.requests.Set(cluster_.resources().Intern(kNvidiaGpu), 1);
  EXPECT_FALSE(plugin_.PreScore(gpu_only));
  EXPECT_TRUE(plugin_.PreScore(PodWith(Requests(0, 64))));
}

// balanced_allocation.go: a resource with alloc 0 is left out; one fraction has
// std 0.
TEST_F(NodeResourcesBalancedAllocationTest, SkipsZeroAllocatable) {
  const Node no_memory("no-memory", 0, Labels(), {}, nullptr, 0,
                       /*cpu_milli=*/4000, /*memory_mib=*/0, kDefaultMaxPods,
                       nullptr);
  // Only cpu 3000/4000 = 0.75 → std 0 → 100.
  EXPECT_EQ(plugin_.Score(PodWith(Requests(3000, 100)), no_memory), 100);
}

}  // namespace
}  // namespace node_resources_balanced_allocation_test
}  // namespace gpushare
