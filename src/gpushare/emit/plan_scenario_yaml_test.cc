#include "gpushare/emit/plan_scenario_yaml.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include "gpushare/decide/plan_candidates.h"
#include "gpushare/decide/queue_quota_conversion.h"
#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

using emit_test::TestCatalog;

const char* kText = R"(name: s
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 2, gpus_per_node: 4}
    - {name: b, gpu: H100-80GB, nodes: 1, gpus_per_node: 8, licence_per_gpu_hour: 1}
workload:
  classes:
    - {name: c, class: batch, count: 1, requests: {nvidia.com/gpu: 1}}
plan:
  pools:
    a: {nodes: {min: 1, max: 4}}
)";

TEST(PlanScenarioYamlTest, ReadingItBackGivesThePlansPools) {
  const Scenario written = ReadScenarioYaml(kText, "dir/s.yaml", TestCatalog());
  std::vector<SharingConfig> settings;
  SharingConfig hami = HamiSharing();
  hami.hami.split_count = 4;
  hami.hami.node_policy = HamiPolicy::kSpread;
  settings.push_back(hami);
  SharingConfig mig = MigSharing(MigStrategy::kMixed, "");
  mig.mig.layouts = {{"3g.40gb:1", "2g.20gb:2"}};
  settings.push_back(mig);
  settings.push_back(MigSharing(MigStrategy::kSingle, "all-1g.10gb"));
  SharingConfig mps = MpsSharing(3);
  mps.replicas.fail_requests_greater_than_one = false;
  mps.replicas.policy = ReplicaPolicy::kPacked;
  settings.push_back(mps);
  SharingConfig ts = TimeSlicingSharing(5);
  ts.replicas.rename_by_default = true;
  settings.push_back(ts);
  settings.push_back(ExclusiveSharing());
  for (const SharingConfig& s : settings) {
    Scenario plan = written;
    plan.pools[1].sharing = s;
    plan.pools[1].nodes = 3;
    plan.pools[1].licence_per_gpu_hour =
        s.scheme() == SharingScheme::kHami ? 2.5 : 0;
    plan.workload.classes[0].requests.clear();
    const std::string yaml =
        PlanScenarioYaml(kText, "dir/s.yaml", plan, "header line\nsecond");
    EXPECT_EQ(yaml.rfind("# header line\n# second\n", 0), 0u);
    const Scenario back = ReadScenarioYaml(yaml, "plan.yaml", TestCatalog());
    const GpuModel& h100 = TestCatalog().Get("H100-80GB");
    ASSERT_EQ(back.pools.size(), 2u);
    EXPECT_EQ(back.pools[1].nodes, 3);
    EXPECT_EQ(SharingLabel(back.pools[1].sharing, &h100),
              SharingLabel(s, &h100));
    EXPECT_EQ(back.pools[1].sharing.mig.strategy, s.mig.strategy);
    EXPECT_EQ(back.pools[1].sharing.mig.layouts, s.mig.layouts);
    EXPECT_EQ(back.pools[1].sharing.replicas.rename_by_default,
              s.replicas.rename_by_default);
    EXPECT_EQ(back.pools[1].sharing.replicas.fail_requests_greater_than_one,
              s.replicas.fail_requests_greater_than_one);
    EXPECT_EQ(back.pools[1].sharing.replicas.policy, s.replicas.policy);
    EXPECT_EQ(back.pools[1].sharing.hami.node_policy, s.hami.node_policy);
    EXPECT_EQ(back.pools[1].licence_per_gpu_hour,
              plan.pools[1].licence_per_gpu_hour);
    EXPECT_EQ(back.pools[0].nodes, 2);
    EXPECT_TRUE(back.workload.classes[0].requests.empty());
    EXPECT_NE(yaml.find("plan:"), std::string::npos);
  }
}

