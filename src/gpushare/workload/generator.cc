#include "gpushare/workload/generator.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "gpushare/base/rng.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/generator_limits.h"
#include "gpushare/workload/workload_stream.h"

namespace gpushare {
namespace {

using namespace generator_limits;  // NOLINT(build/namespaces)

// The values a user wrote explicitly into a distribution (constant value,
// uniform bounds, lognormal clamp bounds, choice values): these can be
// range-checked before sampling. Exponential and unclamped lognormal samples
// are always positive.
std::vector<double> ExplicitValues(const Distribution& d) {
  switch (d.kind) {
    case Distribution::Kind::kConstant:
      return {d.value};
    case Distribution::Kind::kUniform:
      return {d.min, d.max};
    case Distribution::Kind::kExponential:
      return {};
    case Distribution::Kind::kLogNormal:
      if (d.max > d.min) return {d.min, d.max};
      return {};
    case Distribution::Kind::kChoice: {
      std::vector<double> values;
      for (const auto& [v, w] : d.choices) values.push_back(v);
      return values;
    }
  }
  return {};
}

// Whether every sample of a (valid) distribution is exactly 0.
bool AlwaysZero(const Distribution& d) {
  switch (d.kind) {
    case Distribution::Kind::kConstant:
      return d.value == 0;
    case Distribution::Kind::kUniform:
      return d.min == 0 && d.max == 0;
    case Distribution::Kind::kExponential:
    case Distribution::Kind::kLogNormal:
      return false;
    case Distribution::Kind::kChoice:
      for (const auto& [v, w] : d.choices) {
        if (w > 0 && v != 0) return false;
      }
      return true;
  }
  return false;
}

std::string ClassWhat(const WorkloadClassSpec& c) {
  return "class '" + c.name + "'";
}

// Validates `d` as the class's field `field`; its explicit values (constants,
// bounds, means, choices) must lie in [0, max].
void CheckNeed(const WorkloadClassSpec& c, const char* field,
               const Distribution& d, double max) {
  const std::string what = ClassWhat(c) + " " + field;
  d.Validate(what);
  for (double v : ExplicitValues(d)) {
    if (v < 0) {
      throw InputError(fmt::format("{}: value {} is negative", what, v));
    }
    if (max == 1 && v > 1) {
      throw InputError(fmt::format("{}: value {} is outside [0, 1]", what, v));
    }
    if (v > max) {
      throw InputError(
          fmt::format("{}: value {} is above the largest accepted, {}", what,
                      v, max));
    }
  }
  // An exponential mean or a lognormal median above the bound (1e300 MiB):
  // nearly every pod would ask for more than anything holds. Unit-interval
  // fields are clamped to [0, 1] by design, so their centres are not checked.
  const double centre = d.kind == Distribution::Kind::kExponential ? d.mean
                        : d.kind == Distribution::Kind::kLogNormal ? d.median
                                                                   : 0;
  if (max > 1 && centre > max) {
    throw InputError(fmt::format("{}: {} {} is above the largest accepted, {}",
                                 what,
                                 d.kind == Distribution::Kind::kExponential
                                     ? "mean"
                                     : "median",
                                 centre, max));
  }
}

void CheckGpus(const WorkloadClassSpec& c) {
  CheckNeed(c, "gpus", c.gpus, kMaxPodGpus);
  for (double v : ExplicitValues(c.gpus)) {
    if (v >= 1 && v != std::floor(v)) {
      throw InputError(fmt::format(
          "{} gpus: value {} is neither a fraction < 1 nor a whole number",
          ClassWhat(c), v));
    }
  }
}

void ValidateClass(const WorkloadClassSpec& c) {
  const std::string what = ClassWhat(c);
  if (!std::isfinite(c.arrival_rate_per_s) || c.arrival_rate_per_s < 0) {
    throw InputError(
        fmt::format("{}: arrival_rate_per_s must be finite and >= 0, got {}",
                    what, c.arrival_rate_per_s));
  }
  if (c.count < 0) {
    throw InputError(
        fmt::format("{}: count must be >= 0, got {}", what, c.count));
  }
  if (!std::isfinite(c.arrival_start_s) || c.arrival_start_s < 0) {
    throw InputError(
        fmt::format("{}: arrival_start_s must be finite and >= 0, got {}",
                    what, c.arrival_start_s));
  }
  if (c.gang_size < 0 || c.gang_min_member < 0 ||
      c.gang_min_member > c.gang_size ||
      !(c.gang_timeout_s > 0 && std::isfinite(c.gang_timeout_s))) {
    throw InputError(fmt::format(
        "{}: gang: size must be >= 1, min_member 1..size and timeout_s > 0 "
        "(got size {}, min_member {}, timeout_s {})",
        what, c.gang_size, c.gang_min_member, c.gang_timeout_s));
  }
  if (c.arrival_rate_per_s == 0 && c.count == 0) {
    throw InputError(what +
                     ": arrival_rate_per_s must be > 0 (or set count > 0)");
  }
  if (!(c.request_percentile >= 1 && c.request_percentile <= 100)) {
    throw InputError(fmt::format("{}: request_percentile must be in 1..100, "
                                 "got {}",
                                 what, c.request_percentile));
  }
  if (c.tenants.empty()) throw InputError(what + ": tenants is empty");
  for (const std::string& tenant : c.tenants) {
    if (tenant.empty()) throw InputError(what + ": empty tenant name");
  }
  CheckGpus(c);
  CheckNeed(c, "gpu_memory_mib", c.gpu_memory_mib, kMaxMib);
  CheckNeed(c, "sm_demand", c.sm_demand, 1);
  CheckNeed(c, "duty", c.duty, 1);
  CheckNeed(c, "work_s", c.work_s, kMaxClassSeconds);
  CheckNeed(c, "lifetime_s", c.lifetime_s, kMaxClassSeconds);
  CheckNeed(c, "request_rate", c.request_rate, kMaxRequestRate);
  CheckNeed(c, "gpu_ms_per_request", c.gpu_ms_per_request, kMaxMs);
  CheckNeed(c, "slo_p99_ms", c.slo_p99_ms, kMaxMs);
  CheckNeed(c, "cpu_milli", c.cpu_milli, kMaxMilli);
  CheckNeed(c, "memory_mib", c.memory_mib, kMaxMib);
  if (AlwaysZero(c.work_s) && AlwaysZero(c.lifetime_s)) {
    throw InputError(what +
                     ": a service class (work_s 0) needs lifetime_s > 0");
  }
}

}  // namespace

std::string_view InferenceEngineName(InferenceEngine e) {
  switch (e) {
    case InferenceEngine::kNone:
      return "none";
    case InferenceEngine::kVllm:
      return "vllm";
    case InferenceEngine::kTgi:
      return "tgi";
  }
  return "none";
}

TemplateRequest ClassTemplateRequest(const WorkloadClassSpec& c) {
  const double p = std::clamp(c.request_percentile, 1.0, 100.0) / 100;
  TemplateRequest r;
  r.gpu_memory_mib =
      RoundCount(std::min(c.gpu_memory_mib.Quantile(p), kMaxMib));
  r.sm_demand = Clamp01(c.sm_demand.Quantile(p));
  return r;
}

void WorkloadSpec::Validate() const {
  bool all_counted = true;
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < classes.size(); ++i) {
    const WorkloadClassSpec& c = classes[i];
    if (c.name.empty()) {
      throw InputError(
          fmt::format("workload class #{} has an empty name", i + 1));
    }
    if (!names.insert(c.name).second) {
      throw InputError("duplicate workload class name '" + c.name + "'");
    }
    ValidateClass(c);
    // A count without a rate spreads over the horizon.
    if (c.count == 0 || c.arrival_rate_per_s == 0) all_counted = false;
  }
  if (!all_counted && (!std::isfinite(horizon_s) || horizon_s <= 0)) {
    throw InputError(
        fmt::format("horizon_s must be finite and > 0, got {}", horizon_s));
  }
  double expected = 0;
  for (const WorkloadClassSpec& c : classes) {
    expected += (c.count > 0 ? static_cast<double>(c.count)
                             : c.arrival_rate_per_s *
                                   (horizon_s - c.arrival_start_s)) *
                std::max(1, c.gang_size);
  }
  if (expected > kMaxExpectedPods) {
    throw InputError(fmt::format(
        "workload expects {:.0f} pods (arrival_rate_per_s x horizon_s + count "
        "over all classes); the limit is {:.0f}",
        expected, kMaxExpectedPods));
  }
}

std::vector<Pod> GenerateWorkload(const WorkloadSpec& spec, uint64_t seed) {
  spec.Validate();
  WorkloadStream stream(spec, seed, /*with_trace=*/false);
  std::vector<Pod> pods(static_cast<size_t>(stream.total()));
  for (Pod& pod : pods) stream.Next(&pod);
  return pods;
}

std::vector<Pod> BuildWorkload(const WorkloadSpec& spec, uint64_t seed) {
  WorkloadStream stream(spec, seed);
  std::vector<Pod> pods(static_cast<size_t>(stream.total()));
  for (Pod& pod : pods) stream.Next(&pod);
  return pods;
}

}  // namespace gpushare
