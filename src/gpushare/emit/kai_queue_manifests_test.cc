#include "gpushare/emit/kai_queue_manifests.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

TEST(KaiQueueManifestsTest, QueuesParentsFirstWithKaisFields) {
  Scenario s;
  s.name = "t";
  KaiQueueSpec team;
  team.name = "team-a";
  team.parent = "org";
  team.priority = 5;
  team.gpu_quota = 2.5;
  team.gpu_over_quota_weight = 3;
  team.gpu_limit = 8;
  KaiQueueSpec org;
  org.name = "org";
  org.gpu_quota = kKaiUnlimited;
  s.kai_queues.queues = {team, org};
  const std::string y = KaiQueueManifestsYaml(s);
  const size_t org_at = y.find("  name: org\n");
  const size_t team_at = y.find("  name: team-a\n");
  ASSERT_NE(org_at, std::string::npos);
  ASSERT_NE(team_at, std::string::npos);
  EXPECT_LT(org_at, team_at);  // a parent must exist first
  EXPECT_NE(y.find("apiVersion: scheduling.run.ai/v2\nkind: Queue\n"),
            std::string::npos);
  EXPECT_NE(y.find("  name: team-a\nspec:\n  parentQueue: org\n  priority: 5\n"
                   "  resources:\n    gpu:\n      quota: 2.5\n"
                   "      overQuotaWeight: 3\n      limit: 8\n"
                   "    cpu:\n      quota: 0\n      overQuotaWeight: 1\n"
                   "      limit: -1\n"),
            std::string::npos)
      << y;
  EXPECT_NE(y.find("  name: org\nspec:\n  resources:\n    gpu:\n"
                   "      quota: -1\n"),
            std::string::npos)
      << y;
  EXPECT_NE(y.find("#   kai.scheduler/queue: <queue>"), std::string::npos);
}

TEST(KaiQueueManifestsTest, NoKaiQueuesIsAnInputError) {
  Scenario s;
  EXPECT_THROW(KaiQueueManifestsYaml(s), InputError);
}

}  // namespace
}  // namespace gpushare