TEST(PlanScenarioYamlTest, LlmEnginesAndTheirObjectivesAreKept) {
  const std::string text = R"(name: s
cluster:
  pools:
    - {name: a, gpu: H100-80GB, nodes: 1, gpus_per_node: 4}
workload:
  classes:
    - name: chat
      class: inference
      count: 2
      lifetime_s: 600
      request_rate: 2
      slo_ttft_p99_ms: 400
      slo_tpot_p99_ms: 30
      engine:
        weights_gib: 15
        params_billion: 8.03
        kv_cache: {layers: 32, kv_heads: 8, head_dim: 128}
        gpu_memory_utilization: 0.3
        max_num_seqs: 64
        prompt_tokens: {lognormal: {median: 512, sigma: 0.8}}
        output_tokens: 128
)";
  Scenario plan = ReadScenarioYaml(text, "s.yaml", TestCatalog());
  plan.pools[0].sharing = TimeSlicingSharing(4);
  plan.pools[0].nodes = 2;
  const Scenario back = ReadScenarioYaml(
      PlanScenarioYaml(text, "s.yaml", plan, "h"), "p.yaml", TestCatalog());
  ASSERT_EQ(back.workload.classes.size(), 1u);
  const WorkloadClassSpec& c = back.workload.classes[0];
  EXPECT_EQ(c.slo_ttft_p99_ms, 400);
  EXPECT_EQ(c.slo_tpot_p99_ms, 30);
  ASSERT_NE(c.llm_engine, nullptr);
  EXPECT_EQ(c.llm_engine->weights_gib, 15);
  EXPECT_DOUBLE_EQ(c.llm_engine->Params(), 8.03e9);
  EXPECT_EQ(c.llm_engine->gpu_memory_utilization, 0.3);
  EXPECT_EQ(c.llm_engine->max_num_seqs, 64);
  EXPECT_EQ(c.llm_engine->KvBytesPerToken(), 131072);
  EXPECT_EQ(c.llm_engine->prompt_tokens.median, 512);
  EXPECT_EQ(c.llm_engine->output_tokens.value, 128);
  EXPECT_EQ(back.pools[0].nodes, 2);
}

TEST(PlanScenarioYamlTest, RelativeTracePathsBecomeAbsolute) {
  const std::string text = R"(name: t
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1}
workload:
  trace: {format: jobs, file: jobs.csv}
)";
  Scenario plan;
  NodePoolSpec a;
  a.name = "a";
  a.gpu_model = "A100-80GB";
  plan.pools.push_back(a);
  const std::string yaml = PlanScenarioYaml(text, "some/dir/t.yaml", plan, "");
  EXPECT_EQ(yaml.find("file: jobs.csv"), std::string::npos);
  EXPECT_NE(yaml.find("some/dir/jobs.csv"), std::string::npos);
}

// A DRA pool the plan runs through the device plugin
// (UseDevicePluginWhereDraCannot) is written without `devices: dra`; one
// that stays on DRA keeps it.
TEST(PlanScenarioYamlTest, DraPoolOnTheDevicePluginLosesItsDevicesKey) {
  const std::string text = R"(name: d
cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1, devices: dra}
    - {name: b, gpu: A100-80GB, nodes: 1, devices: dra}
workload:
  classes:
    - {name: c, class: batch, count: 1}
)";
  Scenario plan = ReadScenarioYaml(text, "d.yaml", TestCatalog());
  plan.pools[0].devices = PoolDevices::kDevicePlugin;
  plan.pools[0].sharing = TimeSlicingSharing(4);
  const Scenario back = ReadScenarioYaml(
      PlanScenarioYaml(text, "d.yaml", plan, ""), "p.yaml", TestCatalog());
  EXPECT_EQ(back.pools[0].devices, PoolDevices::kDevicePlugin);
  EXPECT_EQ(back.pools[0].sharing.scheme(), SharingScheme::kTimeSlicing);
  EXPECT_EQ(back.pools[1].devices, PoolDevices::kDra);
}

}  // namespace
}  // namespace gpushare

