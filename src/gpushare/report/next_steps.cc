#include "gpushare/report/next_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "gpushare/decide/plan_constraints.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/plan_report.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
  }
  return out;
}

bool HasMig(const Comparison& c, const std::string& pool) {
  return std::any_of(
      c.mig_choices.begin(), c.mig_choices.end(),
      [&pool](const MigPoolChoice& m) { return m.pool == pool; });
}

// For a pool whose classes want different schemes: what would serve the
// classes its scheme does not.
std::string ConflictResolution(const Comparison& c, const PoolSchemeChoice& p) {
  std::vector<std::string> split;
  std::set<std::string> wanted = {p.variant};
  for (const PoolRoutedClass& k : p.classes) {
    if (k.winner.empty() || k.winner == p.variant || k.contender == p.variant) {
      continue;
    }
    wanted.insert(k.winner);
    split.push_back(
        fmt::format("{} on {}", k.tenant_class, VariantDisplayName(k.winner)));
  }
  if (split.empty()) return "";
  std::string out = fmt::format(
      "{}: its classes want different schemes and it runs {}. To serve {}: "
      "give {} a pool of {} own (a copy of {} with {} node selector) and let "
      "`plan` size both",
      p.pool, VariantDisplayName(p.variant), Join(split),
      split.size() == 1 ? "that class" : "each such class",
      split.size() == 1 ? "its" : "their", p.pool,
      split.size() == 1 ? "its" : "their");
  // A per-GPU MIG mix gives some GPUs one whole-GPU instance and the rest
  // a MIG config: it serves MIG and whole-GPU classes in one pool.
  const bool mig_mix =
      HasMig(c, p.pool) &&
      std::all_of(wanted.begin(), wanted.end(), [](const std::string& v) {
        return v == "mig" || v == "exclusive";
      });
  if (mig_mix) {
    out += fmt::format(
        "; or keep one pool with per-GPU MIG mixes (whole GPUs on some, a MIG "
        "config on the rest: plan.pools.{}.mig_mixes, docs/scenario.md), "
        "which `plan` searches when {} is in plan.pools",
        p.pool, p.pool);
  }
  return out + ".";
}

}  // namespace

std::vector<std::string> ClassesNotServedWell(const Selection& selection) {
  std::set<std::string> poorly;
  if (selection.has_pool_plan) {
    for (const PoolSchemeChoice& p : selection.pool_plan.pools) {
      for (const PoolRoutedClass& k : p.classes) {
        if (!k.ok) poorly.insert(k.tenant_class);
      }
    }
  }
  std::vector<std::string> out;
  for (const ClassChoice& c : selection.classes) {
    if (!c.no_scheme.empty()) continue;  // no GPU: nothing to size
    if (!c.has_winner() || poorly.count(c.tenant_class) > 0) {
      out.push_back(c.tenant_class);
    }
  }
  return out;
}

std::string PlanPreviewLine(const PlanResult& plan) {
  const PlanOutcome& c = plan.chosen;
  int nodes = 0;
  for (const PoolPlan& p : plan.pools) {
    if (p.gpus_per_node > 0) nodes += p.nodes - p.written_nodes;
  }
  const std::string delta =
      nodes == 0 ? "today's node count"
                 : fmt::format("{:+d} node{}", nodes,
                               nodes == 1 || nodes == -1 ? "" : "s");
  const PlanOutcome* today = TodaysPlan(plan);
  std::string out = fmt::format(
      "plan: {} ({} GPUs), {}{}", delta, c.gpus,
      FormatMoneyPerHour(c.cost_per_hour),
      today == nullptr ? std::string()
                       : fmt::format(" (today {})",
                                     FormatMoneyPerHour(today->cost_per_hour)));
  if (!c.feasible) {
    const size_t missed = Missed(c.checks).size();
    return out +
           fmt::format(", the closest plan: it still misses {} constraint{}",
                       missed, missed == 1 ? "" : "s");
  }
  out += ", every class served";
  if (c.seeds > 1) {
    out += c.seeds_feasible == c.seeds
               ? fmt::format(" on each of {} seeds", c.seeds)
               : fmt::format(" on the mean of {} seeds ({} of them alone)",
                             c.seeds, c.seeds_feasible);
  }
  return out;
}

std::string NextSteps(const Comparison& comparison, const Selection& selection,
                      const std::string& plan_command,
                      const PlanResult* preview) {
  std::string out;
  const std::vector<std::string> poorly = ClassesNotServedWell(selection);
  if (!poorly.empty()) {
    out += WrapText(
        fmt::format("Next: {} {} not served well on today's nodes; `plan` "
                    "sizes every pool's scheme and nodes so each class is{}",
                    Join(poorly), poorly.size() == 1 ? "is" : "are",
                    preview != nullptr
                        ? ":"
                        : " (its search runs many more simulations than "
                          "compare; --preview-plan runs it here and shows its "
                          "answer on one line)."),
        kReportWidth, 2);
    if (preview != nullptr) {
      out += WrapText("  " + PlanPreviewLine(*preview), kReportWidth, 4);
    }
  }
  if (selection.has_pool_plan) {
    for (const PoolSchemeChoice& p : selection.pool_plan.pools) {
      if (!p.conflict) continue;
      const std::string fix = ConflictResolution(comparison, p);
      if (!fix.empty()) {
        out += WrapText((out.empty() ? "Next: " : "  ") + fix, kReportWidth,
                        out.empty() ? 2 : 4);
      }
    }
  }
  if (out.empty()) return out;
  // The command on a line of its own, unwrapped, to copy.
  return "\n" + out + "  run: " + plan_command + "\n";
}

}  // namespace gpushare
