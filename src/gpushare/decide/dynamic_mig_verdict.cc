#include "gpushare/decide/dynamic_mig_verdict.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpushare {
namespace {

constexpr const char* kDynamicMigLabel = "MIG (dynamic)";

bool IsStaticMigLabel(const std::string& label) {
  return label.rfind("MIG", 0) == 0 && label != kDynamicMigLabel;
}

// The cheapest feasible probe of `pool` whose candidate `matches`, on the
// pilot or the whole workload; null when none.
template <typename Matches>
const PlanProbe* CheapestFeasible(const PlanResult& result,
                                  const std::string& pool, bool pilot,
                                  Matches matches) {
  const PlanProbe* best = nullptr;
  for (const PlanProbe& p : result.log) {
    if (p.pool != pool || p.pilot != pilot || !p.feasible ||
        !matches(p.candidate)) {
      continue;
    }
    if (best == nullptr || p.cost_per_hour < best->cost_per_hour) best = &p;
  }
  return best;
}

std::string Describe(const PlanProbe& p) {
  return fmt::format("{} node{} at ${:.2f}/h", p.nodes, p.nodes == 1 ? "" : "s",
                     p.cost_per_hour);
}

}  // namespace

std::vector<std::string> DynamicMigVerdicts(const PlanResult& result) {
  std::vector<std::string> out;
  for (const PoolPlan& pool : result.pools) {
    bool tried_dynamic = false;
    bool tried_static = false;
    for (const PlanProbe& p : result.log) {
      if (p.pool != pool.pool) continue;
      tried_dynamic |= p.candidate == kDynamicMigLabel;
      tried_static |= IsStaticMigLabel(p.candidate);
    }
    if (!tried_dynamic || !tried_static) continue;
    const auto dynamic = [](const std::string& l) {
      return l == kDynamicMigLabel;
    };
    const auto fixed = [](const std::string& l) { return IsStaticMigLabel(l); };
    bool pilot = false;
    const PlanProbe* d = CheapestFeasible(result, pool.pool, false, dynamic);
    const PlanProbe* s = CheapestFeasible(result, pool.pool, false, fixed);
    if (d == nullptr && s == nullptr) {
      pilot = true;
      d = CheapestFeasible(result, pool.pool, true, dynamic);
      s = CheapestFeasible(result, pool.pool, true, fixed);
    }
    const char* where = pilot ? " (pilot workload)" : "";
    if (d == nullptr && s == nullptr) continue;
    if (s == nullptr) {
      out.push_back(fmt::format(
          "pool {}: MIG (dynamic) meets its classes' constraints with {}; no "
          "static MIG layout does{}",
          pool.pool, Describe(*d), where));
      continue;
    }
    if (d == nullptr) {
      out.push_back(fmt::format(
          "pool {}: the best static MIG layout, {}, meets its classes' "
          "constraints with {}; MIG (dynamic) does not{}",
          pool.pool, s->candidate, Describe(*s), where));
      continue;
    }
    const double saved = s->cost_per_hour - d->cost_per_hour;
    const double dearer = std::max(s->cost_per_hour, d->cost_per_hour);
    const double percent = dearer > 0 ? 100 * std::abs(saved) / dearer : 0;
    std::string verdict;
    if (saved > 1e-9) {
      verdict = fmt::format("dynamic beats it by ${:.2f}/h ({:.0f}%)", saved,
                            percent);
    } else if (saved < -1e-9) {
      verdict = fmt::format("the static layout beats dynamic by ${:.2f}/h "
                            "({:.0f}%)",
                            -saved, percent);
    } else {
      verdict = "they cost the same";
    }
    out.push_back(fmt::format(
        "pool {}: MIG (dynamic) meets its classes' constraints with {}, the "
        "best static MIG layout ({}) with {}: {}{}",
        pool.pool, Describe(*d), s->candidate, Describe(*s), verdict, where));
  }
  return out;
}

}  // namespace gpushare
