#include "gpushare/scenario/scenario_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/workload/generator.h"

namespace gpushare {
namespace scenario_reader_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

Scenario Read(const std::string& text) {
  return ReadScenarioYaml(text, "s.yaml", TestCatalog());
}

// The InputError what() of reading `text`, or "" when it reads.
std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A small valid scenario; tests append to or replace parts of it.
constexpr const char* kPools = R"(cluster:
  pools:
    - name: dev
      gpu: L4
      nodes: 2
      gpus_per_node: 4
      sharing: {scheme: time-slicing, replicas: 4}
)";
constexpr const char* kWorkload = R"(workload:
  classes:
    - name: jobs
      class: batch
      arrival_rate_per_s: 0.1
)";

std::string WithPools(const std::string& pools) {
  return "cluster:\n  pools:\n" + pools + kWorkload;
}
std::string WithClasses(const std::string& classes) {
  return std::string(kPools) + "workload:\n  classes:\n" + classes;
}
std::string WithExtra(const std::string& extra) {
  return std::string(kPools) + kWorkload + extra;
}

std::string ExamplesDir() { return GS_TESTDATA_DIR "/../../examples"; }

TEST(ScenarioReaderTest, EveryExampleParsesBuildsAndIsSmall) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(ExamplesDir())) {
    if (entry.path().extension() != ".yaml") continue;
    // examples/sweep-*.yaml are sweep grids (decide/sweep_point_test.cc).
    if (entry.path().stem().string().starts_with("sweep-")) continue;
    const std::string path = entry.path().string();
    SCOPED_TRACE(path);
    names.push_back(entry.path().stem().string());
    const Scenario s = ReadScenarioFile(path, TestCatalog());
    EXPECT_EQ(s.name, entry.path().stem().string());
    EXPECT_EQ(s.file, path);
    Cluster cluster(TestCatalog());
    for (const NodePoolSpec& pool : s.pools) cluster.AddPool(pool);
    const std::vector<Pod> pods = BuildWorkload(s.workload, s.seed);
    // Sizes: compare's default takes seconds; the others are starting points.
    const bool is_default = s.name == "default";
    const bool replay = s.name == "kubectl-metrics" || s.name == "dra-today";
    EXPECT_LE(cluster.nodes().size(), is_default ? 30u : 10u);
    EXPECT_GE(pods.size(), is_default ? 3000u : replay ? 5u : 100u);
    EXPECT_LE(pods.size(), is_default ? 20000u : 500u);
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "autoscaling", "default", "dev-time-slicing", "dra",
                "dra-mps", "dra-today", "dynamic-mig", "hami-platform", "kai-fair-share",
                "kubectl-import", "kubectl-metrics", "kubectl-nodegroups",
                "llm-serving", "llm-tp-fp8", "mig-inference", "multi-tenant", "patrol",
                "plan-sizing", "three-pools", "university-gangs"}));
}

