// Planner (planner_internal.h), the reports of its search: a plan run on
// every seed and judged against every constraint (PlanOutcome), the
// reference plans (today and the comparison's variants), and the pools'
// rows of the answer (PoolPlan).

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "gpushare/decide/kai_quota_conversion.h"
#include "gpushare/decide/node_search.h"
#include "gpushare/decide/plan_candidates.h"
#include "gpushare/decide/planner_internal.h"
#include "gpushare/decide/queue_quota_conversion.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/decide/selection.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace planner_internal {

int64_t PoolGpus(const NodePoolSpec& pool) {
  return static_cast<int64_t>(pool.nodes) * pool.gpus_per_node;
}

// The pool's cost per hour as written (0 without GPUs).
double WrittenPoolCostPerHour(const NodePoolSpec& pool,
                              const Catalog& catalog) {
  if (pool.gpus_per_node == 0 || pool.gpu_model.empty()) return 0;
  return PoolCostPerHour(pool, catalog.Get(pool.gpu_model),
                         pool.licence_per_gpu_hour, pool.nodes);
}

int64_t ScenarioGpus(const Scenario& scenario) {
  int64_t gpus = 0;
  for (const NodePoolSpec& p : scenario.pools) gpus += PoolGpus(p);
  return gpus;
}

double ScenarioCostPerHour(const Scenario& scenario, const Catalog& catalog) {
  double cost = 0;
  for (const NodePoolSpec& p : scenario.pools) {
    cost += WrittenPoolCostPerHour(p, catalog);
  }
  return cost;
}

PlanOutcome Planner::Evaluate(
    const std::string& name, const Scenario& plan,
    const std::vector<std::vector<ClassMetrics>>& by_seed) const {
  PlanOutcome out;
  out.name = name;
  out.in_space = InSpace(plan);
  out.gpus = ScenarioGpus(plan);
  out.cost_per_hour = ScenarioCostPerHour(plan, catalog_);
  const std::vector<ConstraintCheck> cluster =
      CheckClusterConstraints(plan_spec_.cluster, out.gpus, out.cost_per_hour);
  const auto checks_of = [&](const std::vector<ClassMetrics>& classes) {
    std::vector<ConstraintCheck> checks;
    for (size_t k = 0; k < classes.size() && k < plan_spec_.classes.size();
         ++k) {
      const std::vector<ConstraintCheck> c =
          CheckClassConstraints(plan_spec_.classes[k], classes[k]);
      checks.insert(checks.end(), c.begin(), c.end());
    }
    checks.insert(checks.end(), cluster.begin(), cluster.end());
    return checks;
  };
  std::vector<ClassMetrics> mean;
  for (size_t k = 0; !by_seed.empty() && k < by_seed.front().size(); ++k) {
    std::vector<ClassMetrics> runs;
    for (const std::vector<ClassMetrics>& seed : by_seed) {
      runs.push_back(seed[k]);
    }
    mean.push_back(MeanClassMetrics(runs));
  }
  out.checks = checks_of(mean);
  out.feasible = AllMet(out.checks);
  out.class_metrics = mean;
  for (const ClassMetrics& m : mean) {
    if (IsQuotaBound(m)) {
      QuotaBoundClass q;
      q.tenant_class = m.tenant_class;
      q.queue = m.cluster_queue;
      q.mean_wait_s = m.mean_wait_s;
      q.mean_admission_wait_s = m.mean_admission_wait_s;
      q.idle_at_quota_share = m.queue_idle_at_quota_share;
      q.free_at_quota = m.queue_free_at_quota;
      q.free_resource = m.queue_free_resource;
      q.pinned = std::find(plan_spec_.pinned_quotas.begin(),
                           plan_spec_.pinned_quotas.end(),
                           m.cluster_queue) != plan_spec_.pinned_quotas.end();
      out.quota_bound.push_back(std::move(q));
    }
  }
  out.seeds = static_cast<int>(by_seed.size());
  for (const std::vector<ClassMetrics>& seed : by_seed) {
    if (AllMet(checks_of(seed))) ++out.seeds_feasible;
  }
  for (const NodePoolSpec& p : plan.pools) {
    if (p.gpus_per_node == 0 || p.gpu_model.empty()) {
      out.pools.push_back(fmt::format("{} (no GPUs) x{}", p.name, p.nodes));
      continue;
    }
    out.pools.push_back(
        fmt::format("{} {} x{} {}", p.name, p.gpu_model, p.nodes,
                    PoolSharingLabel(p, &catalog_.Get(p.gpu_model))));
  }
  return out;
}