namespace gpushare {
namespace {

// The plan's Kueue quotas, converted to its schemes, are what the written
// scenario reads back: a MIG plan's queue covers the MIG resources.
TEST(PlanScenarioYamlTest, QueuesAreWrittenAsThePlanConvertedThem) {
  const char* text = R"(cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 2, gpus_per_node: 4}
queues:
  cluster_queues:
    - name: q
      cohort: org
      preemption: {reclaim_within_cohort: Any,
                   borrow_within_cohort: {policy: LowerPriority,
                                          max_priority_threshold: 5}}
      resource_groups:
        - flavors:
            - name: a
              resources:
                - {name: cpu, nominal_quota: 1500m}
                - {name: memory, nominal_quota: 3Gi}
                - {name: nvidia.com/gpu, nominal_quota: 4, lending_limit: 2}
  local_queues:
    - {name: q, namespace: team, cluster_queue: q}
workload:
  classes:
    - {name: c, class: batch, count: 1, tenants: [team], queue: q}
)";
  const Scenario written = ReadScenarioYaml(text, "s.yaml", TestCatalog());
  Scenario plan = written;
  plan.pools[0].sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  ConvertQueueQuotas(written, &plan, TestCatalog());
  const Scenario back = ReadScenarioYaml(
      PlanScenarioYaml(text, "s.yaml", plan, "h"), "p.yaml", TestCatalog());
  ASSERT_EQ(back.queues.cluster_queues.size(), 1u);
  const ClusterQueueSpec& q = back.queues.cluster_queues[0];
  const ClusterQueueSpec& want = plan.queues.cluster_queues[0];
  EXPECT_EQ(q.borrow_max_priority_threshold, 5);
  EXPECT_EQ(q.reclaim_within_cohort, KueuePreemptionPolicy::kAny);
  EXPECT_EQ(q.resource_groups[0].covered_resources,
            want.resource_groups[0].covered_resources);
  const auto& got = q.resource_groups[0].flavors[0].resources;
  const auto& expected = want.resource_groups[0].flavors[0].resources;
  ASSERT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    EXPECT_EQ(got[i].resource, expected[i].resource);
    EXPECT_EQ(got[i].nominal_quota, expected[i].nominal_quota);
    EXPECT_EQ(got[i].lending_limit, expected[i].lending_limit);
  }
  EXPECT_EQ(got[0].nominal_quota, 1500);  // 1500m
  EXPECT_EQ(back.queues.local_queues[0].namespace_name, "team");
}

// A DRA pool's quota is on the resource of a DeviceClass mapping: a MIG
// plan converts it to the per-profile classes, each mapped to a resource of
// its own, and the written scenario reads back with those mappings.
TEST(PlanScenarioYamlTest, DeviceClassMappingsAreWrittenAsThePlanMadeThem) {
  const char* text = R"(cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 2, gpus_per_node: 4, devices: dra}
queues:
  device_class_mappings:
    - {name: example.com/gpus, device_class_names: [gpu.nvidia.com]}
  cluster_queues:
    - name: q
      resource_groups:
        - flavors:
            - name: a
              resources:
                - {name: example.com/gpus, nominal_quota: 4}
  local_queues:
    - {name: q, namespace: team, cluster_queue: q}
workload:
  classes:
    - {name: c, class: batch, count: 1, tenants: [team], queue: q}
)";
  const Scenario written = ReadScenarioYaml(text, "s.yaml", TestCatalog());
  Scenario plan = written;
  plan.pools[0].sharing = MigSharing(MigStrategy::kMixed, "all-3g.40gb");
  const std::vector<std::string> notes =
      ConvertQueueQuotas(written, &plan, TestCatalog());
  ASSERT_EQ(plan.queues.device_class_mappings.size(), 2u);
  EXPECT_EQ(plan.queues.device_class_mappings[1].name,
            "mig-3g-40gb.gpu.nvidia.com");
  const ResourceQuotaSpec& converted =
      plan.queues.cluster_queues[0].resource_groups[0].flavors[0].resources[0];
  EXPECT_EQ(converted.resource, "mig-3g-40gb.gpu.nvidia.com");
  EXPECT_EQ(converted.nominal_quota, 8);  // 4 GPUs x two 3g.40gb
  const Scenario back = ReadScenarioYaml(
      PlanScenarioYaml(text, "s.yaml", plan, "h"), "p.yaml", TestCatalog());
  ASSERT_EQ(back.queues.device_class_mappings.size(), 2u);
  EXPECT_EQ(back.queues.device_class_mappings[0].name, "example.com/gpus");
  EXPECT_EQ(back.queues.device_class_mappings[0].device_class_names,
            std::vector<std::string>{"gpu.nvidia.com"});
  EXPECT_EQ(back.queues.device_class_mappings[1].device_class_names,
            std::vector<std::string>{"mig-3g-40gb.gpu.nvidia.com"});
}

}  // namespace
}  // namespace gpushare

