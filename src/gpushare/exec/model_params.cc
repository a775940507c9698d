#include "gpushare/exec/model_params.h"

#include <cmath>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

void CheckRange(const char* name, double value, double min, double max) {
  if (!std::isfinite(value) || value < min || value > max) {
    throw InputError(fmt::format("model parameter {} must be in [{}, {}], got {}",
                                 name, min, max, value));
  }
}

}  // namespace

ModelParams ModelParams::Seed() {
  ModelParams p;
  p.time_slice_ms = 500;
  p.context_switch_us = 50000;
  p.hami_interception_overhead = 0.06;
  return p;
}

void ModelParams::Validate() const {
  CheckRange("time_slice_ms", time_slice_ms, 0.01, 60000);
  CheckRange("context_switch_us", context_switch_us, 0, 1e7);
  CheckRange("dra_time_slice_short_ms", dra_time_slice_short_ms, 0.01, 60000);
  CheckRange("dra_time_slice_medium_ms", dra_time_slice_medium_ms, 0.01,
             60000);
  CheckRange("dra_time_slice_long_ms", dra_time_slice_long_ms, 0.01, 60000);
  CheckRange("mps_interference_per_corunner", mps_interference_per_corunner, 0,
             10);
  CheckRange("hami_interception_overhead", hami_interception_overhead, 0, 0.9);
  CheckRange("hami_core_cap_overshoot", hami_core_cap_overshoot, 0, 1);
  CheckRange("mig_reconfigure_s", mig_reconfigure_s, 0, 86400);
  CheckRange("node_boot_s", node_boot_s, 0, 86400);
  CheckRange("gpu_stack_ready_s", gpu_stack_ready_s, 0, 86400);
  CheckRange("hami_register_s", hami_register_s, 0, 86400);
  CheckRange("spot_interruption_notice_s", spot_interruption_notice_s, 0,
             86400);
  CheckRange("node_group_backoff_s", node_group_backoff_s, 0, 86400);
  CheckRange("mig_instance_create_s", mig_instance_create_s, 0, 3600);
  CheckRange("mig_instance_destroy_s", mig_instance_destroy_s, 0, 3600);
  CheckRange("mig_mode_enable_s", mig_mode_enable_s, 0, 3600);
  CheckRange("multi_gpu_comm_share", multi_gpu_comm_share, 0, 0.9);
  CheckRange("mig_comm_slowdown", mig_comm_slowdown, 1, 1000);
  CheckRange("restart_backoff_initial_s", restart_backoff_initial_s, 0, 86400);
  CheckRange("restart_backoff_max_s", restart_backoff_max_s,
             restart_backoff_initial_s, 86400);
  CheckRange("llm_prefill_flops_efficiency", llm_prefill_flops_efficiency,
             0.01, 1);
  CheckRange("llm_fp8_flops_efficiency", llm_fp8_flops_efficiency, 0.01, 1);
  CheckRange("llm_decode_bandwidth_efficiency",
             llm_decode_bandwidth_efficiency, 0.01, 1);
  CheckRange("llm_kernel_overlap", llm_kernel_overlap, 0, 1);
  CheckRange("llm_allreduce_latency_us", llm_allreduce_latency_us, 0, 1e6);
  CheckRange("llm_allreduce_bandwidth_efficiency",
             llm_allreduce_bandwidth_efficiency, 0.01, 1);
  CheckRange("llm_step_overhead_chunked_prefill_ms",
             llm_step_overhead_chunked_prefill_ms, 0, 1000);
  CheckRange("llm_step_overhead_multi_step_ms",
             llm_step_overhead_multi_step_ms, 0, 1000);
  CheckRange("llm_step_overhead_eager_ms", llm_step_overhead_eager_ms, 0,
             1000);
  CheckRange("llm_step_overhead_per_seq_ms", llm_step_overhead_per_seq_ms, 0,
             100);
  CheckRange("llm_request_overhead_ms", llm_request_overhead_ms, 0, 60000);
  if (max_restarts < 0 || max_restarts > 1000) {
    throw InputError(fmt::format(
        "model parameter max_restarts must be in [0, 1000], got {}",
        max_restarts));
  }
  if (eviction_warning_per_pod < 0 || eviction_warning_per_pod > 1000000) {
    throw InputError(fmt::format(
        "model parameter eviction_warning_per_pod must be in [0, 1000000], "
        "got {}",
        eviction_warning_per_pod));
  }
  if (quantile_exact_limit < 0 || quantile_exact_limit > 1'000'000'000) {
    throw InputError(fmt::format(
        "model parameter quantile_exact_limit must be in [0, 1000000000], "
        "got {}",
        quantile_exact_limit));
  }
  CheckRange("quantile_relative_accuracy", quantile_relative_accuracy, 1e-6,
             0.1);
}

}  // namespace gpushare
