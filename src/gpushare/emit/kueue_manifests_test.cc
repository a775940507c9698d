// Kueue objects written for a scenario's queues.

#include "gpushare/emit/kueue_manifests.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/queue_reader.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/simulation.h"

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

// A HAMi pool's ClusterQueue written with nvidia.com/gpu alone: Kueue would
// leave its pods pending ("resource nvidia.com/gpumem unavailable in
// ClusterQueue"), so gpumem and gpucores are covered, sized as the gpu
// quota's share of the flavor's nodes; the exclusive flavor of the group
// lists them at 0, and the scenario runs.
TEST(KueueManifestsTest, CoversHamiMemoryAndCoresScaledAsTheGpuQuota) {
  const Scenario s = ReadScenarioYaml(R"(name: t
cluster:
  pools:
    - {name: v, gpu: A100-80GB, nodes: 2, gpus_per_node: 4,
       sharing: {scheme: hami, hami: {split_count: 10}}}
    - {name: x, gpu: A100-80GB, nodes: 1, gpus_per_node: 4}
queues:
  cluster_queues:
    - name: team
      cohort: org
      resource_groups:
        - flavors:
            - name: v
              resources:
                - {name: nvidia.com/gpu, nominal_quota: 20, borrowing_limit: 8}
                - {name: cpu, nominal_quota: 64}
                - {name: memory, nominal_quota: 256Gi}
            - name: x
              resources:
                - {name: nvidia.com/gpu, nominal_quota: 2}
                - {name: cpu, nominal_quota: 0}
                - {name: memory, nominal_quota: 0}
  local_queues:
    - {name: lq, namespace: ml, cluster_queue: team}
workload:
  horizon_s: 600
  classes:
    - {name: c, class: batch, count: 4, tenants: [ml], queue: lq, gpus: 0.5,
       gpu_memory_mib: 10000, sm_demand: 0.3, work_s: 60,
       node_selector: {gpushare.io/node-pool: v}}
)",
                                      "s.yaml", TestCatalog());
  const std::string yaml = KueueManifestsYaml(s);
  // 8 GPUs x 10 vGPUs = 80; 20 of them is a quarter: of 8 x 81920 MiB and
  // 8 x 100 cores; the borrowing limit 8 of 80 a tenth.
  EXPECT_NE(yaml.find("  - coveredResources:\n    - nvidia.com/gpu\n"
                      "    - cpu\n    - memory\n"
                      "    - nvidia.com/gpumem\n    - nvidia.com/gpucores\n"
                      "    flavors:\n    - name: v\n      resources:\n"
                      "      - name: nvidia.com/gpu\n        nominalQuota: "
                      "\"20\"\n        borrowingLimit: \"8\"\n"
                      "      - name: cpu\n        nominalQuota: \"64\"\n"
                      "      - name: memory\n        nominalQuota: \"256Gi\"\n"
                      "      - name: nvidia.com/gpumem\n        nominalQuota: "
                      "\"163840\"\n        borrowingLimit: \"65536\"\n"
                      "      - name: nvidia.com/gpucores\n        nominalQuota: "
                      "\"200\"\n        borrowingLimit: \"80\"\n"
                      "    - name: x\n      resources:\n"
                      "      - name: nvidia.com/gpu\n        nominalQuota: "
                      "\"2\"\n      - name: cpu\n        nominalQuota: \"0\"\n"
                      "      - name: memory\n        nominalQuota: \"0Gi\"\n"
                      "      - name: nvidia.com/gpumem\n"
                      "        nominalQuota: \"0\"\n"
                      "      - name: nvidia.com/gpucores\n"
                      "        nominalQuota: \"0\"\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("# vGPU (HAMi) pods request nvidia.com/gpumem"),
            std::string::npos);
  // Read again, nothing is added twice.
  Scenario again = s;
  EXPECT_TRUE(CoverHamiQueueResources(again.pools, TestCatalog(),
                                      &again.queues)
                  .empty());
  EXPECT_EQ(KueueManifestsYaml(again), yaml);
  // The simulation admits the pods through those quotas.
  EXPECT_NO_THROW(Simulation(s, TestCatalog()));
}

TEST(KueueManifestsTest, DeviceClassMappingsGoToTheHeader) {
  const Scenario s = ReadScenarioYaml(R"(name: t
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1, devices: dra}
queues:
  device_class_mappings:
    - {name: example.com/gpus, device_class_names: [gpu.nvidia.com]}
  cluster_queues:
    - name: team
      resource_groups:
        - flavors:
            - name: a
              resources:
                - {name: example.com/gpus, nominal_quota: 4}
workload:
  classes:
    - {name: c, class: batch, count: 1}
)",
                                      "s.yaml", TestCatalog());
  const std::string yaml = KueueManifestsYaml(s);
  EXPECT_NE(yaml.find("# (Helm value managerConfig.controllerManagerConfigYaml"
                      ",\n# config.kueue.x-k8s.io/v1beta2 Configuration):\n"
                      "#   resources:\n"
                      "#     deviceClassMappings:\n"
                      "#     - name: example.com/gpus\n"
                      "#       deviceClassNames:\n"
                      "#       - gpu.nvidia.com\n---\n"),
            std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("      - name: example.com/gpus\n        nominalQuota: "
                      "\"4\""),
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
