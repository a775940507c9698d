// KAI-Scheduler Queues from kubectl JSON (tests/data/kai), directly and
// through a scenario's kai_queues.import.

#include "gpushare/scenario/kubectl_kai_queue_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace kubectl_kai_queue_import_test {
namespace {

const std::string kDir = std::string(GS_TESTDATA_DIR) + "/kai/";

TEST(KubectlKaiQueueImportTest, ReadsTheTreeWithKaisDefaults) {
  KaiConfig c;
  ImportKubectlKaiQueues(kDir + "queues.json", &c);
  ASSERT_EQ(c.queues.size(), 3u);
  EXPECT_EQ(c.queues[0].name, "research");
  EXPECT_DOUBLE_EQ(c.queues[0].gpu_quota, 12);
  const KaiQueueSpec& a = c.queues[1];
  EXPECT_EQ(a.parent, "research");
  EXPECT_EQ(a.priority, 10);
  EXPECT_DOUBLE_EQ(a.gpu_quota, 2.5);
  EXPECT_DOUBLE_EQ(a.gpu_over_quota_weight, 2);
  EXPECT_DOUBLE_EQ(a.gpu_limit, 8);
  const KaiQueueSpec& b = c.queues[2];
  EXPECT_DOUBLE_EQ(b.gpu_quota, 0);
  EXPECT_DOUBLE_EQ(b.gpu_over_quota_weight, 1);
  EXPECT_DOUBLE_EQ(b.gpu_limit, kKaiUnlimited);
}

std::string ImportError(const std::string& json) {
  const std::string path =
      (std::filesystem::temp_directory_path() / "gs_kai_queues.json").string();
  {
    std::ofstream f(path);
    f << json;
  }
  try {
    KaiConfig c;
    ImportKubectlKaiQueues(path, &c);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(KubectlKaiQueueImportTest, BadQueuesAreLocated) {
  const std::string head =
      R"({"kind": "List", "items": [{"kind": "Queue", "metadata": {"name": )";
  EXPECT_NE(ImportError(head + R"("a"}, "spec": {"resources": {"gpu": )"
                               R"({"quota": 4, "limit": 2}}}}]})")
                .find("gs_kai_queues.json:1:"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("a"}, "spec": {"resources": {"gpu": )"
                               R"({"quota": 4, "limit": 2}}}}]})")
                .find("2 is below the queue's quota (4)"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("a"}, "spec": {"parentQueue": "orgg"}}, )"
                               R"({"kind": "Queue", "metadata": {"name": )"
                               R"("org"}}]})")
                .find("parent 'orgg' is not defined; did you mean org?"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("a"}, "spec": {"parentQueue": "a"}}]})")
                .find("its parents form a cycle"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("a"}, "spec": {"resources": {"gpu": )"
                               R"({"quota": -3}}}}]})")
                .find("out of range"),
            std::string::npos);
  EXPECT_NE(ImportError(head + R"("a"}}, {"kind": "Queue", "metadata": )"
                               R"({"name": "a"}}]})")
                .find("'a' is defined twice"),
            std::string::npos);
}

TEST(KubectlKaiQueueImportTest, AScenarioImportsThemAndItsClassesUseThem) {
  static const Catalog catalog = Catalog::Builtin();
  const Scenario s = ReadScenarioYaml(
      "cluster: {pools: [{name: p, gpu: H100-80GB, nodes: 2}]}\n"
      "workload: {classes: [{name: j, class: training, count: 1, "
      "queue: team-b}]}\n"
      "kai_queues:\n  import: queues.json\n"
      "  queues: [{name: dev, parent: research}]\n",
      kDir + "s.yaml", catalog);
  ASSERT_EQ(s.kai_queues.queues.size(), 4u);
  EXPECT_EQ(s.kai_queues.queues[0].name, "dev");  // written ones first
  EXPECT_EQ(s.workload.classes[0].queue_name, "team-b");
}

}  // namespace
}  // namespace kubectl_kai_queue_import_test
}  // namespace gpushare
