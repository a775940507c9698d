// Tests of the FGD paper's six policies and the Open-Gpu-Share filter on
// hand-computed node states.

#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "gpushare/cluster/node.h"
#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/sched/gpu_fragmentation.h"
#include "gpushare/sched/plugins/best_fit_score.h"
#include "gpushare/sched/plugins/dot_product_score.h"
#include "gpushare/sched/plugins/fgd_score.h"
#include "gpushare/sched/plugins/gpu_clustering_score.h"
#include "gpushare/sched/plugins/gpu_packing_score.h"
#include "gpushare/sched/plugins/open_gpu_share_fit.h"
#include "gpushare/sched/plugins/random_score.h"

namespace gpushare {
namespace {

class PoliciesTest : public ::testing::Test {
 protected:
  // A node with `gpus` GPUs of `model`, `cpu_milli` CPU and 1 TiB memory.
  Node& AddNode(int gpus, int64_t cpu_milli, std::string model = "G2") {
    auto plugin =
        std::make_unique<OpenGpuShareDevicePlugin>(model, gpus, registry_);
    devices_.push_back(plugin.get());
    nodes_.push_back(std::make_unique<Node>(
        "n" + std::to_string(nodes_.size()), 0, Labels{},
        std::vector<Taint>{}, nullptr, gpus, cpu_milli, 1 << 20, 110,
        std::move(plugin)));
    return *nodes_.back();
  }
  Pod MakePod(int64_t cpu_milli, int64_t total_gpu_milli,
              int64_t memory_mib = 1024) {
    Pod pod;
    pod.requests.Set(ResourceRegistry::kCpuId, cpu_milli);
    pod.requests.Set(ResourceRegistry::kMemoryId, memory_mib);
    pod.requests.Set(registry_.Intern(kOpenGpuShareGpuMilli), total_gpu_milli);
    return pod;
  }
  // Binds `pod` to node `i` on the given GPUs (best fit when empty).
  void Bind(int i, const Pod& pod, std::vector<int> gpus = {}) {
    const OpenGpuShareRequest request = OpenGpuShareRequestOf(
        pod.requests.Get(registry_.Intern(kOpenGpuShareGpuMilli)));
    if (gpus.empty()) gpus = devices_[i]->BestFitGpus(request);
    devices_[i]->AllocateGpus(request, gpus);
    nodes_[i]->Reserve(pod.requests);
  }

