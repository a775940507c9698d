// The kubectl import of Dynamic Resource Allocation objects: ResourceSlices
// into devices: dra nodes, ResourceClaims into pods' GPU demand, on small
// hand-written `kubectl get ... -o json` lists.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/kubectl_node_list.h"
#include "gpushare/workload/kubectl_pod_list.h"

namespace gpushare {
namespace kubectl_dra_import_test {
namespace {

// A node n1 (no GPU labels or resources), then `more` items.
std::string NodeList(const std::string& more) {
  return R"({"kind": "List", "items": [
{"kind": "Node", "apiVersion": "v1", "metadata": {"name": "n1"},
 "status": {"allocatable": {"cpu": "64", "memory": "512Gi"}}})" +
         more + "]}";
}

// A gpu.nvidia.com ResourceSlice of node n1 with `devices` (JSON objects).
std::string Slice(const std::string& devices,
                  const std::string& api = "resource.k8s.io/v1") {
  return R"(,
{"kind": "ResourceSlice", "apiVersion": ")" +
         api + R"(", "metadata": {"name": "n1-gpu.nvidia.com-x"},
 "spec": {"driver": "gpu.nvidia.com", "nodeName": "n1",
  "pool": {"name": "n1", "generation": 1, "resourceSliceCount": 1},
  "devices": [)" +
         devices + "]}}";
}

// A whole A100-80GB `gpu-<i>`; `extra` adds members (capacity, sharing).
std::string Gpu(int i, const std::string& capacity = R"({"memory": {"value": "80Gi"}})",
                const std::string& extra = "") {
  return R"({"name": "gpu-)" + std::to_string(i) +
         R"(", "attributes": {"type": {"string": "gpu"},
   "productName": {"string": "NVIDIA A100-SXM4-80GB"}},
  "capacity": )" +
         capacity + extra + "}";
}

std::string Mig(const std::string& name, const std::string& profile) {
  return R"({"name": ")" + name +
         R"(", "attributes": {"type": {"string": "mig"},
   "gpu.nvidia.com/productName": {"string": "NVIDIA A100-SXM4-80GB"},
   "profile": {"string": ")" +
         profile + R"("}}, "capacity": {"memory": {"value": "40Gi"}}})";
}

std::string NodeError(const std::string& text) {
  try {
    ParseKubectlNodes("n.json", text, Catalog::Builtin());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
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

TEST(DraKubectlImportTest, EightGpuSliceMakesADraPoolOfEightGpus) {
  std::string devices;
  for (int i = 0; i < 8; ++i) devices += (i > 0 ? "," : "") + Gpu(i);
  std::vector<std::string> notes;
  const std::vector<ImportedNode> nodes = ParseKubectlNodes(
      "n.json", NodeList(Slice(devices)), Catalog::Builtin(), &notes);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].gpu_model, "A100-80GB");
  EXPECT_EQ(nodes[0].gpus, 8);
  EXPECT_EQ(nodes[0].devices, PoolDevices::kDra);
  EXPECT_EQ(nodes[0].sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(nodes[0].dra.consumable_shares, DraConsumableShares::kDisabled);
  const std::vector<NodePoolSpec> pools = GroupNodePools(nodes, "");
  ASSERT_EQ(pools.size(), 1u);
  EXPECT_EQ(pools[0].name, "a100-80gb-x8-dra");
  EXPECT_EQ(pools[0].devices, PoolDevices::kDra);
  EXPECT_EQ(pools[0].gpus_per_node, 8);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].rfind("1 node(s) with a gpu.nvidia.com ResourceSlice", 0),
            0u);
}

