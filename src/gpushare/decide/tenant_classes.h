// The tenant classes a scenario's workload has, for compare and selection.
//
// Contract: ScenarioTenantClasses() lists the generator's classes in the
// order the workload gives them, then the tenant classes of the trace's pods
// in order of first appearance (a name already listed is not repeated),
// each with its workload class: the class spec's, or that of the first
// trace pod of the class. Deterministic.

#ifndef GPUSHARE_DECIDE_TENANT_CLASSES_H_
#define GPUSHARE_DECIDE_TENANT_CLASSES_H_

#include <string>
#include <vector>

#include "gpushare/sim/scenario.h"

namespace gpushare {

struct TenantClassInfo {
  std::string name;
  WorkloadClass workload_class = WorkloadClass::kBatch;
};

std::vector<TenantClassInfo> ScenarioTenantClasses(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_TENANT_CLASSES_H_
