// A tensor-parallel LLM engine under compare's variants (docs/model.md
// §6.8): on whole GPUs it starts; in the MIG variant its pod would hold MIG
// instances, which have no peer-to-peer access: a one-process pod cannot
// use two (unschedulable), and one whose class says multi_process (vLLM
// runs a worker process per GPU) fails at start with the reason.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace llm_tensor_parallel_variant_test {
namespace {

constexpr const char* kTpScenario = R"(horizon_s: 300
cluster:
  pools:
    - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 2,
       sharing: {scheme: exclusive}}
workload:
  horizon_s: 1
  classes:
    - name: big
      class: inference
      count: 1
      lifetime_s: 600
      request_rate: 1
      gpus: 2
      gpu_memory_mib: 30000
      restart_policy: Never
      engine:
        params_billion: 35
        weights_dtype: fp8
        tensor_parallel: 2
        hidden_size: 8192
        kv_cache: {layers: 80, kv_heads: 8, head_dim: 128}
)";

TEST(LlmTensorParallelVariantTest, StartsOnWholeGpusNotOnMigInstances) {
  static const Catalog catalog = Catalog::Builtin();
  const Scenario scenario = ReadScenarioYaml(kTpScenario, "tp.yaml", catalog);
  const SimulationResult whole =
      testing_scenarios::RunAndCollect(scenario);
  ASSERT_EQ(whole.pod_records.size(), 1u);
  EXPECT_EQ(whole.pod_records[0].outcome, PodOutcome::kRunning);
  EXPECT_GT(whole.pod_records[0].kv_cache_tokens, 0);

  const SchemeVariant mig =
      MakeSchemeVariant(scenario, SharingScheme::kMig, CompareSpec{}, catalog);
  const SimulationResult one =
      testing_scenarios::RunAndCollect(mig.scenario);
  ASSERT_EQ(one.pod_records.size(), 1u);
  EXPECT_EQ(one.pod_records[0].outcome, PodOutcome::kUnschedulable);

  Scenario workers = mig.scenario;
  workers.workload.classes[0].multi_process = true;
  const SimulationResult r = testing_scenarios::RunAndCollect(workers);
  ASSERT_EQ(r.pod_records.size(), 1u);
  const PodRecord& p = r.pod_records[0];
  EXPECT_EQ(p.outcome, PodOutcome::kFailed);
  EXPECT_EQ(p.message,
            "engine failed at start: tensor_parallel 2 across MIG instances "
            "(here 3g.40gb of GPU 0): MIG instances have no peer-to-peer "
            "access and a CUDA process sees one MIG instance, so the engine "
            "cannot start its 2 workers");
  EXPECT_EQ(r.oom_kills, 0);  // a start error, not an OOM
}

}  // namespace
}  // namespace llm_tensor_parallel_variant_test
}  // namespace gpushare
