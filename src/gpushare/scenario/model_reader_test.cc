// The scenario's `model:` section: an unknown key is a located error that
// lists every parameter (docs/model.md §6's table, exec/model_params.h).

#include "gpushare/scenario/model_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace model_reader_test {
namespace {

std::string ModelError(const std::string& model) {
  static const Catalog catalog = Catalog::Builtin();
  try {
    ReadScenarioYaml(
        "cluster:\n"
        "  pools:\n"
        "    - {name: p, gpu: A100-40GB, nodes: 1, gpus_per_node: 1}\n"
        "workload:\n"
        "  classes:\n"
        "    - {name: b, class: batch, count: 1, work_s: 10}\n" +
            model,
        "s.yaml", catalog);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelReaderTest, UnknownKeyListsEveryParameter) {
  EXPECT_EQ(ModelError("model: {time_slice: 1}\n"),
            "s.yaml:7:9: model: unknown key 'time_slice'; did you mean "
            "time_slice_ms? (allowed: profile, time_slice_ms, "
            "context_switch_us, dra_time_slice_short_ms, "
            "dra_time_slice_medium_ms, dra_time_slice_long_ms, "
            "mps_interference_per_corunner, hami_interception_overhead, "
            "hami_core_cap_overshoot, hami_cap_when_alone, "
            "mig_reconfigure_s, mig_instance_create_s, "
            "mig_instance_destroy_s, mig_mode_enable_s, "
            "multi_gpu_comm_share, mig_comm_slowdown, "
            "restart_backoff_initial_s, restart_backoff_max_s, "
            "max_restarts, eviction_warning_per_pod, "
            "llm_prefill_flops_efficiency, llm_decode_bandwidth_efficiency, "
            "llm_step_overhead_chunked_prefill_ms, "
            "llm_step_overhead_multi_step_ms, llm_step_overhead_eager_ms, "
            "llm_step_overhead_per_seq_ms, llm_request_overhead_ms)");
}

TEST(ModelReaderTest, LlmOverheadsAreReadAndChecked) {
  EXPECT_EQ(ModelError("model: {llm_step_overhead_eager_ms: 2, "
                       "llm_request_overhead_ms: 3}\n"),
            "");
  EXPECT_EQ(ModelError("model: {llm_step_overhead_per_seq_ms: -1}\n"),
            "s.yaml:7:39: model parameter llm_step_overhead_per_seq_ms must "
            "be in [0, 100], got -1");
}

}  // namespace
}  // namespace model_reader_test
}  // namespace gpushare
