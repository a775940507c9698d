#include "gpushare/emit/dra_objects.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/emit/pod_template_patches.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// A DRA pool of whole A100s and one of H100s in MIG all-balanced (1g.10gb,
// 2g.20gb, 3g.40gb). `jobs` pods ask 2 GPUs of 20000 MiB in two namespaces;
// `svc` pods ask 16000 MiB: the smallest profile holding it is 2g.20gb.
constexpr char kDraObjectsScenario[] =
    "name: d\n"
    "cluster:\n"
    "  pools:\n"
    "    - {name: whole, gpu: A100-80GB, nodes: 2, devices: dra}\n"
    "    - name: mig\n"
    "      gpu: H100-80GB\n"
    "      nodes: 1\n"
    "      devices: dra\n"
    "      sharing: {scheme: mig, mig_strategy: mixed,\n"
    "                mig_config: all-balanced}\n"
    "workload:\n"
    "  classes:\n"
    "    - name: jobs\n"
    "      class: batch\n"
    "      tenants: [t1, t2]\n"
    "      count: 8\n"
    "      gpus: 2\n"
    "      gpu_memory_mib: 20000\n"
    "      node_selector: {gpushare.io/node-pool: whole}\n"
    "    - name: svc\n"
    "      class: inference\n"
    "      tenants: [s]\n"
    "      count: 3\n"
    "      work_s: 0\n"
    "      lifetime_s: 60\n"
    "      gpus: 0.5\n"
    "      gpu_memory_mib: 16000\n"
    "      node_selector: {gpushare.io/node-pool: mig}\n";

Scenario DraObjectsScenario() {
  return ReadScenarioYaml(kDraObjectsScenario, "d.yaml",
                          emit_test::TestCatalog());
}

std::vector<YAML::Node> DraObjectsDocuments(const std::string& yaml) {
  std::vector<YAML::Node> docs;
  for (const YAML::Node& d : YAML::LoadAll(yaml)) {
    if (d.IsMap()) docs.push_back(d);
  }
  return docs;
}

TEST(DraObjectsTest, ProfileClassesThenTemplatesPerNamespace) {
  const std::string yaml =
      DraObjectsYaml(DraObjectsScenario(), emit_test::TestCatalog());
  EXPECT_NE(
      yaml.find(
          "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n"
          "  name: mig-2g-20gb.gpu.nvidia.com\nspec:\n  selectors:\n"
          "    - cel:\n        expression: \"device.driver == "
          "'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == "
          "'mig' && device.attributes['gpu.nvidia.com'].profile == "
          "'2g.20gb'\"\n  extendedResourceName: nvidia.com/mig-2g.20gb\n"),
      std::string::npos)
      << yaml;
  const std::vector<YAML::Node> docs = DraObjectsDocuments(yaml);
  ASSERT_EQ(docs.size(), 4u) << yaml;
  EXPECT_EQ(docs[0]["kind"].as<std::string>(), "DeviceClass");
  // (namespace, name, class, count), by namespace then name.
  const std::vector<std::tuple<std::string, std::string, std::string, int>>
      want = {{"s", "svc-mig-mig-2g-20gb", "mig-2g-20gb.gpu.nvidia.com", 1},
              {"t1", "jobs-whole-gpu-x2", "gpu.nvidia.com", 2},
              {"t2", "jobs-whole-gpu-x2", "gpu.nvidia.com", 2}};
  for (size_t i = 0; i < want.size(); ++i) {
    const YAML::Node& d = docs[i + 1];
    EXPECT_EQ(d["kind"].as<std::string>(), "ResourceClaimTemplate");
    EXPECT_EQ(d["metadata"]["namespace"].as<std::string>(),
              std::get<0>(want[i]));
    EXPECT_EQ(d["metadata"]["name"].as<std::string>(), std::get<1>(want[i]));
    const YAML::Node exactly =
        d["spec"]["spec"]["devices"]["requests"][0]["exactly"];
    EXPECT_EQ(exactly["deviceClassName"].as<std::string>(),
              std::get<2>(want[i]));
    EXPECT_EQ(exactly["count"].as<int>(), std::get<3>(want[i]));
    EXPECT_FALSE(exactly["capacity"]);
  }
  EXPECT_EQ(yaml.find("deviceclass.resource"), std::string::npos);
}

