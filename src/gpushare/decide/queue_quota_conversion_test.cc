// Kueue quotas carried from whole GPUs to each scheme's resources.

#include "gpushare/decide/queue_quota_conversion.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace queue_quota_conversion_test {
namespace {

Scenario TwoPools() {
  Scenario s;
  NodePoolSpec a;
  a.name = "a";
  a.gpu_model = "A100-80GB";
  a.nodes = 2;
  a.gpus_per_node = 8;
  a.sharing = ExclusiveSharing();
  NodePoolSpec b = a;
  b.name = "b";
  s.pools = {a, b};
  s.queues.resource_flavors = {{"fa", {{kNodePoolLabel, "a"}}},
                               {"fb", {{kNodePoolLabel, "b"}}}};
  ClusterQueueSpec q;
  q.name = "team";
  q.cohort = "org";
  ResourceGroupSpec g;
  g.covered_resources = {"cpu", "nvidia.com/gpu"};
  g.flavors.push_back(
      {"fa",
       {{"cpu", 8000, {}, {}}, {"nvidia.com/gpu", 4, int64_t{2}, int64_t{1}}}});
  g.flavors.push_back(
      {"fb", {{"cpu", 8000, {}, {}}, {"nvidia.com/gpu", 3, {}, {}}}});
  q.resource_groups.push_back(g);
  s.queues.cluster_queues.push_back(q);
  return s;
}

const ResourceQuotaSpec* Find(const FlavorQuotasSpec& f,
                              const std::string& name) {
  for (const ResourceQuotaSpec& r : f.resources) {
    if (r.resource == name) return &r;
  }
  return nullptr;
}

TEST(QueueQuotaConversionTest, TimeSlicingCountsReplicas) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  Scenario v = original;
  v.pools[0].sharing = TimeSlicingSharing(4);
  const auto notes = ConvertQueueQuotas(original, &v, catalog);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "ClusterQueue team flavor fa: quota nvidia.com/gpu 4 becomes "
            "nvidia.com/gpu 16 (4 GPUs)");
  const ResourceGroupSpec& g = v.queues.cluster_queues[0].resource_groups[0];
  const ResourceQuotaSpec* gpu = Find(g.flavors[0], "nvidia.com/gpu");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->nominal_quota, 16);
  EXPECT_EQ(gpu->borrowing_limit, 8);
  EXPECT_EQ(gpu->lending_limit, 4);
  EXPECT_EQ(Find(g.flavors[0], "cpu")->nominal_quota, 8000);
  // Pool b did not change: its flavor neither.
  EXPECT_EQ(Find(g.flavors[1], "nvidia.com/gpu")->nominal_quota, 3);
}

// MIG all-balanced on an A100-80GB: 2 x 1g.10gb, 1 x 2g.20gb, 1 x 3g.40gb
// per GPU; each flavor gets the resources only the other has at 0.
TEST(QueueQuotaConversionTest, MigCountsInstancesAndTheGroupCoversOneSet) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  Scenario v = original;
  v.pools[0].sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  ConvertQueueQuotas(original, &v, catalog);
  const ResourceGroupSpec& g = v.queues.cluster_queues[0].resource_groups[0];
  EXPECT_EQ(Find(g.flavors[0], "nvidia.com/mig-1g.10gb")->nominal_quota, 8);
  EXPECT_EQ(Find(g.flavors[0], "nvidia.com/mig-2g.20gb")->nominal_quota, 4);
  EXPECT_EQ(Find(g.flavors[0], "nvidia.com/mig-3g.40gb")->nominal_quota, 4);
  EXPECT_EQ(Find(g.flavors[0], "nvidia.com/gpu")->nominal_quota, 0);
  EXPECT_EQ(Find(g.flavors[1], "nvidia.com/mig-1g.10gb")->nominal_quota, 0);
  EXPECT_EQ(Find(g.flavors[1], "nvidia.com/gpu")->nominal_quota, 3);
  ASSERT_EQ(g.covered_resources.size(), g.flavors[0].resources.size());
  for (const FlavorQuotasSpec& f : g.flavors) {
    for (size_t i = 0; i < f.resources.size(); ++i) {
      EXPECT_EQ(f.resources[i].resource, g.covered_resources[i]);
    }
  }
}

TEST(QueueQuotaConversionTest, HamiGetsVgpusMemoryAndCores) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  Scenario v = original;
  v.pools[1].sharing = HamiSharing();
  ConvertQueueQuotas(original, &v, catalog);
  const FlavorQuotasSpec& fb =
      v.queues.cluster_queues[0].resource_groups[0].flavors[1];
  EXPECT_EQ(Find(fb, "nvidia.com/gpu")->nominal_quota, 30);  // split 10
  EXPECT_EQ(Find(fb, "nvidia.com/gpucores")->nominal_quota, 300);
  EXPECT_EQ(Find(fb, "nvidia.com/gpumem")->nominal_quota,
            3 * catalog.Get("A100-80GB").memory_mib);
}

