// One workload class of `workload.classes`: its arrivals, work, requests,
// placement, tenancy (priority, queue, gang) and SLO.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/kai_queue_reader.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

namespace {

// `v` > 0 rounded up to 6 significant digits (as {:.6g} prints it), so that
// a suggested minimum is enough as printed.
double CeilSignificant(double v) {
  const double unit = std::pow(10.0, std::floor(std::log10(v)) - 5);
  return std::ceil(v / unit - 1e-9) * unit;
}

// `gpu_ms_per_request`: GPU time on the reference GPU (relative speed 1),
// as a distribution, or `{value: <distribution>, on: <model>}` measured on
// another model, converted by that model's relative speed (a GPU s times
// as fast takes 1/s of the reference time, so reference = value x s).
void ReadGpuTime(const YamlMap& c, const Catalog& catalog,
                 WorkloadClassSpec* spec) {
  if (!c.Has("gpu_ms_per_request")) return;
  const YAML::Node node = c.Get("gpu_ms_per_request");
  bool measured_on = false;
  if (node.IsMap()) {
    for (const auto& entry : node) {
      const std::string key = entry.first.Scalar();
      measured_on = measured_on || key == "value" || key == "on";
    }
  }
  if (!measured_on) {
    ReadDistribution(c, "gpu_ms_per_request", &spec->gpu_ms_per_request);
    return;
  }
  const std::string label = Label(c, "gpu_ms_per_request");
  const YamlMap m = c.Map("gpu_ms_per_request", label);
  m.AllowOnly({"value", "on"});
  if (!m.Has("value") || !m.Has("on")) {
    FailAt(c.file(), node,
           label + ": give both value (the GPU time per request) and on (the "
                   "GPU model it was measured on), e.g. {value: 10, on: "
                   "H100-80GB}");
  }
  Distribution value;
  ReadDistribution(m, "value", &value);
  const std::string on = m.String("on");
  const GpuModel* model = nullptr;
  try {
    model = &catalog.Get(on);
  } catch (const InputError& e) {
    FailAt(c.file(), m.Get("on"), Label(m, "on") + ": " + e.message());
  }
  spec->gpu_ms_per_request = value.Scaled(model->relative_speed);
  spec->gpu_ms_per_request_on = model->name;
  spec->gpu_ms_per_request_speed = model->relative_speed;
}

}  // namespace

const std::vector<std::string>& ClassNames() {
  static const std::vector<std::string> names = {"training", "inference",
                                                 "batch", "dev"};
  return names;
}

