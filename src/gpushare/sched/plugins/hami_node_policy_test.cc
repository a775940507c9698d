#include "gpushare/sched/plugins/hami_node_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {
namespace {

using ::testing::ElementsAre;

// Two HAMi nodes with 2 A100-80GB each (Count 10, Totalmem 81920, Totalcore
// 100 per GPU) under `policy`, and one exclusive NVIDIA node.
class HamiClusterTest : public ::testing::Test {
 protected:
  explicit HamiClusterTest(HamiPolicy policy = HamiPolicy::kBinpack)
      : cluster_(Catalog::Builtin()) {
    NodePoolSpec hami;
    hami.name = "hami";
    hami.nodes = 2;
    hami.gpu_model = "A100-80GB";
    hami.gpus_per_node = 2;
    hami.sharing = HamiSharing();
    hami.sharing.hami.node_policy = policy;
    cluster_.AddPool(hami);
    NodePoolSpec excl;
    excl.name = "excl";
    excl.gpu_model = "A100-80GB";
    excl.gpus_per_node = 2;
    cluster_.AddPool(excl);
    plugin_ = std::make_unique<HamiNodePolicy>(cluster_.resources());
  }

  Pod PodWith(std::vector<std::pair<std::string_view, int64_t>> requests) {
    Pod pod;
    for (const auto& [name, quantity] : requests) {
      pod.requests.Set(cluster_.resources().Intern(name), quantity);
    }
    return pod;
  }

  void Place(int node, const Pod& pod) {
    Node& n = cluster_.nodes()[node];
    std::string_view reason;
    ASSERT_TRUE(n.devices()->Fits(pod.requests, &reason)) << reason;
    n.devices()->Allocate(pod.requests);
    n.Reserve(pod.requests);
  }

  // node 0: 1 vGPU, 50 cores, 40960 MiB →
  //   10 × (1/20 + 50/200 + 40960/163840) = 10 × 0.55 = 5.5 → 5500.
  // node 1: a whole card (gpu 1 alone: 100 % memory, 100 cores) →
  //   10 × (1/20 + 100/200 + 81920/163840) = 10 × 1.05 = 10.5 → 10500.
  void PlaceExample() {
    Place(0, PodWith(
                 {{kNvidiaGpu, 1}, {kHamiGpuMem, 40960}, {kHamiGpuCores, 50}}));
    Place(1, PodWith({{kNvidiaGpu, 1}}));
  }

  std::vector<int64_t> ScoreAll(const Pod& pod) {
    std::vector<int64_t> scores;
    for (const Node& n : cluster_.nodes()) {
      scores.push_back(plugin_->Score(pod, n));
    }
    return scores;
  }

  Cluster cluster_;
  std::unique_ptr<HamiNodePolicy> plugin_;
};

class HamiNodePolicyTest : public HamiClusterTest {};

class HamiNodePolicySpreadTest : public HamiClusterTest {
 protected:
  HamiNodePolicySpreadTest() : HamiClusterTest(HamiPolicy::kSpread) {}
};

// HAMi: only pods asking for HAMi resources (or nvidia.com/gpu) are scored.
TEST_F(HamiNodePolicyTest, PreScoreNeedsGpuResources) {
  EXPECT_FALSE(plugin_->PreScore(Pod()));
  Pod cpu_only;
  cpu_only.requests.Set(ResourceRegistry::kCpuId, 1000);
  EXPECT_FALSE(plugin_->PreScore(cpu_only));
  EXPECT_TRUE(plugin_->PreScore(PodWith({{kNvidiaGpu, 1}})));
  EXPECT_TRUE(plugin_->PreScore(PodWith({{kHamiGpuMem, 1024}})));
  EXPECT_TRUE(plugin_->PreScore(PodWith({{kHamiGpuMemPercentage, 50}})));
  EXPECT_TRUE(plugin_->PreScore(PodWith({{kHamiGpuCores, 30}})));
}

// HAMi node_policy.go: score = 10 × (ΣUsed/ΣCount + ΣUsedcores/ΣTotalcore +
// ΣUsedmem/ΣTotalmem) before the pod, ×1000; -1 for non-HAMi nodes. Binpack
// favours the fullest node.
TEST_F(HamiNodePolicyTest, BinpackFavoursFullestNode) {
  PlaceExample();
  const Pod pod = PodWith({{kNvidiaGpu, 1}, {kHamiGpuMem, 1024}});
  ASSERT_TRUE(plugin_->PreScore(pod));
  std::vector<int64_t> scores = ScoreAll(pod);
  EXPECT_THAT(scores, ElementsAre(5500, 10500, -1));
  EXPECT_EQ(plugin_->policy(), HamiPolicy::kBinpack);
  // 100×5500/10500 = 52, 100, 0.
  plugin_->Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(52, 100, 0));
}

// HAMi node_policy.go: spread sorts descending — the least used node wins
// (reverse).
TEST_F(HamiNodePolicySpreadTest, SpreadFavoursEmptiestNode) {
  PlaceExample();
  const Pod pod = PodWith({{kNvidiaGpu, 1}});
  ASSERT_TRUE(plugin_->PreScore(pod));
  std::vector<int64_t> scores = ScoreAll(pod);
  EXPECT_THAT(scores, ElementsAre(5500, 10500, -1));
  EXPECT_EQ(plugin_->policy(), HamiPolicy::kSpread);
  // 100 − 52 = 48, 100 − 100 = 0; the non-HAMi node stays at 0.
  plugin_->Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(48, 0, 0));
}

// The policy is taken from the first HAMi node scored in the cycle; with none
// it is binpack, and all-zero scores stay 0.
TEST_F(HamiNodePolicySpreadTest, PolicyResetsEachCycle) {
  const Pod pod = PodWith({{kNvidiaGpu, 1}});
  ASSERT_TRUE(plugin_->PreScore(pod));
  std::vector<int64_t> scores = {plugin_->Score(pod, cluster_.nodes()[2])};
  EXPECT_EQ(plugin_->policy(), HamiPolicy::kBinpack);  // no HAMi node yet
  plugin_->Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(0));
  // Empty HAMi nodes: all 0 → spread reverses to 100 each; the node
  // without HAMi devices stays at 0.
  scores = ScoreAll(pod);
  EXPECT_EQ(plugin_->policy(), HamiPolicy::kSpread);
  plugin_->Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(100, 100, 0));
  ASSERT_TRUE(plugin_->PreScore(pod));
  EXPECT_EQ(plugin_->policy(), HamiPolicy::kBinpack);
}

}  // namespace
}  // namespace gpushare