// plan: a pool resized from 2 to 3 nodes of 8 GPUs scales its flavor's
// quotas by 24/16 (cpu by the nodes' cpu), rounded down; the other
// flavor's pool kept its size and its quota.
TEST(QueueQuotaConversionTest, PlanScalesQuotasWithThePoolsSizes) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  Scenario v = original;
  v.pools[0].nodes = 3;
  QuotaScaling scaling;
  scaling.with_pool_sizes = true;
  const auto notes = ConvertQueueQuotas(original, &v, catalog, scaling);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "ClusterQueue team flavor fa: quota scaled with its pools' nodes: "
            "nvidia.com/gpu 4 to 6, cpu 8 to 12");
  const ResourceGroupSpec& g = v.queues.cluster_queues[0].resource_groups[0];
  const ResourceQuotaSpec* gpu = Find(g.flavors[0], "nvidia.com/gpu");
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->nominal_quota, 6);
  EXPECT_EQ(gpu->borrowing_limit, 3);  // 2 x 1.5
  EXPECT_EQ(gpu->lending_limit, 1);    // 1 x 1.5, rounded down
  EXPECT_EQ(Find(g.flavors[0], "cpu")->nominal_quota, 12000);
  EXPECT_EQ(Find(g.flavors[1], "nvidia.com/gpu")->nominal_quota, 3);
  EXPECT_EQ(Find(g.flavors[1], "cpu")->nominal_quota, 8000);
  // Without the option (compare's variants) sizes change nothing.
  Scenario same = original;
  same.pools[0].nodes = 3;
  EXPECT_TRUE(ConvertQueueQuotas(original, &same, catalog).empty());
  EXPECT_EQ(Find(same.queues.cluster_queues[0].resource_groups[0].flavors[0],
                 "nvidia.com/gpu")
                ->nominal_quota,
            4);
}

TEST(QueueQuotaConversionTest, APinnedQueueKeepsItsSizeButFollowsTheScheme) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  QuotaScaling scaling;
  scaling.with_pool_sizes = true;
  scaling.pinned = {"team"};
  Scenario v = original;
  v.pools[0].nodes = 3;
  EXPECT_TRUE(ConvertQueueQuotas(original, &v, catalog, scaling).empty());
  // Resized and converted: 4 GPUs x 1.5 = 6 GPUs of 4 replicas unpinned,
  // 4 GPUs of 4 replicas pinned.
  Scenario w = original;
  w.pools[0].nodes = 3;
  w.pools[0].sharing = TimeSlicingSharing(4);
  const auto notes = ConvertQueueQuotas(original, &w, catalog, scaling);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(Find(w.queues.cluster_queues[0].resource_groups[0].flavors[0],
                 "nvidia.com/gpu")
                ->nominal_quota,
            16);
  scaling.pinned.clear();
  Scenario x = original;
  x.pools[0].nodes = 3;
  x.pools[0].sharing = TimeSlicingSharing(4);
  const auto scaled = ConvertQueueQuotas(original, &x, catalog, scaling);
  ASSERT_EQ(scaled.size(), 1u);
  EXPECT_EQ(scaled[0],
            "ClusterQueue team flavor fa: quota nvidia.com/gpu 4 becomes "
            "nvidia.com/gpu 24 (6 GPUs); cpu 8 to 12");
  const ResourceQuotaSpec* gpu =
      Find(x.queues.cluster_queues[0].resource_groups[0].flavors[0],
           "nvidia.com/gpu");
  EXPECT_EQ(gpu->nominal_quota, 24);
  EXPECT_EQ(gpu->borrowing_limit, 12);  // 3 GPUs
  EXPECT_EQ(gpu->lending_limit, 6);     // 1.5 GPUs
}

// The case: 16 GPUs of quota on 6 nodes of 4 GPUs, grown to 8
// nodes: 16 x 32/24 = 21.3, rounded down to 21.
TEST(QueueQuotaConversionTest, SixteenGpusOnSixNodesBecomeTwentyOneOnEight) {
  const Catalog catalog = Catalog::Builtin();
  Scenario original = TwoPools();
  original.pools[0].nodes = 6;
  original.pools[0].gpus_per_node = 4;
  original.queues.cluster_queues[0].resource_groups[0].flavors[0].resources[1]
      .nominal_quota = 16;
  Scenario v = original;
  v.pools[0].nodes = 8;
  QuotaScaling scaling;
  scaling.with_pool_sizes = true;
  ConvertQueueQuotas(original, &v, catalog, scaling);
  EXPECT_EQ(Find(v.queues.cluster_queues[0].resource_groups[0].flavors[0],
                 "nvidia.com/gpu")
                ->nominal_quota,
            21);
}

}  // namespace
}  // namespace queue_quota_conversion_test
}  // namespace gpushare
