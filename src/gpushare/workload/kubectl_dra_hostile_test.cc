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

std::string Claim(const std::string& name, const std::string& results) {
  return R"(,
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": ")" +
         name + R"(", "namespace": "ml"},
 "spec": {"devices": {"requests": [)" +
         kOneGpu + R"(]}},
 "status": {"allocation": {"devices": {"results": [)" +
         results + "]}}}}";
}

std::string Result(const std::string& device, const std::string& more = "") {
  return R"({"request": "gpu", "driver": "gpu.nvidia.com", "pool": "n1",
  "device": ")" +
         device + "\"" + more + "}";
}

TEST(DraKubectlHostileTest, ClaimsAreValidatedAsTheApiServerDoes) {
  auto error_of = [](const std::string& requests,
                     const std::string& devices_extra = "") {
    return PodError(PodList(PodWithClaims("a", TemplateEntry("gpu", "t")),
                            Template("t", requests, devices_extra)));
  };
  EXPECT_NE(error_of(R"({"name": "gpu", "exactly": {"deviceClassName":
      "gpu.nvidia.com", "allocationMode": "All", "count": 2}})")
                .find("exactly.count: must not be set when allocationMode "
                      "is 'All'"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(kOneGpu) + "," + kOneGpu)
                .find("requests[1].name: request name 'gpu' is used twice"),
            std::string::npos);
  EXPECT_NE(error_of(kOneGpu, R"(, "constraints": [{"requests": ["gpu/big"],
      "matchAttribute": "gpu.nvidia.com/productName"}])")
                .find("constraints[0].requests[0]: 'gpu/big' must be the name "
                      "of a request in the claim"),
            std::string::npos);
  EXPECT_NE(error_of(kOneGpu, R"(, "constraints": [{"requests": ["gpu"],
      "matchAttribute": "gpu.nvidia.com/"}])")
                .find("is not a fully qualified attribute name"),
            std::string::npos);
  // A template no pod uses is validated too, as the API server did.
  EXPECT_NE(PodError(PodList(PodWithClaims("a", TemplateEntry("gpu", "t")),
                             Template("t", kOneGpu) +
                                 Template("unused", R"({"name": "gpu",
      "exactly": {"deviceClassName": "gpu.nvidia.com", "count": 0}})")))
                .find("items[2].spec.spec.devices.requests[0].exactly.count: "
                      "0 is out of range"),
            std::string::npos);
}

TEST(DraKubectlHostileTest, AClaimCountsOnceAndItsDevicesOnce) {
  // Two entries naming one claim: its one GPU once (was 2).
  const std::vector<Pod> pods = Pods(PodList(
      PodWithClaims("a", R"({"name": "x", "resourceClaimName": "c"},
                            {"name": "y", "resourceClaimName": "c"})"),
      Claim("c", Result("gpu-0"))));
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 1.0);
  // The same device with two shareIDs (consumable capacity) is two
  // allocations; the same device twice is refused.
  const std::vector<Pod> shared = Pods(PodList(
      PodWithClaims("a", R"({"name": "x", "resourceClaimName": "c"})"),
      Claim("c", Result("gpu-0", R"(, "shareID": "00000000-0000-0000-0000-00000000000a")") +
                     "," +
                     Result("gpu-0", R"(, "shareID": "00000000-0000-0000-0000-00000000000b")"))));
  EXPECT_DOUBLE_EQ(shared[0].needs.gpus, 2.0);
  EXPECT_NE(PodError(PodList(PodWithClaims("a", R"({"name": "x",
                "resourceClaimName": "c"})"),
                             Claim("c", Result("gpu-0") + "," + Result("gpu-0"))))
                .find("results[1].device: device 'gpu-0' is allocated twice"),
            std::string::npos);
}

// A nic.example.com slice of n1 with one device eth1 (type "nic").
constexpr const char* kNicSlice = R"(,
{"kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "n1-nic"}, "spec": {"driver": "nic.example.com",
  "nodeName": "n1", "pool": {"name": "n1", "generation": 1,
  "resourceSliceCount": 1},
  "devices": [{"name": "eth1", "attributes": {"type": {"string": "nic"},
   "speed": {"int": 100}}}]}})";

TEST(DraKubectlHostileTest, AClaimNoDeviceSatisfiesLeavesItsPodUnschedulable) {
  // allocationMode All over a product no GPU has: upstream's allocator
  // finds no device (cannot allocate all claims); it was left out and the
  // pod ran without a GPU.
  const std::string none = R"({"name": "gpu", "exactly": {"deviceClassName":
      "gpu.nvidia.com", "allocationMode": "All", "selectors": [{"cel":
      {"expression": "device.attributes['gpu.nvidia.com'].productName == 'NVIDIA B900'"}}]}})";
  std::vector<std::string> notes;
  const std::vector<Pod> pods = Pods(
      PodList(PodWithClaims("a", TemplateEntry("gpu", "t")),
              Template("t", none) + kNicSlice +
                  Class("nic", "device.driver == 'nic.example.com'")),
      &notes);
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].dra_unallocatable, "cannot allocate all claims");
  EXPECT_NE(notes[0].find("1 request(s) that no device of the list's "
                          "ResourceSlices or of the catalog's GPUs satisfies"),
            std::string::npos)
      << notes[0];
  // A request for the NIC the list's slice has is another driver's: left
  // out, the pod schedulable.
  const std::vector<Pod> nic = Pods(
      PodList(PodWithClaims("a", TemplateEntry("gpu", "t")),
              Template("t", R"({"name": "nic", "exactly": {"deviceClassName":
                  "nic", "allocationMode": "All"}})") +
                  kNicSlice + Class("nic", "device.driver == 'nic.example.com'")));
  EXPECT_EQ(nic[0].dra_unallocatable, "");
  // A selector that fails on every device is a located error, as the
  // allocator's.
  const std::string error = PodError(
      PodList(PodWithClaims("a", TemplateEntry("gpu", "t")),
              Template("t", R"({"name": "gpu", "exactly": {"deviceClassName":
                  "fast"}})") + kNicSlice +
                  Class("fast", "device.attributes['example.com'].speed > 2")));
  EXPECT_NE(error.find("spec.selectors[0].cel.expression: class fast: "
                       "selector #0: CEL runtime error: no such key: speed"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace kubectl_dra_hostile_test
}  // namespace gpushare
