#include "gpushare/report/eviction_warnings.h"

#include <fmt/format.h>

#include <map>

#include "gpushare/decide/scheme_variant.h"

namespace gpushare {

std::vector<std::string> RunEvictionWarnings(const SimulationResult& r) {
  const int limit = r.eviction_warning_per_pod;
  struct Worst {
    int64_t pods = 0;  // evicted more than the limit
    int most = 0;
    PodSummary pod;
  };
  std::vector<std::string> order;
  std::map<std::string, Worst> by_class;
  r.pod_summaries.ForEach([&](const PodSummary& p) {
    if (p.preemptions <= limit) return;
    auto [it, added] = by_class.try_emplace(r.text(p.tenant_class));
    if (added) order.push_back(r.text(p.tenant_class));
    Worst& w = it->second;
    ++w.pods;
    if (p.preemptions > w.most) {
      w.most = p.preemptions;
      w.pod = p;
    }
  });
  std::vector<std::string> out;
  for (const std::string& c : order) {
    const Worst& w = by_class[c];
    out.push_back(fmt::format(
        "{}: {} pod{} evicted more than {} time{} "
        "(model.eviction_warning_per_pod); {} the most, {} times",
        c, w.pods, w.pods == 1 ? " was" : "s were", limit,
        limit == 1 ? "" : "s", r.text(w.pod.name), w.most));
  }
  return out;
}

std::vector<std::string> ClassEvictionWarnings(const Comparison& c, size_t k) {
  const int limit = c.eviction_warning_per_pod;
  std::vector<std::string> out;
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.classes[k];
    if (m.max_pod_preemptions <= limit) continue;
    out.push_back(fmt::format(
        "under {} a pod of {} was evicted {} times, more than "
        "model.eviction_warning_per_pod ({})",
        VariantDisplayName(v.name), c.tenant_classes[k],
        m.max_pod_preemptions, limit));
  }
  return out;
}

}  // namespace gpushare