TEST(DraKubectlImportTest, SliceWinsOverLabelsAndOtherDriversAreCounted) {
  // Labels and allocatable say 2 time-sliced L4s; the slice says 1 A100.
  const std::string text = R"({"kind": "List", "items": [
{"kind": "Node", "metadata": {"name": "n1", "labels": {
  "nvidia.com/gpu.product": "NVIDIA-L4", "nvidia.com/gpu.replicas": "4"}},
 "status": {"allocatable": {"cpu": "8", "memory": "32Gi",
  "nvidia.com/gpu": "8"}}})" +
                           Slice(Gpu(0)) + R"(,
{"kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "nic"}, "spec": {"driver": "nic.example.com",
 "nodeName": "n1", "pool": {"name": "n1"}, "devices": []}},
{"kind": "Pod", "metadata": {"name": "skipped"}}]})";
  std::vector<std::string> notes;
  const std::vector<ImportedNode> nodes =
      ParseKubectlNodes("n.json", text, Catalog::Builtin(), &notes);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].gpu_model, "A100-80GB");
  EXPECT_EQ(nodes[0].gpus, 1);
  EXPECT_EQ(nodes[0].sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(nodes[0].labels.at("nvidia.com/gpu.product"), "NVIDIA-L4");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1],
            "1 ResourceSlice(s) of other drivers than gpu.nvidia.com ignored");
}

TEST(DraKubectlImportTest, MigSliceGivesItsLayout) {
  const std::string devices =
      Mig("gpu-0-mig-3g40gb-9-4", "3g.40gb") + "," +
      Mig("gpu-0-mig-2g20gb-14-0", "2g.20gb") + "," +
      Mig("gpu-0-mig-1g10gb-19-3", "1g.10gb") + "," +
      Mig("gpu-0-mig-1g10gb-19-2", "1g.10gb") + "," +
      Mig("gpu-1-mig-7g80gb-0-0", "7g.80gb");
  const std::vector<ImportedNode> nodes = ParseKubectlNodes(
      "n.json", NodeList(Slice(devices)), Catalog::Builtin());
  ASSERT_EQ(nodes.size(), 1u);
  const ImportedNode& n = nodes[0];
  EXPECT_EQ(n.gpus, 2);
  EXPECT_EQ(n.devices, PoolDevices::kDra);
  EXPECT_TRUE(n.sharing.mig_enabled);
  EXPECT_EQ(n.sharing.scheme(), SharingScheme::kMig);
  const std::vector<std::vector<std::string>> want = {
      {"2g.20gb@0", "1g.10gb@2", "1g.10gb@3", "3g.40gb@4"}, {"7g.80gb@0"}};
  EXPECT_EQ(n.sharing.mig.layouts, want);
  EXPECT_EQ(GroupNodePools(nodes, "")[0].name, "a100-80gb-x2-mig-dra");
}

TEST(DraKubectlImportTest, ConsumableSharesBecomeDraSettings) {
  // --consumable-shares=4: a shares capacity of 4.
  const std::string shared = R"(, "allowMultipleAllocations": true)";
  const std::string count_capacity =
      R"({"memory": {"value": "80Gi", "requestPolicy": {"default": "0",
        "validRange": {"min": "0", "max": "80Gi", "step": "1Mi"}}},
      "shares": {"value": "4", "requestPolicy": {"default": "1",
        "validRange": {"min": "1", "max": "4", "step": "1"}}}})";
  std::vector<ImportedNode> n = ParseKubectlNodes(
      "n.json",
      NodeList(Slice(Gpu(0, count_capacity, shared) + "," +
                     Gpu(1, count_capacity, shared))),
      Catalog::Builtin());
  EXPECT_EQ(n[0].dra.consumable_shares, DraConsumableShares::kCount);
  EXPECT_EQ(n[0].dra.shares, 4);
  EXPECT_EQ(n[0].sharing.scheme(), SharingScheme::kTimeSlicing);
  EXPECT_EQ(n[0].sharing.replicas.replicas, 4);
  EXPECT_EQ(n[0].gpus, 2);

  // memory: the default is the whole memory.
  n = ParseKubectlNodes(
      "n.json",
      NodeList(Slice(Gpu(0,
                         R"({"memory": {"value": "80Gi", "requestPolicy":
                            {"default": "80Gi"}}})",
                         shared))),
      Catalog::Builtin());
  EXPECT_EQ(n[0].dra.consumable_shares, DraConsumableShares::kMemoryShares);
  EXPECT_EQ(n[0].sharing.replicas.replicas, 2);  // the least a section takes

  // unlimited: default 0 without shares.
  n = ParseKubectlNodes(
      "n.json",
      NodeList(Slice(Gpu(0,
                         R"({"memory": {"value": "80Gi", "requestPolicy":
                            {"default": "0"}}})",
                         shared))),
      Catalog::Builtin());
  EXPECT_EQ(n[0].dra.consumable_shares, DraConsumableShares::kUnlimited);

  // Two devices shared differently.
  const std::string mixed = NodeError(NodeList(Slice(
      Gpu(0, count_capacity, shared) + "," +
      Gpu(1, R"({"memory": {"value": "80Gi", "requestPolicy":
                 {"default": "0"}}})",
          shared))));
  EXPECT_NE(mixed.find("device 'gpu-1' is shared as 'unlimited' but another "
                       "device of the node as '4'"),
            std::string::npos)
      << mixed;
}

