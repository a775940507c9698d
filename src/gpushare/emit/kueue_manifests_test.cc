// Kueue objects written for a scenario's queues.

#include "gpushare/emit/kueue_manifests.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

using emit_test::TestCatalog;

TEST(KueueManifestsTest, WritesFlavorsQueuesAndLocalQueues) {
  const Scenario s = ReadScenarioYaml(R"(name: t
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1}
queues:
  cluster_queues:
    - name: team
      cohort: org
      preemption: {reclaim_within_cohort: Any,
                   borrow_within_cohort: {policy: LowerPriority,
                                          max_priority_threshold: 10}}
      resource_groups:
        - flavors:
            - name: a
              resources:
                - {name: cpu, nominal_quota: 1500m}
                - {name: memory, nominal_quota: 64Gi}
                - {name: nvidia.com/gpu, nominal_quota: 4, borrowing_limit: 2}
  local_queues:
    - {name: lq, namespace: ml, cluster_queue: team}
workload:
  classes:
    - {name: c, class: batch, count: 1, tenants: [ml], queue: lq}
)",
                                      "s.yaml", TestCatalog());
  const std::string yaml = KueueManifestsYaml(s);
  EXPECT_NE(yaml.find("---\napiVersion: kueue.x-k8s.io/v1beta2\n"
                      "kind: ResourceFlavor\nmetadata:\n  name: a\nspec:\n"
                      "  nodeLabels:\n    gpushare.io/node-pool: \"a\"\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("kind: ClusterQueue\nmetadata:\n  name: team\nspec:\n"
                      "  namespaceSelector: {}\n  cohortName: org\n"
                      "  queueingStrategy: BestEffortFIFO\n"
                      "  preemption:\n    withinClusterQueue: Never\n"
                      "    reclaimWithinCohort: Any\n"
                      "    borrowWithinCohort:\n      policy: LowerPriority\n"
                      "      maxPriorityThreshold: 10\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("      - name: cpu\n        nominalQuota: \"1500m\"\n"
                      "      - name: memory\n        nominalQuota: \"64Gi\"\n"
                      "      - name: nvidia.com/gpu\n        nominalQuota: "
                      "\"4\"\n        borrowingLimit: \"2\"\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("kind: LocalQueue\nmetadata:\n  name: lq\n  namespace: "
                      "ml\nspec:\n  clusterQueue: team\n"),
            std::string::npos)
      << yaml;
}

TEST(KueueManifestsTest, NoQueuesIsAnError) {
  const Scenario s = ReadScenarioYaml(
      "cluster: {pools: [{name: a, gpu: A100-80GB, nodes: 1}]}\n"
      "workload: {classes: [{name: c, class: batch, count: 1}]}\n",
      "s.yaml", TestCatalog());
  EXPECT_THROW(KueueManifestsYaml(s), InputError);
}

}  // namespace
}  // namespace gpushare
