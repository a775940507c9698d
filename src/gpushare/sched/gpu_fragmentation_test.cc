// Tests of the FGD fragmentation measure on hand-computed nodes, and of its
// memo against the direct computation.

#include "gpushare/sched/gpu_fragmentation.h"

#include <vector>

#include <gtest/gtest.h>

#include "gpushare/base/rng.h"

namespace gpushare {
namespace {

TypicalPod Typical(int64_t cpu, int64_t milli, int count, double p,
                   std::string spec = "") {
  return {{cpu, milli, count, std::move(spec)}, p, 1};
}

TEST(GpuFragmentationTest, HandComputedNode) {
  // Node: 2 T4 GPUs with 1000 and 300 idle, 4 CPUs left; idle = 1300.
  const std::vector<int64_t> left = {1000, 300};
  const GpuNodeView node{4000, left, "T4"};
  // Fits (Q3): only GPU 1 (300 < 500) is a fragment: 0.5 x 300 = 150.
  // CPU-only (XL): every idle GPU: 0.25 x 1300 = 325.
  // Lacks CPU (Q4): every idle GPU: 0.25 x 1300 = 325.
  const std::vector<TypicalPod> m = {Typical(1000, 500, 1, 0.5),
                                     Typical(2000, 0, 0, 0.25),
                                     Typical(8000, 1000, 1, 0.25)};
  EXPECT_DOUBLE_EQ(NodeFragmentationMilli(node, m), 800.0);
}

TEST(GpuFragmentationTest, EachClass) {
  const std::vector<int64_t> left = {1000, 300};
  const GpuNodeView node{4000, left, "T4"};
  auto f = [&](TypicalPod m) { return NodeFragmentationMilli(node, {m}); };
  // No access: the model list excludes T4.
  EXPECT_DOUBLE_EQ(f(Typical(1000, 500, 1, 1, "V100M16|V100M32")), 1300);
  EXPECT_DOUBLE_EQ(f(Typical(1000, 500, 1, 1, "V100M16|T4")), 300);
  // Q2: two whole GPUs do not fit; Q1: nor does the CPU.
  EXPECT_DOUBLE_EQ(f(Typical(1000, 1000, 2, 1)), 1300);
  EXPECT_DOUBLE_EQ(f(Typical(5000, 1000, 2, 1)), 1300);
  // Q3 with a whole GPU: GPU 1's 300 is a fragment.
  EXPECT_DOUBLE_EQ(f(Typical(4000, 1000, 1, 1)), 300);
  // XR: CPU-only task lacking CPU.
  EXPECT_DOUBLE_EQ(f(Typical(5000, 0, 0, 1)), 1300);
  // A tiny share fits everywhere: no fragment.
  EXPECT_DOUBLE_EQ(f(Typical(1000, 100, 1, 1)), 0);
  // A CPU-only node has no idle GPU: nothing to fragment.
  EXPECT_DOUBLE_EQ(NodeFragmentationMilli({4000, {}, ""},
                                          {Typical(1000, 500, 1, 1)}),
                   0);
}

TEST(GpuFragmentationTest, CardModelLists) {
  EXPECT_TRUE(IsCardModelAllowed("T4", ""));
  EXPECT_TRUE(IsCardModelAllowed("T4", "A10|T4"));
  EXPECT_FALSE(IsCardModelAllowed("T4", "A10|G2"));
  EXPECT_FALSE(IsCardModelAllowed("", "T4"));
  EXPECT_TRUE(IsCardModelAllowed("T4", "|"));  // no model named: any
}

TEST(GpuFragmentationTest, MemoEqualsDirectComputation) {
  const std::vector<TypicalPod> m = {
      Typical(3152, 810, 1, 0.3), Typical(11300, 1000, 1, 0.25),
      Typical(6000, 460, 1, 0.15, "T4|G2"), Typical(32000, 1000, 8, 0.1),
      Typical(4000, 0, 0, 0.2)};
  FragmentationMeasure measure(m);
  Rng rng(7);
  const char* models[] = {"G2", "T4", "P100"};
  int hits_possible = 0;
  for (int round = 0; round < 20000; ++round) {
    const int gpus = static_cast<int>(rng.Below(9));
    std::vector<int64_t> left(gpus);
    // Coarse values so that states repeat and the memo is exercised.
    for (int64_t& v : left) v = 100 * static_cast<int64_t>(rng.Below(11));
    const GpuNodeView node{static_cast<int64_t>(rng.Below(40)) * 1000, left,
                           models[rng.Below(3)]};
    ASSERT_EQ(measure.NodeMilli(node), NodeFragmentationMilli(node, m))
        << "round " << round;
    ++hits_possible;
  }
  // Equal states share entries.
  EXPECT_LT(measure.memo_size(), static_cast<size_t>(hits_possible));
}

}  // namespace
}  // namespace gpushare
