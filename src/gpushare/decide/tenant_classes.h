// The tenant classes a scenario's workload has, for compare and selection.
//
// Contract: ScenarioTenantClasses() lists the generator's classes in the
// order the workload gives them, then the tenant classes of the trace's pods
// in order of first appearance (a name already listed is not repeated),
// each with its workload class: the class spec's, or that of the first
// trace pod of the class. Each also says why compare offers it no sharing
// scheme (`no_scheme`, "" when it does): a class none of whose pods asks
// for a GPU — a generator class whose `gpus` can only be 0 and that writes
// no extended requests, trace pods with no GPU need and no nvidia.com
// request, pods of system namespaces never counting — is offered none;
// "its pods run in system namespaces" when all its pods are such pods (an
// imported cluster's "system" class), else "none of its pods asks for a
// GPU". Deterministic.

#ifndef GPUSHARE_DECIDE_TENANT_CLASSES_H_
#define GPUSHARE_DECIDE_TENANT_CLASSES_H_

#include <string>
#include <vector>

#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct TenantClassInfo {
  std::string name;
  WorkloadClass workload_class = WorkloadClass::kBatch;
  std::string no_scheme;  // why no scheme is offered ("": one is)
};

std::vector<TenantClassInfo> ScenarioTenantClasses(const Scenario& scenario);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_TENANT_CLASSES_H_