TEST(DraKubectlImportTest, OtherApiVersionsAreLocatedErrors) {
  const std::string error =
      NodeError(NodeList(Slice(Gpu(0), "resource.k8s.io/v1beta1")));
  EXPECT_EQ(error.rfind("n.json:4:", 0), 0u) << error;
  EXPECT_NE(error.find("items[1].apiVersion: a ResourceSlice of "
                       "resource.k8s.io/v1beta1: the import reads "
                       "resource.k8s.io/v1"),
            std::string::npos)
      << error;
}

TEST(DraKubectlImportTest, MalformedSlicesAreLocatedErrors) {
  const std::string no_product = NodeError(NodeList(Slice(
      R"({"name": "gpu-0", "attributes": {"type": {"string": "gpu"}}})")));
  EXPECT_NE(no_product.find("n.json:7:"), std::string::npos) << no_product;
  EXPECT_NE(no_product.find("items[1].spec.devices[0].attributes: device "
                            "'gpu-0' has no productName attribute"),
            std::string::npos)
      << no_product;
  const std::string mixed = NodeError(
      NodeList(Slice(Gpu(0) + "," + Mig("gpu-1-mig-7g80gb-0-0", "7g.80gb"))));
  EXPECT_NE(mixed.find("publishes both whole GPUs and MIG devices"),
            std::string::npos)
      << mixed;
  const std::string bad_start = NodeError(
      NodeList(Slice(Mig("gpu-0-mig-3g40gb-9-2", "3g.40gb"))));
  EXPECT_NE(bad_start.find("node 'n1', GPU 0: MIG devices 3g.40gb@2:"),
            std::string::npos)
      << bad_start;
  const std::string bad_quantity = NodeError(NodeList(Slice(Gpu(
      0,
      R"({"memory": {"value": "80Gi", "requestPolicy": {"default": "lots"}}})",
      R"(, "allowMultipleAllocations": true)"))));
  EXPECT_NE(bad_quantity.find("requestPolicy.default"), std::string::npos)
      << bad_quantity;
  const std::string stranger = NodeError(R"({"kind": "List", "items": [
{"kind": "ResourceSlice", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "s"}, "spec": {"driver": "gpu.nvidia.com",
 "nodeName": "n9", "pool": {"name": "n9"}, "devices": [)" +
                                         Gpu(0) + "]}}]}");
  EXPECT_NE(stranger.find("n.json:4:14: items[0].spec.nodeName: node 'n9' is "
                          "not in the list"),
            std::string::npos)
      << stranger;
  EXPECT_NE(NodeError(R"({"kind": "List", "items": [{"kind": "Service"}]})")
                .find("expected kind Node, got 'Service'"),
            std::string::npos);
}

// Pods and their claims, after `more` objects.
std::string PodList(const std::string& pods, const std::string& more) {
  return R"({"kind": "List", "items": [)" + pods + more + "]}";
}

std::string PodWithClaim(const std::string& name, const std::string& claim,
                         const std::string& node = "",
                         const std::string& status = "") {
  return R"({"kind": "Pod", "metadata": {"name": ")" + name +
         R"(", "namespace": "ml"},
 "spec": {)" +
         (node.empty() ? "" : R"("nodeName": ")" + node + R"(", )") +
         R"("containers": [{"name": "c"}],
  "resourceClaims": [{"name": "gpu", )" +
         claim + R"(}]},
 "status": {"phase": ")" +
         (node.empty() ? "Pending" : "Running") + "\"" + status + "}}";
}

std::string Template(const std::string& name, const std::string& requests) {
  return R"(,
{"kind": "ResourceClaimTemplate", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": ")" +
         name + R"(", "namespace": "ml"},
 "spec": {"spec": {"devices": {"requests": [)" +
         requests + "]}}}}";
}

TEST(DraKubectlImportTest, TemplateClaimGivesThePodItsGpus) {
  const std::vector<Pod> pods = Pods(PodList(
      PodWithClaim("train", R"("resourceClaimTemplateName": "two-gpus")"),
      Template("two-gpus", R"({"name": "gpu", "exactly":
         {"deviceClassName": "gpu.nvidia.com", "count": 2}})")));
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].name, "ml/train");
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 2.0);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, TraceDefaults().gpu_memory_mib);
  EXPECT_TRUE(pods[0].explicit_requests.empty());
  EXPECT_TRUE(pods[0].node_name.empty());
}