TEST(ScenarioReaderTest, ThreePoolsExampleIsTheTower) {
  const Scenario s =
      ReadScenarioFile(ExamplesDir() + "/three-pools.yaml", TestCatalog());
  ASSERT_EQ(s.pools.size(), 3u);
  EXPECT_EQ(s.pools[0].sharing.scheme(), SharingScheme::kMig);
  EXPECT_EQ(s.pools[0].sharing.mig.strategy, MigStrategy::kMixed);
  EXPECT_EQ(s.pools[0].sharing.mig.config_name, "all-balanced");
  EXPECT_EQ(s.pools[0].gpu_model, "H100-80GB");
  EXPECT_EQ(s.pools[1].sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(s.pools[2].sharing.scheme(), SharingScheme::kTimeSlicing);
  for (size_t i = 0; i < s.workload.classes.size(); ++i) {
    EXPECT_EQ(s.workload.classes[i].node_selector.at(kNodePoolLabel),
              s.pools[i].name);
  }
}

TEST(ScenarioReaderTest, TheDocumentedCompleteExampleParses) {
  const std::string doc =
      ReadInputFile(GS_TESTDATA_DIR "/../../docs/scenario.md");
  const size_t section = doc.find("### Complete example");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = doc.find("```yaml\n", section);
  ASSERT_NE(begin, std::string::npos);
  const size_t end = doc.find("```\n", begin + 8);
  ASSERT_NE(end, std::string::npos);
  const Scenario s = ReadScenarioYaml(doc.substr(begin + 8, end - begin - 8),
                                      "docs/scenario.md", TestCatalog());
  EXPECT_EQ(s.pools.size(), 3u);
  EXPECT_EQ(s.workload.classes.size(), 3u);
  ASSERT_EQ(s.faults.size(), 3u);
  EXPECT_FALSE(s.faults[0].reset);
  EXPECT_EQ(s.faults[0].mig_reapply_s, -1);
  EXPECT_TRUE(s.faults[2].reset);
  EXPECT_EQ(s.faults[2].mig_reapply_s, 900);
  ASSERT_EQ(s.device_plugin_stalls.size(), 1u);
  EXPECT_EQ(s.device_plugin_stalls[0].pool, "platform");
  EXPECT_EQ(s.device_plugin_stalls[0].node, 0);
  EXPECT_EQ(s.device_plugin_stalls[0].at_s, 1800);
  EXPECT_EQ(s.device_plugin_stalls[0].duration_s, 600);
  EXPECT_EQ(s.patrol.for_s, 300);
  EXPECT_EQ(s.patrol.noisy_neighbour_share, 0.5);
}

TEST(ScenarioReaderTest, FullScenarioLandsInTheStruct) {
  const Scenario s = Read(R"(
name: full
seed: 9223372036854775807
horizon_s: 7200
sample_interval_s: 15.5
cluster:
  pools:
    - name: prod
      gpu: nvidia-h100-80gb-hbm3
      nodes: 4
      gpus_per_node: 8
      cpu: 96
      memory_gib: 1024
      max_pods: 64
      labels: {tier: prod, example.com/zone: a}
      taints: [{key: k, value: v, effect: NoSchedule}, {key: gpu, effect: NoExecute}]
      sharing:
        scheme: mig
        replicas: 2
        rename_by_default: true
        fail_requests_greater_than_one: true
        replica_policy: packed
        mig_strategy: mixed
        mig_layouts: [["3g.40gb", "2g.20gb", "1g.10gb:2"]]
    - name: vgpu
      gpu: A100-80GB
      nodes: 1
      cpu: "1500m"
      memory_gib: 0.5
      sharing:
        scheme: vgpu
        hami: {split_count: 4, memory_scaling: 1.5, core_scaling: 2, default_memory_mib: 1000, default_cores: 20, node_policy: spread, gpu_policy: binpack}
    - name: cpu
      nodes: 3
      gpus_per_node: 0
workload:
  horizon_s: 3600
  classes:
    - name: prod-inference
      class: inference
      tenants: [shop, search]
      priority: 100
      arrival_rate_per_s: 0.05
      count: 100
      gpus: 0.5
      gpu_memory_mib: {uniform: [4000, 12000]}
      sm_demand: {lognormal: {median: 0.3, sigma: 0.5, min: 0.05, max: 1}}
      duty: 0.8
      work_s: {exponential: 3600}
      lifetime_s: 0
      request_rate: 20
      gpu_ms_per_request: 15
      slo_p99_ms: 100
      cpu_milli: 4000
      memory_mib: 16384
      node_selector: {gpushare.io/node-pool: prod}
      tolerations:
        - {key: k, operator: Exists, effect: NoSchedule}
        - {key: gpu, value: x}
        - {operator: Exists}
scheduler:
  percentage_of_nodes_to_score: 50
  tie_break: lowest-name
  filters: [TaintToleration, NodeAffinity, NodeResourcesFit, GpuDeviceFit]
  scores: [{name: NodeResourcesFit, weight: 5}, {name: TaintToleration}]
  scoring_strategy:
    type: RequestedToCapacityRatio
    resources: [{name: cpu, weight: 2}, {name: nvidia.com/gpu}]
    shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]
  check_invariants: true
model:
  profile: seed
  time_slice_ms: 2
  hami_cap_when_alone: true
  max_restarts: 3
translation: {mig_match_sm_demand: true}
faults:
  - {pool: prod, at_s: 600, node: 3, gpu: 7, recovery_s: 60}
  - {pool: prod, rate_per_gpu_hour: 0.001}
  - {rate_per_gpu_hour: 0.5}
)");
  EXPECT_EQ(s.name, "full");
  EXPECT_EQ(s.file, "s.yaml");
  EXPECT_EQ(s.seed, 9223372036854775807u);
  EXPECT_EQ(s.scheduler.seed, s.seed);
  EXPECT_EQ(s.horizon_s, 7200);
  EXPECT_EQ(s.sample_interval_s, 15.5);

  ASSERT_EQ(s.pools.size(), 3u);
  const NodePoolSpec& prod = s.pools[0];
  EXPECT_EQ(prod.name, "prod");
  EXPECT_EQ(prod.gpu_model, "H100-80GB");  // canonical name of the alias
  EXPECT_EQ(prod.nodes, 4);
  EXPECT_EQ(prod.gpus_per_node, 8);
  EXPECT_EQ(prod.cpu_milli, 96000);
  EXPECT_EQ(prod.memory_mib, 1024 * 1024);
  EXPECT_EQ(prod.max_pods, 64);
  EXPECT_EQ(prod.labels, (Labels{{"tier", "prod"}, {"example.com/zone", "a"}}));
  EXPECT_EQ(prod.taints,
            (std::vector<Taint>{{"k", "v", TaintEffect::kNoSchedule},
                                {"gpu", "", TaintEffect::kNoExecute}}));
  EXPECT_TRUE(prod.sharing.mig_enabled);
  EXPECT_EQ(prod.sharing.sharing, DeviceSharing::kTimeSlicing);
  EXPECT_EQ(prod.sharing.replicas.replicas, 2);
  EXPECT_TRUE(prod.sharing.replicas.rename_by_default);
  EXPECT_TRUE(prod.sharing.replicas.fail_requests_greater_than_one);
  EXPECT_EQ(prod.sharing.replicas.policy, ReplicaPolicy::kPacked);
  EXPECT_EQ(prod.sharing.mig.strategy, MigStrategy::kMixed);
  EXPECT_EQ(prod.sharing.mig.layouts,
            (std::vector<std::vector<std::string>>{
                {"3g.40gb", "2g.20gb", "1g.10gb:2"}}));
  const NodePoolSpec& vgpu = s.pools[1];
  EXPECT_EQ(vgpu.gpus_per_node, 8);
  EXPECT_EQ(vgpu.cpu_milli, 1500);
  EXPECT_EQ(vgpu.memory_mib, 512);
  EXPECT_EQ(vgpu.sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(vgpu.sharing.hami.split_count, 4);
  EXPECT_EQ(vgpu.sharing.hami.memory_scaling, 1.5);
  EXPECT_EQ(vgpu.sharing.hami.core_scaling, 2);
  EXPECT_EQ(vgpu.sharing.hami.default_memory_mib, 1000);
  EXPECT_EQ(vgpu.sharing.hami.default_cores, 20);
  EXPECT_EQ(vgpu.sharing.hami.node_policy, HamiPolicy::kSpread);
  EXPECT_EQ(vgpu.sharing.hami.gpu_policy, HamiPolicy::kBinpack);
  EXPECT_EQ(s.pools[2].gpus_per_node, 0);
  EXPECT_EQ(s.pools[2].gpu_model, "");

  EXPECT_EQ(s.workload.horizon_s, 3600);
  ASSERT_EQ(s.workload.classes.size(), 1u);
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.name, "prod-inference");
  EXPECT_EQ(c.workload_class, WorkloadClass::kInference);
  EXPECT_EQ(c.tenants, (std::vector<std::string>{"shop", "search"}));
  EXPECT_EQ(c.priority, 100);
  EXPECT_EQ(c.arrival_rate_per_s, 0.05);
  EXPECT_EQ(c.count, 100);
  EXPECT_EQ(c.gpus.kind, Distribution::Kind::kConstant);
  EXPECT_EQ(c.gpus.value, 0.5);
  EXPECT_EQ(c.gpu_memory_mib.kind, Distribution::Kind::kUniform);
  EXPECT_EQ(c.sm_demand.kind, Distribution::Kind::kLogNormal);
  EXPECT_EQ(c.duty.value, 0.8);
  EXPECT_EQ(c.work_s.kind, Distribution::Kind::kExponential);
  EXPECT_EQ(c.work_s.mean, 3600);
  EXPECT_EQ(c.lifetime_s.value, 0);
  EXPECT_EQ(c.request_rate.value, 20);
  EXPECT_EQ(c.gpu_ms_per_request.value, 15);
  EXPECT_EQ(c.slo_p99_ms.value, 100);
  EXPECT_EQ(c.cpu_milli.value, 4000);
  EXPECT_EQ(c.memory_mib.value, 16384);
  EXPECT_EQ(c.node_selector, (Labels{{kNodePoolLabel, "prod"}}));
  ASSERT_EQ(c.tolerations.size(), 3u);
  EXPECT_EQ(c.tolerations[0].key, "k");
  EXPECT_EQ(c.tolerations[0].op, Toleration::Operator::kExists);
  EXPECT_FALSE(c.tolerations[0].any_effect);
  EXPECT_EQ(c.tolerations[0].effect, TaintEffect::kNoSchedule);
  EXPECT_EQ(c.tolerations[1].op, Toleration::Operator::kEqual);
  EXPECT_EQ(c.tolerations[1].value, "x");
  EXPECT_TRUE(c.tolerations[1].any_effect);
  EXPECT_EQ(c.tolerations[2].key, "");
  EXPECT_TRUE(
      c.tolerations[2].Tolerates({"any", "thing", TaintEffect::kNoExecute}));

  EXPECT_EQ(s.scheduler.percentage_of_nodes_to_score, 50);
  EXPECT_EQ(s.scheduler.tie_break, TieBreak::kLowestName);
  EXPECT_EQ(s.scheduler.filters,
            (std::vector<std::string>{"TaintToleration", "NodeAffinity",
                                      "NodeResourcesFit", "GpuDeviceFit"}));
  // A score without weight gets the plugin's default weight.
  EXPECT_EQ(s.scheduler.scores,
            (std::vector<std::pair<std::string, int64_t>>{
                {"NodeResourcesFit", 5}, {"TaintToleration", 3}}));
  EXPECT_EQ(s.scheduler.scoring_strategy.type,
            ScoringStrategy::Type::kRequestedToCapacityRatio);
  EXPECT_EQ(s.scheduler.scoring_strategy.resources,
            (std::vector<std::pair<std::string, int64_t>>{
                {"cpu", 2}, {"nvidia.com/gpu", 1}}));
  EXPECT_EQ(s.scheduler.scoring_strategy.shape,
            (std::vector<std::pair<int64_t, int64_t>>{{0, 0}, {100, 10}}));
  EXPECT_TRUE(s.scheduler.check_invariants);

  ModelParams seed = ModelParams::Seed();
  EXPECT_EQ(s.model.time_slice_ms, 2);
  EXPECT_EQ(s.model.context_switch_us, seed.context_switch_us);
  EXPECT_EQ(s.model.hami_interception_overhead,
            seed.hami_interception_overhead);
  EXPECT_TRUE(s.model.hami_cap_when_alone);
  EXPECT_EQ(s.model.max_restarts, 3);
  EXPECT_TRUE(s.translation.mig_match_sm_demand);

  ASSERT_EQ(s.faults.size(), 3u);
  EXPECT_EQ(s.faults[0].pool, "prod");
  EXPECT_EQ(s.faults[0].at_s, 600);
  EXPECT_EQ(s.faults[0].node, 3);
  EXPECT_EQ(s.faults[0].gpu, 7);
  EXPECT_EQ(s.faults[0].recovery_s, 60);
  EXPECT_EQ(s.faults[1].at_s, -1);
  EXPECT_EQ(s.faults[1].rate_per_gpu_hour, 0.001);
  EXPECT_EQ(s.faults[1].recovery_s, 600);
  EXPECT_EQ(s.faults[2].pool, "");
}

