// The scenario's kai_queues section (KAI-Scheduler) and the classes'
// queue key naming its leaf queues.

#include "gpushare/scenario/kai_queue_reader.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace kai_queue_reader_test {
namespace {

constexpr const char* kCluster = R"(cluster:
  pools:
    - {name: train, gpu: H100-80GB, nodes: 2}
workload:
  classes:
    - {name: job, class: training, count: 1, tenants: [team-a], queue: a}
)";

Scenario Read(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(std::string(kCluster) + text, "s.yaml", catalog);
}

std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KaiQueueReaderTest, ReadsTheTreeWithKaisDefaults) {
  const Scenario s = Read(R"(kai_queues:
  reclaimer_utilization_multiplier: 1.5
  queues:
    - {name: org, priority: 3, gpu: {quota: -1}}
    - name: a
      parent: org
      gpu: {quota: 4, over_quota_weight: 2, limit: 8}
    - {name: b, parent: org}
)");
  ASSERT_EQ(s.kai_queues.queues.size(), 3u);
  EXPECT_DOUBLE_EQ(s.kai_queues.reclaimer_utilization_multiplier, 1.5);
  const KaiQueueSpec& org = s.kai_queues.queues[0];
  EXPECT_EQ(org.priority, 3);
  EXPECT_DOUBLE_EQ(org.gpu_quota, kKaiUnlimited);
  const KaiQueueSpec& a = s.kai_queues.queues[1];
  EXPECT_EQ(a.parent, "org");
  EXPECT_DOUBLE_EQ(a.gpu_quota, 4);
  EXPECT_DOUBLE_EQ(a.gpu_over_quota_weight, 2);
  EXPECT_DOUBLE_EQ(a.gpu_limit, 8);
  const KaiQueueSpec& b = s.kai_queues.queues[2];
  EXPECT_DOUBLE_EQ(b.gpu_quota, 0);
  EXPECT_DOUBLE_EQ(b.gpu_over_quota_weight, 1);
  EXPECT_DOUBLE_EQ(b.gpu_limit, kKaiUnlimited);
  EXPECT_EQ(KaiLeafQueues(s.kai_queues), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.workload.classes[0].queue_name, "a");
}

struct BadCase {
  const char* name;
  const char* text;
  const char* message;  // with file:line:col
};

class KaiQueueErrorTest : public testing::TestWithParam<BadCase> {};

TEST_P(KaiQueueErrorTest, ReportsWhereAndWhat) {
  const std::string e = Error(GetParam().text);
  EXPECT_NE(e.find(GetParam().message), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, KaiQueueErrorTest,
    testing::Values(
        BadCase{"UnknownKey", "kai_queues:\n  queues: [{name: a}]\n  fair: 1\n",
                "s.yaml:9:3: kai_queues: unknown key 'fair'"},
        BadCase{"NoQueues", "kai_queues: {queues: []}\n",
                "queues: expected a list of at least one queue"},
        BadCase{"Duplicate", "kai_queues:\n  queues: [{name: a}, {name: a}]\n",
                "s.yaml:8:30: KAI queue: queue 'a' is defined twice"},
        BadCase{"BadName", "kai_queues:\n  queues: [{name: A_b}]\n",
                "queue name 'A_b' must be a DNS subdomain"},
        BadCase{
            "UnknownParent",
            "kai_queues:\n  queues: [{name: a, parent: orgg}, {name: org}]\n",
            "s.yaml:8:30: kai_queues: queue a: parent 'orgg' is not "
            "defined; did you mean org?"},
        BadCase{"Cycle",
                "kai_queues:\n  queues: [{name: a}, {name: x, parent: y}, "
                "{name: y, parent: x}]\n",
                "queue x: its parents form a cycle"},
        BadCase{"QuotaBelowMinusOne",
                "kai_queues:\n  queues: [{name: a, gpu: {quota: -2}}]\n",
                "quota"},
        BadCase{"QuotaFraction",
                "kai_queues:\n  queues: [{name: a, gpu: {quota: -0.5}}]\n",
                "neither -1 (unlimited) nor a number of GPU units"},
        BadCase{
            "LimitBelowQuota",
            "kai_queues:\n  queues: [{name: a, gpu: {quota: 4, limit: 2}}]\n",
            "limit: 2 is below the queue's quota (4)"},
        BadCase{"NegativeWeight",
                "kai_queues:\n  queues: [{name: a, gpu: {over_quota_weight: "
                "-1}}]\n",
                "over_quota_weight"},
        BadCase{"UnknownGpuKey",
                "kai_queues:\n  queues: [{name: a, gpu: {deserved: 1}}]\n",
                "unknown key 'deserved'"},
        BadCase{"Multiplier",
                "kai_queues:\n  reclaimer_utilization_multiplier: 0.5\n  "
                "queues: [{name: a}]\n",
                "reclaimer_utilization_multiplier"},
        BadCase{"ClassNamesAParent",
                "kai_queues:\n  queues: [{name: a}, {name: t, parent: a}]\n",
                "s.yaml:6:72: class 'job' queue: 'a' is a parent queue; only "
                "leaf queues take jobs (leaf queues: t)"},
        BadCase{"ClassNamesNoQueue", "kai_queues:\n  queues: [{name: b}]\n",
                "'a' is not a queue of kai_queues"},
        BadCase{"BothSystems",
                "kai_queues:\n  queues: [{name: a}]\nqueues:\n  "
                "cluster_queues: [{name: a, resource_groups: [{flavors: "
                "[{name: train, resources: [{name: nvidia.com/gpu, "
                "nominal_quota: 1}]}]}]}]\n",
                "keep one of the two"}),
    [](const testing::TestParamInfo<BadCase>& p) {
      return std::string(p.param.name);
    });

}  // namespace
}  // namespace kai_queue_reader_test
}  // namespace gpushare