TEST(DraKubectlImportTest, MigClassesGiveTheProfileSize) {
  // The chart's per-profile class by name, and a listed class whose CEL
  // selector picks one profile.
  const std::string more =
      Template("mig", R"({"name": "gpu", "exactly":
         {"deviceClassName": "mig-3g-40gb.gpu.nvidia.com"}})") +
      Template("small", R"({"name": "gpu", "exactly":
         {"deviceClassName": "small-mig"}})") +
      R"(,
{"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "small-mig"}, "spec": {"selectors": [{"cel":
 {"expression": "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].profile == '1g.10gb'"}}]}})";
  const std::vector<Pod> pods = Pods(PodList(
      PodWithClaim("a", R"("resourceClaimTemplateName": "mig")") + "," +
          PodWithClaim("b", R"("resourceClaimTemplateName": "small")"),
      more));
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 3.0 / 7.0);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, 40192);  // A100-80GB's 3g.40gb
  EXPECT_DOUBLE_EQ(pods[1].needs.gpus, 1.0 / 7.0);
  EXPECT_EQ(pods[1].needs.gpu_memory_mib, 9856);  // A100's 1g.10gb
}

TEST(DraKubectlImportTest, AllocatedClaimBindsThePodToItsNode) {
  const std::string claim = R"(,
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "serve-gpu-x7k2", "namespace": "ml"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
   {"deviceClassName": "gpu.nvidia.com", "allocationMode": "All"}}]}},
 "status": {"allocation": {"devices": {"results": [
   {"request": "gpu", "driver": "gpu.nvidia.com", "pool": "n1", "device": "gpu-3"},
   {"request": "gpu", "driver": "gpu.nvidia.com", "pool": "n1", "device": "gpu-5"}]}}}})";
  std::vector<std::string> notes;
  // Pending, not yet bound: the allocation's node binds it; it comes first.
  const std::vector<Pod> pods = Pods(
      PodList(PodWithClaim("other", R"("resourceClaimName": "shared")") + "," +
                  PodWithClaim("serve", R"("resourceClaimTemplateName": "t")",
                               "",
                               R"(, "resourceClaimStatuses": [{"name": "gpu",
                                  "resourceClaimName": "serve-gpu-x7k2"}])"),
              claim + Template("t", R"({"name": "gpu", "exactly":
         {"deviceClassName": "gpu.nvidia.com", "allocationMode": "All"}})") +
                  R"(,
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "shared", "namespace": "ml"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
   {"deviceClassName": "gpu.nvidia.com"}}]}}})"),
      &notes);
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(pods[0].name, "ml/serve");
  EXPECT_EQ(pods[0].node_name, "n1");
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 2.0);  // the two allocated devices
  EXPECT_EQ(pods[1].name, "ml/other");
  EXPECT_DOUBLE_EQ(pods[1].needs.gpus, 1.0);
  const std::vector<std::string> want = {
      "2 pod(s) with ResourceClaims of NVIDIA GPUs imported with the GPUs "
      "their claims ask"};
  EXPECT_EQ(notes, want);
}