TEST(ScenarioReaderTest, GangClassesMakePodGroups) {
  const Scenario s = Read(
      WithClasses("    - {name: ddp, class: training, count: 2, work_s: 600,\n"
                  "       gang: {size: 4, min_member: 3, timeout_s: 120}}\n"));
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.gang_size, 4);
  EXPECT_EQ(c.gang_min_member, 3);
  EXPECT_EQ(c.gang_timeout_s, 120);
  const std::vector<Pod> pods = BuildWorkload(s.workload, s.seed);
  ASSERT_EQ(pods.size(), 8u);
  EXPECT_EQ(pods[0].name, "ddp-0-0");
  EXPECT_EQ(pods[3].name, "ddp-0-3");
  EXPECT_EQ(pods[3].pod_group, "ddp-0");
  EXPECT_EQ(pods[3].gang_min_member, 3);
  EXPECT_EQ(pods[0].arrival_s, pods[3].arrival_s);
  EXPECT_EQ(pods[0].needs.work_s, pods[3].needs.work_s);
  EXPECT_EQ(pods[4].pod_group, "ddp-1");
  EXPECT_EQ(Error(WithClasses("    - {name: ddp, class: training, count: 1, "
                              "work_s: 0, lifetime_s: 60, gang: {size: 2}}\n")),
            "s.yaml:10:79: class 'ddp' gang: gang members must be jobs with "
            "work (work_s > 0); a PodGroup of services is not modelled");
  EXPECT_EQ(Error(WithClasses("    - {name: ddp, class: training, count: 1, "
                              "gang: {size: 2, min_member: 3}}\n")),
            "s.yaml:10:74: class 'ddp' gang min_member: 3 is out of range "
            "(expected 1..2)");
}

