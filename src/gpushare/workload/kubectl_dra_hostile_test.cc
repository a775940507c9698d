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

}  // namespace
}  // namespace kubectl_dra_hostile_test
}  // namespace gpushare
