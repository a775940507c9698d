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

namespace gpushare {
namespace {

constexpr double kMaxExpectedPods = 10'000'000;
// Rounded integer fields are capped here so llround never overflows.
constexpr double kMaxRoundedValue = 4.0e18;

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

// The largest values a class may ask for (docs/scenario.md): a pod's GPUs are
// on one node (at most 16); the rest are far above any real pod and keep
// 1e308 and the like from passing as a request nothing can serve.
constexpr double kMaxPodGpus = 16;
constexpr double kMaxMib = 1e8;           // ~95 TiB
constexpr double kMaxMilli = 1e9;         // a million cores
constexpr double kMaxClassSeconds = 1e9;  // ~31 years, as horizon_s
constexpr double kMaxRequestRate = 1e6;   // requests per second
constexpr double kMaxMs = 1e9;

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

int64_t RoundCount(double v) {
  return std::llround(std::clamp(v, 0.0, kMaxRoundedValue));
}

double RoundGpus(double v) {
  if (!(v > 0)) return 0;
  if (v < 1) return v;
  return std::round(v);
}

double Clamp01(double v) { return std::clamp(v, 0.0, 1.0); }

// A draw of `d`, clamped to its field's upper bound `max`.
double DrawAtMost(const Distribution& d, Rng& rng, double max) {
  return std::min(d.Sample(rng), max);
}

// Draws one pod's needs and tenant, in the documented fixed order.
void DrawPod(const WorkloadClassSpec& c, Rng& rng, Pod& pod) {
  PodNeeds& n = pod.needs;
  n.gpus = RoundGpus(DrawAtMost(c.gpus, rng, kMaxPodGpus));
  n.gpu_memory_mib = RoundCount(DrawAtMost(c.gpu_memory_mib, rng, kMaxMib));
  n.sm_demand = Clamp01(c.sm_demand.Sample(rng));
  n.duty = Clamp01(c.duty.Sample(rng));
  n.work_s = DrawAtMost(c.work_s, rng, kMaxClassSeconds);
  n.lifetime_s = DrawAtMost(c.lifetime_s, rng, kMaxClassSeconds);
  n.request_rate = DrawAtMost(c.request_rate, rng, kMaxRequestRate);
  n.gpu_ms_per_request = DrawAtMost(c.gpu_ms_per_request, rng, kMaxMs);
  n.slo_p99_ms = DrawAtMost(c.slo_p99_ms, rng, kMaxMs);
  n.slo_ttft_p99_ms = c.slo_ttft_p99_ms;
  n.slo_tpot_p99_ms = c.slo_tpot_p99_ms;
  pod.cpu_milli = RoundCount(DrawAtMost(c.cpu_milli, rng, kMaxMilli));
  pod.memory_mib = RoundCount(DrawAtMost(c.memory_mib, rng, kMaxMib));
  pod.tenant = c.tenants[rng.Below(c.tenants.size())];
  pod.namespace_name = pod.tenant;
}

// The window a class's arrivals fall in: [0, horizon_s), or with a count
// and a rate the shorter [0, count / rate) (WorkloadClassSpec::count).
double ArrivalWindow(const WorkloadClassSpec& c, double horizon_s) {
  if (c.count == 0) return horizon_s;
  double window = horizon_s;
  if (c.arrival_rate_per_s > 0) {
    window = static_cast<double>(c.count) / c.arrival_rate_per_s;
    if (horizon_s > 0) window = std::min(window, horizon_s);
  }
  return window;
}

std::vector<Pod> GenerateClass(const WorkloadClassSpec& c,
                               double full_horizon_s, Rng rng) {
  // A class that starts late draws over what is left of the horizon and
  // shifts its arrivals (below).
  const double horizon_s =
      c.arrival_start_s > 0 ? full_horizon_s - c.arrival_start_s
                            : full_horizon_s;
  const TemplateRequest template_request = ClassTemplateRequest(c);
  std::vector<Pod> pods;
  const double expected = c.count > 0 ? static_cast<double>(c.count)
                                      : c.arrival_rate_per_s * horizon_s;
  // Room for the expected count plus a few standard deviations.
  pods.reserve(static_cast<size_t>(expected + 4 * std::sqrt(expected) + 16));
  // With a count, `t` sums unit-mean exponential gaps; the times are scaled
  // afterwards (below). Without, it is the Poisson process itself.
  const double gap_rate = c.count > 0 ? 1.0 : c.arrival_rate_per_s;
  double t = 0;
  for (int64_t n = 0;; ++n) {
    if (c.count > 0 && n >= c.count) break;
    t += -std::log(1.0 - rng.Uniform01()) / gap_rate;
    if (c.count == 0 && !(t < horizon_s)) break;
    Pod pod;
    pod.name = c.name + "-" + std::to_string(n);
    if (c.gang_size > 0) {
      pod.pod_group = pod.name;
      pod.gang_min_member = c.gang_min_member > 0 ? c.gang_min_member
                                                  : c.gang_size;
      pod.gang_timeout_s = c.gang_timeout_s;
    }
    pod.workload_class = c.workload_class;
    pod.tenant_class = c.name;
    pod.priority = c.priority;
    pod.priority_class_name = c.priority_class_name;
    pod.preemption_policy = c.preemption_policy;
    pod.termination_grace_period_s = c.termination_grace_period_s;
    pod.checkpoint_interval_s = c.checkpoint_interval_s;
    pod.queue_name = c.queue_name;
    pod.arrival_s = t;
    DrawPod(c, rng, pod);
    pod.node_selector = c.node_selector;
    pod.tolerations = c.tolerations;
    pod.explicit_requests = c.requests;
    if (!c.request_per_pod) pod.template_request = template_request;
    pod.llm_engine = c.llm_engine;
    pod.restart_policy = c.restart_policy;
    pod.multi_process = c.multi_process;
    if (c.pods_per_claim > 1) {
      pod.dra_claim =
          c.name + "-claim-" + std::to_string(n / c.pods_per_claim);
    }
    if (c.gang_size > 0) {
      // The members of one PodGroup: the same needs, arriving together.
      for (int k = 0; k < c.gang_size; ++k) {
        Pod member = pod;
        member.name = pod.pod_group + "-" + std::to_string(k);
        pods.push_back(std::move(member));
      }
      continue;
    }
    pods.push_back(std::move(pod));
  }
  if (c.count > 0) {
    // A Poisson process conditioned on exactly `count` arrivals in the
    // window: the first `count` of count + 1 exponential gaps, scaled so
    // that the (count + 1)-th arrival lands at the window's end, are
    // distributed as `count` sorted uniform points in it.
    const double end = t - std::log(1.0 - rng.Uniform01());
    const double window = ArrivalWindow(c, horizon_s);
    const double last = std::nextafter(window, 0.0);
    for (Pod& pod : pods) {
      pod.arrival_s =
          end > 0 ? std::min(window * (pod.arrival_s / end), last) : 0;
    }
  }
  if (c.arrival_start_s > 0) {
    for (Pod& pod : pods) pod.arrival_s += c.arrival_start_s;
  }
  return pods;
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
  const Rng root(seed);
  std::vector<std::vector<Pod>> by_class;
  by_class.reserve(spec.classes.size());
  size_t total = 0;
  for (size_t k = 0; k < spec.classes.size(); ++k) {
    by_class.push_back(
        GenerateClass(spec.classes[k], spec.horizon_s, root.Fork(k)));
    total += by_class.back().size();
  }
  // Sort keys rather than pods (pods are large): (arrival_s, class index, n)
  // is unique per pod, so the order is total and deterministic.
  struct Key {
    double arrival_s;
    size_t class_index;
    size_t n;
  };
  std::vector<Key> keys;
  keys.reserve(total);
  for (size_t k = 0; k < by_class.size(); ++k) {
    for (size_t n = 0; n < by_class[k].size(); ++n) {
      keys.push_back({by_class[k][n].arrival_s, k, n});
    }
  }
  std::stable_sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
    if (a.arrival_s != b.arrival_s) return a.arrival_s < b.arrival_s;
    if (a.class_index != b.class_index) return a.class_index < b.class_index;
    return a.n < b.n;
  });
  std::vector<Pod> pods;
  pods.reserve(total);
  for (const Key& key : keys) {
    pods.push_back(std::move(by_class[key.class_index][key.n]));
  }
  return pods;
}

std::vector<Pod> BuildWorkload(const WorkloadSpec& spec, uint64_t seed) {
  std::vector<Pod> generated;
  if (!spec.classes.empty()) generated = GenerateWorkload(spec, seed);
  if (spec.trace.pods == nullptr || spec.trace.pods->empty()) return generated;
  const std::vector<Pod>& trace = *spec.trace.pods;
  std::vector<Pod> pods;
  pods.reserve(generated.size() + trace.size());
  size_t g = 0;
  for (const Pod& t : trace) {
    while (g < generated.size() && generated[g].arrival_s < t.arrival_s) {
      pods.push_back(std::move(generated[g++]));
    }
    pods.push_back(t);
    if (!spec.trace.keep_explicit_requests) {
      pods.back().explicit_requests.clear();
    }
  }
  while (g < generated.size()) pods.push_back(std::move(generated[g++]));
  return pods;
}

}  // namespace gpushare
