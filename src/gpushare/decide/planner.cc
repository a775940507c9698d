// RunPlanner() (planner.h): the Planner's run from routing to the answer —
// which pool each class is routed to, the pools to search and their
// candidates, the plan with the search's choices, and the cheapest feasible
// plan among the searched one and the references. The search itself is in
// planner_search.cc, its reports in planner_outcomes.cc.

#include "gpushare/decide/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "gpushare/decide/dynamic_mig_verdict.h"
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
namespace {

// Per pool, the settings whose probes placed a class that needs memory
// isolation where another pod can take its memory: "pool gpu: time-slicing
// x2, time-slicing x4 do not meet training, which needs memory isolation
// (...)".
std::vector<std::string> MemoryIsolationNotes(
    const std::vector<PlanProbe>& log) {
  // (pool, class) -> settings, in order of first probe.
  std::vector<std::pair<std::pair<std::string, std::string>,
                        std::vector<std::string>>>
      found;
  for (const PlanProbe& p : log) {
    for (const ConstraintCheck& c : p.missed) {
      if (c.constraint != "needs_memory_isolation") continue;
      const auto key = std::make_pair(p.pool, c.tenant_class);
      auto it = std::find_if(found.begin(), found.end(),
                             [&](const auto& f) { return f.first == key; });
      if (it == found.end()) {
        found.push_back({key, {}});
        it = found.end() - 1;
      }
      if (std::find(it->second.begin(), it->second.end(), p.candidate) ==
          it->second.end()) {
        it->second.push_back(p.candidate);
      }
    }
  }
  std::vector<std::string> notes;
  for (const auto& [key, settings] : found) {
    std::string list;
    for (const std::string& x : settings) {
      list += (list.empty() ? "" : ", ") + x;
    }
    notes.push_back(fmt::format(
        "pool {}: {} {} not meet {}, which needs memory isolation (another "
        "pod can take its pods' GPU memory there; plan.constraints.classes."
        "{}.needs_memory_isolation)",
        key.first, list, settings.size() == 1 ? "does" : "do", key.second,
        key.second));
  }
  return notes;
}

}  // namespace

void Planner::FindRouting(const SimulationResult& today) {
  std::map<std::string, int> index;
  for (size_t k = 0; k < classes_.size(); ++k) index[classes_[k]] = k;
  class_targets_.assign(classes_.size(), {});
  today.pod_summaries.ForEach([&](const PodSummary& p) {
    const auto it = index.find(today.text(p.tenant_class));
    if (it != index.end()) {
      class_targets_[it->second].insert(today.text(p.target_pool));
    }
  });
  result_.separable = true;
  for (const std::set<std::string>& t : class_targets_) {
    if (t.size() > 1 || (t.size() == 1 && t.begin()->empty())) {
      result_.separable = false;
    }
  }
}

void Planner::MakePools() {
  const double vgpu_licence = VgpuLicencePerGpuHour(scenario_, spec_.compare);
  for (const PlanPoolSpec& p : plan_spec_.pools) {
    PoolState s;
    const auto it =
        std::find_if(scenario_.pools.begin(), scenario_.pools.end(),
                     [&](const NodePoolSpec& n) { return n.name == p.pool; });
    if (it == scenario_.pools.end() || it->gpus_per_node == 0) {
      throw InputError(
          fmt::format("plan: pool '{}' is not a GPU pool of the "
                      "scenario",
                      p.pool));
    }
    s.index = static_cast<int>(it - scenario_.pools.begin());
    s.spec = &p;
    s.model = &catalog_.Get(it->gpu_model);
    s.candidates = PoolCandidates(*it, *s.model, p, spec_.compare, vgpu_licence,
                                  &result_.notes);
    if (s.candidates.empty()) {
      throw InputError(fmt::format(
          "plan.pools.{}: no allowed scheme can run on {} (its schemes: "
          "see the notes above)",
          p.pool, s.model->name));
    }
    const std::string written = PoolSharingLabel(*it, s.model);
    for (size_t c = 0; c < s.candidates.size(); ++c) {
      if (s.candidates[c].label == written) s.written = static_cast<int>(c);
    }
    for (size_t k = 0; k < classes_.size(); ++k) {
      const std::set<std::string>& t = class_targets_[k];
      if (t.count(p.pool) > 0 || t.count("") > 0) s.classes.push_back(k);
    }
    s.chosen_nodes = it->nodes;
    if (s.classes.empty()) {
      result_.notes.push_back(fmt::format(
          "pool {}: no tenant class is routed to it; it is sized to its "
          "minimum",
          p.pool));
    }
    pools_.push_back(std::move(s));
  }
}

Scenario Planner::WithChoices(const Scenario& base) const {
  Scenario s = base;
  for (const PoolState& p : pools_) {
    if (p.chosen < 0) continue;
    s.pools[p.index] = ApplyCandidate(s.pools[p.index], p.candidates[p.chosen],
                                      p.chosen_nodes);
  }
  AdaptToPools(s);
  return s;
}

QuotaScaling Planner::Scaling() const {
  QuotaScaling scaling;
  scaling.with_pool_sizes = true;
  scaling.pinned = plan_spec_.pinned_quotas;
  return scaling;
}

