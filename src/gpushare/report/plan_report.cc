#include "gpushare/report/plan_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/decide/scheme_variant.h"
#include "gpushare/report/comparison_report.h"
#include "gpushare/report/text_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string Saving(const PlanOutcome& chosen, const PlanOutcome& other) {
  const double d = other.cost_per_hour - chosen.cost_per_hour;
  if (std::abs(d) < 0.005) return "the same as";
  const double pct =
      other.cost_per_hour > 0 ? 100 * d / other.cost_per_hour : 0;
  return d > 0
             ? fmt::format("{} ({:.1f}%) less than", FormatMoneyPerHour(d), pct)
             : fmt::format("{} ({:.1f}%) more than", FormatMoneyPerHour(-d),
                           -pct);
}

std::string Headline(const PlanResult& r) {
  const PlanOutcome& c = r.chosen;
  std::string out = fmt::format(
      "Recommended plan: {} for {} GPUs{}.",
      FormatMoneyPerHour(c.cost_per_hour), c.gpus,
      c.feasible ? ", meeting every constraint"
                 : ", the closest to the constraints (none meets them all)");
  if (c.seeds > 1) {
    out += fmt::format(
        " Judged on the mean of {} seeds; it meets every constraint on {} of "
        "them{}.",
        c.seeds, c.seeds_feasible,
        c.seeds_feasible < c.seeds ? " (too close to the limits to rely on)"
                                   : "");
  }
  if (const PlanOutcome* best = BestSingleScheme(r)) {
    out += fmt::format(
        " It costs {} the cheapest single scheme that meets "
        "them ({}, {}).",
        Saving(c, *best), PlanOutcomeLabel(*best),
        FormatMoneyPerHour(best->cost_per_hour));
  } else {
    out += " No single scheme on today's nodes meets them.";
  }
  if (const PlanOutcome* today = TodaysPlan(r)) {
    const size_t missed = Missed(today->checks).size();
    out +=
        fmt::format(" It costs {} today's plan ({}, which {}).",
                    Saving(c, *today), FormatMoneyPerHour(today->cost_per_hour),
                    missed == 0 ? "meets every constraint"
                                : fmt::format("misses {} constraint{}", missed,
                                              missed == 1 ? "" : "s"));
  }
  return WrapText(out, kReportWidth, 0);
}

std::string PoolLines(const PlanResult& r) {
  TextTable t;
  t.AddColumn("POOL");
  t.AddColumn("GPU");
  t.AddColumn("NODES", TextTable::Align::kRight);
  t.AddColumn("SETTING");
  t.AddColumn("$/H", TextTable::Align::kRight);
  t.AddColumn("TODAY");
  for (const PoolPlan& p : r.pools) {
    if (p.gpus_per_node == 0) continue;
    t.AddRow({p.pool, fmt::format("{}x{}", p.gpus_per_node, p.model),
              std::to_string(p.nodes), p.setting, FormatMoney(p.cost_per_hour),
              fmt::format("{} x{}", p.written, p.written_nodes)});
  }
  std::string out = t.Render();
  for (const PoolPlan& p : r.pools) {
    if (p.gpus_per_node == 0) continue;
    std::string why;
    if (!p.planned) {
      why = "kept as today (not in plan.pools)";
    } else if (p.at_minimum) {
      why = fmt::format("at the minimum of its range ({} node{})", p.min_nodes,
                        p.min_nodes == 1 ? "" : "s");
    } else if (p.binding_known) {
      why = fmt::format("with {} node{}: {}", p.nodes - 1,
                        p.nodes - 1 == 1 ? "" : "s", BindingText(p));
    } else if (r.chosen_from != "search") {
      why = "as in " + PlanOutcomePhrase(r.chosen);
    }
    if (!why.empty()) {
      out += WrapText(fmt::format("  {}: {}", p.pool, why), kReportWidth, 4);
    }
    if (p.knife_edge) {
      out += WrapText(fmt::format("  {}: {}", p.pool, KnifeEdgeText(p)),
                      kReportWidth, 4);
    }
    if (!p.change_buys.empty()) {
      out += WrapText(
          fmt::format("  {}: the change from today's {} x{} buys: {}", p.pool,
                      p.written, p.written_nodes, p.change_buys),
          kReportWidth, 4);
    }
    if (!p.kept_over.empty()) {
      std::string others;
      for (const std::string& k : p.kept_over) {
        others += (others.empty() ? "" : ", ") + k;
      }
      out += WrapText(
          fmt::format("  {}: today's setting kept: {} cost{} the same and "
                      "meet{} every constraint too; a change must buy "
                      "something",
                      p.pool, others, p.kept_over.size() == 1 ? "s" : "",
                      p.kept_over.size() == 1 ? "s" : ""),
          kReportWidth, 4);
    }
  }
  return out;
}

// Per planned pool none of whose settings met its classes' constraints at
// any node count the search tried: the constraints they missed, each with
// how many settings missed it (at the most nodes each was probed with, the
// whole workload's probe first) and the value closest to its limit.
std::string UnmetPools(const PlanResult& r) {
  std::string out;
  for (const PoolPlan& pool : r.pools) {
    if (!pool.planned) continue;
    // Per setting, its probe at the most nodes (whole workload over pilot).
    std::map<std::string, const PlanProbe*> last;
    bool feasible = false;
    for (const PlanProbe& p : r.log) {
      if (p.pool != pool.pool) continue;
      feasible = feasible || p.feasible;
      const PlanProbe*& at = last[p.candidate];
      if (at == nullptr || std::make_pair(!p.pilot, p.nodes) >=
                               std::make_pair(!at->pilot, at->nodes)) {
        at = &p;
      }
    }
    if (feasible || last.empty()) continue;
    struct Tally {
      int settings = 0;
      const ConstraintCheck* best = nullptr;  // the largest margin
    };
    std::map<std::string, Tally> tallies;
    for (const auto& [candidate, probe] : last) {
      for (const ConstraintCheck& c : probe->missed) {
        const std::string key =
            (c.tenant_class.empty() ? "(cluster)" : c.tenant_class) + " " +
            c.constraint;
        Tally& t = tallies[key];
        ++t.settings;
        if (t.best == nullptr || c.margin > t.best->margin) t.best = &c;
      }
    }
    std::vector<std::pair<std::string, Tally>> order(tallies.begin(),
                                                     tallies.end());
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& a, const auto& b) {
                       if (a.second.settings != b.second.settings) {
                         return a.second.settings > b.second.settings;
                       }
                       return a.first < b.first;
                     });
    std::string missed;
    for (size_t i = 0; i < order.size() && i < 3; ++i) {
      const Tally& t = order[i].second;
      missed += fmt::format("{}{} ({} of {}, at best {:.4g} {} {:.4g})",
                            i == 0 ? "" : ", ", order[i].first, t.settings,
                            last.size(), t.best->value,
                            t.best->value < t.best->limit ? "<" : ">",
                            t.best->limit);
    }
    if (order.size() > 3) {
      missed += fmt::format(" and {} more", order.size() - 3);
    }
    out += WrapText(
        fmt::format("  {}: none of its {} setting{} met its classes' "
                    "constraints at any node count tried (up to {}); they "
                    "missed {}",
                    pool.pool, last.size(), last.size() == 1 ? "" : "s",
                    pool.max_nodes, missed),
        kReportWidth, 4);
  }
  return out;
}

std::string ConstraintTable(const PlanOutcome& c) {
  TextTable t;
  t.AddColumn("CLASS");
  t.AddColumn("CONSTRAINT");
  t.AddColumn("VALUE", TextTable::Align::kRight);
  t.AddColumn("LIMIT", TextTable::Align::kRight);
  t.AddColumn("MARGIN", TextTable::Align::kRight);
  t.AddColumn("");
  for (const ConstraintCheck& k : c.checks) t.AddRow(ConstraintCheckCells(k));
  return t.Render();
}

std::string ReferenceTable(const PlanResult& r) {
  TextTable t;
  t.AddColumn("PLAN");
  t.AddColumn("GPUS", TextTable::Align::kRight);
  t.AddColumn("$/H", TextTable::Align::kRight);
  t.AddColumn("MEETS");
  t.AddColumn("FIRST MISSED");
  std::vector<const PlanOutcome*> rows = {&r.chosen};
  for (const PlanOutcome& o : r.references) rows.push_back(&o);
  for (const PlanOutcome* o : rows) {
    const std::vector<ConstraintCheck> missed = Missed(o->checks);
    std::string label = o == &r.chosen ? "recommended" : PlanOutcomeLabel(*o);
    if (!o->in_space) label += " (outside plan:)";
    t.AddRow({label, std::to_string(o->gpus), FormatMoney(o->cost_per_hour),
              missed.empty() ? "all" : fmt::format("{} missed", missed.size()),
              missed.empty() ? "-" : DescribeCheck(missed.front())});
  }
  return t.Render();
}

}  // namespace

std::vector<std::string> ConstraintCheckCells(const ConstraintCheck& k) {
  return {k.tenant_class.empty() ? "(cluster)" : k.tenant_class,
          k.constraint,
          fmt::format("{:.4g}", k.value),
          fmt::format("{:.4g}", k.limit),
          fmt::format("{:.4g}", k.margin),
          k.met() ? "met" : "MISSED"};
}

const PlanOutcome* BestSingleScheme(const PlanResult& plan) {
  const PlanOutcome* best = nullptr;
  for (const PlanOutcome& o : plan.references) {
    if (o.name == "today" || !o.feasible) continue;
    if (best == nullptr || o.cost_per_hour < best->cost_per_hour) best = &o;
  }
  return best;
}

const PlanOutcome* TodaysPlan(const PlanResult& plan) {
  for (const PlanOutcome& o : plan.references) {
    if (o.name == "today") return &o;
  }
  return nullptr;
}

std::string PlanOutcomeLabel(const PlanOutcome& outcome) {
  if (outcome.name == "today") return "today's plan";
  return VariantDisplayName(outcome.name);
}

std::string PlanOutcomePhrase(const PlanOutcome& outcome) {
  if (outcome.name == "today") return "today's plan";
  return "the " + PlanOutcomeLabel(outcome) + " plan";
}

std::string DescribeSeedMisses(const std::vector<SeedMisses>& misses) {
  std::string out;
  for (const SeedMisses& m : misses) {
    std::string checks;
    for (const ConstraintCheck& c : m.missed) {
      checks += (checks.empty() ? "" : ", ") + DescribeCheck(c);
    }
    out += fmt::format("{}seed {}: {}", out.empty() ? "" : "; ", m.seed,
                       checks);
  }
  return out;
}

namespace {

// One missed limit over the seeds: its value on the mean (when missed
// there) and on each seed that missed it.
struct SeedMissGroup {
  std::string head;  // "services max_mean_wait_s > 30"
  bool on_mean = false;
  double mean = 0;
  std::vector<std::pair<uint64_t, double>> seeds;
};

std::string MissGroupHead(const ConstraintCheck& c) {
  return fmt::format("{} {} {} {:.4g}",
                     c.tenant_class.empty() ? "cluster" : c.tenant_class,
                     c.constraint,
                     c.constraint.rfind("min_", 0) == 0 ? "<" : ">",
                     c.limit);
}

// "services max_mean_wait_s > 30 on the mean of 3 seeds (825.4) and on
// seeds 11 (859.9), 12 (945.2)"; DescribeChecks() alone on one seed.
std::string MissesOnSeeds(const std::vector<ConstraintCheck>& missed,
                          int seeds, const std::vector<SeedMisses>& by_seed) {
  if (seeds <= 1) return DescribeChecks(missed);
  std::vector<SeedMissGroup> groups;
  const auto group_of = [&](const ConstraintCheck& c) -> SeedMissGroup& {
    const std::string head = MissGroupHead(c);
    for (SeedMissGroup& g : groups) {
      if (g.head == head) return g;
    }
    groups.push_back({head, false, 0, {}});
    return groups.back();
  };
  for (const ConstraintCheck& c : missed) {
    SeedMissGroup& g = group_of(c);
    g.on_mean = true;
    g.mean = c.value;
  }
  for (const SeedMisses& s : by_seed) {
    for (const ConstraintCheck& c : s.missed) {
      group_of(c).seeds.push_back({s.seed, c.value});
    }
  }
  std::string out;
  for (const SeedMissGroup& g : groups) {
    std::string text = g.head;
    if (g.on_mean) {
      text += fmt::format(" on the mean of {} seeds ({:.4g})", seeds, g.mean);
    }
    if (!g.seeds.empty()) {
      std::string list;
      for (const auto& [seed, value] : g.seeds) {
        list += fmt::format("{}{} ({:.4g})", list.empty() ? "" : ", ", seed,
                            value);
      }
      text += fmt::format("{} on seed{} {}", g.on_mean ? " and" : "",
                          g.seeds.size() == 1 ? "" : "s", list);
    }
    if (!g.on_mean) {
      text += fmt::format(", not on the mean of {} seeds", seeds);
    }
    out += (out.empty() ? "" : "; ") + text;
  }
  return out;
}

}  // namespace

std::string BindingText(const PoolPlan& pool) {
  if (!pool.binding_known) return "";
  if (pool.binding.empty() && pool.binding_seed_misses.empty()) {
    return pool.binding_seeds > 1
               ? fmt::format("its classes meet their constraints too, on "
                             "each of {} seeds",
                             pool.binding_seeds)
               : "its classes meet their constraints too";
  }
  return MissesOnSeeds(pool.binding, pool.binding_seeds,
                       pool.binding_seed_misses);
}

std::string KnifeEdgeText(const PoolPlan& pool) {
  if (!pool.knife_edge) return "";
  std::vector<std::string> parts;
  const auto add = [&](int64_t n, const char* one, const char* many) {
    if (n > 0) parts.push_back(fmt::format("{} {}", n, n == 1 ? one : many));
  };
  add(pool.edge_oom_kills, "OOM kill", "OOM kills");
  add(pool.edge_failed, "failed pod", "failed pods");
  add(pool.edge_evictions, "eviction", "evictions");
  std::string events;
  for (size_t i = 0; i < parts.size(); ++i) {
    events += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") +
              parts[i];
  }
  const int fewer = pool.nodes - 1;
  return fmt::format(
      "knife edge: at {} node{} {} ({:.1f} GPU-hours of work lost); with {} "
      "its classes lose no work, so the margin on lost work is one node",
      fewer, fewer == 1 ? "" : "s", events, pool.edge_lost_gpu_hours,
      pool.nodes);
}

std::string RejectedPlanText(const RejectedPlan& x) {
  return fmt::format("{} {} x{} ({}): met on {} of {} seeds; {}", x.pool,
                     x.setting, x.nodes, FormatMoneyPerHour(x.cost_per_hour),
                     x.seeds_feasible, x.seeds,
                     MissesOnSeeds(x.missed, x.seeds, x.seed_misses));
}

std::string QuotaBoundText(const QuotaBoundClass& q) {
  return fmt::format(
      "{} is quota-bound: {} of its {} mean wait is admission wait{}, "
      "which sat at its quota while its flavor's nodes had room for its "
      "pods ({} of samples, {:.1f} free {} on average then): more nodes do "
      "not shorten it{}.",
      q.tenant_class, FormatSeconds(q.mean_admission_wait_s),
      FormatSeconds(q.mean_wait_s),
      q.queue.empty() ? " in its queue" : " in queue " + q.queue,
      FormatPercent(q.idle_at_quota_share), q.free_at_quota,
      q.free_resource.empty() ? std::string("whole GPUs") : q.free_resource,
      q.pinned ? " while plan.pinned_quotas keeps its quota"
               : "; a larger quota does");
}

std::string PlanReport(const PlanResult& r, double wall_s) {
  std::string out = fmt::format("Plan for {} (seed {}, {} pods)\n\n",
                                r.scenario, r.seed, r.pods);
  out += Headline(r) + "\n";
  out += PoolLines(r);
  out += UnmetPools(r);
  if (r.chosen_from != "search") {
    out += WrapText(
        r.chosen.feasible
            ? fmt::format("  The search found no plan cheaper than {} that "
                          "meets every constraint.",
                          PlanOutcomePhrase(r.chosen))
            : fmt::format("  The search found no plan closer to the "
                          "constraints than {}.",
                          PlanOutcomePhrase(r.chosen)),
        kReportWidth, 4);
  }
  const std::vector<ConstraintCheck> missed = Missed(r.chosen.checks);
  if (!missed.empty()) {
    out += WrapText("  Missed: " + DescribeChecks(missed), kReportWidth, 4);
  }
  for (const QuotaBoundClass& q : r.chosen.quota_bound) {
    out += WrapText("  " + QuotaBoundText(q), kReportWidth, 4);
  }
  if (!r.rejected.empty()) {
    out += WrapText(
        fmt::format("Cheaper settings rejected: each meets every constraint "
                    "on some of the {} seeds, not on their mean:",
                    r.rejected.front().seeds),
        kReportWidth, 2);
    for (const RejectedPlan& x : r.rejected) {
      out += WrapText("  " + RejectedPlanText(x), kReportWidth, 4);
    }
  }
  out += "\nConstraints of the recommended plan (whole workload):\n";
  out += ConstraintTable(r.chosen);
  out +=
      "\nPlans compared (whole workload; single schemes on today's nodes):\n";
  out += ReferenceTable(r);
  int settings = 0;
  for (const PoolPlan& p : r.pools) settings += p.candidates;
  out += "\n";
  out += WrapText(
      fmt::format("Search: {} setting(s) over {} planned pool(s), {} probes "
                  "({}), {} simulations in all{}; pools {}.",
                  settings,
                  std::count_if(r.pools.begin(), r.pools.end(),
                                [](const PoolPlan& p) { return p.planned; }),
                  r.log.size(),
                  r.pilot_pods < r.pods
                      ? fmt::format("pilot of about {} pods, finalists on all",
                                    r.pilot_pods)
                      : "on the whole workload",
                  r.simulations,
                  wall_s > 0 ? fmt::format(" in {:.1f}s", wall_s) : "",
                  r.separable ? "searched together (each class routed to one "
                                "pool)"
                              : "searched one at a time (coordinate descent)"),
      kReportWidth, 0);
  if (r.budget_exhausted) {
    out += WrapText(
        "Search stopped at --budget-s: unfinished settings kept "
        "their best answer so far.",
        kReportWidth, 0);
  }
  for (const std::string& note : r.notes) {
    out += WrapText("note: " + note, kReportWidth, 2);
  }
  return out;
}

}  // namespace gpushare