TEST(ScenarioReaderTest, Defaults) {
  const Scenario s = ReadScenarioYaml(
      "cluster:\n  pools:\n    - {name: p, gpu: A10, nodes: 1}\n" +
          std::string(kWorkload),
      "dir/my-run.yaml", TestCatalog());
  EXPECT_EQ(s.name, "my-run");  // the file's stem
  EXPECT_EQ(s.seed, 1u);
  EXPECT_EQ(s.horizon_s, 0);
  EXPECT_EQ(s.sample_interval_s, 60);
  const NodePoolSpec pool_defaults;
  const NodePoolSpec& p = s.pools[0];
  EXPECT_EQ(p.gpus_per_node, 8);
  EXPECT_EQ(p.cpu_milli, pool_defaults.cpu_milli);
  EXPECT_EQ(p.memory_mib, pool_defaults.memory_mib);
  EXPECT_EQ(p.max_pods, kDefaultMaxPods);
  EXPECT_TRUE(p.labels.empty());
  EXPECT_TRUE(p.taints.empty());
  EXPECT_EQ(p.sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(s.workload.horizon_s, 3600);
  const WorkloadClassSpec class_defaults;
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.tenants, class_defaults.tenants);
  EXPECT_EQ(c.priority, 0);
  EXPECT_EQ(c.count, 0);
  EXPECT_EQ(c.gpus.value, class_defaults.gpus.value);
  EXPECT_EQ(c.work_s.value, class_defaults.work_s.value);
  EXPECT_TRUE(c.tolerations.empty());
  const SchedulerProfile profile_defaults;
  EXPECT_EQ(s.scheduler.filters, profile_defaults.filters);
  EXPECT_EQ(s.scheduler.scores, profile_defaults.scores);
  EXPECT_EQ(s.scheduler.tie_break, TieBreak::kRandom);
  const ModelParams model_defaults;
  EXPECT_EQ(s.model.time_slice_ms, model_defaults.time_slice_ms);
  EXPECT_EQ(s.model.max_restarts, model_defaults.max_restarts);
  EXPECT_FALSE(s.translation.mig_match_sm_demand);
  EXPECT_TRUE(s.faults.empty());
}

TEST(ScenarioReaderTest, WorkloadHorizonAndCountDefaults) {
  // The workload horizon defaults to the run's horizon; count alone spreads
  // its pods over the workload horizon.
  const Scenario s = Read(std::string(kPools) + R"(horizon_s: 1000
workload:
  classes:
    - {name: a, class: dev, count: 50}
)");
  EXPECT_EQ(s.workload.horizon_s, 1000);
  EXPECT_EQ(s.workload.classes[0].count, 50);
  // No rate: the generator draws the 50 arrivals within [0, 1000).
  EXPECT_EQ(s.workload.classes[0].arrival_rate_per_s, 0);
}