namespace gpushare {
namespace {

// An imported cluster (tests/data/kubectl/nodes.json) beside a written pool:
// the plan's imported pools are written as `cluster.import.pools` overrides,
// and reading the result back gives the plan's pools, real nodes and new
// ones alike.
TEST(PlanScenarioYamlTest, ImportedPoolsAreWrittenAsImportOverrides) {
  const std::string dir = GS_TESTDATA_DIR "/kubectl";
  const char* text = R"(cluster:
  import: {format: kubectl, file: nodes.json, pools: {cpu: {nodes: 1}}}
  pools:
    - {name: extra, gpu: H100-80GB, nodes: 1, gpus_per_node: 8}
workload:
  classes:
    - {name: c, class: batch, count: 1}
)";
  const Scenario written =
      ReadScenarioYaml(text, dir + "/s.yaml", TestCatalog());
  ASSERT_EQ(written.pools.size(), 5u);
  Scenario plan = written;
  NodePoolSpec* l4 = &plan.pools[1];
  ASSERT_EQ(l4->name, "l4-x4-time-slicing");
  ResizePool(l4, 3);  // grown by one new node
  l4->sharing = MpsSharing(4);
  l4->licence_per_gpu_hour = 1.5;
  NodePoolSpec* a10 = &plan.pools[2];
  ASSERT_EQ(a10->name, "a10-x2-hami");
  a10->sharing = ExclusiveSharing();
  ResizePool(&plan.pools[4], 2);  // the written pool
  const std::string yaml =
      PlanScenarioYaml(text, dir + "/s.yaml", plan, "h");
  EXPECT_EQ(yaml.find("file: nodes.json"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find(dir + "/nodes.json"), std::string::npos) << yaml;
  // Read from elsewhere: the import's path is absolute.
  const Scenario back = ReadScenarioYaml(yaml, "/p.yaml", TestCatalog());
  ASSERT_EQ(back.pools.size(), plan.pools.size());
  for (size_t i = 0; i < plan.pools.size(); ++i) {
    const NodePoolSpec& want = plan.pools[i];
    const NodePoolSpec& got = back.pools[i];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.nodes, want.nodes) << want.name;
    EXPECT_EQ(got.sharing.scheme(), want.sharing.scheme()) << want.name;
    EXPECT_EQ(got.sharing.replicas.replicas, want.sharing.replicas.replicas);
    EXPECT_EQ(got.sharing.hami.split_count, want.sharing.hami.split_count);
    EXPECT_EQ(got.licence_per_gpu_hour, want.licence_per_gpu_hour);
    ASSERT_EQ(got.members.size(), want.members.size()) << want.name;
    for (size_t m = 0; m < want.members.size(); ++m) {
      EXPECT_EQ(got.members[m].name, want.members[m].name);
    }
    EXPECT_EQ(got.new_node_labels, want.new_node_labels);
  }
  EXPECT_EQ(back.pools[1].members.size(), 2u);
  EXPECT_EQ(back.pools[3].nodes, 1);  // cpu: the plan's count again
}

TEST(PlanScenarioYamlTest, PathForFolderNamesTheSameFile) {
  const std::string cwd = std::filesystem::current_path().string();
  // Relative to the scenario's folder, as seen from the plan's folder.
  EXPECT_EQ(PathForFolder("kubectl/pods.json", "/w/ex", "/w/plans/p1"),
            "../../ex/kubectl/pods.json");
  EXPECT_EQ(PathForFolder("../d/x.json", "/w/ex", "/w/ex/out"), "../../d/x.json");
  EXPECT_EQ(PathForFolder("x.json", "/w/ex", "/w/ex"), "x.json");
  // The scenario and the folder given relative to the working directory.
  EXPECT_EQ(PathForFolder("kubectl/pods.json", "ex", "out/p"),
            "../../ex/kubectl/pods.json");
  EXPECT_EQ(PathForFolder("pods.json", "", "out"), "../pods.json");
  // Absolute paths stay; no folder: absolute.
  EXPECT_EQ(PathForFolder("/data/pods.json", "/w/ex", "/w/p"),
            "/data/pods.json");
  EXPECT_EQ(PathForFolder("kubectl/pods.json", "ex", ""),
            cwd + "/ex/kubectl/pods.json");
}

// With the plan's folder given, the import, trace and metrics paths are
// relative to it: read back from there, the same files are read, and the
// folder moved with its inputs still reads them.
TEST(PlanScenarioYamlTest, PathsAreRelativeToThePlansFolder) {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(testing::TempDir()) /
                        ("plan-paths-" + std::to_string(getpid()));
  fs::remove_all(root);
  const fs::path tree = root / "a";
  fs::create_directories(tree / "in" / "kubectl");
  for (const char* f : {"nodes.json", "pods.json"}) {
    fs::copy_file(fs::path(GS_TESTDATA_DIR) / "kubectl" / f,
                  tree / "in" / "kubectl" / f);
  }
  const char* text = R"(cluster:
  import: {format: kubectl, file: kubectl/nodes.json}
workload:
  trace: {format: kubectl, file: kubectl/pods.json}
)";
  const std::string file = (tree / "in" / "s.yaml").string();
  const Scenario plan = ReadScenarioYaml(text, file, TestCatalog());
  const std::string yaml = PlanScenarioYaml(
      text, file, plan, "h", (tree / "plans" / "p").string());
  EXPECT_NE(yaml.find("file: ../../in/kubectl/nodes.json"), std::string::npos)
      << yaml;
  EXPECT_NE(yaml.find("file: ../../in/kubectl/pods.json"), std::string::npos)
      << yaml;
  EXPECT_EQ(yaml.find(root.string()), std::string::npos) << yaml;
  // The tree moved elsewhere: read from the plan's folder there, the same
  // pools and pods.
  const fs::path moved = root / "b";
  fs::rename(tree, moved);
  const Scenario back = ReadScenarioYaml(
      yaml, (moved / "plans" / "p" / "scenario.yaml").string(), TestCatalog());
  ASSERT_EQ(back.pools.size(), plan.pools.size());
  for (size_t i = 0; i < plan.pools.size(); ++i) {
    EXPECT_EQ(back.pools[i].name, plan.pools[i].name);
    EXPECT_EQ(back.pools[i].members.size(), plan.pools[i].members.size());
  }
  ASSERT_NE(back.workload.trace.pods, nullptr);
  EXPECT_EQ(back.workload.trace.pods->size(), plan.workload.trace.pods->size());
  EXPECT_EQ(back.workload.trace.spec.file,
            (moved / "in" / "kubectl" / "pods.json").string());
  fs::remove_all(root);
}

TEST(PlanScenarioYamlTest, APlanPoolNeitherWrittenNorImportedIsRefused) {
  const char* text = R"(cluster:
  pools:
    - {name: a, gpu: A100-80GB, nodes: 1}
)";
  Scenario plan;
  NodePoolSpec a;
  a.name = "a";
  a.gpu_model = "A100-80GB";
  plan.pools.push_back(a);
  NodePoolSpec b = a;
  b.name = "b";
  b.members = {{"real-0", {}, {}}};
  plan.pools.push_back(b);
  try {
    PlanScenarioYaml(text, "s.yaml", plan, "");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "pool 'b' is neither written nor imported"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gpushare
