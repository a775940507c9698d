#include "gpushare/workload/kubectl_gpu_operator_pods.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// A daemon pod of DaemonSet `ds` in `ns` with `tolerations` (JSON) and
// those the DaemonSet controller adds.
std::string DaemonPod(const std::string& name, const std::string& ns,
                      const std::string& ds, const std::string& tolerations) {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": ")" + ns +
         R"(", "ownerReferences": [{"kind": "DaemonSet", "name": ")" + ds +
         R"("}]}, "spec": {"nodeName": "n1", "containers": [{"name": "c"}],
  "tolerations": [)" +
         tolerations + R"(,
    {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute"},
    {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute"},
    {"key": "node.kubernetes.io/disk-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/memory-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/pid-pressure", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/unschedulable", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "node.kubernetes.io/network-unavailable", "operator": "Exists", "effect": "NoSchedule"}]},
  "status": {"phase": "Running"}})";
}

constexpr const char* kGpu =
    R"({"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"})";
constexpr const char* kMaintenance =
    R"({"key": "example.com/maintenance", "operator": "Exists"})";
constexpr const char* kControlPlane =
    R"({"key": "node-role.kubernetes.io/control-plane", "operator": "Equal", "value": "", "effect": "NoSchedule"})";

std::string List(const std::vector<std::string>& items) {
  std::string out = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : ",") + items[i];
  }
  return out + "]}";
}

TEST(KubectlGpuOperatorPodsTest, ReadsOperandAndNfdWorkerLists) {
  const std::string text = List({
      R"({"kind": "Node", "metadata": {"name": "n1"}})",
      DaemonPod("kube-proxy-x", "kube-system", "kube-proxy",
                R"({"key": "other", "operator": "Exists"})"),
      DaemonPod("nvidia-device-plugin-daemonset-abcde", "gpu-operator",
                "nvidia-device-plugin-daemonset",
                std::string(kGpu) + "," + kMaintenance),
      // A second operand adds what the first lacks (mid-rollout): the union.
      DaemonPod("gpu-feature-discovery-fghij", "gpu-operator",
                "gpu-feature-discovery",
                std::string(kMaintenance) + "," + kGpu +
                    R"(, {"key": "dedicated", "value": "a", "effect": "NoSchedule", "tolerationSeconds": 30})"),
      DaemonPod("gpu-operator-node-feature-discovery-worker-klmno",
                "gpu-operator", "gpu-operator-node-feature-discovery-worker",
                std::string(kControlPlane) + "," + kGpu),
      // The same DaemonSet in another namespace: not the operator's.
      DaemonPod("nvidia-device-plugin-daemonset-zzzzz", "elsewhere",
                "nvidia-device-plugin-daemonset",
                R"({"key": "stray", "operator": "Exists"})"),
  });
  const GpuOperatorPodTolerations t =
      GpuOperatorPodTolerationsOf("dump.json", text, "");
  EXPECT_EQ(t.namespace_name, "gpu-operator");
  ASSERT_TRUE(t.daemonsets.has_value());
  ASSERT_EQ(t.daemonsets->size(), 3u);
  EXPECT_EQ((*t.daemonsets)[0].key, "nvidia.com/gpu");
  EXPECT_EQ((*t.daemonsets)[0].op, Toleration::Operator::kExists);
  EXPECT_FALSE((*t.daemonsets)[0].any_effect);
  EXPECT_EQ((*t.daemonsets)[1].key, "example.com/maintenance");
  EXPECT_TRUE((*t.daemonsets)[1].any_effect);
  EXPECT_EQ((*t.daemonsets)[2].key, "dedicated");
  EXPECT_EQ((*t.daemonsets)[2].op, Toleration::Operator::kEqual);
  EXPECT_EQ((*t.daemonsets)[2].value, "a");
  EXPECT_EQ(t.daemonsets_from,
            "the pods of DaemonSets nvidia-device-plugin-daemonset, "
            "gpu-feature-discovery in namespace gpu-operator (dump.json)");
  ASSERT_TRUE(t.nfd_worker.has_value());
  ASSERT_EQ(t.nfd_worker->size(), 2u);
  EXPECT_EQ((*t.nfd_worker)[0].key, "node-role.kubernetes.io/control-plane");
  EXPECT_EQ((*t.nfd_worker)[1].key, "nvidia.com/gpu");
  EXPECT_EQ(t.nfd_worker_from,
            "the pods of DaemonSet gpu-operator-node-feature-discovery-worker "
            "in namespace gpu-operator (dump.json)");

  // The namespace said: only its pods count.
  const GpuOperatorPodTolerations elsewhere =
      GpuOperatorPodTolerationsOf("dump.json", text, "elsewhere");
  ASSERT_TRUE(elsewhere.daemonsets.has_value());
  ASSERT_EQ(elsewhere.daemonsets->size(), 1u);
  EXPECT_EQ((*elsewhere.daemonsets)[0].key, "stray");
  EXPECT_FALSE(elsewhere.nfd_worker.has_value());
  EXPECT_EQ(GpuOperatorPodTolerationsOf("dump.json", text, "none").namespace_name,
            "");
}

TEST(KubectlGpuOperatorPodsTest, NoOperatorPodsLeavesTheListsUnknown) {
  const std::string text =
      List({DaemonPod("kube-proxy-x", "kube-system", "kube-proxy", kGpu)});
  EXPECT_FALSE(MayHoldGpuOperatorPods(text));
  const GpuOperatorPodTolerations t =
      GpuOperatorPodTolerationsOf("dump.json", text, "");
  EXPECT_EQ(t.namespace_name, "");
  EXPECT_FALSE(t.daemonsets.has_value());
  EXPECT_FALSE(t.nfd_worker.has_value());
  // A pod whose DaemonSet tolerates nothing of its own: an empty list.
  const std::string bare = List({R"({"kind": "Pod", "metadata": {"name":
      "nvidia-dcgm-exporter-1", "namespace": "gpu-operator",
      "ownerReferences": [{"kind": "DaemonSet", "name":
      "nvidia-dcgm-exporter"}]}, "spec": {}})"});
  EXPECT_TRUE(MayHoldGpuOperatorPods(bare));
  const GpuOperatorPodTolerations b =
      GpuOperatorPodTolerationsOf("dump.json", bare, "");
  ASSERT_TRUE(b.daemonsets.has_value());
  EXPECT_TRUE(b.daemonsets->empty());
}

TEST(KubectlGpuOperatorPodsTest, ABadOperatorIsAnErrorAtItsPath) {
  const std::string text = List({DaemonPod(
      "nvidia-device-plugin-daemonset-a", "gpu-operator",
      "nvidia-device-plugin-daemonset",
      R"({"key": "k", "operator": "In"})")});
  try {
    GpuOperatorPodTolerationsOf("dump.json", text, "");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "dump.json");
    EXPECT_GT(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("expected Equal or Exists"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpushare
