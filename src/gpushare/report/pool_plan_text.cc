#include "gpushare/report/pool_plan_text.h"

#include <fmt/format.h>

#include "gpushare/decide/scheme_variant.h"

namespace gpushare {
namespace {

std::string SchemeName(const std::string& scheme) {
  return VariantDisplayName(scheme);
}

std::string DescribePoolChoice(const PoolSchemeChoice& p) {
  if (p.variant.empty()) {
    return fmt::format("{}: no pods sent to this pool; it stays {}", p.pool,
                       SchemeName(p.written));
  }
  std::string classes;
  for (const PoolRoutedClass& k : p.classes) {
    classes +=
        fmt::format("{}{} ({} pod{}, {})", classes.empty() ? "" : ", ",
                    k.tenant_class, k.pods, k.pods == 1 ? "" : "s",
                    k.winner.empty() ? std::string("no winner")
                    : k.contender.empty()
                        ? "wins " + SchemeName(k.winner)
                        : SchemeName(k.winner) + " or " +
                              SchemeName(k.contender) + " too close to call");
  }
  return fmt::format(
      "{} -> {}{}: {}{}; {} of its {} pods are in classes it serves well "
      "(their limits met){}; score {:.1f} (average over its pods)",
      p.pool, SchemeName(p.variant),
      p.written == p.variant ? std::string()
                             : " (today: " + SchemeName(p.written) + ")",
      classes, p.conflict ? " -- its classes want different schemes" : "", p.pods_ok, p.pods,
      (p.pods_stranded > 0
           ? fmt::format(", {} it cannot run at all", p.pods_stranded)
           : std::string()) +
          (p.pods_losing_work > 0
               ? fmt::format(", {} in classes losing work to OOM kills or "
                             "failures",
                             p.pods_losing_work)
               : std::string()),
      p.score) +
         (p.buys.empty() ? std::string()
                         : fmt::format("; the change from {} buys: {}",
                                       SchemeName(p.written), p.buys)) +
         (p.kept_over.empty()
              ? std::string()
              : fmt::format("; kept as today: {} scores higher only on its "
                            "ratings (measured {:.1f} vs {:.1f}, ratings left "
                            "out)",
                            SchemeName(p.kept_over), p.kept_over_measured,
                            p.measured));
}

bool RoutedToGpuPools(const PoolSchemePlan& plan,
                      const std::string& tenant_class) {
  for (const PoolSchemeChoice& p : plan.pools) {
    for (const PoolRoutedClass& k : p.classes) {
      if (k.tenant_class == tenant_class) return true;
    }
  }
  return false;
}

}  // namespace

PoolPlanLines DescribePoolPlan(const Comparison& comparison,
                               const Selection& selection) {
  PoolPlanLines out;
  if (!selection.has_pool_plan || selection.pool_plan.pools.empty()) {
    return out;
  }
  const PoolSchemePlan& plan = selection.pool_plan;
  out.heading = fmt::format(
      "Pool plan: a pool runs one scheme, so the answers are settled per "
      "pool{}:",
      plan.conflict ? " (some classes sharing a pool disagree)" : "");
  for (const PoolSchemeChoice& p : plan.pools) {
    out.pools.push_back(DescribePoolChoice(p));
  }
  // Each routed class's score under the plan's run.
  std::string classes;
  for (const ClassChoice& c : selection.classes) {
    if (!RoutedToGpuPools(plan, c.tenant_class)) continue;
    const SchemeScore* score = nullptr;
    if (!plan.same_as.empty()) {
      for (const SchemeScore& x : c.ranking) {
        if (x.variant == plan.same_as) score = &x;
      }
    } else if (c.has_pool_plan) {
      score = &c.pool_plan;
    }
    classes += (classes.empty() ? "" : ", ") + c.tenant_class + " ";
    if (score == nullptr) {
      classes += "not ranked";
      continue;
    }
    classes += fmt::format("{:.1f}{}", score->total,
                           score->slo_attainment < 0 ? ""
                           : score->meets_slo        ? " (SLO met)"
                                                     : " (SLO MISSED)");
  }
  if (!plan.same_as.empty()) {
    out.closing = fmt::format(
        "Every pool with pods runs {}: its run is the pool plan's; "
        "scores under it: {}.",
        SchemeName(plan.same_as), classes);
  } else if (plan.ran) {
    const size_t seeds = std::max<size_t>(1, comparison.seeds.size());
    out.closing = fmt::format(
        "The pools mix schemes, so the plan was run as \"pool plan\" on {} "
        "seed{} (its rows in the tables); scores under it: {}.",
        seeds, seeds == 1 ? "" : "s", classes);
  } else {
    out.closing = "No pool has pods sent to it.";
  }
  return out;
}

}  // namespace gpushare