TEST(ScenarioReaderTest, SharingSchemes) {
  const Scenario s = Read(WithPools(R"(
    - {name: ts, gpu: L4, nodes: 1, sharing: {scheme: time-slicing, replicas: 2}}
    - {name: mps, gpu: L4, nodes: 1, sharing: {scheme: mps, replicas: 8}}
    - {name: mig1, gpu: A100-40GB, nodes: 1, gpus_per_node: 2, sharing: {scheme: mig, mig_config: all-1g.5gb}}
    - name: mig2
      gpu: A100-40GB
      nodes: 1
      gpus_per_node: 2
      sharing: {scheme: mig, mig_strategy: mixed, mig_layouts: ["3g.20gb", "2g.10gb"]}
    - name: mig3
      gpu: A100-40GB
      nodes: 1
      gpus_per_node: 2
      sharing:
        scheme: time-slicing
        replicas: 3
        mig_strategy: mixed
        mig_layouts: [["7g.40gb"], ["1g.5gb:7"]]
    - {name: ex, gpu: T4, nodes: 1, sharing: {scheme: exclusive}}
    - {name: hami, gpu: T4, nodes: 1, sharing: {scheme: hami}}
)"));
  ASSERT_EQ(s.pools.size(), 7u);
  EXPECT_EQ(s.pools[0].sharing.scheme(), SharingScheme::kTimeSlicing);
  EXPECT_FALSE(s.pools[0].sharing.replicas.fail_requests_greater_than_one);
  EXPECT_EQ(s.pools[1].sharing.scheme(), SharingScheme::kMps);
  EXPECT_TRUE(s.pools[1].sharing.replicas.fail_requests_greater_than_one);
  EXPECT_EQ(s.pools[2].sharing.mig.strategy, MigStrategy::kSingle);
  EXPECT_EQ(s.pools[2].sharing.sharing, DeviceSharing::kNone);
  // A flat list is one layout for every GPU.
  EXPECT_EQ(s.pools[3].sharing.mig.layouts,
            (std::vector<std::vector<std::string>>{{"3g.20gb", "2g.10gb"}}));
  EXPECT_TRUE(s.pools[4].sharing.mig_enabled);
  EXPECT_EQ(s.pools[4].sharing.sharing, DeviceSharing::kTimeSlicing);
  EXPECT_EQ(s.pools[4].sharing.mig.layouts.size(), 2u);
  EXPECT_EQ(s.pools[5].sharing.scheme(), SharingScheme::kExclusive);
  EXPECT_EQ(s.pools[6].sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(s.pools[6].sharing.hami.split_count, 10);
}

TEST(ScenarioReaderTest, DistributionForms) {
  const Scenario s = Read(WithClasses(R"(
    - name: a
      class: batch
      arrival_rate_per_s: 1
      gpus: 2
      gpu_memory_mib: {constant: 5000}
      sm_demand: {uniform: [0.1, 0.9]}
      work_s: {exponential: 60}
      duty: {lognormal: {median: 0.5, sigma: 0.2}}
      cpu_milli: {lognormal: {median: 1000, sigma: 1, max: 4000}}
      memory_mib: {choice: [[1024, 3], [2048, 1]]}
      request_rate: {choice: [1, 2, 4]}
)"));
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.gpus.kind, Distribution::Kind::kConstant);
  EXPECT_EQ(c.gpus.value, 2);
  EXPECT_EQ(c.gpu_memory_mib.kind, Distribution::Kind::kConstant);
  EXPECT_EQ(c.gpu_memory_mib.value, 5000);
  EXPECT_EQ(c.sm_demand.kind, Distribution::Kind::kUniform);
  EXPECT_EQ(c.sm_demand.min, 0.1);
  EXPECT_EQ(c.sm_demand.max, 0.9);
  EXPECT_EQ(c.work_s.kind, Distribution::Kind::kExponential);
  EXPECT_EQ(c.work_s.mean, 60);
  EXPECT_EQ(c.duty.kind, Distribution::Kind::kLogNormal);
  EXPECT_EQ(c.duty.median, 0.5);
  EXPECT_EQ(c.duty.sigma, 0.2);
  EXPECT_EQ(c.duty.min, 0);
  EXPECT_EQ(c.duty.max, 0);
  EXPECT_EQ(c.cpu_milli.min, 0);
  EXPECT_EQ(c.cpu_milli.max, 4000);
  EXPECT_EQ(c.memory_mib.kind, Distribution::Kind::kChoice);
  EXPECT_EQ(c.memory_mib.choices,
            (std::vector<std::pair<double, double>>{{1024, 3}, {2048, 1}}));
  EXPECT_EQ(c.request_rate.choices,
            (std::vector<std::pair<double, double>>{{1, 1}, {2, 1}, {4, 1}}));
}

TEST(ScenarioReaderTest, FileErrors) {
  EXPECT_THROW(ReadScenarioFile("/nonexistent/x.yaml", TestCatalog()),
               InputError);
  EXPECT_EQ(Error(""),
            "s.yaml:1:1: empty scenario file (expected 'cluster:' and "
            "'workload:')");
  EXPECT_EQ(Error("cluster: [\n"),
            "s.yaml:2:1: invalid YAML: end of sequence flow not found");
  EXPECT_EQ(Error("- a\n"),
            "s.yaml:1:1: scenario: expected a mapping, got a list");
}

struct ErrorCase {
  const char* name;
  std::string text;
  std::string error;
};

class ScenarioErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ScenarioErrorTest, ReportsFileLineColumnAndMessage) {
  EXPECT_EQ(Error(GetParam().text), GetParam().error);
}

std::string CaseName(const ::testing::TestParamInfo<ErrorCase>& info) {
  return info.param.name;
}

INSTANTIATE_TEST_SUITE_P(
    ScenarioReader, ScenarioErrorTest,
    ::testing::Values(
        ErrorCase{"UnknownTopKey", WithExtra("horizon: 10\n"),
                  "s.yaml:13:1: scenario: unknown key 'horizon'; did you mean "
                  "horizon_s? (allowed: name, seed, horizon_s, "
                  "sample_interval_s, cluster, workload, scheduler, model, "
                  "translation, faults, device_plugin_stalls, patrol, "
                  "priority_classes, queues, kai_queues, platform, compare, "
                  "selection, plan)"},
        ErrorCase{
            "UnknownPoolKey",
            WithPools("    - {name: p, gpu: L4, nodes: 1, gpu_count: 2}\n"),
            "s.yaml:3:36: pool 'p': unknown key 'gpu_count'; did you "
            "mean gpu? (allowed: name, gpu, nodes, "
            "gpus_per_node, cpu, memory_gib, max_pods, labels, taints, "
            "sharing, licence_per_gpu_hour, match_labels, devices, dra, "
            "autoscaling)"},
        ErrorCase{"MissingCluster", std::string(kWorkload),
                  "s.yaml:1:1: scenario: missing required key 'cluster'"},
        ErrorCase{"EmptyPools",
                  "cluster:\n  pools: []\n" + std::string(kWorkload),
                  "s.yaml:2:10: cluster pools: expected at least one item"},
        ErrorCase{"MissingClasses", std::string(kPools) + "workload: {}\n",
                  "s.yaml:8:11: workload: give classes, a trace, or both"},
        ErrorCase{"NegativeNodes",
                  WithPools("    - {name: p, gpu: L4, nodes: -1}\n"),
                  "s.yaml:3:33: pool 'p' nodes: -1 is out of range (expected "
                  "1..1000000)"},
        ErrorCase{"TooManyGpusPerNode",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, "
                            "gpus_per_node: 17}\n"),
                  "s.yaml:3:51: pool 'p' gpus_per_node: 17 is out of range "
                  "(expected 0..16)"},
        ErrorCase{"ZeroCpu",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, cpu: 0}\n"),
                  "s.yaml:3:41: pool 'p' cpu: 0 is out of range (expected > "
                  "0 and <= 100000)"},
        ErrorCase{"BadMillicores",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, cpu: 12xm}\n"),
                  "s.yaml:3:41: pool 'p' cpu: expected cores (96) or "
                  "millicores (\"96000m\"), got '12xm'"},
        ErrorCase{"UnknownGpu",
                  WithPools("    - {name: p, gpu: H100-40GB, nodes: 1}\n"),
                  "s.yaml:3:22: pool 'p' gpu: unknown GPU model 'H100-40GB'; "
                  "closest known: H100-80GB, A100-40GB, H100-94GB (see "
                  "'gpushare-sim catalog')"},
        ErrorCase{"MissingGpu", WithPools("    - {name: p, nodes: 1}\n"),
                  "s.yaml:3:7: pool 'p': missing required key 'gpu' (a "
                  "catalog model; needed when gpus_per_node > 0)"},
        ErrorCase{"BadPoolName",
                  WithPools("    - {name: Prod, gpu: L4, nodes: 1}\n"),
                  "s.yaml:3:14: pool name 'Prod' must be lowercase letters, "
                  "digits and '-' (at most 40, starting and ending with a "
                  "letter or digit)"},
        ErrorCase{"DuplicatePool",
                  WithPools("    - {name: p, gpu: L4, nodes: 1}\n"
                            "    - {name: p, gpu: A10, nodes: 1}\n"),
                  "s.yaml:4:14: pool 'p' is defined twice (first at line 3)"},
        ErrorCase{"UnknownScheme",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, sharing: "
                            "{scheme: timeslicing}}\n"),
                  "s.yaml:3:54: pool 'p' sharing scheme: unknown scheme "
                  "'timeslicing'; did you mean time-slicing? (allowed: "
                  "exclusive, time-slicing, mps, mig, hami, vgpu)"},
        ErrorCase{"TimeSlicingOneReplica",
                  WithPools("    - name: p\n      gpu: L4\n      nodes: 1\n"
                            "      sharing: {scheme: time-slicing, "
                            "replicas: 1}\n"),
                  "s.yaml:6:7: pool 'p' sharing: time-slicing replicas must "
                  "be at least 2 (the NVIDIA device plugin rejects replicas "
                  "< 2), got 1"},
        ErrorCase{"MpsOnMig",
                  WithPools("    - name: p\n      gpu: A100-40GB\n"
                            "      nodes: 1\n      sharing:\n"
                            "        scheme: mps\n        replicas: 4\n"
                            "        mig_config: all-balanced\n"),
                  "s.yaml:6:7: pool 'p' sharing: MPS sharing is not supported "
                  "on MIG-enabled GPUs by the NVIDIA device plugin; use "
                  "time-slicing on MIG, or MPS on whole GPUs"},
        ErrorCase{"MigOnL4",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, sharing: "
                            "{scheme: mig, mig_config: all-balanced}}\n"),
                  "s.yaml:3:36: pool 'p' sharing: L4 does not support MIG"},
        ErrorCase{"ReplicasOnHami",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, sharing: "
                            "{scheme: hami, replicas: 2}}\n"),
                  "s.yaml:3:60: pool 'p' sharing replicas: applies to "
                  "time-slicing, mps and mig"},
        ErrorCase{"HamiSplitCount",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, sharing: "
                            "{scheme: hami, hami: {split_count: 0}}}\n"),
                  "s.yaml:3:80: pool 'p' sharing hami split_count: 0 is out "
                  "of range (expected 1..1000)"},
        ErrorCase{"BadTaintEffect",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, taints: "
                            "[{key: a, effect: NoSchedul}]}\n"),
                  "s.yaml:3:62: pool 'p' taint effect: unknown effect "
                  "'NoSchedul'; did you mean NoSchedule? (allowed: "
                  "NoSchedule, PreferNoSchedule, NoExecute)"},
        ErrorCase{"ReservedLabel",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, labels: "
                            "{gpushare.io/node-pool: x}}\n"),
                  "s.yaml:3:36: pool 'p' labels: label "
                  "'gpushare.io/node-pool' is set by the simulator"},
        ErrorCase{"BadLabelKey",
                  WithPools("    - {name: p, gpu: L4, nodes: 1, labels: "
                            "{\"a b\": x}}\n"),
                  "s.yaml:3:45: pool 'p' labels: invalid key 'a b' (letters, "
                  "digits, '-', '_' and '.', at most 63, starting and ending "
                  "with a letter or digit, after an optional DNS prefix and "
                  "'/')"},
        ErrorCase{"BadRequestName",
                  WithClasses("    - {name: a, class: batch, count: 1, "
                              "requests: {\"x.io/g pu\": 1}}\n"),
                  "s.yaml:10:52: class 'a' requests: \"x.io/g pu\" is not a "
                  "Kubernetes resource name (a qualified name such as "
                  "nvidia.com/gpu: a DNS prefix, '/', then at most 63 "
                  "letters, digits, '-', '_' and '.')"},
        ErrorCase{"UnknownClass",
                  WithClasses("    - {name: a, class: serving, "
                              "arrival_rate_per_s: 1}\n"),
                  "s.yaml:10:24: class 'a' class: unknown class 'serving'; "
                  "did you mean training? (allowed: training, inference, "
                  "batch, dev)"},
        ErrorCase{"MissingClassKey",
                  WithClasses("    - {name: a, arrival_rate_per_s: 1}\n"),
                  "s.yaml:10:7: class 'a': missing required key 'class'"},
        ErrorCase{"DuplicateClass",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1}\n"
                              "    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1}\n"),
                  "s.yaml:11:14: class 'a' is defined twice"},
        ErrorCase{"NoArrivals", WithClasses("    - {name: a, class: dev}\n"),
                  "s.yaml:10:7: class 'a': arrival_rate_per_s must be > 0 (or "
                  "set count > 0)"},
        ErrorCase{"DutyOutOfRange",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, duty: 1.5}\n"),
                  "s.yaml:10:58: class 'a' duty: value 1.5 is outside [0, 1]"},
        ErrorCase{"ServiceWithoutLifetime",
                  WithClasses("    - {name: a, class: inference, "
                              "arrival_rate_per_s: 1, work_s: 0}\n"),
                  "s.yaml:10:66: class 'a': a service class (work_s 0) needs "
                  "lifetime_s > 0"},
        ErrorCase{"TwoDistributionKinds",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, gpus: {constant: 1, "
                              "uniform: [0, 1]}}\n"),
                  "s.yaml:10:72: class 'a' gpus: expected exactly one of "
                  "constant, uniform, exponential, lognormal, choice, got "
                  "constant and uniform"},
        ErrorCase{"UnknownDistribution",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, gpus: {normal: 1}}\n"),
                  "s.yaml:10:59: class 'a' gpus: unknown key 'normal'; did "
                  "you mean lognormal? (allowed: constant, uniform, "
                  "exponential, lognormal, choice)"},
        ErrorCase{"UniformNeedsTwoBounds",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, work_s: {uniform: "
                              "[1, 2, 3]}}\n"),
                  "s.yaml:10:70: class 'a' work_s uniform: expected [min, "
                  "max], got 3 values"},
        ErrorCase{"UniformMinAboveMax",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, work_s: {uniform: "
                              "[5, 2]}}\n"),
                  "s.yaml:10:60: class 'a' work_s: uniform min 5 > max 2"},
        ErrorCase{"NegativeExponentialMean",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, work_s: {exponential: "
                              "-3}}\n"),
                  "s.yaml:10:74: class 'a' work_s exponential: -3 is out of "
                  "range (expected > 0 and <= 1000000000000)"},
        ErrorCase{"LogNormalSigmaAboveTen",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, work_s: {lognormal: "
                              "{median: 60, sigma: 40}}}\n"),
                  "s.yaml:10:92: class 'a' work_s lognormal sigma: 40 is out "
                  "of range (expected 0..10)"},
        ErrorCase{"LognormalMinWithoutMax",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, work_s: {lognormal: "
                              "{median: 5, sigma: 1, min: 1}}}\n"),
                  "s.yaml:10:94: class 'a' work_s lognormal min: needs max "
                  "(samples are clamped to [min, max])"},
        ErrorCase{"ChoiceItem",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, gpus: {choice: "
                              "[[1, 2, 3]]}}\n"),
                  "s.yaml:10:68: class 'a' gpus choice: expected a value or "
                  "[value, weight], got a list"},
        ErrorCase{"SelectorOnUnknownPool",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, node_selector: "
                              "{gpushare.io/node-pool: deev}}\n"),
                  "s.yaml:10:91: class 'a' node_selector: no pool is named "
                  "'deev'; did you mean dev? (pools: dev)"},
        ErrorCase{"TolerationOperator",
                  WithClasses("    - {name: a, class: dev, "
                              "arrival_rate_per_s: 1, tolerations: "
                              "[{key: k, operator: In}]}\n"),
                  "s.yaml:10:85: class 'a' toleration operator: unknown "
                  "operator 'In'; did you mean Equal? (allowed: Equal, "
                  "Exists)"},
        ErrorCase{"UnknownFilterPlugin",
                  WithExtra("scheduler:\n  filters: [NodeAffinity, "
                            "GpuDeviceFits]\n"),
                  "s.yaml:14:27: scheduler filters: unknown filter plugin "
                  "'GpuDeviceFits'; did you mean GpuDeviceFit? (known: "
                  "TaintToleration, NodeAffinity, NodeResourcesFit, "
                  "GpuDeviceFit)"},
        ErrorCase{
            "BadTieBreak", WithExtra("scheduler: {tie_break: first}\n"),
            "s.yaml:13:24: scheduler tie_break: unknown tie break "
            "'first'; did you mean random? (allowed: random, lowest-name)"},
        ErrorCase{"ModelRange",
                  WithExtra("model:\n  profile: seed\n  time_slice_ms: 0\n"),
                  "s.yaml:15:18: model parameter time_slice_ms must be in "
                  "[0.01, 60000], got 0"},
        ErrorCase{"FaultOnUnknownPool",
                  WithExtra("faults:\n  - {pool: prod, at_s: 5}\n"),
                  "s.yaml:14:12: fault pool: unknown pool 'prod'; did you "
                  "mean dev? (pools: dev)"},
        ErrorCase{"FaultWithoutTime", WithExtra("faults:\n  - {pool: dev}\n"),
                  "s.yaml:14:5: fault: give at_s (one fault at that time) or "
                  "rate_per_gpu_hour (faults at a rate)"},
        ErrorCase{"FaultGpuOutOfRange",
                  WithExtra("faults:\n  - {pool: dev, at_s: 5, gpu: 4}\n"),
                  "s.yaml:14:31: fault gpu: 4 is out of range (expected "
                  "0..3)"},
        ErrorCase{"NegativeSeed", WithExtra("seed: -1\n"),
                  "s.yaml:13:7: scenario seed: -1 is out of range (expected "
                  "0..9223372036854775807)"},
        ErrorCase{"ZeroSampleInterval", WithExtra("sample_interval_s: 0\n"),
                  "s.yaml:13:20: scenario sample_interval_s: 0 is out of "
                  "range (expected 1..1000000000)"},
        ErrorCase{"TooManySamples",
                  WithExtra("horizon_s: 10000000\nsample_interval_s: 1\n"),
                  "s.yaml:14:20: sample_interval_s: 1 s over a horizon of "
                  "10000000 s makes more than 1,000,000 samples; sample less "
                  "often"},
        ErrorCase{"BackoffMaxBelowInitial",
                  WithExtra("scheduler: {pod_initial_backoff_s: 5, "
                            "pod_max_backoff_s: 2}\n"),
                  "s.yaml:13:58: scheduler pod_max_backoff_s: 2 (written) is "
                  "below pod_initial_backoff_s (5)"},
        ErrorCase{"BackoffAboveDefaultMax",
                  WithExtra("scheduler: {pod_initial_backoff_s: 20}\n"),
                  "s.yaml:13:36: scheduler pod_max_backoff_s: 10 (the "
                  "default) is below pod_initial_backoff_s (20)"},
        ErrorCase{"BackoffNotWholeSeconds",
                  WithExtra("scheduler: {pod_initial_backoff_s: 1.5}\n"),
                  "s.yaml:13:36: scheduler pod_initial_backoff_s: expected an "
                  "integer, got '1.5'"}),
    CaseName);

}  // namespace
}  // namespace scenario_reader_test
}  // namespace gpushare
