#include "gpushare/decide/selection_weights.h"

#include <cmath>

namespace gpushare {

std::string SelectionWeights::Problem() const {
  for (double w : {isolation, overhead, compatibility, cost}) {
    if (!std::isfinite(w)) return "weights must be finite numbers";
    if (w < 0) return "weights must not be negative";
  }
  if (Sum() <= 0) return "weights must not all be 0";
  return "";
}

const std::vector<WeightProfile>& BuiltinWeightProfiles() {
  static const std::vector<WeightProfile> profiles = {
      // "研发小哥想省钱跑个实验": cost first, then running unchanged.
      {"research-dev", {0.10, 0.20, 0.20, 0.50}},
      // "金融客户要求硬隔离保证SLA": isolation and latency first.
      {"sla-production", {0.40, 0.35, 0.10, 0.15}},
      // "互联网客户要求弹性和高利用率": utilization (cost) and flexibility.
      {"elastic-multi-tenant", {0.20, 0.25, 0.20, 0.35}},
  };
  return profiles;
}

std::string_view DefaultWeightProfile(WorkloadClass workload_class) {
  switch (workload_class) {
    case WorkloadClass::kInference:
      return "sla-production";
    case WorkloadClass::kDev:
      return "research-dev";
    case WorkloadClass::kTraining:
    case WorkloadClass::kBatch:
      return "elastic-multi-tenant";
  }
  return "elastic-multi-tenant";
}

}  // namespace gpushare