TEST(DraObjectsTest, MemorySharesAskTheClassSizeAndPatchesNameIt) {
  Scenario s = DraObjectsScenario();
  s.platform.dra_driver.chart_version = "0.5.0-dev-95932046";
  s.pools[0].sharing = TimeSlicingSharing(4);
  s.pools[0].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  s.pools[0].dra.time_slice_interval = DraTimeSliceInterval::kMedium;
  const std::string yaml = DraObjectsYaml(s, emit_test::TestCatalog());
  const std::vector<YAML::Node> docs = DraObjectsDocuments(yaml);
  ASSERT_EQ(docs.size(), 4u) << yaml;
  const YAML::Node t1 = docs[2];
  EXPECT_EQ(t1["metadata"]["name"].as<std::string>(),
            "jobs-whole-gpu-x2-20000mi");
  const YAML::Node devices = t1["spec"]["spec"]["devices"];
  EXPECT_EQ(devices["requests"][0]["exactly"]["capacity"]["requests"]
                   ["memory"]
                       .as<std::string>(),
            "20000Mi");
  EXPECT_EQ(devices["config"][0]["opaque"]["parameters"]["sharing"]
                   ["timeSlicingConfig"]["interval"]
                       .as<std::string>(),
            "Medium");
  // The MIG pool keeps its plain claim.
  EXPECT_FALSE(docs[1]["spec"]["spec"]["devices"]["config"]);

  const std::string patches =
      PodTemplatePatchesYaml(s, emit_test::TestCatalog());
  EXPECT_NE(patches.find("      resourceClaims:\n        - name: gpu\n"
                         "          resourceClaimTemplateName: "
                         "jobs-whole-gpu-x2-20000mi\n"
                         "          resourceClaimName: null\n"
                         "      containers:\n        - name: main\n"
                         "          resources:\n            claims:\n"
                         "              - name: gpu\n"),
            std::string::npos)
      << patches;
  EXPECT_NE(patches.find("resourceClaimTemplateName: svc-mig-mig-2g-20gb\n"),
            std::string::npos);
  EXPECT_EQ(patches.find("deviceclass.resource"), std::string::npos);
  EXPECT_EQ(patches.find("limits:"), std::string::npos);
}

TEST(DraObjectsTest, ExtendedResourcePoolsAskTheClassResourceNoTemplate) {
  Scenario s = DraObjectsScenario();
  for (NodePoolSpec& p : s.pools) p.dra.extended_resource = true;
  // `jobs` selects no pool: it lands on the first, `whole`. As in the
  // simulation (PinToTargetPool) it is not pinned there: no other pool
  // advertises nvidia.com/gpu (the MIG pool's class is per profile).
  s.workload.classes[0].node_selector.clear();
  const std::string yaml = DraObjectsYaml(s, emit_test::TestCatalog());
  const std::vector<YAML::Node> docs = DraObjectsDocuments(yaml);
  ASSERT_EQ(docs.size(), 1u) << yaml;  // the profile's class only
  EXPECT_EQ(docs[0]["spec"]["extendedResourceName"].as<std::string>(),
            "nvidia.com/mig-2g.20gb");
  const std::string patches =
      PodTemplatePatchesYaml(s, emit_test::TestCatalog());
  EXPECT_NE(patches.find("            limits:\n              nvidia.com/gpu: 2\n"),
            std::string::npos)
      << patches;
  EXPECT_NE(patches.find("              nvidia.com/mig-2g.20gb: 1\n"),
            std::string::npos);
  // No claim: the pod asks the extended resource (a claim an earlier
  // patch named is deleted).
  EXPECT_EQ(patches.find("resourceClaimTemplateName"), std::string::npos);
  EXPECT_NE(patches.find("      resourceClaims:\n        - name: gpu\n"
                         "          $patch: delete\n"),
            std::string::npos);
  EXPECT_EQ(patches.find("\"gpushare.io/node-pool\": \"whole\""),
            std::string::npos)
      << patches;
}

