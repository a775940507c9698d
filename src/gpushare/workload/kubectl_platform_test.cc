// What a kubectl dump says of the cluster's software.

#include "gpushare/workload/kubectl_platform.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace kubectl_platform_test {
namespace {

std::string List(const std::string& items) {
  return R"({"apiVersion": "v1", "kind": "List", "items": [)" + items + "]}";
}

std::string NodeOf(const std::string& name, const std::string& kubelet) {
  return R"({"kind": "Node", "metadata": {"name": ")" + name +
         R"("}, "status": {"nodeInfo": {"kubeletVersion": ")" + kubelet +
         R"("}}})";
}

std::string PodOf(const std::string& ns, const std::string& owner_kind,
                  const std::string& owner, const std::string& image,
                  const std::string& labels = "{}") {
  return R"({"kind": "Pod", "metadata": {"name": "p", "namespace": ")" + ns +
         R"(", "labels": )" + labels + R"(, "ownerReferences": [{"kind": ")" +
         owner_kind + R"(", "name": ")" + owner + R"(", "controller": true}]},
          "spec": {"containers": [{"name": "c", "image": ")" +
         image + R"("}]}})";
}

TEST(KubectlPlatformTest, TheLowestKubeletVersion) {
  const KubectlPlatform p = ParseKubectlPlatform(
      List(NodeOf("a", "v1.35.2") + "," + NodeOf("b", "v1.34.1-eks-113cf36") +
           "," + NodeOf("c", "v1.36.0") + "," +
           R"({"kind": "Node", "metadata": {"name": "d"}})"));
  EXPECT_EQ(p.kubelet_major, 1);
  EXPECT_EQ(p.kubelet_minor, 34);
  EXPECT_EQ(p.kubelet_node, "b");
  EXPECT_EQ(ParseKubectlPlatform(List(NodeOf("x", "latest"))).kubelet_major, 0);
}

// The chart's objects by name (25.x chart, no labels: the guide's release)
// and by labels (a release of another name); the kubelet plugin's pods
// before the controller's.
TEST(KubectlPlatformTest, TheDraDriverAsInstalled) {
  KubectlPlatform p = ParseKubectlPlatform(
      List(PodOf("nvidia-dra-driver-gpu", "ReplicaSet",
                 "nvidia-dra-driver-gpu-controller-6b7c9d8f4",
                 "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.8.0") +
           "," +
           PodOf("nvidia-dra-driver-gpu", "DaemonSet",
                 "nvidia-dra-driver-gpu-kubelet-plugin",
                 "nvcr.io/nvidia/k8s-dra-driver-gpu:v25.12.0")));
  EXPECT_TRUE(p.dra_driver);
  EXPECT_EQ(p.dra_driver_name, "nvidia-dra-driver-gpu");
  EXPECT_EQ(p.dra_driver_release, "nvidia-dra-driver-gpu");
  EXPECT_EQ(p.dra_driver_namespace, "nvidia-dra-driver-gpu");
  EXPECT_EQ(p.dra_driver_version, "25.12.0");
  EXPECT_TRUE(p.dra_driver_from_kubelet_plugin);

  p = ParseKubectlPlatform(List(
      PodOf("gpu-dra", "DaemonSet", "custom-kubelet-plugin",
            "registry.k8s.io/dra-driver-nvidia/dra-driver-nvidia-gpu@sha256:ab",
            R"({"app.kubernetes.io/name": "custom",
          "app.kubernetes.io/instance": "dra",
          "custom-component": "kubelet-plugin"})")));
  EXPECT_EQ(p.dra_driver_name, "custom");
  EXPECT_EQ(p.dra_driver_release, "dra");
  EXPECT_EQ(p.dra_driver_namespace, "gpu-dra");
  EXPECT_EQ(p.dra_driver_version, "");  // a digest

  // Another DaemonSet's pods are not the driver's.
  p = ParseKubectlPlatform(
      List(PodOf("kube-system", "DaemonSet", "kube-proxy", "kube-proxy:v1")));
  EXPECT_FALSE(p.dra_driver);
}

TEST(KubectlPlatformTest, TheGpuOperatorsDriver) {
  KubectlPlatform p = ParseKubectlPlatform(
      List(PodOf("gpu-operator", "DaemonSet",
                 "nvidia-container-toolkit-daemonset", "t:1")));
  EXPECT_TRUE(p.gpu_operator);
  EXPECT_FALSE(p.gpu_operator_driver);
  p = ParseKubectlPlatform(List(
      PodOf("gpu-operator", "DaemonSet", "nvidia-container-toolkit-daemonset",
            "t:1") +
      "," +
      PodOf("gpu-operator", "DaemonSet", "nvidia-driver-daemonset", "d:1")));
  EXPECT_TRUE(p.gpu_operator_driver);
  // The NVIDIADriver CRD's DaemonSets are labelled so.
  p = ParseKubectlPlatform(List(
      PodOf("gpu-operator", "DaemonSet", "nvidia-gpu-driver-ubuntu22.04", "d:1",
            R"({"app.kubernetes.io/component": "nvidia-driver"})")));
  EXPECT_TRUE(p.gpu_operator_driver);
  EXPECT_FALSE(ParseKubectlPlatform(List("")).gpu_operator);
}

TEST(KubectlPlatformTest, DeviceClasses) {
  const KubectlPlatform p = ParseKubectlPlatform(List(
      R"({"kind": "DeviceClass", "metadata": {"name": "mig-1g-10gb.gpu.nvidia.com"},
          "spec": {"selectors": [{"cel": {"expression": "a"}},
                                 {"cel": {"expression": "b"}}],
                   "extendedResourceName": "nvidia.com/mig-1g.10gb",
                   "config": [{"opaque": {"driver": "gpu.nvidia.com"}}]}})"));
  ASSERT_EQ(p.device_classes.size(), 1u);
  EXPECT_EQ(p.device_classes[0].name, "mig-1g-10gb.gpu.nvidia.com");
  EXPECT_EQ(p.device_classes[0].cel, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.device_classes[0].extended_resource_name,
            "nvidia.com/mig-1g.10gb");
  EXPECT_TRUE(p.device_classes[0].has_config);
}

TEST(KubectlPlatformTest, NotJsonGivesNothing) {
  const KubectlPlatform p = ParseKubectlPlatform("{not json");
  EXPECT_EQ(p.kubelet_major, 0);
  EXPECT_FALSE(p.dra_driver);
  EXPECT_TRUE(p.device_classes.empty());
  // One object, not a List.
  EXPECT_EQ(ParseKubectlPlatform(NodeOf("n", "v1.36.1")).kubelet_minor, 36);
}

}  // namespace
}  // namespace kubectl_platform_test
}  // namespace gpushare
