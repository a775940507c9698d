// KAI quotas, in GPU units, carried from whole GPUs to each scheme.

#include "gpushare/decide/kai_quota_conversion.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace kai_quota_conversion_test {
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
  KaiQueueSpec org;
  org.name = "org";
  org.gpu_quota = kKaiUnlimited;
  KaiQueueSpec team;
  team.name = "team";
  team.parent = "org";
  team.gpu_quota = 4;
  team.gpu_limit = 6;
  s.kai_queues.queues = {org, team};
  return s;
}

TEST(KaiQuotaConversionTest, UnitsPerGpuFollowTheScheme) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  EXPECT_DOUBLE_EQ(KaiUnitsPerGpu(original.pools, catalog), 1);
  Scenario v = original;
  // Half the GPUs become 4 replicas each: 16 + 64 units on 32 GPUs.
  v.pools[0].sharing = TimeSlicingSharing(4);
  EXPECT_DOUBLE_EQ(KaiUnitsPerGpu(v.pools, catalog), 2.5);
  const std::vector<std::string> notes =
      ConvertKaiQuotas(original, &v, catalog);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "KAI queues: a GPU is 2.5 GPU units instead of 1; quotas and "
            "limits scaled by 2.5 (queue team: quota 4 becomes 10)");
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[0].gpu_quota, kKaiUnlimited);
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[0].gpu_limit, kKaiUnlimited);
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[1].gpu_quota, 10);
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[1].gpu_limit, 15);
}

TEST(KaiQuotaConversionTest, ResizingAPoolOrNoQueuesChangesNothing) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  Scenario v = original;
  v.pools[1].nodes = 5;
  EXPECT_TRUE(ConvertKaiQuotas(original, &v, catalog).empty());
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[1].gpu_quota, 4);
  Scenario none = original;
  none.kai_queues.queues.clear();
  Scenario w = none;
  w.pools[0].sharing = TimeSlicingSharing(4);
  EXPECT_TRUE(ConvertKaiQuotas(none, &w, catalog).empty());
}

// plan: pool b grown from 2 to 4 nodes, 32 GPU units become 48; every
// quota and limit but the unlimited scales by 1.5, a pinned one does not.
TEST(KaiQuotaConversionTest, PlanScalesQuotasWithTheClustersUnits) {
  const Catalog catalog = Catalog::Builtin();
  const Scenario original = TwoPools();
  QuotaScaling scaling;
  scaling.with_pool_sizes = true;
  Scenario v = original;
  v.pools[1].nodes = 4;
  const std::vector<std::string> notes =
      ConvertKaiQuotas(original, &v, catalog, scaling);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0],
            "KAI queues: the cluster has 48 GPU units instead of 32; quotas "
            "and limits scaled by 1.5 (queue team: quota 4 becomes 6)");
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[0].gpu_quota, kKaiUnlimited);
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[1].gpu_quota, 6);
  EXPECT_DOUBLE_EQ(v.kai_queues.queues[1].gpu_limit, 9);
  scaling.pinned = {"team"};
  Scenario w = original;
  w.pools[1].nodes = 4;
  EXPECT_TRUE(ConvertKaiQuotas(original, &w, catalog, scaling).empty());
  EXPECT_DOUBLE_EQ(w.kai_queues.queues[1].gpu_quota, 4);
}

}  // namespace
}  // namespace kai_quota_conversion_test
}  // namespace gpushare
