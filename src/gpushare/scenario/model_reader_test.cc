// The `model:` section of a scenario: every parameter of ModelParams by
// name (docs/model.md §6.4), unknown keys located with the allowed list.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace model_reader_test {
namespace {

std::string ModelScenario(const std::string& model) {
  return "cluster:\n  pools:\n    - {name: dev, gpu: L4, nodes: 1, "
         "gpus_per_node: 1}\nworkload:\n  classes:\n    - {name: jobs, "
         "class: batch, arrival_rate_per_s: 0.1}\n" +
         model;
}

gpushare::Scenario ReadModelScenario(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(text, "s.yaml", catalog);
}

std::string ModelError(const std::string& text) {
  try {
    ReadModelScenario(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelReaderTest, UnknownKeyListsEveryParameter) {
  EXPECT_EQ(
      ModelError(ModelScenario("model: {time_slice: 1}\n")),
      "s.yaml:7:9: model: unknown key 'time_slice'; did you mean "
      "time_slice_ms? (allowed: profile, time_slice_ms, context_switch_us, "
      "dra_time_slice_short_ms, dra_time_slice_medium_ms, "
      "dra_time_slice_long_ms, mps_interference_per_corunner, "
      "hami_interception_overhead, hami_core_cap_overshoot, "
      "hami_cap_when_alone, mig_reconfigure_s, mig_instance_create_s, "
      "mig_instance_destroy_s, mig_mode_enable_s, multi_gpu_comm_share, "
      "mig_comm_slowdown, restart_backoff_initial_s, restart_backoff_max_s, "
      "max_restarts, eviction_warning_per_pod, llm_prefill_flops_efficiency, "
      "llm_fp8_flops_efficiency, llm_decode_bandwidth_efficiency, "
      "llm_kernel_overlap, llm_allreduce_latency_us, llm_allreduce_bandwidth_efficiency, "
      "llm_step_overhead_chunked_prefill_ms, "
      "llm_step_overhead_multi_step_ms, llm_step_overhead_eager_ms, "
      "llm_step_overhead_per_seq_ms, llm_request_overhead_ms, "
      "quantile_exact_limit, quantile_relative_accuracy, node_boot_s, "
      "gpu_stack_ready_s, hami_register_s, spot_interruption_notice_s, "
      "node_group_backoff_s)");
}

TEST(ModelReaderTest, LlmStepParametersAreReadAndChecked) {
  const gpushare::Scenario s = ReadModelScenario(ModelScenario(
      "model: {llm_fp8_flops_efficiency: 0.6, llm_allreduce_latency_us: 10, "
      "llm_allreduce_bandwidth_efficiency: 0.8, llm_kernel_overlap: 0.25}\n"));
  EXPECT_EQ(s.model.llm_kernel_overlap, 0.25);
  EXPECT_EQ(s.model.llm_fp8_flops_efficiency, 0.6);
  EXPECT_EQ(s.model.llm_allreduce_latency_us, 10);
  EXPECT_EQ(s.model.llm_allreduce_bandwidth_efficiency, 0.8);
  EXPECT_EQ(s.model.llm_prefill_flops_efficiency, 0.73);  // default
  EXPECT_EQ(ModelError(ModelScenario(
                "model: {llm_allreduce_bandwidth_efficiency: 2}\n")),
            "s.yaml:7:45: model parameter llm_allreduce_bandwidth_efficiency "
            "must be in [0.01, 1], got 2");
}

TEST(ModelReaderTest, LlmOverheadsAreReadAndChecked) {
  const gpushare::Scenario s = ReadModelScenario(ModelScenario(
      "model: {llm_step_overhead_eager_ms: 2, llm_request_overhead_ms: 3}\n"));
  EXPECT_EQ(s.model.llm_step_overhead_eager_ms, 2);
  EXPECT_EQ(s.model.llm_request_overhead_ms, 3);
  EXPECT_EQ(ModelError(ModelScenario(
                "model: {llm_step_overhead_per_seq_ms: -1}\n")),
            "s.yaml:7:39: model parameter llm_step_overhead_per_seq_ms must "
            "be in [0, 100], got -1");
}

}  // namespace
}  // namespace model_reader_test
}  // namespace gpushare
