// Tests of the FGD experiment: workload tuning, the protocol on the shipped
// trace, determinism across thread counts and the score memo.

#include "gpushare/experiment/fgd_experiment.h"

#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "gpushare/experiment/fgd_report.h"
#include "gpushare/experiment/workload_tuning.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string OpenbFile(const std::string& name) {
  return std::string(GS_TESTDATA_DIR) + "/../../data/openb/" + name;
}

struct Trace {
  std::vector<OpenbNode> nodes;
  std::vector<OpenbPod> pods;
};

const Trace& DefaultTrace() {
  static const Trace trace = [] {
    const GpuModelMap models = GpuModelMap::Default();
    return Trace{
        ReadOpenbNodeList(OpenbFile("openb_node_list_gpu_node.csv"), models),
        ReadOpenbPodList(OpenbFile("openb_pod_list_default.csv"), models)};
  }();
  return trace;
}

OpenbPod Task(std::string name, int gpus, int64_t milli) {
  OpenbPod p;
  p.name = std::move(name);
  p.cpu_milli = 1000;
  p.num_gpu = gpus;
  p.gpu_milli = milli;
  return p;
}

int64_t TotalMilli(const std::vector<OpenbPod>& pods,
                   const std::vector<int>& order) {
  int64_t total = 0;
  for (const int i : order) total += pods[i].TotalGpuMilli();
  return total;
}

TEST(WorkloadTuningTest, ShufflesThenInflatesToTheTarget) {
  std::vector<OpenbPod> pods;
  for (int i = 0; i < 50; ++i) {
    pods.push_back(Task("p" + std::to_string(100 - i), i % 5 == 0 ? 0 : 1,
                        i % 5 == 0 ? 0 : 100 * (i % 10 + 1)));
  }
  Rng rng(42);
  const std::vector<int> none = TunedArrivalOrder(pods, 0, 100000, rng);
  EXPECT_EQ(std::set<int>(none.begin(), none.end()).size(), pods.size());
  EXPECT_EQ(none.size(), pods.size());
  // Target 1.5 x 20 GPUs = 30000 milli; the trace asks for
  // 5 x 100 x (2 + 3 + 4 + 5 + 7 + 8 + 9 + 10) = 24000.
  ASSERT_EQ(TotalMilli(pods, none), 24000);
  Rng rng2(42);
  const std::vector<int> up = TunedArrivalOrder(pods, 1.5, 20000, rng2);
  // The first 50 arrivals are the same shuffle; clones follow.
  EXPECT_TRUE(std::equal(none.begin(), none.end(), up.begin()));
  EXPECT_GT(up.size(), pods.size());
  const int64_t total = TotalMilli(pods, up);
  EXPECT_LE(total, 30000);
  EXPECT_GT(total, 30000 - 1000);
  // Seeds change the order.
  Rng rng3(43);
  EXPECT_NE(TunedArrivalOrder(pods, 0, 100000, rng3), none);
}

TEST(WorkloadTuningTest, TunesDownByRemovingPodsInOrder) {
  std::vector<OpenbPod> pods;
  for (int i = 0; i < 40; ++i) pods.push_back(Task("p" + std::to_string(i), 1, 1000));
  Rng rng(7);
  const std::vector<int> all = TunedArrivalOrder(pods, 0, 1000, rng);
  Rng rng2(7);
  const std::vector<int> down = TunedArrivalOrder(pods, 1.0, 25000, rng2);
  EXPECT_EQ(down.size(), 25u);
  // A subsequence of the shuffled order.
  EXPECT_TRUE(std::includes(all.begin(), all.end(), down.begin(), down.end(),
                            [&](int a, int b) {
                              return std::find(all.begin(), all.end(), a) <
                                     std::find(all.begin(), all.end(), b);
                            }));
}