WorkloadClassSpec ReadClass(const std::string& file, const YAML::Node& node,
                            double horizon_s, const Catalog& catalog,
                            const std::vector<NodePoolSpec>& pools,
                            const std::vector<PriorityClass>& priority_classes,
                            const KueueConfig& queues,
                            const KaiConfig& kai_queues,
                            std::vector<std::string>* names) {
  YamlMap c(file, node, NamedWhat(file, node, "class"));
  c.AllowOnly({"name",
               "class",
               "tenants",
               "priority",
               "arrival_rate_per_s",
               "count",
               "arrival_start_s",
               "gpus",
               "gpu_memory_mib",
               "sm_demand",
               "duty",
               "work_s",
               "lifetime_s",
               "request_rate",
               "gpu_ms_per_request",
               "slo_p99_ms",
               "slo_ttft_p99_ms",
               "slo_tpot_p99_ms",
               "cpu_milli",
               "memory_mib",
               "node_selector",
               "tolerations",
               "requests",
               "restart_policy",
               "priority_class",
               "termination_grace_period_s",
               "checkpoint_interval_s",
               "gang",
               "queue",
               "request_percentile",
               "request_sizing",
               "multi_process",
               "engine",
               "dra_claim"});
  WorkloadClassSpec spec;
  spec.name = c.String("name");
  if (!IsDnsLabel(spec.name, 50)) {
    FailAt(file, c.Get("name"),
           "class name '" + spec.name +
               "' must be lowercase letters, digits and '-' (at most 50, "
               "starting and ending with a letter or digit; pods are named "
               "<class>-<n>)");
  }
  for (const std::string& other : *names) {
    if (other == spec.name) {
      FailAt(file, c.Get("name"), "class '" + spec.name + "' is defined twice");
    }
  }
  names->push_back(spec.name);
  ParseWorkloadClass(Choice(c, "class", "class", ClassNames()),
                     &spec.workload_class);
  if (c.Has("restart_policy")) {
    static const std::vector<std::string> kPolicies = {"Always", "OnFailure",
                                                       "Never"};
    const std::string policy =
        Choice(c, "restart_policy", "restart_policy", kPolicies);
    spec.restart_policy = policy == "Always"      ? RestartPolicy::kAlways
                          : policy == "OnFailure" ? RestartPolicy::kOnFailure
                                                  : RestartPolicy::kNever;
  }
  if (c.Has("tenants")) {
    spec.tenants.clear();
    const std::string label = Label(c, "tenants");
    for (const auto& item : List(c, "tenants", true)) {
      const std::string tenant = ScalarString(file, item, label);
      if (!IsDnsLabel(tenant, 63)) {
        FailAt(file, item,
               label + ": tenant '" + tenant +
                   "' must be lowercase letters, digits and '-' (a "
                   "namespace name, at most 63)");
      }
      for (const std::string& other : spec.tenants) {
        if (other == tenant) {
          FailAt(file, item,
                 label + ": tenant '" + tenant + "' is listed twice");
        }
      }
      spec.tenants.push_back(tenant);
    }
  }
  if (c.Has("priority") && c.Has("priority_class")) {
    FailAt(file, c.Get("priority_class"),
           "give priority or priority_class, not both (a pod's priority "
           "comes from its PriorityClass)");
  }
  if (c.Has("priority")) {
    spec.priority = static_cast<int32_t>(
        c.Int("priority", std::numeric_limits<int32_t>::min(),
              std::numeric_limits<int32_t>::max()));
  }
  const PriorityClass* priority_class =
      GlobalDefaultPriorityClass(priority_classes);
  if (c.Has("priority_class")) {
    const std::string name = c.String("priority_class");
    priority_class = FindPriorityClass(priority_classes, name);
    if (priority_class == nullptr) {
      std::vector<std::string> known;
      for (const PriorityClass& p : priority_classes) known.push_back(p.name);
      for (const PriorityClass& p : SystemPriorityClasses()) {
        known.push_back(p.name);
      }
      FailAt(file, c.Get("priority_class"),
             fmt::format("priority_class: no priority class is named '{}'{} "
                         "(known: {}; define it under priority_classes)",
                         name, DidYouMean(name, known, 1), JoinNames(known)));
    }
  }
  if (priority_class != nullptr && !c.Has("priority")) {
    spec.priority_class_name = priority_class->name;
    spec.priority = priority_class->value;
    spec.preemption_policy = priority_class->preemption_policy;
  }
  if (c.Has("termination_grace_period_s")) {
    spec.termination_grace_period_s =
        Number(c, "termination_grace_period_s", 0, kMaxSeconds);
  }
  if (c.Has("checkpoint_interval_s")) {
    spec.checkpoint_interval_s =
        Number(c, "checkpoint_interval_s", 0, kMaxSeconds);
  }
  if (c.Has("request_percentile")) {
    // The size its pod template asks (docs/model.md §3).
    spec.request_percentile = Number(c, "request_percentile", 1, 100);
  }
  if (c.Has("request_sizing")) {
    // One template for the class, or one per pod (docs/model.md §3).
    static const std::vector<std::string> kSizings = {"template", "per_pod"};
    spec.request_per_pod =
        Choice(c, "request_sizing", "request_sizing", kSizings) == "per_pod";
    if (spec.request_per_pod && c.Has("request_percentile")) {
      FailAt(file, c.Get("request_percentile"),
             "class '" + spec.name +
                 "': request_percentile sizes one pod template for the "
                 "class; with request_sizing: per_pod each pod asks its own "
                 "footprint, so give one or the other");
    }
  }
  if (c.Has("multi_process")) {
    // One process per device: it may run on several MIG instances
    // (docs/model.md §3).
    spec.multi_process = c.Bool("multi_process");
  }
  if (c.Has("engine")) {
    // Its LLM serving engine (docs/emit.md, pod patches; docs/model.md
    // §6.7 for the mapping's memory model).
    spec.llm_engine =
        ReadEngine(c, spec.workload_class, catalog, pools, &spec.engine);
  }
  for (const char* key : {"slo_ttft_p99_ms", "slo_tpot_p99_ms"}) {
    if (!c.Has(key)) continue;
    if (spec.llm_engine == nullptr) {
      FailKey(c, key,
              "a TTFT or TPOT objective needs the class's LLM engine: give "
              "`engine:` as a mapping (docs/scenario.md)");
    }
    const double v = Number(c, key, 0, 1e9, true);
    (std::string_view(key) == "slo_ttft_p99_ms" ? spec.slo_ttft_p99_ms
                                                : spec.slo_tpot_p99_ms) = v;
  }
  if (c.Has("gang")) {
    // A PodGroup per arrival (scheduler-plugins Coscheduling).
    YamlMap g = c.Map("gang", Label(c, "gang"));
    g.AllowOnly({"size", "min_member", "timeout_s"});
    spec.gang_size = static_cast<int>(g.Int("size", 1, 10000));
    spec.gang_min_member = spec.gang_size;
    if (g.Has("min_member")) {
      spec.gang_min_member =
          static_cast<int>(g.Int("min_member", 1, spec.gang_size));
    }
    if (g.Has("timeout_s")) {
      spec.gang_timeout_s = Number(g, "timeout_s", 0, kMaxSeconds, true);
    }
  }
  if (c.Has("count")) spec.count = c.Int("count", 0, kMaxClassCount);
  if (c.Has("arrival_start_s")) {
    spec.arrival_start_s = Number(c, "arrival_start_s", 0, kMaxSeconds);
    if (!(spec.arrival_start_s < horizon_s)) {
      FailAt(file, c.Get("arrival_start_s"),
             fmt::format("{}: {:.6g} is not before the workload's horizon_s "
                         "{:.6g} (the class's arrivals fall in "
                         "[arrival_start_s, horizon_s))",
                         Label(c, "arrival_start_s"), spec.arrival_start_s,
                         horizon_s));
    }
  }
  if (c.Has("arrival_rate_per_s")) {
    spec.arrival_rate_per_s =
        Number(c, "arrival_rate_per_s", 0, kMaxScenarioRate);
  }
  // count alone spreads its arrivals over the horizon; with a rate they take
  // count / rate seconds, which must end within the horizon (arrivals after
  // it would never be generated in a real workload window).
  if (spec.count > 0 && spec.arrival_rate_per_s > 0 &&
      static_cast<double>(spec.count) / spec.arrival_rate_per_s >
          (horizon_s - spec.arrival_start_s) * (1 + 1e-12)) {
    FailAt(file, c.Get("arrival_rate_per_s"),
           fmt::format("{}: count {} at {:.6g}/s takes {:.6g} s, past the "
                       "workload's horizon_s {:.6g}; arrivals fall within "
                       "the horizon, so raise the rate to at least "
                       "{:.6g}/s, lower count, lengthen workload.horizon_s, "
                       "or leave arrival_rate_per_s out (count then spreads "
                       "over the horizon)",
                       Label(c, "arrival_rate_per_s"), spec.count,
                       spec.arrival_rate_per_s,
                       static_cast<double>(spec.count) /
                           spec.arrival_rate_per_s,
                       horizon_s,
                       CeilSignificant(static_cast<double>(spec.count) /
                                       horizon_s)));
  }
  ReadDistribution(c, "gpus", &spec.gpus);
  ReadDistribution(c, "gpu_memory_mib", &spec.gpu_memory_mib);
  if (spec.llm_engine != nullptr && !(spec.gpus.Quantile(1e-9) > 0)) {
    // Without a GPU the engine would run unmodelled (no TTFT or TPOT).
    FailKey(c, "gpus",
            fmt::format("an LLM engine runs on a GPU: every pod of the class "
                        "asks one (gpus > 0), but this one's least value is "
                        "{}",
                        MessageNum(spec.gpus.Quantile(1e-9))));
  }
  ReadDistribution(c, "sm_demand", &spec.sm_demand);
  ReadDistribution(c, "duty", &spec.duty);
  ReadDistribution(c, "work_s", &spec.work_s);
  ReadDistribution(c, "lifetime_s", &spec.lifetime_s);
  ReadDistribution(c, "request_rate", &spec.request_rate);
  ReadGpuTime(c, catalog, &spec);
  ReadDistribution(c, "slo_p99_ms", &spec.slo_p99_ms);
  ReadDistribution(c, "cpu_milli", &spec.cpu_milli);
  ReadDistribution(c, "memory_mib", &spec.memory_mib);
  if (c.Has("node_selector")) {
    spec.node_selector = ReadLabels(c, "node_selector");
    auto it = spec.node_selector.find(kNodePoolLabel);
    if (it != spec.node_selector.end()) {
      std::vector<std::string> pool_names;
      bool found = false;
      for (const NodePoolSpec& p : pools) {
        pool_names.push_back(p.name);
        found = found || p.name == it->second;
      }
      if (!found) {
        FailAt(file, c.Get("node_selector")[kNodePoolLabel],
               fmt::format("{}: no pool is named '{}'{} (pools: {})",
                           Label(c, "node_selector"), it->second,
                           DidYouMean(it->second, pool_names, 1),
                           JoinNames(pool_names)));
      }
    }
  }
  if (c.Has("tolerations")) spec.tolerations = ReadTolerations(c);
  if (c.Has("queue") && kai_queues.enabled()) {
    // The kai.scheduler/queue label: a leaf queue of kai_queues.
    spec.queue_name = c.String("queue");
    const std::vector<std::string> leaves = KaiLeafQueues(kai_queues);
    if (std::find(leaves.begin(), leaves.end(), spec.queue_name) ==
        leaves.end()) {
      const bool parent = std::any_of(
          kai_queues.queues.begin(), kai_queues.queues.end(),
          [&](const KaiQueueSpec& q) { return q.name == spec.queue_name; });
      FailAt(file, c.Get("queue"),
             fmt::format("{}: '{}' is {} (leaf queues: {})", Label(c, "queue"),
                         spec.queue_name,
                         parent ? "a parent queue; only leaf queues take jobs"
                                : "not a queue of kai_queues" +
                                      DidYouMean(spec.queue_name, leaves, 1),
                         JoinNames(leaves)));
    }
  } else if (c.Has("queue")) {
    // The kueue.x-k8s.io/queue-name label: a LocalQueue in each tenant's
    // namespace.
    spec.queue_name = c.String("queue");
    for (const std::string& tenant : spec.tenants) {
      bool found = false;
      std::vector<std::string> known;
      for (const LocalQueueSpec& lq : queues.local_queues) {
        found |= lq.name == spec.queue_name && lq.namespace_name == tenant;
        if (lq.namespace_name == tenant) known.push_back(lq.name);
      }
      if (!found) {
        FailAt(file, c.Get("queue"),
               fmt::format("{}: namespace '{}' has no LocalQueue '{}'{} "
                           "(define it under queues.local_queues with "
                           "namespace: {})",
                           Label(c, "queue"), tenant, spec.queue_name,
                           DidYouMean(spec.queue_name, known, 1), tenant));
      }
    }
  }
  if (c.Has("requests")) {
    // Extended resources written by hand; they replace translated requests.
    YamlMap r = c.Map("requests", Label(c, "requests"));
    for (const auto& entry : r.node()) {
      const std::string name =
          ScalarString(file, entry.first, Label(c, "requests") + " key");
      if (name == "cpu" || name == "memory" ||
          name.find('/') == std::string::npos) {
        FailAt(file, entry.first,
               Label(c, "requests") + ": '" + name +
                   "' is not an extended resource (cpu and memory come from "
                   "cpu_milli and memory_mib; extended names have a domain, "
                   "like nvidia.com/gpu)");
      }
      if (!IsLabelKey(name)) {
        FailAt(file, entry.first,
               fmt::format("{}: {:?} is not a Kubernetes resource name (a "
                           "qualified name such as nvidia.com/gpu: a DNS "
                           "prefix, '/', then at most 63 letters, digits, "
                           "'-', '_' and '.')",
                           Label(c, "requests"), name));
      }
      spec.requests.emplace_back(
          name, ScalarInt(file, entry.second, Label(c, "requests") + " " + name,
                          1, int64_t{1} << 40));
    }
    CheckRequestsServed(c, spec, pools, catalog);
  }
  ReadDraClaim(c, pools, &spec);
  CheckEngineDevices(c, spec, pools);
  if (spec.gang_size > 0 && spec.work_s.kind == Distribution::Kind::kConstant &&
      spec.work_s.value <= 0) {
    FailAt(file, c.Get("gang"),
           Label(c, "gang") +
               ": gang members must be jobs with work (work_s > 0); a "
               "PodGroup of services is not modelled");
  }
  // The generator's own checks (value ranges, services without lifetime,
  // ...), located at the key the message names.
  WorkloadSpec one;
  one.horizon_s = horizon_s;
  one.classes.push_back(spec);
  try {
    one.Validate();
  } catch (const InputError& e) {
    FailAtMentionedKey(c, e, node, {"name", "class", "tenants"});
  }
  return spec;
}

}  // namespace scenario_internal
}  // namespace gpushare