TEST(DraKubectlImportTest, MemoryCapacityAndAllocatedMigProfile) {
  // mig.nvidia.com selects every profile; the allocated device names one.
  const std::string claim = R"(,
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "m-gpu-1", "namespace": "ml"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
   {"deviceClassName": "mig.nvidia.com"}}]}},
 "status": {"allocation": {"devices": {"results": [{"request": "gpu",
   "driver": "gpu.nvidia.com", "pool": "n2",
   "device": "gpu-1-mig-3g40gb-9-4"}]}}}})";
  std::vector<std::string> notes;
  const std::vector<Pod> pods = Pods(
      PodList(PodWithClaim("m", R"("resourceClaimTemplateName": "any-mig")",
                           "n2",
                           R"(, "resourceClaimStatuses": [{"name": "gpu",
                              "resourceClaimName": "m-gpu-1"}])") +
                  "," +
                  PodWithClaim("s", R"("resourceClaimTemplateName": "part")"),
              claim + Template("any-mig", R"({"name": "gpu", "exactly":
         {"deviceClassName": "mig.nvidia.com"}})") +
                  Template("part", R"({"name": "gpu", "exactly":
         {"deviceClassName": "gpu.nvidia.com",
          "capacity": {"requests": {"memory": "20Gi"}}}})")),
      &notes);
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_EQ(pods[0].node_name, "n2");
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 3.0 / 7.0);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, 40192);
  EXPECT_EQ(pods[0].dra_device_class, "mig-3g-40gb.gpu.nvidia.com");
  EXPECT_DOUBLE_EQ(pods[1].needs.gpus, 1.0);
  EXPECT_EQ(pods[1].needs.gpu_memory_mib, 20 * 1024);
  EXPECT_EQ(pods[1].dra_device_class, "gpu.nvidia.com");
  // The allocation settled the profile: nothing approximated.
  ASSERT_EQ(notes.size(), 1u);
}

