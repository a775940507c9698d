// The kubectl readers on hand-written `kubectl get -o json` lists
// (tests/data/kubectl/) and on malformed input.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/resources.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/kubectl_node_list.h"
#include "gpushare/workload/kubectl_pod_list.h"

namespace gpushare {
namespace kubectl_import_test {
namespace {

const std::string kNodes = GS_TESTDATA_DIR "/kubectl/nodes.json";
const std::string kPods = GS_TESTDATA_DIR "/kubectl/pods.json";

class KubectlImportTest : public ::testing::Test {
 protected:
  Catalog catalog_ = Catalog::Builtin();
};

// The error text of parsing `text` as a node (or pod) list.
std::string NodeError(const Catalog& catalog, const std::string& text) {
  try {
    ParseKubectlNodes("n.json", text, catalog);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

std::string PodError(const Catalog& catalog, const std::string& text) {
  try {
    ParseKubectlPods("p.json", text, catalog, KubectlPodOptions());
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

// A one-node list whose allocatable and labels are the given JSON members.
std::string OneNode(const std::string& labels, const std::string& allocatable,
                    const std::string& extra = "") {
  return "{\"kind\": \"List\", \"items\": [{\"kind\": \"Node\",\n"
         " \"metadata\": {\"name\": \"n1\", \"labels\": {" +
         labels + "}" + extra +
         "},\n \"status\": {\"allocatable\": {\"cpu\": \"8\", "
         "\"memory\": \"32Gi\"" +
         allocatable + "}}}]}";
}

TEST_F(KubectlImportTest, ReadsEveryKindOfNode) {
  const std::vector<ImportedNode> nodes = ReadKubectlNodes(kNodes, catalog_);
  ASSERT_EQ(nodes.size(), 5u);

  const ImportedNode& mig = nodes[0];
  EXPECT_EQ(mig.name, "gpu-a100-0");
  EXPECT_EQ(mig.gpu_model, "A100-80GB");
  EXPECT_EQ(mig.gpus, 2);
  EXPECT_EQ(mig.cpu_milli, 63500);
  EXPECT_EQ(mig.memory_mib, 515000);
  EXPECT_TRUE(mig.sharing.mig_enabled);
  EXPECT_EQ(mig.sharing.mig.strategy, MigStrategy::kMixed);
  EXPECT_EQ(mig.sharing.mig.config_name, "all-balanced");
  ASSERT_EQ(mig.taints.size(), 1u);
  EXPECT_EQ(mig.taints[0].key, "nvidia.com/gpu");

  const ImportedNode& ts = nodes[1];
  EXPECT_EQ(ts.gpu_model, "L4");
  EXPECT_EQ(ts.gpus, 4);
  EXPECT_EQ(ts.sharing.scheme(), SharingScheme::kTimeSlicing);
  EXPECT_EQ(ts.sharing.replicas.replicas, 4);
  EXPECT_FALSE(ts.sharing.replicas.rename_by_default);
  EXPECT_EQ(ts.cpu_milli, 47000);
  EXPECT_EQ(ts.memory_mib, 180 * 1024);

  const ImportedNode& hami = nodes[3];
  EXPECT_EQ(hami.gpu_model, "A10");
  EXPECT_EQ(hami.gpus, 2);
  EXPECT_EQ(hami.sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(hami.sharing.hami.split_count, 10);
  EXPECT_DOUBLE_EQ(hami.sharing.hami.memory_scaling, 1.0);

  const ImportedNode& cpu = nodes[4];
  EXPECT_EQ(cpu.gpus, 0);
  EXPECT_EQ(cpu.gpu_model, "");
  ASSERT_EQ(cpu.taints.size(), 1u);
  EXPECT_EQ(cpu.taints[0].key, "node.kubernetes.io/unschedulable");
}

TEST_F(KubectlImportTest, GroupsIdenticalNodesIntoPools) {
  const std::vector<NodePoolSpec> pools =
      GroupNodePools(ReadKubectlNodes(kNodes, catalog_), "");
  ASSERT_EQ(pools.size(), 4u);
  EXPECT_EQ(pools[0].name, "a100-80gb-x2-mig");
  EXPECT_EQ(pools[1].name, "l4-x4-time-slicing");
  EXPECT_EQ(pools[1].nodes, 2);
  ASSERT_EQ(pools[1].members.size(), 2u);
  EXPECT_EQ(pools[1].members[1].name, "gpu-l4-1");
  EXPECT_EQ(pools[1].members[1].labels.at("team"), "research");
  EXPECT_EQ(pools[1].members[1].taints.size(), 1u);
  EXPECT_EQ(pools[2].name, "a10-x2-hami");
  EXPECT_EQ(pools[3].name, "cpu");
  EXPECT_EQ(pools[3].gpus_per_node, 0);

  // The pools build a cluster with the real node names and labels.
  Cluster cluster(catalog_);
  for (const NodePoolSpec& p : pools) cluster.AddPool(p);
  ASSERT_EQ(cluster.nodes().size(), 5u);
  const Node& l4 = cluster.nodes()[2];
  EXPECT_EQ(l4.name(), "gpu-l4-1");
  EXPECT_EQ(l4.labels().at("topology.kubernetes.io/zone"), "zone-b");
  EXPECT_EQ(l4.labels().at("nvidia.com/gpu.product"), "NVIDIA-L4-SHARED");
  EXPECT_EQ(l4.labels().at(kNodePoolLabel), "l4-x4-time-slicing");
  const ResourceId gpu = cluster.resources().Find(kNvidiaGpu);
  EXPECT_EQ(l4.Allocatable(gpu), 16);
  const ResourceId mig = cluster.resources().Find("nvidia.com/mig-3g.40gb");
  EXPECT_EQ(cluster.nodes()[0].Allocatable(mig), 2);
}

TEST_F(KubectlImportTest, ReadsPodsRunningFirst) {
  KubectlPodOptions options;
  const std::vector<Pod> pods = ReadKubectlPods(kPods, catalog_, options);
  ASSERT_EQ(pods.size(), 6u);  // done-f (Succeeded) is skipped
  EXPECT_EQ(pods[0].name, "kube-system/kube-proxy-7xk2p");
  EXPECT_EQ(pods[0].node_name, "cpu-0");
  EXPECT_EQ(pods[0].cpu_milli, 100);
  EXPECT_EQ(pods[0].memory_mib, 128);
  EXPECT_EQ(pods[0].priority, 2000001000);
  EXPECT_EQ(pods[0].tenant_class, "system");  // kube-system is a system one
  EXPECT_EQ(pods[0].tenant, "kube-system");
  EXPECT_TRUE(pods[0].in_system_namespace);
  EXPECT_FALSE(pods[1].in_system_namespace);
  EXPECT_TRUE(pods[0].explicit_requests.empty());
  EXPECT_EQ(pods[0].needs.gpus, 0);

  const Pod& infer = pods[1];
  EXPECT_EQ(infer.node_name, "gpu-a100-0");
  ASSERT_EQ(infer.explicit_requests.size(), 1u);
  EXPECT_EQ(infer.explicit_requests[0].first, "nvidia.com/mig-1g.10gb");
  EXPECT_EQ(infer.explicit_requests[0].second, 1);
  EXPECT_NEAR(infer.needs.gpus, 1.0 / 7, 1e-12);
  EXPECT_EQ(infer.needs.gpu_memory_mib, 9856);  // A100-80GB/H100 1g.10gb
  EXPECT_EQ(infer.needs.lifetime_s, 3600);
  EXPECT_EQ(infer.tolerations.size(), 1u);

  const Pod& train = pods[2];
  EXPECT_EQ(train.priority, 1000);
  EXPECT_EQ(train.needs.gpus, 1);
  EXPECT_EQ(train.needs.gpu_memory_mib, 8192);  // the default
  EXPECT_EQ(train.restart_policy, RestartPolicy::kOnFailure);

  const Pod& notebook = pods[3];
  EXPECT_DOUBLE_EQ(notebook.needs.gpus, 0.3);
  EXPECT_DOUBLE_EQ(notebook.needs.sm_demand, 0.3);
  EXPECT_EQ(notebook.needs.gpu_memory_mib, 8000);
  EXPECT_EQ(notebook.explicit_requests.size(), 3u);

  const Pod& d = pods[4];
  EXPECT_EQ(d.name, "ml/pending-d");
  EXPECT_TRUE(d.node_name.empty());
  EXPECT_EQ(d.node_selector.at("topology.kubernetes.io/zone"), "zone-a");
  EXPECT_NEAR(d.needs.gpus, 3.0 / 7, 1e-12);

  const Pod& e = pods[5];
  EXPECT_EQ(e.cpu_milli, 2000);  // init container 2 > 1 + 0.25
  EXPECT_EQ(e.memory_mib, 4096 + 256);
  ASSERT_EQ(e.explicit_requests.size(), 1u);  // from the limit
  EXPECT_EQ(e.explicit_requests[0].second, 1);
  ASSERT_EQ(e.required_affinity.size(), 1u);
  EXPECT_EQ(e.required_affinity[0].match_expressions[0].key, "team");
  ASSERT_EQ(e.preferred_affinity.size(), 1u);
  EXPECT_EQ(e.preferred_affinity[0].weight, 50);
  EXPECT_EQ(e.restart_policy, RestartPolicy::kNever);
  EXPECT_FALSE(e.tolerations[0].any_effect);
}

TEST_F(KubectlImportTest, TenantClassFromALabelAndGpuPodsOnly) {
  KubectlPodOptions options;
  options.classes.tenant_class_label = "tenant-class";
  options.gpu_pods_only = true;
  options.defaults.work_s = 900;
  const std::vector<Pod> pods = ReadKubectlPods(kPods, catalog_, options);
  ASSERT_EQ(pods.size(), 5u);
  EXPECT_EQ(pods[0].tenant_class, "prod-inference");
  EXPECT_EQ(pods[1].tenant_class, "ml");  // no label: the namespace
  EXPECT_EQ(pods[2].tenant_class, "notebooks");
  EXPECT_EQ(pods[0].needs.work_s, 900);
  EXPECT_EQ(pods[0].needs.lifetime_s, 0);
}

// A pod list of the given items (each a JSON object without its kind).
std::string PodList(const std::vector<std::string>& items) {
  std::string out = "{\"kind\": \"List\", \"items\": [";
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "\n" : ",\n") + std::string("{\"kind\": \"Pod\", ") +
           items[i] + "}";
  }
  return out + "]}";
}

// A Pending pod NAME in namespace NS with `labels` and `owner` (JSON members
// or ""), asking for `gpus` nvidia.com/gpu (0: none).
std::string PodItem(const std::string& ns, const std::string& name,
                    const std::string& labels, const std::string& owner,
                    int gpus) {
  std::string metadata = "\"name\": \"" + name + "\", \"namespace\": \"" + ns +
                         "\", \"labels\": {" + labels + "}";
  if (!owner.empty()) {
    metadata +=
        ", \"ownerReferences\": [{\"apiVersion\": \"v1\", "
        "\"kind\": \"" +
        owner + "\", \"name\": \"o\", \"controller\": true}]";
  }
  const std::string requests =
      gpus > 0 ? "\"nvidia.com/gpu\": \"" + std::to_string(gpus) + "\"" : "";
  return "\"metadata\": {" + metadata +
         "}, \"spec\": {\"containers\": [{\"name\": \"c\", \"resources\": "
         "{\"requests\": {" +
         requests + "}}}]}, \"status\": {\"phase\": \"Pending\"}";
}

// The workload class of each pod parsed from `items` under `options`.
std::vector<std::string> WorkloadClasses(const Catalog& catalog,
                                         const std::vector<std::string>& items,
                                         const KubectlPodOptions& options) {
  std::vector<std::string> out;
  for (const Pod& p :
       ParseKubectlPods("p.json", PodList(items), catalog, options)) {
    out.push_back(std::string(WorkloadClassName(p.workload_class)));
  }
  return out;
}

// Scoring's non-zero requests (GetNonzeroRequestForResource, per
// container): an explicit 0 stays 0, an absent request counts 100m / 200 MiB,
// a limit stands in for a missing request, init containers take the max.
TEST_F(KubectlImportTest, NonZeroRequestsPerContainer) {
  const std::string spec =
      "\"metadata\": {\"name\": \"p\", \"namespace\": \"ml\"}, "
      "\"status\": {\"phase\": \"Pending\"}, \"spec\": {"
      "\"initContainers\": [{\"name\": \"i\", \"resources\": "
      "{\"requests\": {\"memory\": \"1Gi\"}}}], \"containers\": ["
      "{\"name\": \"a\", \"resources\": {\"requests\": {\"cpu\": \"0\", "
      "\"memory\": \"0\"}}},"
      "{\"name\": \"b\", \"resources\": {\"limits\": {\"cpu\": \"250m\"}}},"
      "{\"name\": \"c\"}]}";
  const std::vector<Pod> pods =
      ParseKubectlPods("p.json", PodList({spec}), catalog_, KubectlPodOptions());
  ASSERT_EQ(pods.size(), 1u);
  const Pod& p = pods[0];
  EXPECT_EQ(p.cpu_milli, 250);
  EXPECT_EQ(p.memory_mib, 1024);
  // cpu: a 0 + b 250 + c 100 = 350; the init container counts 100 (absent).
  EXPECT_EQ(NonZeroOf(p).cpu_milli, 350);
  // memory: a 0 + b 200 + c 200 = 400 < init 1024.
  EXPECT_EQ(NonZeroOf(p).memory_mib, 1024);

  const std::string zero =
      "\"metadata\": {\"name\": \"z\", \"namespace\": \"ml\"}, "
      "\"status\": {\"phase\": \"Pending\"}, \"spec\": {\"containers\": ["
      "{\"name\": \"a\", \"resources\": {\"requests\": {\"cpu\": \"0\", "
      "\"memory\": \"0\"}}}]}";
  const Pod z = ParseKubectlPods("p.json", PodList({zero}), catalog_,
                                 KubectlPodOptions())[0];
  EXPECT_EQ(NonZeroOf(z).cpu_milli, 0);
  EXPECT_EQ(NonZeroOf(z).memory_mib, 0);
}

TEST_F(KubectlImportTest, WorkloadClassFromTheController) {
  const std::vector<std::string> items = {
      PodItem("ml", "train", "", "Job", 2),         // whole GPUs: training
      PodItem("ml", "etl", "", "Job", 0),           // batch
      PodItem("ml", "ddp", "", "PyTorchJob", 1),    // Kubeflow: training
      PodItem("ml", "serve", "", "ReplicaSet", 1),  // a Deployment's
      PodItem("ml", "db", "", "StatefulSet", 0),
      PodItem("ml", "nb", "\"notebook-name\": \"nb\"", "StatefulSet", 1),
      PodItem("ml", "hub", "\"component\": \"singleuser-server\"", "", 1),
      PodItem("ml", "bare", "", "", 1),              // no controller
      PodItem("ml", "other", "", "RayCluster", 1)};  // a kind not known
  KubectlPodOptions options;
  options.defaults.workload_class = WorkloadClass::kBatch;
  EXPECT_EQ(
      WorkloadClasses(catalog_, items, options),
      (std::vector<std::string>{"training", "batch", "training", "inference",
                                "inference", "dev", "dev", "batch", "batch"}));
  // Off: every pod has the default.
  options.classes.infer_workload_class = false;
  options.defaults.workload_class = WorkloadClass::kDev;
  EXPECT_EQ(WorkloadClasses(catalog_, items, options),
            std::vector<std::string>(items.size(), "dev"));
  // An owner that is not the controller says nothing.
  options.classes.infer_workload_class = true;
  const std::string not_controller =
      "\"metadata\": {\"name\": \"p\", \"ownerReferences\": [{\"kind\": "
      "\"Job\", \"name\": \"j\", \"controller\": false}]}, \"spec\": "
      "{\"containers\": [{\"name\": \"c\"}]}";
  EXPECT_EQ(WorkloadClasses(catalog_, {not_controller}, options),
            std::vector<std::string>{"dev"});
}

TEST_F(KubectlImportTest, WorkloadClassLabelThenNamespaceThenController) {
  const std::vector<std::string> items = {
      // The label beats the namespace's class and the controller.
      PodItem("serving", "a", "\"class\": \"training\"", "ReplicaSet", 1),
      // The namespace's class beats the controller.
      PodItem("serving", "b", "", "Job", 1),
      // An empty label value is no label.
      PodItem("serving", "c", "\"class\": \"\"", "Job", 1),
      // Neither: the controller.
      PodItem("ml", "d", "", "Job", 1)};
  KubectlPodOptions options;
  options.classes.workload_class_label = "class";
  options.classes.workload_classes = {{"serving", WorkloadClass::kInference}};
  EXPECT_EQ(WorkloadClasses(catalog_, items, options),
            (std::vector<std::string>{"training", "inference", "inference",
                                      "training"}));
}

// Namespace patterns: one line for a platform's many namespaces; the exact
// name, else the most literal characters, wins.
TEST_F(KubectlImportTest, NamespacePatternsClassManyNamespaces) {
  const std::vector<std::string> items = {
      PodItem("team-a", "a", "", "", 1),
      PodItem("team-ml-serving", "b", "", "", 1),
      PodItem("team-ml-lab", "c", "", "", 1),
      PodItem("default", "d", "", "", 1),
      PodItem("kueue-system", "e", "", "", 0),
      PodItem("kube-flannel", "f", "", "", 0)};
  KubectlPodOptions options;
  options.defaults.workload_class = WorkloadClass::kBatch;
  options.classes.workload_classes = {
      {"team-*", WorkloadClass::kTraining},
      {"team-ml-serving", WorkloadClass::kInference},
      {"team-ml-*", WorkloadClass::kDev}};
  options.classes.system_namespaces = {"kube-*", "*-system"};
  EXPECT_EQ(WorkloadClasses(catalog_, items, options),
            (std::vector<std::string>{"training", "inference", "dev", "batch",
                                      "batch", "batch"}));
  const std::vector<Pod> pods =
      ParseKubectlPods("p.json", PodList(items), catalog_, options);
  std::vector<bool> system;
  for (const Pod& p : pods) system.push_back(p.in_system_namespace);
  EXPECT_EQ(system,
            (std::vector<bool>{false, false, false, false, true, true}));
  EXPECT_EQ(pods[4].tenant_class, "system");
  EXPECT_EQ(pods[4].tenant, "kueue-system");
}

TEST_F(KubectlImportTest, LongRunningControllersStayServices) {
  KubectlPodOptions options;
  options.defaults.work_s = 900;
  options.defaults.lifetime_s = 1800;
  const std::vector<Pod> pods =
      ParseKubectlPods("p.json",
                       PodList({PodItem("ml", "serve", "", "ReplicaSet", 1),
                                PodItem("ml", "train", "", "Job", 1),
                                PodItem("ml", "bare", "", "", 1)}),
                       catalog_, options);
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(pods[0].needs.work_s, 0);
  EXPECT_EQ(pods[0].needs.lifetime_s, 1800);
  EXPECT_EQ(pods[1].needs.work_s, 900);
  EXPECT_EQ(pods[1].needs.lifetime_s, 0);
  EXPECT_EQ(pods[2].needs.work_s, 900);
  // Without inference the defaults hold for every pod.
  options.classes.infer_workload_class = false;
  const std::vector<Pod> plain = ParseKubectlPods(
      "p.json", PodList({PodItem("ml", "serve", "", "ReplicaSet", 1)}),
      catalog_, options);
  EXPECT_EQ(plain[0].needs.work_s, 900);
}

TEST_F(KubectlImportTest, SystemNamespacesFormTheSystemClass) {
  const std::vector<std::string> items = {
      PodItem("kube-system", "dns", "\"tenant-class\": \"x\"", "ReplicaSet", 0),
      PodItem("gpu-operator", "dcgm", "", "DaemonSet", 0),
      PodItem("ml", "train", "\"tenant-class\": \"research\"", "Job", 1)};
  KubectlPodOptions options;
  options.classes.tenant_class_label = "tenant-class";
  std::vector<Pod> pods =
      ParseKubectlPods("p.json", PodList(items), catalog_, options);
  ASSERT_EQ(pods.size(), 3u);
  EXPECT_EQ(pods[0].tenant_class, "system");  // the label does not move it
  EXPECT_EQ(pods[0].tenant, "kube-system");
  EXPECT_EQ(pods[0].namespace_name, "kube-system");
  EXPECT_EQ(pods[0].workload_class, WorkloadClass::kInference);
  EXPECT_TRUE(pods[0].in_system_namespace);
  EXPECT_EQ(pods[1].tenant_class, "system");
  EXPECT_EQ(pods[2].tenant_class, "research");
  EXPECT_FALSE(pods[2].in_system_namespace);
  // Namespaces of one's own.
  options.classes.system_namespaces = {"gpu-operator"};
  pods = ParseKubectlPods("p.json", PodList(items), catalog_, options);
  EXPECT_EQ(pods[0].tenant_class, "x");
  EXPECT_FALSE(pods[0].in_system_namespace);
  EXPECT_EQ(pods[1].tenant_class, "system");
}

TEST_F(KubectlImportTest, ClassErrorsNameTheLineAndJsonPath) {
  KubectlPodOptions options;
  options.classes.workload_class_label = "gpushare.io/class";
  auto error = [&](const std::string& text) {
    try {
      ParseKubectlPods("p.json", text, catalog_, options);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(
      error(PodList(
          {PodItem("ml", "a", "\"gpushare.io/class\": \"serving\"", "", 1)})),
      "p.json:2:94: items[0].metadata.labels[\"gpushare.io/class\"]: expected "
      "a workload class (training, inference, batch or dev), got 'serving'");
  const std::string two =
      "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\", "
      "\"ownerReferences\": "
      "[\n{\"kind\": \"Job\", \"controller\": true},\n{\"kind\": "
      "\"ReplicaSet\", \"controller\": true}]}, \"spec\": {\"containers\": "
      "[{\"name\": \"c\"}]}}";
  EXPECT_EQ(error(two),
            "p.json:3:38: metadata.ownerReferences[1].controller: a pod has at "
            "most one controller; this one (ReplicaSet) follows Job");
  const std::string no_kind =
      "{\"kind\": \"Pod\", \"metadata\": {\"name\": \"p\", "
      "\"ownerReferences\": "
      "[\n{\"name\": \"j\", \"controller\": true}]}, \"spec\": "
      "{\"containers\": [{\"name\": \"c\"}]}}";
  EXPECT_EQ(error(no_kind),
            "p.json:2:1: metadata.ownerReferences[0].kind: an owner reference "
            "needs a kind");
}

TEST_F(KubectlImportTest, KueueQueueNameLabelNamesTheLocalQueue) {
  const std::string text = R"({"kind": "Pod", "metadata": {"name": "j",
      "namespace": "team-a", "labels": {"kueue.x-k8s.io/queue-name":
      "user-queue"}}, "spec": {"containers": [{"name": "c", "resources":
      {"requests": {"nvidia.com/gpu": "1"}}}]}, "status": {"phase":
      "Pending"}})";
  const std::vector<Pod> pods =
      ParseKubectlPods("p.json", text, catalog_, KubectlPodOptions());
  ASSERT_EQ(pods.size(), 1u);
  EXPECT_EQ(pods[0].queue_name, "user-queue");
  EXPECT_EQ(pods[0].namespace_name, "team-a");
}

// HAMi's device plugin advertises GPUs x deviceSplitCount; before it
// writes its registration annotation, gpu=on and GFD's count tell the split.
TEST_F(KubectlImportTest, HamiNodeWithoutRegistrationReadFromItsLabels) {
  const std::vector<ImportedNode> nodes = ParseKubectlNodes(
      "n.json",
      OneNode("\"gpu\": \"on\", \"nvidia.com/gpu.product\": \"NVIDIA-L4\", "
              "\"nvidia.com/gpu.count\": \"4\"",
              ", \"nvidia.com/gpu\": \"40\""),
      catalog_);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].gpu_model, "L4");
  EXPECT_EQ(nodes[0].gpus, 4);
  EXPECT_EQ(nodes[0].sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(nodes[0].sharing.hami.split_count, 10);
  EXPECT_DOUBLE_EQ(nodes[0].sharing.hami.memory_scaling, 1.0);
  EXPECT_DOUBLE_EQ(nodes[0].sharing.hami.core_scaling, 1.0);
  // gpu=on with as many devices as GPUs: nothing is split.
  const std::vector<ImportedNode> whole = ParseKubectlNodes(
      "n.json",
      OneNode("\"gpu\": \"on\", \"nvidia.com/gpu.product\": \"NVIDIA-L4\", "
              "\"nvidia.com/gpu.count\": \"4\"",
              ", \"nvidia.com/gpu\": \"4\""),
      catalog_);
  EXPECT_EQ(whole[0].sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(whole[0].gpus, 4);
}

TEST_F(KubectlImportTest, AdvertisedAbovePhysicalNamesTheLabelThatSettlesIt) {
  const std::string no_count = NodeError(
      catalog_,
      OneNode("\"gpu\": \"on\", \"nvidia.com/gpu.product\": \"NVIDIA-L4\"",
              ", \"nvidia.com/gpu\": \"40\""));
  EXPECT_NE(no_count.find("node 'n1' carries gpu=on (HAMi) and advertises 40 "
                          "nvidia.com/gpu, but nothing tells its physical "
                          "GPUs: add the label nvidia.com/gpu.count"),
            std::string::npos)
      << no_count;
  const std::string uneven = NodeError(
      catalog_,
      OneNode("\"gpu\": \"on\", \"nvidia.com/gpu.product\": \"NVIDIA-L4\", "
              "\"nvidia.com/gpu.count\": \"4\"",
              ", \"nvidia.com/gpu\": \"42\""));
  EXPECT_NE(uneven.find("42 nvidia.com/gpu is not a whole number of devices "
                        "per GPU over nvidia.com/gpu.count 4"),
            std::string::npos)
      << uneven;
  const std::string unlabelled = NodeError(
      catalog_,
      OneNode("\"nvidia.com/gpu.product\": \"NVIDIA-L4\", "
              "\"nvidia.com/gpu.count\": \"4\"",
              ", \"nvidia.com/gpu\": \"40\""));
  EXPECT_NE(unlabelled.find("advertises 40 GPU devices on 4 GPUs "
                            "(nvidia.com/gpu.count) but no label says how "
                            "they are shared: time-slicing and MPS nodes "
                            "carry nvidia.com/gpu.replicas"),
            std::string::npos)
      << unlabelled;
  const std::string many = NodeError(
      catalog_, OneNode("\"nvidia.com/gpu.product\": \"NVIDIA-L4\"",
                        ", \"nvidia.com/gpu\": \"40\""));
  EXPECT_NE(many.find("advertises 40 nvidia.com/gpu, more than the 16 GPUs a "
                      "node has: if they are shared, the label "
                      "nvidia.com/gpu.count"),
            std::string::npos)
      << many;
  EXPECT_EQ(many.rfind("n.json:2:", 0), 0u) << many;
}

TEST_F(KubectlImportTest, NodeErrorsNameTheLineAndJsonPath) {
  EXPECT_EQ(NodeError(catalog_, "{\"kind\": \"PodList\", \"items\": []}"),
            "n.json:1:10: kind: expected kind List, NodeList or Node, got "
            "'PodList'");
  EXPECT_EQ(NodeError(catalog_, OneNode("", ", \"nvidia.com/gpu\": \"1\"")),
            "n.json:2:39: items[0].metadata.labels: node 'n1' has GPUs but no "
            "nvidia.com/gpu.product label (set by gpu-feature-discovery) to "
            "tell their model");
  const std::string bad_quantity =
      NodeError(catalog_, OneNode("\"nvidia.com/gpu.product\": \"NVIDIA-L4\"",
                                  ", \"nvidia.com/gpu\": \"1.5x\""));
  EXPECT_NE(bad_quantity.find("n.json:3:"), std::string::npos) << bad_quantity;
  EXPECT_NE(bad_quantity.find(
                "items[0].status.allocatable[\"nvidia.com/gpu\"]: '1.5x' is "
                "not a Kubernetes quantity"),
            std::string::npos)
      << bad_quantity;
  const std::string unknown =
      NodeError(catalog_, OneNode("\"nvidia.com/gpu.product\": \"NVIDIA-Z100\"",
                                  ", \"nvidia.com/gpu\": \"1\""));
  EXPECT_NE(unknown.find("GPU product 'NVIDIA-Z100'"), std::string::npos)
      << unknown;
  const std::string uneven = NodeError(
      catalog_,
      OneNode("\"nvidia.com/gpu.product\": \"NVIDIA-A100-SXM4-80GB\", "
              "\"nvidia.com/gpu.count\": \"2\"",
              ", \"nvidia.com/mig-3g.40gb\": \"3\""));
  EXPECT_NE(uneven.find("3 instances of 3g.40gb cannot be spread evenly over "
                        "2 GPUs"),
            std::string::npos)
      << uneven;
  EXPECT_NE(NodeError(catalog_, "{\"kind\": \"List\", \"items\": [")
                .find("n.json:1:"),
            std::string::npos);
}

TEST_F(KubectlImportTest, ControlCharactersInStringsReadAreErrors) {
  // A name or label with an escaped control character would reach the
  // terminal and every output.
  EXPECT_EQ(NodeError(catalog_, OneNode("\"team\": \"a\\u001b[31m\"", "")),
            "n.json:2:48: items[0].metadata.labels.team: control character "
            "U+001B in 'a\\x1B[31m'; names and values must not hold control "
            "characters (C0, DEL, C1), escaped or not");
  EXPECT_NE(NodeError(catalog_, OneNode("\"te\\u0000am\": \"a\"", ""))
                .find("items[0].metadata.labels: key: control character U+0000"),
            std::string::npos);
  // Annotations nobody reads may hold line breaks (last-applied
  // configurations do).
  const std::vector<ImportedNode> nodes = ParseKubectlNodes(
      "n.json",
      OneNode("", "",
              ", \"annotations\": {\"kubectl.kubernetes.io/"
              "last-applied-configuration\": \"{\\n  \\\"kind\\\": 1}\\n\"}"),
      catalog_);
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].name, "n1");
}

TEST(ImportedNodeNameTest, NodeNamesAreDnsSubdomains) {
  for (const std::string& name : std::vector<std::string>{
           "n1", "gpu-a100-0", "0x10", "yes", "ip-10-0-0-1.ec2.internal",
           std::string(253, 'a')}) {
    EXPECT_TRUE(IsNodeName(name)) << name;
  }
  for (const std::string& name : std::vector<std::string>{
           "", "GPU-0", "-a", "a-", "a..b", ".a", "a.", "a_b", "a b",
           "a\nb", "a;b", std::string(254, 'a')}) {
    EXPECT_FALSE(IsNodeName(name)) << name;
  }
}

TEST_F(KubectlImportTest, RefusesNodeNamesKubernetesWouldRefuse) {
  std::string text = OneNode("", "");
  text.replace(text.find("\"n1\""), 4, "\"n1;$(touch x)\"");
  EXPECT_EQ(NodeError(catalog_, text),
            "n.json:2:23: items[0].metadata.name: invalid node name "
            "\"n1;$(touch x)\": a node name must be a DNS-1123 subdomain: "
            "at most 253 characters, lowercase letters, digits, '-' and '.', "
            "each dot-separated part starting and ending with a letter or "
            "digit");
}

TEST_F(KubectlImportTest, PodErrorsNameTheLineAndJsonPath) {
  const std::string pod =
      "{\"kind\": \"List\", \"items\": [{\"kind\": \"Pod\",\n"
      " \"metadata\": {\"name\": \"p\", \"namespace\": \"ns\"},\n"
      " \"spec\": {\"containers\": [{\"name\": \"c\", \"resources\":\n"
      "   {\"requests\": {\"cpu\": \"-1\"}}}]},\n"
      " \"status\": {\"phase\": \"Pending\"}}]}";
  EXPECT_EQ(PodError(catalog_, pod),
            "p.json:4:25: items[0].spec.containers[0].resources.requests.cpu: "
            "a resource quantity must not be negative");
  const std::string running =
      "{\"kind\": \"PodList\", \"items\": [{\"metadata\": {\"name\": \"p\"},\n"
      " \"spec\": {\"containers\": [{\"name\": \"c\"}]},\n"
      " \"status\": {\"phase\": \"Running\"}}]}";
  EXPECT_EQ(PodError(catalog_, running),
            "p.json:2:10: items[0].spec: a Running pod needs spec.nodeName");
  const std::string phase =
      "{\"kind\": \"PodList\", \"items\": [{\"metadata\": {\"name\": \"p\"},\n"
      " \"spec\": {\"containers\": [{\"name\": \"c\"}]},\n"
      " \"status\": {\"phase\": \"Runing\"}}]}";
  EXPECT_EQ(PodError(catalog_, phase),
            "p.json:3:22: items[0].status.phase: expected Pending, Running, "
            "Succeeded, Failed or Unknown, got 'Runing'");
}

}  // namespace
}  // namespace kubectl_import_test
}  // namespace gpushare
