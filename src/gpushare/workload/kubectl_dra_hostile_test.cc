// The kubectl import of DRA objects against hostile and unusual input
// (issue 51): valid input upstream accepts (multi-line CEL, int64 pool
// generations), the API server's validation of imported claims, pods' claim
// entries and allocation results, and claims that cannot be allocated.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/kubectl_node_list.h"
#include "gpushare/workload/kubectl_pod_list.h"

namespace gpushare {
namespace kubectl_dra_hostile_test {
namespace {

// A node n1, then `more` items.
std::string NodeList(const std::string& more) {
  return R"({"kind": "List", "items": [
{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n1"},
 "status": {"allocatable": {"cpu": "64", "memory": "512Gi"}}})" +
         more + "]}";
}

// A gpu.nvidia.com ResourceSlice of n1 with one A100-80GB, pool generation
// `generation`.
std::string Slice(const std::string& generation) {
  return R"(,
{"kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "n1-gpu"}, "spec": {"driver": "gpu.nvidia.com",
  "nodeName": "n1", "pool": {"name": "n1", "generation": )" +
         generation + R"(, "resourceSliceCount": 1},
  "devices": [{"name": "gpu-0", "attributes": {"type": {"string": "gpu"},
   "productName": {"string": "NVIDIA A100-SXM4-80GB"}},
   "capacity": {"memory": {"value": "80Gi"}}}]}})";
}

std::string NodeError(const std::string& text) {
  try {
    ParseKubectlNodes("n.json", text, Catalog::Builtin());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(DraKubectlHostileTest, PoolGenerationIsAnyInt64AtLeastZero) {
  // Generation is an int64 (kubernetes/api resource/v1 ResourcePool); it
  // was refused above 2^62.
  const std::vector<ImportedNode> nodes = ParseKubectlNodes(
      "n.json", NodeList(Slice("9223372036854775807")), Catalog::Builtin());
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].gpus, 1);
  EXPECT_NE(NodeError(NodeList(Slice("-1"))).find("generation: -1 is out of "
                                                  "range"),
            std::string::npos);
  EXPECT_NE(NodeError(NodeList(Slice("9223372036854775808")))
                .find("generation: expected an integer"),
            std::string::npos);
}

// Pods and their claims, after `more` objects.
std::string PodList(const std::string& pods, const std::string& more) {
  return R"({"kind": "List", "items": [)" + pods + more + "]}";
}

// A pending pod of namespace ml with the spec.resourceClaims `claims`.
std::string PodWithClaims(const std::string& name, const std::string& claims,
                          const std::string& extra_spec = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "ml"},
 "spec": {"containers": [{"name": "c")" +
         extra_spec + R"(}], "resourceClaims": [)" + claims +
         R"(]}, "status": {"phase": "Pending"}})";
}

std::string TemplateEntry(const std::string& entry, const std::string& name) {
  return R"({"name": ")" + entry + R"(", "resourceClaimTemplateName": ")" +
         name + R"("})";
}

std::string Template(const std::string& name, const std::string& requests,
                     const std::string& devices_extra = "") {
  return R"(,
{"kind": "ResourceClaimTemplate", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": ")" +
         name + R"(", "namespace": "ml"},
 "spec": {"spec": {"devices": {"requests": [)" +
         requests + "]" + devices_extra + "}}}}";
}

std::string Class(const std::string& name, const std::string& expression) {
  return R"(,
{"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": ")" +
         name + R"("}, "spec": {"selectors": [{"cel": {"expression": ")" +
         expression + R"("}}]}})";
}

std::vector<Pod> Pods(const std::string& text,
                      std::vector<std::string>* notes = nullptr) {
  return ParseKubectlPods("p.json", text, Catalog::Builtin(),
                          KubectlPodOptions(), notes);
}

std::string PodError(const std::string& text) {
  try {
    Pods(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

constexpr const char* kOneGpu =
    R"({"name": "gpu", "exactly": {"deviceClassName": "gpu.nvidia.com"}})";

TEST(DraKubectlHostileTest, MultiLineCelSelectorsAreRead) {
  // kubectl prints a YAML block scalar's line breaks as \n; they were
  // refused as control characters.
  const std::vector<Pod> pods = Pods(PodList(
      PodWithClaims("a", TemplateEntry("gpu", "t")),
      Template("t", R"({"name": "gpu", "exactly": {"deviceClassName": "big"}})") +
          Class("big",
                "device.driver == 'gpu.nvidia.com' &&\\n\\t"
                "device.attributes['gpu.nvidia.com'].type == 'gpu'\\r\\n")));
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 1.0);
  // An error on the second line is located there.
  const std::string second_line = PodError(PodList(
      PodWithClaims("a", TemplateEntry("gpu", "t")),
      Template("t", R"({"name": "gpu", "exactly": {"deviceClassName": "big"}})") +
          Class("big", "device.driver == 'gpu.nvidia.com' &&\\n  1 + 1")));
  EXPECT_NE(second_line.find("spec.selectors[0].cel.expression: CEL selector, "
                             "line 2, column 5: arithmetic ('+')"),
            std::string::npos)
      << second_line;
  // Other control characters stay refused.
  const std::string bell = PodError(PodList(
      PodWithClaims("a", TemplateEntry("gpu", "t")),
      Template("t", R"({"name": "gpu", "exactly": {"deviceClassName": "big"}})") +
          Class("big", "true\\u0007")));
  EXPECT_NE(bell.find("control character U+0007"), std::string::npos) << bell;
}

}  // namespace
}  // namespace kubectl_dra_hostile_test
}  // namespace gpushare