// A DeviceClass of the file that today's cluster has with another spec is
// said in the header (and by DraDeviceClassChanges for the README); one of
// the same spec is not.
TEST(DraObjectsTest, ADeviceClassTodayWithAnotherSpecIsSaid) {
  Scenario s = DraObjectsScenario();
  const std::string same =
      "device.driver == 'gpu.nvidia.com' && "
      "device.attributes['gpu.nvidia.com'].type == 'mig' && "
      "device.attributes['gpu.nvidia.com'].profile == '2g.20gb'";
  s.platform.device_classes_today = {
      {"mig-2g-20gb.gpu.nvidia.com", {same}, "nvidia.com/mig-2g.20gb", false},
      {"gpu.nvidia.com", {"x"}, "", false}};
  EXPECT_TRUE(DraDeviceClassChanges(s, emit_test::TestCatalog()).empty());
  EXPECT_EQ(DraObjectsYaml(s, emit_test::TestCatalog())
                .find("Changes today's cluster"),
            std::string::npos);
  s.platform.device_classes_today[0].cel = {"device.driver == 'x'"};
  s.platform.device_classes_today[0].extended_resource_name = "";
  const std::vector<std::string> changes =
      DraDeviceClassChanges(s, emit_test::TestCatalog());
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0],
            "DeviceClass mig-2g-20gb.gpu.nvidia.com exists in the cluster "
            "today with another spec: kubectl apply replaces its selectors "
            "(device.driver == 'x' today; " +
                same +
                " in the file) and its extendedResourceName (none today; "
                "nvidia.com/mig-2g.20gb in the file); claims allocated under "
                "it keep their devices, new claims are matched by the file's");
  const std::string yaml = DraObjectsYaml(s, emit_test::TestCatalog());
  EXPECT_NE(yaml.find("# Changes today's cluster: DeviceClass "
                      "mig-2g-20gb.gpu.nvidia.com exists in the\n"),
            std::string::npos)
      << yaml;
  // Still one document per object: the comment is in the header.
  EXPECT_EQ(DraObjectsDocuments(yaml).size(), 4u);
}

// The header says the Kubernetes version and gates the objects need:
// capacity.requests only where a claim asks it.
TEST(DraObjectsTest, TheHeaderSaysTheKubernetesTheObjectsNeed) {
  Scenario s = DraObjectsScenario();
  std::string yaml = DraObjectsYaml(s, emit_test::TestCatalog());
  EXPECT_NE(yaml.find("# Kubernetes: 1.34 or later (resource.k8s.io/v1)"),
            std::string::npos)
      << yaml;
  EXPECT_EQ(yaml.find("DRAConsumableCapacity"), std::string::npos);
  s.platform.dra_driver.chart_version = "0.5.0-dev-95932046";
  s.pools[0].sharing = TimeSlicingSharing(4);
  s.pools[0].dra.consumable_shares = DraConsumableShares::kMemoryShares;
  yaml = DraObjectsYaml(s, emit_test::TestCatalog());
  EXPECT_NE(yaml.find("#   DRAConsumableCapacity (KEP-5075"), std::string::npos)
      << yaml;
  // Kubernetes 1.33 has no resource.k8s.io/v1: refused.
  s.platform.kubernetes_version = "1.33";
  EXPECT_THROW(DraObjectsYaml(s, emit_test::TestCatalog()), InputError);
}

}  // namespace
}  // namespace gpushare
