// Tests of the typical-pod set M: hand-made workloads and the shipped trace.

#include "gpushare/workload/typical_pods.h"

#include <gtest/gtest.h>

#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/openb_pod_list.h"

namespace gpushare {
namespace {

TEST(TypicalPodsTest, KeepsMostPopularUntilThresholdAndRenormalises) {
  const PodShape a{1000, 500, 1, ""}, b{2000, 0, 0, ""}, c{3000, 1000, 2, ""},
      d{500, 1000, 1, ""};
  // Counts: a 5, b 3, c 1, d 1 (c > d on ties: larger CPU first).
  std::vector<PodShape> pods = {a, a, a, a, a, b, b, b, c, d};
  const TypicalPods m = ComputeTypicalPods(pods, 85);
  // 5, 8, 9 of 10: the third group reaches 85 %.
  ASSERT_EQ(m.pods.size(), 3u);
  EXPECT_EQ(m.pods[0].shape, a);
  EXPECT_EQ(m.pods[1].shape, b);
  EXPECT_EQ(m.pods[2].shape, c);
  EXPECT_DOUBLE_EQ(m.coverage, 0.9);
  EXPECT_DOUBLE_EQ(m.pods[0].popularity, 5.0 / 9.0);
  EXPECT_DOUBLE_EQ(m.pods[1].popularity, 3.0 / 9.0);
  EXPECT_DOUBLE_EQ(m.pods[2].popularity, 1.0 / 9.0);
  EXPECT_EQ(ComputeTypicalPods(pods, 100).pods.size(), 4u);
}

TEST(TypicalPodsTest, ShippedDefaultTraceHas35Specs) {
  const auto pods = ReadOpenbPodList(
      std::string(GS_TESTDATA_DIR) + "/../../data/openb/openb_pod_list_default.csv",
      GpuModelMap::Default());
  std::vector<PodShape> shapes;
  for (const OpenbPod& p : pods) {
    shapes.push_back({p.cpu_milli, p.gpu_milli, p.num_gpu, p.gpu_spec});
  }
  const TypicalPods m = ComputeTypicalPods(shapes);
  ASSERT_EQ(m.pods.size(), 35u);
  EXPECT_NEAR(100 * m.coverage, 95.3, 0.05);
  // The top two (frag.go GetTypicalPods on the default openb trace):
  // <3.152 CPU, 0.81 GPU> 12.8 % of the trace, <11.3 CPU, 1 GPU>, 10.7 %.
  EXPECT_EQ(m.pods[0].shape, (PodShape{3152, 810, 1, ""}));
  EXPECT_NEAR(100 * m.pods[0].popularity * m.coverage, 12.8, 0.05);
  EXPECT_EQ(m.pods[1].shape, (PodShape{11300, 1000, 1, ""}));
  EXPECT_NEAR(100 * m.pods[1].popularity * m.coverage, 10.7, 0.05);
  double cpu_only = 0;
  double sum = 0;
  for (const TypicalPod& t : m.pods) {
    sum += t.popularity;
    if (t.shape.gpu_count == 0) cpu_only += t.popularity;
  }
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(100 * cpu_only, 13.6, 0.05);
}

}  // namespace
}  // namespace gpushare
