#include "gpushare/scenario/model_reader.h"

#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"

namespace gpushare {
namespace {

struct ModelDoubleField {
  const char* name;
  double ModelParams::*field;
};

constexpr ModelDoubleField kModelDoubles[] = {
    {"time_slice_ms", &ModelParams::time_slice_ms},
    {"context_switch_us", &ModelParams::context_switch_us},
    {"dra_time_slice_short_ms", &ModelParams::dra_time_slice_short_ms},
    {"dra_time_slice_medium_ms", &ModelParams::dra_time_slice_medium_ms},
    {"dra_time_slice_long_ms", &ModelParams::dra_time_slice_long_ms},
    {"mps_interference_per_corunner",
     &ModelParams::mps_interference_per_corunner},
    {"hami_interception_overhead", &ModelParams::hami_interception_overhead},
    {"hami_core_cap_overshoot", &ModelParams::hami_core_cap_overshoot},
    {"mig_reconfigure_s", &ModelParams::mig_reconfigure_s},
    {"mig_instance_create_s", &ModelParams::mig_instance_create_s},
    {"mig_instance_destroy_s", &ModelParams::mig_instance_destroy_s},
    {"mig_mode_enable_s", &ModelParams::mig_mode_enable_s},
    {"multi_gpu_comm_share", &ModelParams::multi_gpu_comm_share},
    {"mig_comm_slowdown", &ModelParams::mig_comm_slowdown},
    {"restart_backoff_initial_s", &ModelParams::restart_backoff_initial_s},
    {"restart_backoff_max_s", &ModelParams::restart_backoff_max_s},
    {"llm_prefill_flops_efficiency",
     &ModelParams::llm_prefill_flops_efficiency},
    {"llm_fp8_flops_efficiency", &ModelParams::llm_fp8_flops_efficiency},
    {"llm_decode_bandwidth_efficiency",
     &ModelParams::llm_decode_bandwidth_efficiency},
    {"llm_kernel_overlap", &ModelParams::llm_kernel_overlap},
    {"llm_allreduce_latency_us", &ModelParams::llm_allreduce_latency_us},
    {"llm_allreduce_bandwidth_efficiency",
     &ModelParams::llm_allreduce_bandwidth_efficiency},
    {"quantile_relative_accuracy", &ModelParams::quantile_relative_accuracy},
    {"llm_step_overhead_chunked_prefill_ms",
     &ModelParams::llm_step_overhead_chunked_prefill_ms},
    {"llm_step_overhead_multi_step_ms",
     &ModelParams::llm_step_overhead_multi_step_ms},
    {"llm_step_overhead_eager_ms", &ModelParams::llm_step_overhead_eager_ms},
    {"llm_step_overhead_per_seq_ms",
     &ModelParams::llm_step_overhead_per_seq_ms},
    {"llm_request_overhead_ms", &ModelParams::llm_request_overhead_ms},
    {"node_boot_s", &ModelParams::node_boot_s},
    {"gpu_stack_ready_s", &ModelParams::gpu_stack_ready_s},
    {"hami_register_s", &ModelParams::hami_register_s},
    {"spot_interruption_notice_s", &ModelParams::spot_interruption_notice_s},
    {"node_group_backoff_s", &ModelParams::node_group_backoff_s},
};

// Rethrows a validation error at the value of the parameter it names (or
// at the mapping).
[[noreturn]] void FailAtModelKey(const YamlMap& m, const InputError& e) {
  const std::string& message = e.message();
  for (const auto& entry : m.node()) {
    if (!entry.first.IsScalar()) continue;
    const std::string mention = "parameter " + entry.first.Scalar() + " ";
    if (message.find(mention) != std::string::npos) {
      FailAt(m.file(), entry.second.IsNull() ? entry.first : entry.second,
             message);
    }
  }
  FailAt(m.file(), m.node(), message);
}

}  // namespace

ModelParams ReadModelSection(const YamlMap& m, const ModelParams& base,
                             bool allow_profile) {
  // In docs/model.md §6.4's order.
  std::vector<std::string_view> keys = {
      "time_slice_ms",           "context_switch_us",
      "dra_time_slice_short_ms", "dra_time_slice_medium_ms",
      "dra_time_slice_long_ms",
      "mps_interference_per_corunner", "hami_interception_overhead",
      "hami_core_cap_overshoot", "hami_cap_when_alone",
      "mig_reconfigure_s",       "mig_instance_create_s",
      "mig_instance_destroy_s",  "mig_mode_enable_s",
      "multi_gpu_comm_share",
      "mig_comm_slowdown",       "restart_backoff_initial_s",
      "restart_backoff_max_s",   "max_restarts",
      "eviction_warning_per_pod", "llm_prefill_flops_efficiency",
      "llm_fp8_flops_efficiency", "llm_decode_bandwidth_efficiency",
      "llm_kernel_overlap",
      "llm_allreduce_latency_us", "llm_allreduce_bandwidth_efficiency",
      "llm_step_overhead_chunked_prefill_ms",
      "llm_step_overhead_multi_step_ms", "llm_step_overhead_eager_ms",
      "llm_step_overhead_per_seq_ms", "llm_request_overhead_ms",
      "quantile_exact_limit", "quantile_relative_accuracy",
      "node_boot_s", "gpu_stack_ready_s", "hami_register_s",
      "spot_interruption_notice_s", "node_group_backoff_s"};
  if (allow_profile) keys.insert(keys.begin(), "profile");
  m.AllowOnlyKeys(keys);
  ModelParams params = base;
  if (allow_profile && m.Has("profile")) {
    const std::string profile = m.String("profile");
    if (profile == "seed") {
      params = ModelParams::Seed();
    } else if (profile != "default") {
      m.Fail(m.Get("profile"),
             fmt::format("unknown model profile '{}'{} (allowed: default, "
                         "seed)",
                         profile, DidYouMean(profile, {"default", "seed"}, 1)));
    } else {
      params = ModelParams();
    }
  }
  constexpr double kLowest = std::numeric_limits<double>::lowest();
  constexpr double kHighest = std::numeric_limits<double>::max();
  for (const ModelDoubleField& f : kModelDoubles) {
    if (m.Has(f.name)) params.*f.field = m.Double(f.name, kLowest, kHighest);
  }
  if (m.Has("hami_cap_when_alone")) {
    params.hami_cap_when_alone = m.Bool("hami_cap_when_alone");
  }
  if (m.Has("max_restarts")) {
    params.max_restarts =
        static_cast<int>(m.Int("max_restarts", std::numeric_limits<int>::min(),
                               std::numeric_limits<int>::max()));
  }
  if (m.Has("eviction_warning_per_pod")) {
    params.eviction_warning_per_pod = static_cast<int>(
        m.Int("eviction_warning_per_pod", std::numeric_limits<int>::min(),
              std::numeric_limits<int>::max()));
  }
  if (m.Has("quantile_exact_limit")) {
    params.quantile_exact_limit =
        m.Int("quantile_exact_limit", std::numeric_limits<int64_t>::min(),
              std::numeric_limits<int64_t>::max());
  }
  try {
    params.Validate();
  } catch (const InputError& e) {
    FailAtModelKey(m, e);
  }
  return params;
}

}  // namespace gpushare
