// Kueue objects written for a scenario's queues.

#include "gpushare/emit/kueue_manifests.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  EXPECT_NE(yaml.find("config.kueue.x-k8s.io/v1beta2 Configuration):\n"
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
  // An older Kueue: its Configuration's API and its alpha gate; before 0.14
  // there are no DRA quotas.
  Scenario old = s;
  old.platform.kueue_version = "0.14.2";
  std::string v014 = KueueManifestsYaml(old);
  for (size_t at; (at = v014.find("\n# ")) != std::string::npos;) {
    v014.replace(at, 3, " ");  // the comment lines, unwrapped
  }
  EXPECT_NE(v014.find("once its alpha gate DynamicResourceAllocation is "
                      "turned on (Kueue 0.14 to"),
            std::string::npos)
      << v014;
  EXPECT_NE(v014.find("config.kueue.x-k8s.io/v1beta1 Configuration):"),
            std::string::npos)
      << v014;
  old.platform.kueue_version = "0.13.0";
  try {
    KueueManifestsYaml(old);
    ADD_FAILURE() << "0.13.0 has no DRA quotas";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "platform.kueue.version 0.13.0: queues.device_class_mappings "
                  "needs Kueue 0.14 or later"),
              std::string::npos)
        << e.what();
  }
}

TEST(KueueManifestsTest, NoQueuesIsAnError) {
  const Scenario s = ReadScenarioYaml(
      "cluster: {pools: [{name: a, gpu: A100-80GB, nodes: 1}]}\n"
      "workload: {classes: [{name: c, class: batch, count: 1}]}\n",
      "s.yaml", TestCatalog());
  EXPECT_THROW(KueueManifestsYaml(s), InputError);
}

// The scenario of the first test with `platform` and a ClusterQueue option.
Scenario VersionedScenario(const std::string& platform,
                           const std::string& quota_extra = "") {
  return ReadScenarioYaml(R"(name: t
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1}
queues:
  cluster_queues:
    - name: team
      cohort: org
      resource_groups:
        - flavors:
            - name: a
              resources:
                - {name: nvidia.com/gpu, nominal_quota: 4)" +
                              quota_extra + R"(}
  local_queues:
    - {name: lq, namespace: ml, cluster_queue: team}
workload:
  classes:
    - {name: c, class: batch, count: 1, tenants: [ml], queue: lq}
)" + platform,
                          "s.yaml", TestCatalog());
}

// Every kueue.x-k8s.io apiVersion line of `yaml`.
std::vector<std::string> ApiVersions(const std::string& yaml) {
  std::vector<std::string> out;
  size_t at = 0;
  while ((at = yaml.find("\napiVersion: ", at)) != std::string::npos) {
    at += 13;
    out.push_back(yaml.substr(at, yaml.find('\n', at) - at));
  }
  return out;
}

// Kueue serves v1beta2 from 0.15.0: the header says so when the version is
// not known, and a known 0.15 or later gets v1beta2.
TEST(KueueManifestsTest, V1beta2NeedsKueue015) {
  for (const std::string& platform :
       {std::string(), std::string("platform: {kueue: {version: 0.15.0}}\n"),
        std::string("platform: {kueue: {version: v0.19.2}}\n")}) {
    const std::string yaml = KueueManifestsYaml(VersionedScenario(platform));
    EXPECT_EQ(ApiVersions(yaml),
              std::vector<std::string>(3, "kueue.x-k8s.io/v1beta2"))
        << yaml;
    EXPECT_NE(yaml.find("  cohortName: org\n"), std::string::npos) << yaml;
    EXPECT_EQ(yaml.find("  cohort: org\n"), std::string::npos) << yaml;
  }
  const std::string unknown = KueueManifestsYaml(VersionedScenario(""));
  EXPECT_NE(unknown.find("# They need Kueue 0.15 or later, the first release "
                         "that serves\n# kueue.x-k8s.io/v1beta2"),
            std::string::npos)
      << unknown;
  EXPECT_EQ(KueueManifestsNeed(VersionedScenario("")).rfind("Kueue 0.15 or "
                                                            "later", 0),
            0u);
}

// An older Kueue (0.6 to 0.14) gets the same objects as v1beta1, whose
// ClusterQueue names its cohort `cohort`.
TEST(KueueManifestsTest, AnOlderKueueGetsV1beta1) {
  const Scenario s = VersionedScenario(
      "platform: {kueue: {version: 0.14.2}}\n", ", lending_limit: 1");
  const std::string yaml = KueueManifestsYaml(s);
  EXPECT_EQ(ApiVersions(yaml),
            std::vector<std::string>(3, "kueue.x-k8s.io/v1beta1"))
      << yaml;
  EXPECT_NE(yaml.find("  namespaceSelector: {}\n  cohort: org\n"
                      "  queueingStrategy: BestEffortFIFO\n"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(yaml.find("cohortName"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("        lendingLimit: \"1\"\n"), std::string::npos);
  EXPECT_NE(yaml.find("# They need Kueue 0.14.2 as installed."),
            std::string::npos)
      << yaml;
  // Otherwise the same bytes as the v1beta2 file.
  std::string v1beta2 = KueueManifestsYaml(VersionedScenario(
      "platform: {kueue: {version: 0.15.0}}\n", ", lending_limit: 1"));
  std::string v1beta1 = yaml;
  for (std::string* t : {&v1beta2, &v1beta1}) {
    *t = t->substr(t->find("---\n"));
  }
  for (size_t at; (at = v1beta2.find("v1beta2")) != std::string::npos;) {
    v1beta2.replace(at, 7, "v1beta1");
  }
  v1beta2.replace(v1beta2.find("cohortName:"), 11, "cohort:");
  EXPECT_EQ(v1beta1, v1beta2);
}

// What an older Kueue lacks is refused, naming the version and the key.
TEST(KueueManifestsTest, WhatAnOlderKueueLacksIsRefused) {
  struct Case {
    std::string platform;
    std::string extra;
    std::string message;
  };
  const Case cases[] = {
      {"platform: {kueue: {version: 0.5.3}}\n", "",
       "s.yaml: platform.kueue.version 0.5.3: kueue-queues.yaml needs Kueue "
       "0.6 or later (its ClusterQueues set preemption.borrowWithinCohort"},
      {"platform: {kueue: {version: 0.8.1}}\n", ", lending_limit: 1",
       "s.yaml: platform.kueue.version 0.8.1: ClusterQueue 'team' sets a "
       "lending_limit (queues.cluster_queues), which Kueue honours from 0.9"},
  };
  for (const Case& c : cases) {
    const Scenario s = VersionedScenario(c.platform, c.extra);
    try {
      KueueManifestsYaml(s);
      ADD_FAILURE() << c.platform;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind(c.message, 0), 0u) << e.what();
    }
  }
  // 0.8.1 without a lending limit is fine.
  EXPECT_NO_THROW(KueueManifestsYaml(
      VersionedScenario("platform: {kueue: {version: 0.8.1}}\n")));
}

}  // namespace
}  // namespace gpushare