TEST(DraKubectlImportTest, ApproximationsAreCounted) {
  const std::string more =
      Template("t", R"({"name": "gpu", "firstAvailable": [
          {"name": "big", "deviceClassName": "gpu.nvidia.com", "count": 2},
          {"name": "small", "deviceClassName": "mig.nvidia.com"}]},
        {"name": "watch", "exactly": {"deviceClassName": "gpu.nvidia.com",
          "adminAccess": true}},
        {"name": "nic", "exactly": {"deviceClassName": "nic"}})") +
      R"(,
{"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "nic"}, "spec": {"selectors": [{"cel":
 {"expression": "device.driver == 'nic.example.com'"}}]}},
{"kind": "ResourceClaim", "apiVersion": "resource.k8s.io/v1",
 "metadata": {"name": "shared", "namespace": "ml"},
 "spec": {"devices": {"requests": [{"name": "gpu", "exactly":
   {"deviceClassName": "gpu.nvidia.com"}}]}}})";
  std::vector<std::string> notes;
  const std::vector<Pod> pods =
      Pods(PodList(PodWithClaim("a", R"("resourceClaimTemplateName": "t")") +
                       "," +
                       PodWithClaim("b", R"("resourceClaimName": "shared")") +
                       "," +
                       PodWithClaim("c", R"("resourceClaimName": "shared")"),
                   more),
           &notes);
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_DOUBLE_EQ(pods[0].needs.gpus, 2.0);  // the first subrequest
  // issue 52: a claim b and c both name is shared: both get its GPU, and
  // the scheduler allocates it once (Pod::dra_claim).
  EXPECT_DOUBLE_EQ(pods[1].needs.gpus, 1.0);
  EXPECT_DOUBLE_EQ(pods[2].needs.gpus, 1.0);
  EXPECT_EQ(pods[0].dra_claim, "");
  EXPECT_EQ(pods[1].dra_claim, "ml/shared");
  EXPECT_EQ(pods[2].dra_claim, "ml/shared");
  const std::vector<std::string> want = {
      "3 pod(s) with ResourceClaims of NVIDIA GPUs imported with the GPUs "
      "their claims ask",
      "1 adminAccess request(s) left out (they take no device)",
      "1 firstAvailable request(s) imported as their allocated subrequest, "
      "else their first",
      "2 pod(s) sharing a ResourceClaim with other pods (resourceClaimName): "
      "each runs on the claim's devices, allocated once",
      "1 request(s) of DeviceClasses that select no NVIDIA GPU or MIG device "
      "left out",
      "DeviceClass(es) that select no NVIDIA GPU or MIG device (not "
      "modelled): nic"};
  EXPECT_EQ(notes, want);
}

TEST(DraKubectlImportTest, ClaimErrorsAreLocated) {
  const std::string missing = PodError(
      PodList(PodWithClaim("a", R"("resourceClaimTemplateName": "gone")"),
              Template("t", R"({"name": "gpu", "exactly":
         {"deviceClassName": "gpu.nvidia.com"}})")));
  EXPECT_EQ(missing.rfind("p.json:3:67: items[0].spec.resourceClaims[0]"
                          ".resourceClaimTemplateName: ResourceClaimTemplate "
                          "ml/gone is not in the list",
                          0),
            0u)
      << missing;
  const std::string no_objects = PodError(
      PodList(PodWithClaim("a", R"("resourceClaimTemplateName": "t")"), ""));
  EXPECT_NE(no_objects.find("items[0].spec.resourceClaims: the pod has "
                            "ResourceClaims but the list holds no DRA objects"),
            std::string::npos)
      << no_objects;
  const std::string bad_cel = PodError(PodList(
      PodWithClaim("a", R"("resourceClaimTemplateName": "t")"),
      Template("t", R"({"name": "gpu", "exactly":
         {"deviceClassName": "gpu.nvidia.com", "selectors": [{"cel":
           {"expression": "device.attributes['gpu.nvidia.com'].memory * 2 > 1"}}]}})")));
  EXPECT_NE(bad_cel.find("selectors[0].cel.expression: CEL selector, column"),
            std::string::npos)
      << bad_cel;
  const std::string unknown_class = PodError(PodList(
      PodWithClaim("a", R"("resourceClaimTemplateName": "t")"),
      Template("t", R"({"name": "gpu", "exactly":
         {"deviceClassName": "fast-gpus"}})")));
  EXPECT_NE(unknown_class.find("exactly.deviceClassName: DeviceClass "
                               "'fast-gpus' is not in the list"),
            std::string::npos)
      << unknown_class;
  const std::string v1beta2 = PodError(PodList(
      PodWithClaim("a", R"("resourceClaimTemplateName": "t")"), R"(,
{"kind": "DeviceClass", "apiVersion": "resource.k8s.io/v1beta2",
 "metadata": {"name": "x"}})"));
  EXPECT_NE(v1beta2.find("items[1].apiVersion: a DeviceClass of "
                         "resource.k8s.io/v1beta2: the import reads "
                         "resource.k8s.io/v1"),
            std::string::npos)
      << v1beta2;
}

}  // namespace
}  // namespace kubectl_dra_import_test
}  // namespace gpushare