TEST(FgdExperimentTest, DefaultTraceProtocolNumbers) {
  const Trace& t = DefaultTrace();
  const Catalog catalog = Catalog::Builtin();
  const FgdExperiment experiment(catalog, GpuModelMap::Default(), "nodes.csv",
                                 t.nodes, t.pods, kFgdDefaultInflate);
  EXPECT_EQ(experiment.cluster_gpu_milli(), 6212000);
  EXPECT_EQ(experiment.typical().pods.size(), 35u);
  // 13.94 % of the cluster's GPUs (recomputed from the openb CSVs; the
  // artifact's analysis_frag_discrete.csv shows 13.88–14.04 %).
  EXPECT_NEAR(experiment.EmptyClusterFragmentationPct(), 13.94, 0.005);

  const FgdRunResult fgd = experiment.Run(FgdPolicy::kFgd, 42);
  const FgdRunResult random = experiment.Run(FgdPolicy::kRandom, 42);
  // About 10.8 k arrivals; 1.3 x 6212 GPUs arrive in all.
  EXPECT_NEAR(static_cast<double>(fgd.arrivals), 10800, 200);
  EXPECT_EQ(fgd.arrivals, random.arrivals);
  ASSERT_NE(fgd.At(130), nullptr);
  EXPECT_EQ(fgd.buckets.front().arrived_pct, 0);
  EXPECT_EQ(fgd.buckets.back().arrived_pct, 130);
  EXPECT_EQ(fgd.buckets.size(), 131u);  // every percent has an event
  // Bucket 0 averages the empty cluster and the first placements (< 0.5 %).
  EXPECT_LT(fgd.buckets.front().alloc_pct, 0.5);
  EXPECT_NEAR(fgd.buckets.front().frag_amount_pct,
              experiment.EmptyClusterFragmentationPct(), 0.2);
  // The paper's ordering: FGD leaves fewer GPUs unallocated than Random.
  EXPECT_GT(fgd.At(100)->alloc_pct, random.At(100)->alloc_pct + 3);
  EXPECT_LT(fgd.At(100)->frag_amount_pct, random.At(100)->frag_amount_pct);
  EXPECT_GT(fgd.failed, 0);
}

// A slice of the trace that runs fast with the memo off.
FgdExperiment Slice(const Catalog& catalog, double inflate) {
  const Trace& t = DefaultTrace();
  std::vector<OpenbNode> nodes(t.nodes.begin(), t.nodes.begin() + 120);
  std::vector<OpenbPod> pods(t.pods.begin(), t.pods.begin() + 800);
  return FgdExperiment(catalog, GpuModelMap::Default(), "nodes.csv",
                       std::move(nodes), std::move(pods), inflate);
}

TEST(FgdExperimentTest, MemoisedScoresEqualFreshOnes) {
  const Catalog catalog = Catalog::Builtin();
  const FgdExperiment experiment = Slice(catalog, 1.3);
  for (const FgdPolicy policy : AllFgdPolicies()) {
    FgdRunOptions fresh;
    fresh.score_cache = false;
    FgdRunOptions verify;
    verify.verify_cache = true;  // GS_CHECKs every memo hit
    const std::string with_memo = FgdRunCsv(experiment.Run(policy, 5, verify));
    EXPECT_EQ(with_memo, FgdRunCsv(experiment.Run(policy, 5, fresh)))
        << FgdPolicyName(policy);
  }
}

TEST(FgdExperimentTest, ResultsDoNotDependOnThreads) {
  const Catalog catalog = Catalog::Builtin();
  const FgdExperiment experiment = Slice(catalog, 1.3);
  const std::vector<FgdPolicy> policies = AllFgdPolicies();
  const std::vector<uint64_t> seeds = {1, 2, 3};
  const auto one = experiment.RunAll(policies, seeds, 1);
  const auto three = experiment.RunAll(policies, seeds, 3);
  ASSERT_EQ(one.size(), 18u);
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].policy, policies[i / 3]);
    EXPECT_EQ(one[i].seed, seeds[i % 3]);
    EXPECT_EQ(FgdRunCsv(one[i]), FgdRunCsv(three[i]));
  }
  EXPECT_EQ(FgdSummaryCsv(policies, one), FgdSummaryCsv(policies, three));
  // Different seeds give different runs.
  EXPECT_NE(FgdRunCsv(one[0]), FgdRunCsv(one[1]));
}

TEST(FgdExperimentTest, UnmappedModelIsAnErrorAtTheNodeRow) {
  const Catalog catalog = Catalog::Builtin();
  GpuModelMap models = GpuModelMap::Default();
  models.Set("G2", "NoSuchGpu");
  std::vector<OpenbNode> nodes = {{"n0", 1000, 1000, 8, "G2", 7}};
  try {
    FgdExperiment(catalog, models, "nodes.csv", nodes, {}, 1.3);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(
                  "nodes.csv:7: column 'model': GPU model 'G2' maps to "
                  "'NoSuchGpu', which the catalog lacks",
                  0),
              0u)
        << e.what();
  }
}

}  // namespace
}  // namespace gpushare
