#include "gpushare/decide/tenant_classes.h"

#include <unordered_set>

namespace gpushare {

std::vector<TenantClassInfo> ScenarioTenantClasses(const Scenario& scenario) {
  std::vector<TenantClassInfo> out;
  std::unordered_set<std::string> seen;
  for (const WorkloadClassSpec& c : scenario.workload.classes) {
    if (seen.insert(c.name).second) out.push_back({c.name, c.workload_class});
  }
  if (scenario.workload.trace.pods != nullptr) {
    for (const Pod& p : *scenario.workload.trace.pods) {
      if (seen.insert(p.tenant_class).second) {
        out.push_back({p.tenant_class, p.workload_class});
      }
    }
  }
  return out;
}

}  // namespace gpushare