bool Planner::InSpace(const Scenario& plan) const {
  for (size_t i = 0; i < scenario_.pools.size(); ++i) {
    const NodePoolSpec& written = scenario_.pools[i];
    const NodePoolSpec& p = plan.pools[i];
    if (written.gpus_per_node == 0 || written.gpu_model.empty()) continue;
    const GpuModel& model = catalog_.Get(written.gpu_model);
    const PlanPoolSpec* spec = plan_spec_.FindPool(written.name);
    if (spec == nullptr) {
      if (p.nodes != written.nodes ||
          SharingLabel(p.sharing, &model) !=
              SharingLabel(written.sharing, &model)) {
        return false;
      }
      continue;
    }
    if (p.nodes < spec->min_nodes || p.nodes > spec->max_nodes) return false;
    if (std::find(spec->schemes.begin(), spec->schemes.end(),
                  p.sharing.scheme()) == spec->schemes.end()) {
      return false;
    }
  }
  return true;
}

std::vector<std::vector<ClassMetrics>> Planner::RunOnSeeds(
    const Scenario& plan, const SimulationResult* first) {
  const int seeds = std::max(1, spec_.compare.seeds);
  std::vector<std::vector<ClassMetrics>> out(seeds);
  const auto metrics_of = [&](const SimulationResult& run) {
    std::vector<ClassMetrics> classes;
    for (const std::string& c : classes_) {
      classes.push_back(ComputeClassMetrics(run, c));
    }
    return classes;
  };
  const int skip = first != nullptr ? 1 : 0;
  if (first != nullptr) out[0] = metrics_of(*first);
  SimulateScenarios(
      seeds - skip, threads_, catalog_,
      [&](int i, Scenario* scratch) -> const Scenario& {
        *scratch = ScenarioWithSeed(
            plan, scenario_.seed + static_cast<uint64_t>(i + skip));
        return *scratch;
      },
      [&](int i, const Scenario&, const SimulationResult& run) {
        out[i + skip] = metrics_of(run);
      },
      observe_);
  result_.simulations += seeds - skip;
  return out;
}

void Planner::AddReferences(const SimulationResult& today) {
  result_.references.push_back(
      Evaluate("today", scenario_, RunOnSeeds(scenario_, &today)));
  reference_plans_.push_back(scenario_);
  const Comparison comparison =
      RunComparison(scenario_, spec_.compare, catalog_, threads_, observe_);
  result_.simulations += ComparisonRunCount(scenario_, spec_.compare);
  std::vector<std::string> families(scenario_.pools.size());
  for (const MigPoolChoice& choice : comparison.mig_choices) {
    for (size_t i = 0; i < scenario_.pools.size(); ++i) {
      if (scenario_.pools[i].name == choice.pool) families[i] = choice.family;
    }
  }
  for (const VariantOutcome& v : comparison.variants) {
    if (v.plan) continue;  // the scenario as written: "today"
    const SchemeVariant variant =
        v.name == kDynamicMigVariant
            ? MakeDynamicMigVariant(scenario_, spec_.compare, catalog_)
            : MakeSchemeVariant(scenario_, v.scheme, spec_.compare, catalog_,
                                families);
    result_.references.push_back(Evaluate(
        v.name, variant.scenario,
        v.classes_by_seed.empty()
            ? std::vector<std::vector<ClassMetrics>>{v.classes}
            : v.classes_by_seed));
    reference_plans_.push_back(variant.scenario);
  }
}

void Planner::FillPools(const Scenario& plan, bool searched) {
  for (size_t i = 0; i < scenario_.pools.size(); ++i) {
    const NodePoolSpec& written = scenario_.pools[i];
    const NodePoolSpec& p = plan.pools[i];
    PoolPlan out;
    out.pool = written.name;
    out.model = written.gpu_model;
    out.gpus_per_node = written.gpus_per_node;
    out.written_nodes = written.nodes;
    out.nodes = p.nodes;
    out.licence_per_gpu_hour = p.licence_per_gpu_hour;
    const PlanPoolSpec* spec = plan_spec_.FindPool(written.name);
    out.planned = spec != nullptr;
    out.min_nodes = spec != nullptr ? spec->min_nodes : written.nodes;
    out.max_nodes = spec != nullptr ? spec->max_nodes : written.nodes;
    for (size_t k = 0; k < classes_.size(); ++k) {
      if (class_targets_[k].count(written.name) > 0) {
        out.tenant_classes.push_back(classes_[k]);
      }
    }
    if (written.gpus_per_node > 0 && !written.gpu_model.empty()) {
      const GpuModel& model = catalog_.Get(written.gpu_model);
      out.written = PoolSharingLabel(written, &model);
      out.setting = PoolSharingLabel(p, &model);
      out.cost_per_hour = WrittenPoolCostPerHour(p, catalog_);
    }
    for (const PoolState& s : pools_) {
      if (s.index != static_cast<int>(i)) continue;
      out.candidates = static_cast<int>(s.candidates.size());
      out.at_minimum = p.nodes <= s.spec->min_nodes;
      out.change_buys = ChangeBuys(s, out);
      if (out.setting == out.written && p.nodes == s.chosen_nodes) {
        out.kept_over = s.kept_over;
      }
      if (!searched) break;
      const auto it = s.chosen_records.find(p.nodes - 1);
      if (it != s.chosen_records.end()) {
        out.binding_known = true;
        out.binding = Missed(it->second.checks);
        out.binding_seeds = it->second.seeds;
        out.binding_seed_misses = it->second.seed_misses;
        SetKnifeEdge(s, it->second.metrics, &out);
      }
    }
    result_.pools.push_back(out);
  }
}

void Planner::FillBindings(const Scenario& plan) {
  // Each planned pool above its minimum whose line the search did not
  // give: the answer with one node fewer there, on every seed.
  std::vector<int> todo;  // indexes into pools_
  for (size_t k = 0; k < pools_.size(); ++k) {
    const PoolPlan& row = result_.pools[pools_[k].index];
    if (!row.at_minimum && !row.binding_known) todo.push_back(k);
  }
  if (todo.empty()) return;
  if (OverBudget()) {
    result_.budget_exhausted = true;
    return;
  }
  const int seeds = Seeds();
  std::vector<std::vector<std::vector<ClassMetrics>>> metrics(
      todo.size(), std::vector<std::vector<ClassMetrics>>(seeds));
  SimulateScenarios(
      static_cast<int>(todo.size()) * seeds, threads_, catalog_,
      [&](int i, Scenario* s) -> const Scenario& {
        *s = plan;
        s->pools[pools_[todo[i / seeds]].index].nodes -= 1;
        AdaptToPools(*s);
        *s = ScenarioWithSeed(
            *s, scenario_.seed + static_cast<uint64_t>(i % seeds));
        return *s;
      },
      [&](int i, const Scenario&, const SimulationResult& run) {
        metrics[i / seeds][i % seeds] =
            JudgedMetrics(run, pools_[todo[i / seeds]]);
      },
      observe_);
  result_.simulations += static_cast<int>(todo.size()) * seeds;
  for (size_t k = 0; k < todo.size(); ++k) {
    const PoolState& pool = pools_[todo[k]];
    const ProbeRecord r = JudgeSeeds(metrics[k], pool);
    PoolPlan& row = result_.pools[pool.index];
    row.binding_known = true;
    row.binding = Missed(r.checks);
    row.binding_seeds = r.seeds;
    row.binding_seed_misses = r.seed_misses;
    SetKnifeEdge(pool, r.metrics, &row);
  }
}

void Planner::SetKnifeEdge(const PoolState& pool,
                           const std::vector<ClassMetrics>& fewer,
                           PoolPlan* row) const {
  row->knife_edge = false;
  const std::vector<ClassMetrics>& answer = result_.chosen.class_metrics;
  int64_t events_now = 0;
  int64_t oom = 0, failed = 0, evictions = 0;
  double lost = 0;
  for (size_t i = 0; i < pool.classes.size() && i < fewer.size(); ++i) {
    const size_t k = static_cast<size_t>(pool.classes[i]);
    if (k < answer.size()) {
      events_now +=
          answer[k].oom_kills + answer[k].failed + answer[k].preemptions;
    }
    oom += fewer[i].oom_kills;
    failed += fewer[i].failed;
    evictions += fewer[i].preemptions;
    lost += fewer[i].lost_gpu_hours;
  }
  if (events_now > 0 || oom + failed + evictions == 0) return;
  row->knife_edge = true;
  row->edge_oom_kills = oom;
  row->edge_failed = failed;
  row->edge_evictions = evictions;
  row->edge_lost_gpu_hours = lost;
}

namespace {

// "notebooks: mean wait 2399 s (limit 300 s), 6 pods never started (limit
// 0); big-notebook: mean wait 7198 s (limit 300 s)": the missed checks in
// words, by class in order of first appearance.
std::string MissesByClass(const std::vector<ConstraintCheck>& missed) {
  std::vector<std::pair<std::string, std::vector<ConstraintCheck>>> classes;
  for (const ConstraintCheck& c : missed) {
    const std::string who =
        c.tenant_class.empty() ? "cluster" : c.tenant_class;
    auto it = std::find_if(classes.begin(), classes.end(),
                           [&](const auto& k) { return k.first == who; });
    if (it == classes.end()) {
      classes.push_back({who, {}});
      it = classes.end() - 1;
    }
    it->second.push_back(c);
  }
  std::string out;
  for (const auto& [who, checks] : classes) {
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", who,
                       DescribeInWords(checks));
  }
  return out;
}

}  // namespace