  ResourceRegistry registry_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<OpenGpuShareDevicePlugin*> devices_;
};

TEST_F(PoliciesTest, DotProductPrefersTheLeastAlignedNode) {
  Node& node = AddNode(8, 64000);
  DotProductScore plugin(registry_);
  // node [64000/128000, 8000/8000] . pod [32000/128000, 4000/8000]
  // = 0.125 + 0.5 = 0.625; / 2 = 0.3125; 100 x (1 - 0.3125) = 68.75.
  EXPECT_EQ(plugin.Score(MakePod(32000, 4000), node), 68);
  // CPU short: 0.
  EXPECT_EQ(plugin.Score(MakePod(65000, 1000), node), 0);
  Bind(0, MakePod(32000, 4000));
  // node [0.25, 0.5] . pod [0.25, 0.5] = 0.3125; / 2; 100 x 0.84375.
  EXPECT_EQ(plugin.Score(MakePod(32000, 4000), node), 84);
}

TEST_F(PoliciesTest, GpuClusteringGroupsPodsByClass) {
  Node& empty = AddNode(8, 96000);
  Node& shared = AddNode(8, 96000);
  Node& mixed = AddNode(8, 96000);
  Bind(1, MakePod(1000, 500));
  Bind(2, MakePod(1000, 500));
  Bind(2, MakePod(1000, 1000));
  GpuClusteringScore plugin(registry_);
  const Pod share = MakePod(1000, 300);
  // Empty node: 25 x 0 / 8000 + 25.
  EXPECT_EQ(plugin.Score(share, empty), 25);
  // Only shares: 25 x 500 / 8000 = 1, + 75.
  EXPECT_EQ(plugin.Score(share, shared), 76);
  // Shares and a 1-GPU pod: 25 x 1500 / 8000 = 4, + 50.
  EXPECT_EQ(plugin.Score(share, mixed), 54);
  // A 2-GPU pod: other classes only on `shared`: 1 + 0.
  EXPECT_EQ(plugin.Score(MakePod(1000, 2000), shared), 1);
  // CPU-only pods score 0 everywhere.
  EXPECT_EQ(plugin.Score(MakePod(1000, 0), empty), 0);
}

TEST_F(PoliciesTest, GpuPackingPrefersSharedGpusThenUsedNodes) {
  Node& free4 = AddNode(4, 96000);
  Node& used = AddNode(4, 96000);
  Bind(1, MakePod(1000, 500), {2});  // GPU 2: 500 idle
  Bind(1, MakePod(1000, 800), {3});  // GPU 3: 200 idle
  GpuPackingScore plugin(registry_);
  // All free: max(33 - 4, 4).
  EXPECT_EQ(plugin.Score(MakePod(1000, 300), free4), 29);
  // 300 fits on GPU 2 (500 idle; GPU 3 is too small): 100 - 50 / 10.
  EXPECT_EQ(plugin.Score(MakePod(1000, 300), used), 95);
  // 600 needs a free GPU: 50 - 1.
  EXPECT_EQ(plugin.Score(MakePod(1000, 600), used), 49);
  // Two whole GPUs: 50 - 2.
  EXPECT_EQ(plugin.Score(MakePod(1000, 2000), used), 48);
  // Three whole GPUs do not fit: 0. CPU-only: 0.
  EXPECT_EQ(plugin.Score(MakePod(1000, 3000), used), 0);
  EXPECT_EQ(plugin.Score(MakePod(1000, 0), used), 0);
}

TEST_F(PoliciesTest, BestFitScoresAndNormalisesMinMax) {
  Node& node = AddNode(4, 64000);
  BestFitScore plugin(registry_);
  // s = 0.5 x 32000 / 128000 + 0.5 x 3000 / 8000 = 0.3125; 100 x 0.6875.
  EXPECT_EQ(plugin.Score(MakePod(32000, 1000), node), 68);
  std::vector<int64_t> scores = {68, 50, 90};
  plugin.Normalize(scores);
  EXPECT_EQ(scores, (std::vector<int64_t>{45, 0, 100}));
  std::vector<int64_t> equal = {70, 70};
  plugin.Normalize(equal);
  EXPECT_EQ(equal, (std::vector<int64_t>{0, 0}));
}

TEST_F(PoliciesTest, RandomPicksOneFeasibleNodeAndAFittingGpu) {
  Node& node = AddNode(4, 96000);
  Bind(0, MakePod(1000, 900), {1});  // GPU 1: 100 idle
  RandomScore plugin(registry_, Rng(3));
  std::set<int64_t> picked;
  std::set<int> gpus;
  for (int round = 0; round < 200; ++round) {
    std::vector<int64_t> scores(5, 0);
    plugin.Normalize(scores);
    int64_t sum = 0;
    for (size_t i = 0; i < scores.size(); ++i) {
      sum += scores[i];
      if (scores[i] == kMaxNodeScore) picked.insert(static_cast<int64_t>(i));
    }
    EXPECT_EQ(sum, kMaxNodeScore);
    const std::vector<int> g = plugin.SelectGpus(MakePod(1000, 500), node);
    ASSERT_EQ(g.size(), 1u);
    gpus.insert(g[0]);
  }
  EXPECT_EQ(picked.size(), 5u);
  EXPECT_EQ(gpus, (std::set<int>{0, 2, 3}));  // never GPU 1
  EXPECT_EQ(plugin.SelectGpus(MakePod(1000, 2000), node),
            (std::vector<int>{0, 2}));
}

TEST_F(PoliciesTest, FgdScoresTheFragmentationGradient) {
  Node& node = AddNode(2, 4000, "T4");
  Bind(0, MakePod(0, 700), {1});  // GPUs idle: [1000, 300]
  // M: one typical pod <1 CPU, 0.5 GPU>. F_n = 300 (GPU 1 is too small).
  FragmentationMeasure measure({{{1000, 500, 1, ""}, 1.0, 1}});
  FgdScore plugin(registry_, &measure);
  // 200 on GPU 0: [800, 300], F = 300, delta 0: int(sigmoid(0) x 100) = 50.
  // 200 on GPU 1: [1000, 100], F = 100, delta 200: sigmoid(0.2) = 0.5498.
  const Pod pod = MakePod(1000, 200);
  EXPECT_EQ(plugin.Score(pod, node), 54);
  EXPECT_EQ(plugin.SelectGpus(pod, node), (std::vector<int>{1}));
  // 600 fits only GPU 0: [400, 300], F = 700, delta -400: sigmoid(-0.4)
  // = 0.4013.
  EXPECT_EQ(plugin.Score(MakePod(1000, 600), node), 40);
  // A whole GPU: [0, 300], F = 300: 50. CPU-only pod taking all CPU:
  // M no longer fits (Q4), F = 1300, delta -1000: sigmoid(-1) = 0.2689.
  EXPECT_EQ(plugin.Score(MakePod(1000, 1000), node), 50);
  EXPECT_EQ(plugin.Score(MakePod(4000, 0), node), 26);
  // A pod asking for nothing scores 100.
  EXPECT_EQ(plugin.Score(MakePod(0, 0, 0), node), 100);
}

TEST_F(PoliciesTest, FgdBreaksTiesTowardsTheLowestGpu) {
  Node& node = AddNode(3, 8000, "T4");
  Bind(0, MakePod(0, 700), {0});
  Bind(0, MakePod(0, 500), {2});  // idle [300, 1000, 500]
  // M: <1 CPU, 1 GPU>; F_n = 300 + 500 = 800.
  FragmentationMeasure measure({{{1000, 1000, 1, ""}, 1.0, 1}});
  FgdScore plugin(registry_, &measure);
  // 100 on GPU 0 -> [200, 1000, 500] or on GPU 2 -> [300, 1000, 400]: both
  // F = 700, int(sigmoid(0.1) x 100) = 52; on GPU 1 M no longer fits:
  // F = 1700, 28. The first of the equal scores wins.
  const Pod pod = MakePod(1000, 100);
  EXPECT_EQ(plugin.Score(pod, node), 52);
  EXPECT_EQ(plugin.SelectGpus(pod, node), (std::vector<int>{0}));
}

TEST_F(PoliciesTest, OpenGpuShareFilter) {
  Node& g2 = AddNode(2, 8000, "G2");
  Node& t4 = AddNode(1, 8000, "T4");
  Bind(1, MakePod(0, 600));
  OpenGpuShareFit fit(registry_);
  std::vector<std::string_view> reasons;
  EXPECT_TRUE(fit.Filter(MakePod(8000, 2000), g2, nullptr));
  EXPECT_FALSE(fit.Filter(MakePod(8000, 3000), g2, &reasons));
  EXPECT_FALSE(fit.Filter(MakePod(9000, 1000), g2, &reasons));
  EXPECT_FALSE(fit.Filter(MakePod(1000, 500), t4, &reasons));
  EXPECT_TRUE(fit.Filter(MakePod(1000, 400), t4, nullptr));
  EXPECT_EQ(reasons, (std::vector<std::string_view>{
                         "Insufficient alibabacloud.com/gpu-milli",
                         "Insufficient cpu",
                         "Insufficient alibabacloud.com/gpu-milli"}));
  // GPU model list as a required node affinity.
  Pod constrained = MakePod(1000, 400);
  NodeSelectorRequirement r;
  r.key = std::string(kOpenGpuShareCardModelLabel);
  r.values = {"V100M16", "T4"};
  constrained.required_affinity.push_back({{r}});
  fit.PreFilter(constrained);
  EXPECT_TRUE(fit.Filter(constrained, t4, nullptr));
  reasons.clear();
  EXPECT_FALSE(fit.Filter(constrained, g2, &reasons));
  EXPECT_EQ(reasons, (std::vector<std::string_view>{
                         "node(s) didn't match Pod's GPU card model"}));
  // Memory counts; a CPU-only pod passes on a node without GPUs.
  EXPECT_FALSE(fit.Filter(MakePod(1000, 0, 2 << 20), g2, nullptr));
  Node& cpu = AddNode(0, 8000, "");
  EXPECT_TRUE(fit.Filter(MakePod(1000, 0), cpu, nullptr));
  EXPECT_FALSE(fit.Filter(MakePod(1000, 100), cpu, nullptr));
}

}  // namespace
}  // namespace gpushare