void Planner::AdaptToPools(Scenario& s) const {
  bool changed = false;
  for (const PoolState& p : pools_) {
    const NodePoolSpec& written = scenario_.pools[p.index];
    changed = changed || SharingLabel(s.pools[p.index].sharing, p.model) !=
                             SharingLabel(written.sharing, p.model);
  }
  if (changed) {
    // Requests written for one scheme's resources cannot follow a change
    // (as in compare's variants): pods are translated from their needs.
    for (WorkloadClassSpec& c : s.workload.classes) c.requests.clear();
    s.workload.trace.keep_explicit_requests = false;
  }
  // Kueue and KAI quotas follow the pools' schemes and sizes, always from
  // the written ones (`s` may hold quotas scaled for other choices), except
  // those the plan pins (docs/model.md §10).
  s.queues = scenario_.queues;
  ConvertQueueQuotas(scenario_, &s, catalog_, Scaling());
  s.kai_queues = scenario_.kai_queues;
  ConvertKaiQuotas(scenario_, &s, catalog_, Scaling());
}

PlanResult Planner::Run() {
  result_.scenario = scenario_.name;
  result_.seed = scenario_.seed;
  for (const TenantClassInfo& c : ScenarioTenantClasses(scenario_)) {
    classes_.push_back(c.name);
  }
  result_.tenant_classes = classes_;
  const SimulationResult today =
      SimulateScenario(scenario_, catalog_, observe_);
  ++result_.simulations;
  result_.pods = today.pods;
  FindRouting(today);
  MakePools();
  AddReferences(today);

  pilot_ = PilotScenario(scenario_, plan_spec_.search.pilot_pods);
  has_pilot_ = pilot_.workload.horizon_s < scenario_.workload.horizon_s;
  result_.pilot_pods =
      has_pilot_
          ? static_cast<int64_t>(std::llround(ExpectedPods(pilot_.workload)))
          : result_.pods;
  if (result_.separable) {
    std::vector<int> all;
    for (size_t i = 0; i < pools_.size(); ++i) all.push_back(i);
    SearchPools(all, /*lockstep=*/true);
  } else {
    for (int round = 0; round < plan_spec_.search.rounds; ++round) {
      bool changed = false;
      for (size_t i = 0; i < pools_.size(); ++i) {
        const int before = pools_[i].chosen;
        const int before_nodes = pools_[i].chosen_nodes;
        SearchPools({static_cast<int>(i)}, /*lockstep=*/false);
        changed = changed || pools_[i].chosen != before ||
                  pools_[i].chosen_nodes != before_nodes;
      }
      if (!changed || result_.budget_exhausted) break;
    }
  }
  ChooseCombination();

  // The searched plan, run whole.
  const Scenario searched = WithChoices(scenario_);
  PlanOutcome best =
      Evaluate("searched", searched, RunOnSeeds(searched, nullptr));
  const Scenario* best_plan = &searched;
  result_.chosen_from = "search";
  for (size_t i = 0; i < result_.references.size(); ++i) {
    const PlanOutcome& r = result_.references[i];
    if (!r.in_space) continue;
    // Ties keep today's setting: today's plan, feasible at the cost of a
    // searched plan that differs from it, is the answer.
    const bool better =
        r.feasible &&
        (!best.feasible || r.cost_per_hour < best.cost_per_hour - kCostEpsilon ||
         (r.name == "today" && r.pools != best.pools &&
          r.cost_per_hour <= best.cost_per_hour + kCostEpsilon));
    const bool closer =
        !r.feasible && !best.feasible &&
        MissesLess(SeverityOf(r.checks), SeverityOf(best.checks));
    if (better || closer) {
      best = r;
      best_plan = &reference_plans_[i];
      result_.chosen_from = r.name;
    }
  }
  result_.chosen = best;
  result_.plan = *best_plan;
  FillPools(result_.plan, result_.chosen_from == "search");
  FillBindings(result_.plan);
  CollectRejected();
  // What the answer did to the queues' quotas.
  {
    Scenario converted = result_.plan;
    converted.queues = scenario_.queues;
    for (const std::string& n :
         ConvertQueueQuotas(scenario_, &converted, catalog_, Scaling())) {
      result_.notes.push_back(n);
    }
    converted.kai_queues = scenario_.kai_queues;
    for (const std::string& n :
         ConvertKaiQuotas(scenario_, &converted, catalog_, Scaling())) {
      result_.notes.push_back(n);
    }
  }
  // Settings ruled out for a class that needs memory isolation.
  for (std::string& n : MemoryIsolationNotes(result_.log)) {
    result_.notes.push_back(std::move(n));
  }
  // Dynamic MIG against the best static layout, where both were tried.
  for (std::string& n : DynamicMigVerdicts(result_)) {
    result_.notes.push_back(std::move(n));
  }
  return result_;
}

}  // namespace planner_internal

PlanResult RunPlanner(const Scenario& scenario, const ComparisonSpec& spec,
                      const PlanSpec& plan_spec, const Catalog& catalog,
                      int threads, double budget_s,
                      const RunObserverFactory& observe) {
  planner_internal::Planner planner(scenario, spec, plan_spec, catalog,
                                    threads, budget_s, observe);
  return planner.Run();
}

}  // namespace gpushare
