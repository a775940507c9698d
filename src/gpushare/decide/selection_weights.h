// SelectionWeights: how much each of the source document's four dimensions
// (isolation, performance overhead, compatibility, cost) counts for a
// tenant class, and the built-in weight profiles.
//
// Contract: weights are finite and >= 0 and not all 0 (Problem() says why
// not); the selection divides by their sum, so only ratios matter. The
// profiles are the source document's three kinds of tenant: `research-dev`
// (wants it cheap), `sla-production` (wants hard isolation and its SLO),
// `elastic-multi-tenant` (wants elasticity and high utilization). A tenant
// class without a profile gets one from its workload class: inference →
// sla-production, dev → research-dev, training and batch →
// elastic-multi-tenant.

#ifndef GPUSHARE_DECIDE_SELECTION_WEIGHTS_H_
#define GPUSHARE_DECIDE_SELECTION_WEIGHTS_H_

#include <string>
#include <string_view>
#include <vector>

#include "gpushare/workload/pod.h"

namespace gpushare {

struct SelectionWeights {
  double isolation = 0;
  double overhead = 0;
  double compatibility = 0;
  double cost = 0;

  double Sum() const { return isolation + overhead + compatibility + cost; }
  // "" when valid, else what is wrong ("weights must not all be 0").
  std::string Problem() const;
};

struct WeightProfile {
  std::string name;
  SelectionWeights weights;
};

// The built-in profiles, in the order above.
const std::vector<WeightProfile>& BuiltinWeightProfiles();

// The profile a tenant class gets by default.
std::string_view DefaultWeightProfile(WorkloadClass workload_class);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SELECTION_WEIGHTS_H_