std::string Planner::ChangeBuys(const PoolState& pool,
                                const PoolPlan& row) const {
  const bool same_setting = row.setting == row.written;
  if (same_setting && row.nodes == row.written_nodes) return "";
  const double written_cost =
      WrittenPoolCostPerHour(scenario_.pools[pool.index], catalog_);
  const auto cheaper = [](double by) {
    return fmt::format("cheaper by ${:.2f}/h", by);
  };
  if (same_setting) {
    if (row.nodes < row.written_nodes) {
      return fmt::format("{}: {} node{} every constraint of its classes",
                         cheaper(written_cost - row.cost_per_hour), row.nodes,
                         row.nodes == 1 ? " meets" : "s meet");
    }
    // The search's records, when they are of this setting.
    const bool records = pool.chosen >= 0 &&
                         pool.candidates[pool.chosen].label == row.setting;
    const auto it = pool.chosen_records.find(row.written_nodes);
    if (records && it != pool.chosen_records.end() && !it->second.feasible) {
      return fmt::format("the constraints today's {} node{} miss ({})",
                         row.written_nodes, row.written_nodes == 1 ? "" : "s",
                         MissesByClass(Missed(it->second.checks)));
    }
    return fmt::format("its classes' constraints: {} nodes are the fewest "
                       "that meet them",
                       row.nodes);
  }
  if (pool.written < 0) {
    return fmt::format("a setting plan.pools.{}.schemes allows (today's, {}, "
                       "is not among them)",
                       row.pool, row.written);
  }
  const WrittenSettingResult& w = pool.written_result;
  if (!w.known) return "";
  const std::string where = w.pilot ? " on the pilot" : "";
  if (!w.feasible) {
    return fmt::format("the constraints today's setting misses at {} node{}{} "
                       "({})",
                       w.nodes, w.nodes == 1 ? "" : "s", where,
                       MissesByClass(w.missed));
  }
  if (row.cost_per_hour < w.cost_per_hour - kCostEpsilon) {
    return fmt::format("{} than today's setting at its fewest nodes that meet "
                       "every constraint ({}, ${:.2f}/h{})",
                       cheaper(w.cost_per_hour - row.cost_per_hour), w.nodes,
                       w.cost_per_hour, where);
  }
  // Not cheaper in this pool: the cluster-wide limits or a reference plan
  // chose it.
  return fmt::format("no saving in this pool (today's setting meets every "
                     "constraint at {} node{}, ${:.2f}/h{}): chosen with the "
                     "other pools",
                     w.nodes, w.nodes == 1 ? "" : "s", w.cost_per_hour, where);
}

void Planner::CollectRejected() {
  if (Seeds() < 2) return;
  std::vector<RejectedPlan> found;
  // The last probe of a setting at a count stands (coordinate descent may
  // probe it again with other pools changed).
  std::vector<const PlanProbe*> last;
  for (const PlanProbe& p : result_.log) {
    if (p.pilot) continue;
    const auto same = std::find_if(
        last.begin(), last.end(), [&](const PlanProbe* q) {
          return q->pool == p.pool && q->candidate == p.candidate &&
                 q->nodes == p.nodes;
        });
    if (same != last.end()) {
      *same = &p;
    } else {
      last.push_back(&p);
    }
  }
  for (const PlanProbe* probe : last) {
    const PlanProbe& p = *probe;
    if (p.feasible || p.seeds_feasible == 0) continue;
    const auto row = std::find_if(
        result_.pools.begin(), result_.pools.end(),
        [&](const PoolPlan& r) { return r.pool == p.pool; });
    if (row == result_.pools.end() ||
        p.cost_per_hour >= row->cost_per_hour - kCostEpsilon) {
      continue;
    }
    RejectedPlan r;
    r.pool = p.pool;
    r.setting = p.candidate;
    r.nodes = p.nodes;
    r.cost_per_hour = p.cost_per_hour;
    r.seeds = p.seeds;
    r.seeds_feasible = p.seeds_feasible;
    r.missed = p.missed;
    r.seed_misses = p.seed_misses;
    found.push_back(std::move(r));
  }
  std::map<std::string, size_t> pool_order;
  for (size_t i = 0; i < result_.pools.size(); ++i) {
    pool_order[result_.pools[i].pool] = i;
  }
  std::stable_sort(found.begin(), found.end(),
                   [&](const RejectedPlan& a, const RejectedPlan& b) {
                     if (a.pool != b.pool) {
                       return pool_order[a.pool] < pool_order[b.pool];
                     }
                     return a.cost_per_hour < b.cost_per_hour - kCostEpsilon;
                   });
  result_.rejected = std::move(found);
}

}  // namespace planner_internal
}  // namespace gpushare
