#include "gpushare/decide/plan_spec_reader.h"

#include <gtest/gtest.h>

#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace plan_spec_reader_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// A valid scenario (lines 1-13) with two pools and two classes, then `extra`.
std::string Text(const std::string& extra) {
  return "name: s\n"                                          // 1
         "cluster:\n"                                         // 2
         "  pools:\n"                                         // 3
         "    - {name: gpu, gpu: A100-80GB, nodes: 3}\n"      // 4
         "    - {name: cpu, nodes: 2, gpus_per_node: 0}\n"    // 5
         "workload:\n"                                        // 6
         "  classes:\n"                                       // 7
         "    - name: web\n"                                  // 8
         "      class: inference\n"                           // 9
         "      count: 3\n"                                   // 10
         "      work_s: 0\n"                                  // 11
         "      lifetime_s: 60\n"                             // 12
         "    - {name: notebooks, class: dev, count: 3}\n" +  // 13
         extra;
}

PlanSpec Read(const std::string& extra) {
  const std::string text = Text(extra);
  const Scenario s = ReadScenarioYaml(text, "s.yaml", TestCatalog());
  const ComparisonSpec c = ReadComparisonSpec(text, "s.yaml", s);
  return ReadPlanSpec(text, "s.yaml", s, c.selection);
}

