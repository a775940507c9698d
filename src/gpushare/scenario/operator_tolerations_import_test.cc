// The GPU Operator's tolerations read from the kubectl dump a scenario
// imports, unless the scenario says them.

#include "gpushare/scenario/operator_tolerations_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// A kubectl List: one L4 node and, on it, a device-plugin pod and an NFD
// worker pod of the operator (namespace gpu-operator) with a release's own
// toleration each, and the ones the DaemonSet controller adds.
constexpr const char* kDump = R"({"apiVersion": "v1", "kind": "List", "items": [
 {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "l4-0",
   "labels": {"nvidia.com/gpu.product": "NVIDIA-L4", "nvidia.com/gpu.count": "1"}},
  "status": {"allocatable": {"cpu": "16", "memory": "64Gi", "pods": "110",
   "nvidia.com/gpu": "1"}}},
 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name":
   "nvidia-device-plugin-daemonset-x1", "namespace": "gpu-operator",
   "ownerReferences": [{"kind": "DaemonSet", "name": "nvidia-device-plugin-daemonset"}]},
  "spec": {"nodeName": "l4-0", "containers": [{"name": "p"}], "tolerations": [
   {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
   {"key": "example.com/maintenance", "operator": "Exists"},
   {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
   {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"}]},
  "status": {"phase": "Running"}},
 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name":
   "gpu-operator-node-feature-discovery-worker-y1", "namespace": "gpu-operator",
   "ownerReferences": [{"kind": "DaemonSet", "name":
     "gpu-operator-node-feature-discovery-worker"}]},
  "spec": {"nodeName": "l4-0", "containers": [{"name": "w"}], "tolerations": [
   {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
   {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"}]},
  "status": {"phase": "Running"}}
]})";

class PlatformImportTest : public testing::Test {
 protected:
  void SetUp() override {
    // One folder per test: ctest runs the tests of a suite in parallel.
    dir_ = std::filesystem::path(testing::TempDir()) /
           (std::string("platform-import-") +
            testing::UnitTest::GetInstance()->current_test_info()->name() +
            "-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "dump.json") << kDump;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Scenario Read(const std::string& extra) {
    return ReadScenarioYaml(
        "cluster:\n  import: {format: kubectl, file: dump.json}\n"
        "workload:\n  trace: {format: kubectl, file: dump.json}\n" + extra,
        (dir_ / "s.yaml").string(), TestCatalog());
  }

  std::filesystem::path dir_;
};

TEST_F(PlatformImportTest, TheDumpGivesTodaysLists) {
  const Scenario s = Read("");
  const PlatformSpec& p = s.platform;
  ASSERT_TRUE(p.gpu_operator_daemonset_tolerations.has_value());
  ASSERT_EQ(p.gpu_operator_daemonset_tolerations->size(), 2u);
  EXPECT_EQ((*p.gpu_operator_daemonset_tolerations)[0].key, "nvidia.com/gpu");
  EXPECT_EQ((*p.gpu_operator_daemonset_tolerations)[1].key,
            "example.com/maintenance");
  EXPECT_EQ(p.gpu_operator_daemonset_tolerations_from,
            "the pods of DaemonSet nvidia-device-plugin-daemonset in "
            "namespace gpu-operator (" +
                (dir_ / "dump.json").string() + ")");
  ASSERT_TRUE(p.nfd_worker_tolerations.has_value());
  ASSERT_EQ(p.nfd_worker_tolerations->size(), 1u);
  EXPECT_EQ((*p.nfd_worker_tolerations)[0].key, "nvidia.com/gpu");
}

TEST_F(PlatformImportTest, TheScenarioOutranksTheDump) {
  const Scenario s = Read(
      "platform:\n  gpu_operator:\n    daemonsets:\n      tolerations: "
      "[{key: said, operator: Exists}]\n");
  const PlatformSpec& p = s.platform;
  ASSERT_EQ(p.gpu_operator_daemonset_tolerations->size(), 1u);
  EXPECT_EQ((*p.gpu_operator_daemonset_tolerations)[0].key, "said");
  EXPECT_EQ(p.gpu_operator_daemonset_tolerations_from, "");
  // The list the scenario leaves unsaid still comes from the dump.
  ASSERT_TRUE(p.nfd_worker_tolerations.has_value());
  EXPECT_NE(p.nfd_worker_tolerations_from, "");
  // Another namespace said: the operator's pods are not there.
  const Scenario other =
      Read("platform: {gpu_operator: {namespace: nvidia-gpu-operator}}\n");
  EXPECT_FALSE(other.platform.gpu_operator_daemonset_tolerations.has_value());
  EXPECT_FALSE(other.platform.nfd_worker_tolerations.has_value());
}

}  // namespace
}  // namespace gpushare
