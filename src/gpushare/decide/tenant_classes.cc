#include "gpushare/decide/tenant_classes.h"

#include <unordered_map>

namespace gpushare {
namespace {

// Whether a generator class's pods can ask for a GPU: `gpus` can draw a
// value above 0, or it writes extended requests by hand.
bool GeneratedClassAsksForGpu(const WorkloadClassSpec& c) {
  if (!c.requests.empty()) return true;
  const Distribution& d = c.gpus;
  switch (d.kind) {
    case Distribution::Kind::kConstant:
      return d.value > 0;
    case Distribution::Kind::kUniform:
      return d.max > 0;
    case Distribution::Kind::kChoice:
      for (const auto& [value, weight] : d.choices) {
        if (value > 0 && weight > 0) return true;
      }
      return false;
    case Distribution::Kind::kExponential:
    case Distribution::Kind::kLogNormal:
      return true;
  }
  return true;
}

// What the pods of one class say about GPUs, over all sources.
struct ClassGpuUse {
  bool asks_for_gpu = false;  // a pod outside system namespaces does
  bool system_only = true;    // every pod is a system namespace's trace pod
};

}  // namespace

std::vector<TenantClassInfo> ScenarioTenantClasses(const Scenario& scenario) {
  std::vector<TenantClassInfo> out;
  std::unordered_map<std::string, size_t> index;
  std::vector<ClassGpuUse> use;
  auto add = [&](const std::string& name, WorkloadClass kind) -> ClassGpuUse& {
    auto [it, added] = index.emplace(name, out.size());
    if (added) {
      out.push_back({name, kind, ""});
      use.emplace_back();
    }
    return use[it->second];
  };
  for (const WorkloadClassSpec& c : scenario.workload.classes) {
    ClassGpuUse& u = add(c.name, c.workload_class);
    u.system_only = false;
    if (GeneratedClassAsksForGpu(c)) u.asks_for_gpu = true;
  }
  if (scenario.workload.trace.pods != nullptr) {
    for (const Pod& p : *scenario.workload.trace.pods) {
      ClassGpuUse& u = add(p.tenant_class, p.workload_class);
      if (p.in_system_namespace) continue;
      u.system_only = false;
      if (p.needs.gpus > 0 || !p.explicit_requests.empty()) {
        u.asks_for_gpu = true;
      }
    }
  }
  for (size_t k = 0; k < out.size(); ++k) {
    if (use[k].asks_for_gpu) continue;
    out[k].no_scheme = use[k].system_only ? "its pods run in system namespaces"
                                          : "none of its pods asks for a GPU";
  }
  return out;
}

}  // namespace gpushare