std::string Error(const std::string& extra) {
  try {
    Read(extra);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PlanSpecReaderTest, WithoutASectionEveryGpuPoolIsSizedUpToTwiceItsNodes) {
  const PlanSpec spec = Read("");
  ASSERT_EQ(spec.pools.size(), 1u);  // the CPU pool has nothing to share
  EXPECT_EQ(spec.pools[0].pool, "gpu");
  EXPECT_EQ(spec.pools[0].min_nodes, 1);
  EXPECT_EQ(spec.pools[0].max_nodes, 6);
  EXPECT_EQ(spec.pools[0].schemes.size(), 5u);
  EXPECT_EQ(spec.pools[0].mig_layouts, MigLayoutChoice::kAll);
  ASSERT_EQ(spec.classes.size(), 2u);
  EXPECT_EQ(spec.classes[0].tenant_class, "web");
  EXPECT_EQ(spec.classes[0].max_mean_wait_s, 60);
  EXPECT_DOUBLE_EQ(spec.classes[0].min_slo_attainment, 0.99);
  EXPECT_EQ(spec.classes[1].max_mean_wait_s, 300);
  EXPECT_EQ(spec.classes[1].max_oom_kills, 0);
  EXPECT_EQ(spec.cluster.max_gpus, -1);
  EXPECT_EQ(spec.search.pilot_pods, 2000);
}

TEST(PlanSpecReaderTest, ReadsEveryKey) {
  const PlanSpec spec = Read(
      "selection: {min_slo_attainment: 0.95}\n"
      "plan:\n"
      "  pools:\n"
      "    gpu:\n"
      "      nodes: {min: 2, max: 5}\n"
      "      schemes: [mig, hami]\n"
      "      time_slicing_replicas: [3]\n"
      "      mps_replicas: [2, 6]\n"
      "      hami_split_counts: [5]\n"
      "      mig_layouts: named\n"
      "  constraints:\n"
      "    classes:\n"
      "      web: {max_mean_wait_s: 10, max_p99_wait_s: 30, max_oom_kills: 1,"
      " max_failed: 2, max_cannot_run: 3, max_pending: 4,"
      " max_preemptions: 5}\n"
      "      notebooks: {min_slo_attainment: 0.5}\n"
      "    cluster: {max_gpus: 16, max_cost_per_hour: 100.5}\n"
      "  search: {pilot_pods: 500, finalists: 2, rounds: 3}\n");
  const PlanPoolSpec& p = spec.pools[0];
  EXPECT_EQ(p.min_nodes, 2);
  EXPECT_EQ(p.max_nodes, 5);
  EXPECT_EQ(p.schemes, (std::vector<SharingScheme>{SharingScheme::kMig,
                                                   SharingScheme::kHami}));
  EXPECT_EQ(p.time_slicing_replicas, std::vector<int>{3});
  EXPECT_EQ(p.mps_replicas, (std::vector<int>{2, 6}));
  EXPECT_EQ(p.hami_split_counts, std::vector<int>{5});
  EXPECT_EQ(p.mig_layouts, MigLayoutChoice::kNamed);
  const ClassConstraints& web = spec.classes[0];
  EXPECT_DOUBLE_EQ(web.min_slo_attainment, 0.95);
  EXPECT_EQ(web.max_mean_wait_s, 10);
  EXPECT_EQ(web.max_p99_wait_s, 30);
  EXPECT_EQ(web.max_oom_kills, 1);
  EXPECT_EQ(web.max_failed, 2);
  EXPECT_EQ(web.max_cannot_run, 3);
  EXPECT_EQ(web.max_pending, 4);
  EXPECT_EQ(web.max_preemptions, 5);
  EXPECT_DOUBLE_EQ(spec.classes[1].min_slo_attainment, 0.5);
  EXPECT_EQ(spec.cluster.max_gpus, 16);
  EXPECT_DOUBLE_EQ(spec.cluster.max_cost_per_hour, 100.5);
  EXPECT_EQ(spec.search.pilot_pods, 500);
  EXPECT_EQ(spec.search.finalists, 2);
  EXPECT_EQ(spec.search.rounds, 3);
}

TEST(PlanSpecReaderTest, AFixedNodeCount) {
  const PlanSpec spec = Read("plan:\n  pools:\n    gpu: {nodes: 4}\n");
  EXPECT_EQ(spec.pools[0].min_nodes, 4);
  EXPECT_EQ(spec.pools[0].max_nodes, 4);
}

// A ClusterQueue (lines 14-21) for plan.pinned_quotas.
constexpr char kQueues[] =
    "queues:\n"                                                    // 14
    "  cluster_queues:\n"                                          // 15
    "    - name: dev\n"                                            // 16
    "      resource_groups:\n"                                     // 17
    "        - flavors:\n"                                         // 18
    "            - name: gpu\n"                                    // 19
    "              resources:\n"                                   // 20
    "                - {name: nvidia.com/gpu, nominal_quota: 4}\n";  // 21

TEST(PlanSpecReaderTest, PinnedQuotasNameTheScenariosQueues) {
  EXPECT_TRUE(Read("").pinned_quotas.empty());
  EXPECT_EQ(Read(std::string(kQueues) + "plan:\n  pinned_quotas: [dev]\n")
                .pinned_quotas,
            std::vector<std::string>{"dev"});
  EXPECT_EQ(Error(std::string(kQueues) + "plan:\n  pinned_quotas: [dew]\n"),
            "s.yaml:23:19: plan.pinned_quotas: unknown queue 'dew'; did you "
            "mean dev? (the scenario's queues: dev)");
  EXPECT_EQ(
      Error(std::string(kQueues) + "plan:\n  pinned_quotas: [dev, dev]\n"),
      "s.yaml:23:24: plan.pinned_quotas: 'dev' is listed twice");
  EXPECT_EQ(Error("plan:\n  pinned_quotas: [dev]\n"),
            "s.yaml:15:19: plan.pinned_quotas: 'dev': the scenario has no "
            "queues (queues or kai_queues)");
}

TEST(PlanSpecReaderTest, BadInputIsLocated) {
  EXPECT_EQ(
      Error("plan:\n  pool: {}\n"),
      "s.yaml:15:3: plan: unknown key 'pool'; did you mean pools? (allowed: "
      "pools, constraints, search, pinned_quotas)");
  EXPECT_EQ(Error("plan:\n  pools:\n    gpus: {}\n"),
            "s.yaml:16:5: plan.pools: unknown node pool 'gpus'; did you mean "
            "gpu? (the cluster's pools: gpu, cpu)");
  EXPECT_EQ(Error("plan:\n  pools:\n    cpu: {}\n"),
            "s.yaml:16:5: plan.pools: pool 'cpu' has no GPUs: there is no "
            "sharing to plan");
  EXPECT_EQ(Error("plan:\n  pools:\n    gpu: {nodes: {min: 3, max: 2}}\n"),
            "s.yaml:16:18: plan.pools.gpu.nodes: min 3 is above max 2");
  EXPECT_NE(Error("plan:\n  pools:\n    gpu: {nodes: -1}\n").find("s.yaml:16:"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  pools:\n    gpu: {schemes: [migg]}\n")
                .find("unknown sharing scheme 'migg'; did you mean mig?"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  pools:\n    gpu: {time_slicing_replicas: [1]}\n")
                .find("s.yaml:16:"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  pools:\n    gpu: {mps_replicas: [4, 4]}\n")
                .find("4 is listed twice"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  pools:\n    gpu: {mig_layouts: some}\n")
                .find("expected all"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  constraints:\n    classes:\n      webb: {}\n")
                .find("s.yaml:17:7: plan.constraints.classes: unknown tenant "
                      "class 'webb'; did you mean web?"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  constraints:\n    classes:\n      web: "
                  "{max_mean_wait_s: -5}\n")
                .find("s.yaml:17:"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  constraints:\n    cluster: {max_gpu: 3}\n")
                .find("did you mean max_gpus?"),
            std::string::npos);
  EXPECT_NE(Error("plan:\n  search: {finalists: 0}\n")
                .find("s.yaml:15:23: plan.search finalists: 0 is out of range"),
            std::string::npos);
}

// Imported pools (tests/data/kubectl/nodes.json) are named in `plan:` by the
// names the import gives them and sized like written ones.
TEST(PlanSpecReaderTest, ImportedPoolsAreResizedWithinTheirRange) {
  const std::string text =
      "cluster:\n"
      "  import: {format: kubectl, file: nodes.json}\n"
      "workload:\n"
      "  classes:\n"
      "    - {name: jobs, class: batch, count: 1}\n"
      "plan:\n"
      "  pools:\n"
      "    l4-x4-time-slicing: {nodes: {min: 1, max: 5}}\n"
      "    a10-x2-hami: {schemes: [exclusive]}\n";
  const std::string file = GS_TESTDATA_DIR "/kubectl/s.yaml";
  const Scenario s = ReadScenarioYaml(text, file, TestCatalog());
  const PlanSpec spec = ReadPlanSpec(
      text, file, s, ReadComparisonSpec(text, file, s).selection);
  ASSERT_EQ(spec.pools.size(), 2u);
  EXPECT_EQ(spec.pools[0].pool, "l4-x4-time-slicing");
  EXPECT_EQ(spec.pools[0].min_nodes, 1);
  EXPECT_EQ(spec.pools[0].max_nodes, 5);
  EXPECT_EQ(spec.pools[1].pool, "a10-x2-hami");  // one real node
  EXPECT_EQ(spec.pools[1].min_nodes, 1);
  EXPECT_EQ(spec.pools[1].max_nodes, 2);
}

}  // namespace
}  // namespace plan_spec_reader_test
}  // namespace gpushare
