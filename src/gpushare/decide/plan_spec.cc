#include "gpushare/decide/plan_spec.h"

namespace gpushare {

ClassConstraints DefaultClassConstraints(WorkloadClass workload_class) {
  ClassConstraints c;
  switch (workload_class) {
    case WorkloadClass::kInference:
      c.max_mean_wait_s = 60;
      break;
    case WorkloadClass::kDev:
      c.max_mean_wait_s = 300;
      break;
    case WorkloadClass::kBatch:
      c.max_mean_wait_s = 1800;
      c.max_mean_slowdown = 4;
      break;
    case WorkloadClass::kTraining:
      c.max_mean_wait_s = 3600;
      c.max_mean_slowdown = 3;
      c.needs_memory_isolation = true;
      break;
  }
  return c;
}

ClassConstraints DefaultServedWell(WorkloadClass workload_class) {
  ClassConstraints c = DefaultClassConstraints(workload_class);
  c.max_pending = -1;
  return c;
}

const PlanPoolSpec* PlanSpec::FindPool(const std::string& pool) const {
  for (const PlanPoolSpec& p : pools) {
    if (p.pool == pool) return &p;
  }
  return nullptr;
}

const ClassConstraints* PlanSpec::FindClass(
    const std::string& tenant_class) const {
  for (const ClassConstraints& c : classes) {
    if (c.tenant_class == tenant_class) return &c;
  }
  return nullptr;
}

}  // namespace gpushare
