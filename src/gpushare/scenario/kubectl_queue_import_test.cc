// Kueue objects from kubectl JSON (tests/data/kueue), through a scenario's
// queues.import and directly.

#include "gpushare/scenario/kubectl_queue_import.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace kubectl_queue_import_test {
namespace {

const std::string kDir = std::string(GS_TESTDATA_DIR) + "/kueue/";

TEST(KubectlQueueImportTest, ReadsFlavorsQueuesAndLocalQueues) {
  KueueConfig c;
  ImportKubectlQueues(kDir + "resourceflavors.json",
                      kDir + "clusterqueues.json", kDir + "localqueues.json",
                      &c);
  ASSERT_EQ(c.resource_flavors.size(), 1u);
  EXPECT_EQ(c.resource_flavors[0].node_labels.at("nvidia.com/gpu.product"),
            "NVIDIA-H100-80GB-HBM3");
  ASSERT_EQ(c.cluster_queues.size(), 2u);
  const ClusterQueueSpec& a = c.cluster_queues[0];
  EXPECT_EQ(a.cohort, "org");
  EXPECT_EQ(a.reclaim_within_cohort, KueuePreemptionPolicy::kAny);
  EXPECT_EQ(a.within_cluster_queue, KueuePreemptionPolicy::kLowerPriority);
  const auto& r = a.resource_groups[0].flavors[0].resources;
  EXPECT_EQ(r[0].nominal_quota, 96000);        // millicores
  EXPECT_EQ(r[1].nominal_quota, 1024 * 1024);  // MiB
  EXPECT_EQ(r[2].nominal_quota, 8);
  EXPECT_EQ(r[2].borrowing_limit, 4);
  EXPECT_EQ(r[2].lending_limit, 2);
  const ClusterQueueSpec& b = c.cluster_queues[1];
  EXPECT_EQ(b.cohort, "org");  // v1beta2 cohortName
  EXPECT_EQ(b.queueing_strategy, QueueingStrategy::kStrictFifo);
  ASSERT_EQ(c.local_queues.size(), 2u);
  EXPECT_EQ(c.local_queues[1].namespace_name, "team-b");
  EXPECT_EQ(c.local_queues[1].cluster_queue, "team-b");
}

TEST(KubectlQueueImportTest, AScenarioImportsThemAndClassesNameTheirQueues) {
  const std::string text = R"(cluster:
  pools:
    - name: p
      gpu: H100-80GB
      nodes: 2
      labels: {nvidia.com/gpu.product: NVIDIA-H100-80GB-HBM3}
queues:
  import:
    resource_flavors: )" + kDir +
                           R"(resourceflavors.json
    cluster_queues: )" + kDir +
                           R"(clusterqueues.json
    local_queues: )" + kDir +
                           R"(localqueues.json
workload:
  classes:
    - {name: j, class: training, count: 4, tenants: [team-a, team-b],
       queue: user-queue, work_s: 60}
)";
  static const Catalog catalog = Catalog::Builtin();
  const Scenario s = ReadScenarioYaml(text, "s.yaml", catalog);
  EXPECT_EQ(s.queues.cluster_queues.size(), 2u);
  EXPECT_EQ(s.queues.resource_flavors[0].name, "h100");
}

std::string ImportError(const std::string& cq_json) {
  // ctest runs the tests of one file in parallel processes.
  const std::string path =
      testing::TempDir() + "/" + std::to_string(getpid()) + "_cq.json";
  std::ofstream(path) << cq_json;
  KueueConfig c;
  c.resource_flavors = {{"h100", {}}};
  try {
    ImportKubectlQueues("", path, "", &c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KubectlQueueImportTest, RefusesWhatKueueRejects) {
  const std::string head =
      R"({"kind": "ClusterQueue", "metadata": {"name": "q"}, "spec": {)";
  EXPECT_NE(ImportError(head + R"("resourceGroups": [{"coveredResources":
      ["nvidia.com/gpu"], "flavors": [{"name": "a100", "resources":
      [{"name": "nvidia.com/gpu", "nominalQuota": 1}]}]}]}})")
                .find("no ResourceFlavor is named 'a100'"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("resourceGroups": [{"coveredResources":
      ["nvidia.com/gpu"], "flavors": [{"name": "h100", "resources":
      [{"name": "nvidia.com/gpu", "nominalQuota": 1, "borrowingLimit": 1}]}]}]}})")
                .find("borrowingLimit and lendingLimit need a cohort"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("queueingStrategy": "LIFO",
      "resourceGroups": []}})")
                .find("expected BestEffortFIFO or StrictFIFO, got 'LIFO'"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("resourceGroups": [{"coveredResources":
      ["nvidia.com/gpu"], "flavors": [{"name": "h100", "resources":
      [{"name": "nvidia.com/gpu", "nominalQuota": "-2"}]}]}]}})")
                .find("cq.json:"),
            std::string::npos);
}

}  // namespace
}  // namespace kubectl_queue_import_test
}  // namespace gpushare
