#include "gpushare/decide/planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <set>

#include "gpushare/decide/kai_quota_conversion.h"
#include "gpushare/decide/node_search.h"
#include "gpushare/decide/plan_candidates.h"
#include "gpushare/decide/queue_quota_conversion.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/decide/selection.h"
#include "gpushare/decide/tenant_classes.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr double kCostEpsilon = 1e-9;

// One probe's result for one track.
struct ProbeRecord {
  bool feasible = false;
  std::vector<ConstraintCheck> checks;
  std::vector<ClassMetrics> metrics;  // the judged classes'
};

// The search of one candidate of one pool.
struct Track {
  int pool = 0;  // index into Planner::pools_
  int candidate = 0;
  NodeSearch search;
  std::map<int, ProbeRecord> records;  // by node count
};

// A setting confirmed feasible: the candidate at its fewest nodes, and the
// probes of its search.
struct PoolOption {
  int candidate = 0;
  int nodes = 0;
  std::map<int, ProbeRecord> records;
};

// A planned pool.
struct PoolState {
  int index = 0;  // in the scenario's pools
  const PlanPoolSpec* spec = nullptr;
  const GpuModel* model = nullptr;
  std::vector<PoolCandidate> candidates;
  std::vector<int> classes;  // tenant classes judged with it
  int chosen = -1;           // candidate; -1: as written
  int chosen_nodes = 0;
  // The confirmed feasible settings of the last pass, the chosen one
  // first.
  std::vector<PoolOption> options;
  std::map<int, ProbeRecord> chosen_records;  // of the chosen candidate
};

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

class Planner {
 public:
  Planner(const Scenario& scenario, const ComparisonSpec& spec,
          const PlanSpec& plan_spec, const Catalog& catalog, int threads,
          double budget_s, const RunObserverFactory& observe)
      : scenario_(scenario),
        spec_(spec),
        plan_spec_(plan_spec),
        catalog_(catalog),
        threads_(threads),
        observe_(observe),
        begin_(std::chrono::steady_clock::now()),
        budget_s_(budget_s) {}

  PlanResult Run();

 private:
  bool OverBudget() const {
    if (budget_s_ <= 0) return false;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         begin_)
               .count() > budget_s_;
  }
  void FindRouting(const SimulationResult& today);
  void MakePools();
  Scenario WithChoices(const Scenario& base) const;
  void DropWrittenRequestsIfChanged(Scenario& s) const;
  std::vector<ClassMetrics> JudgedMetrics(const SimulationResult& result,
                                          const PoolState& pool) const;
  ProbeRecord Judge(const std::vector<ClassMetrics>& metrics,
                    const PoolState& pool) const;
  double CostOf(const PoolState& pool, int candidate, int nodes) const;
  void RunTracks(std::vector<Track>& tracks, const Scenario& base, bool pilot,
                 bool lockstep);
  void SearchPools(const std::vector<int>& group, bool lockstep);
  void ChooseCombination();
  double TieScore(const PoolState& pool, int candidate,
                  const std::vector<ClassMetrics>& metrics,
                  const std::vector<double>& lowest) const;
  // `by_seed`: the classes' metrics on each seed ([seed][class]); the plan
  // is judged on their mean and counted feasible per seed.
  PlanOutcome Evaluate(
      const std::string& name, const Scenario& plan,
      const std::vector<std::vector<ClassMetrics>>& by_seed) const;
  // The classes' metrics of `plan` run whole on every seed of
  // CompareSpec::seeds ([seed][class]); `first`, when given, is its run on
  // the first seed already.
  std::vector<std::vector<ClassMetrics>> RunOnSeeds(
      const Scenario& plan, const SimulationResult* first);
  bool InSpace(const Scenario& plan) const;
  void AddReferences(const SimulationResult& today);
  void FillPools(const Scenario& plan, bool searched);

  const Scenario& scenario_;
  const ComparisonSpec& spec_;
  const PlanSpec& plan_spec_;
  const Catalog& catalog_;
  const int threads_;
  const RunObserverFactory& observe_;
  const std::chrono::steady_clock::time_point begin_;
  const double budget_s_;

  Scenario pilot_;
  bool has_pilot_ = false;
  std::vector<std::string> classes_;                  // tenant class names
  std::vector<std::set<std::string>> class_targets_;  // per class
  std::vector<PoolState> pools_;
  std::vector<Scenario> reference_plans_;  // parallel to result_.references
  PlanResult result_;
};

void Planner::FindRouting(const SimulationResult& today) {
  std::map<std::string, int> index;
  for (size_t k = 0; k < classes_.size(); ++k) index[classes_[k]] = k;
  class_targets_.assign(classes_.size(), {});
  for (const PodRecord& p : today.pod_records) {
    const auto it = index.find(p.tenant_class);
    if (it != index.end()) class_targets_[it->second].insert(p.target_pool);
  }
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
  DropWrittenRequestsIfChanged(s);
  return s;
}

void Planner::DropWrittenRequestsIfChanged(Scenario& s) const {
  bool changed = false;
  for (const PoolState& p : pools_) {
    const NodePoolSpec& written = scenario_.pools[p.index];
    changed = changed || SharingLabel(s.pools[p.index].sharing, p.model) !=
                             SharingLabel(written.sharing, p.model);
  }
  if (!changed) return;
  // Requests written for one scheme's resources cannot follow a change
  // (as in compare's variants): pods are translated from their needs.
  for (WorkloadClassSpec& c : s.workload.classes) c.requests.clear();
  s.workload.trace.keep_explicit_requests = false;
  // Kueue quotas follow the pools' new schemes (from the written ones).
  s.queues = scenario_.queues;
  ConvertQueueQuotas(scenario_, &s, catalog_);
  s.kai_queues = scenario_.kai_queues;
  ConvertKaiQuotas(scenario_, &s, catalog_);
}

std::vector<ClassMetrics> Planner::JudgedMetrics(const SimulationResult& result,
                                                 const PoolState& pool) const {
  std::vector<ClassMetrics> out;
  for (int k : pool.classes) {
    out.push_back(ComputeClassMetrics(result, classes_[k]));
  }
  return out;
}

ProbeRecord Planner::Judge(const std::vector<ClassMetrics>& metrics,
                           const PoolState& pool) const {
  ProbeRecord r;
  for (size_t i = 0; i < pool.classes.size(); ++i) {
    const std::vector<ConstraintCheck> c =
        CheckClassConstraints(plan_spec_.classes[pool.classes[i]], metrics[i]);
    r.checks.insert(r.checks.end(), c.begin(), c.end());
  }
  r.feasible = AllMet(r.checks);
  r.metrics = metrics;
  return r;
}

double Planner::CostOf(const PoolState& pool, int candidate, int nodes) const {
  return PoolCostPerHour(scenario_.pools[pool.index], *pool.model,
                         pool.candidates[candidate].licence_per_gpu_hour,
                         nodes);
}

void Planner::RunTracks(std::vector<Track>& tracks, const Scenario& base,
                        bool pilot, bool lockstep) {
  while (true) {
    // Each probe: the tracks it serves (at most one per pool when lockstep).
    std::vector<std::vector<int>> probes;
    if (lockstep) {
      std::map<int, int> next_slot;  // pool -> probes used
      for (size_t t = 0; t < tracks.size(); ++t) {
        if (tracks[t].search.done()) continue;
        const int slot = next_slot[tracks[t].pool]++;
        if (slot >= static_cast<int>(probes.size())) probes.emplace_back();
        probes[slot].push_back(static_cast<int>(t));
      }
    } else {
      for (size_t t = 0; t < tracks.size(); ++t) {
        if (!tracks[t].search.done()) probes.push_back({static_cast<int>(t)});
      }
    }
    if (probes.empty()) return;
    if (OverBudget()) {
      result_.budget_exhausted = true;
      return;
    }
    const Scenario with_choices = WithChoices(base);
    std::vector<std::vector<std::vector<ClassMetrics>>> metrics(probes.size());
    SimulateScenarios(
        static_cast<int>(probes.size()), threads_, catalog_,
        [&](int i, Scenario* s) -> const Scenario& {
          *s = with_choices;
          for (int t : probes[i]) {
            const Track& track = tracks[t];
            const PoolState& pool = pools_[track.pool];
            s->pools[pool.index] = ApplyCandidate(
                s->pools[pool.index], pool.candidates[track.candidate],
                track.search.Next());
          }
          DropWrittenRequestsIfChanged(*s);
          return *s;
        },
        [&](int i, const Scenario&, const SimulationResult& result) {
          for (int t : probes[i]) {
            metrics[i].push_back(JudgedMetrics(result, pools_[tracks[t].pool]));
          }
        },
        observe_);
    result_.simulations += static_cast<int>(probes.size());
    for (size_t i = 0; i < probes.size(); ++i) {
      for (size_t j = 0; j < probes[i].size(); ++j) {
        Track& track = tracks[probes[i][j]];
        const PoolState& pool = pools_[track.pool];
        const int nodes = track.search.Next();
        ProbeRecord record = Judge(metrics[i][j], pool);
        PlanProbe log;
        log.pool = scenario_.pools[pool.index].name;
        log.candidate = pool.candidates[track.candidate].label;
        log.nodes = nodes;
        log.pilot = pilot;
        log.feasible = record.feasible;
        log.cost_per_hour = CostOf(pool, track.candidate, nodes);
        log.missed = Missed(record.checks);
        log.max_mean_wait_s = 0;
        for (const ClassMetrics& m : record.metrics) {
          if (m.slo_attainment >= 0 &&
              (log.min_slo_attainment < 0 ||
               m.slo_attainment < log.min_slo_attainment)) {
            log.min_slo_attainment = m.slo_attainment;
          }
          log.max_mean_wait_s = std::max(log.max_mean_wait_s, m.mean_wait_s);
        }
        result_.log.push_back(std::move(log));
        track.search.Report(record.feasible);
        track.records[nodes] = std::move(record);
      }
    }
  }
}

double Planner::TieScore(const PoolState& pool, int candidate,
                         const std::vector<ClassMetrics>& metrics,
                         const std::vector<double>& lowest) const {
  const SharingScheme scheme = pool.candidates[candidate].sharing.scheme();
  const SchemeRatings ratings = spec_.selection.RatingsOf(scheme);
  double score = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    const int k = pool.classes[i];
    const SelectionWeights& w =
        k < static_cast<int>(spec_.selection.classes.size())
            ? spec_.selection.classes[k].weights
            : SelectionWeights{};
    score += WeightedTotal(
        ScoreDimensions(metrics[i], ratings, lowest[i],
                        spec_.selection.isolation_prior_weight),
        w);
  }
  return score;
}

// Searches the pools of `group` (indexes into pools_) together.
void Planner::SearchPools(const std::vector<int>& group, bool lockstep) {
  auto make_tracks =
      [&](bool from_guess,
          const std::vector<std::vector<std::pair<int, int>>>& guesses) {
        std::vector<Track> tracks;
        for (size_t g = 0; g < group.size(); ++g) {
          const PoolState& pool = pools_[group[g]];
          if (!from_guess) {
            for (size_t c = 0; c < pool.candidates.size(); ++c) {
              tracks.push_back(
                  {group[g],
                   static_cast<int>(c),
                   NodeSearch(pool.spec->min_nodes, pool.spec->max_nodes),
                   {}});
            }
          } else {
            for (const auto& [c, n] : guesses[g]) {
              tracks.push_back(
                  {group[g],
                   c,
                   NodeSearch(pool.spec->min_nodes, pool.spec->max_nodes, n),
                   {}});
            }
          }
        }
        return tracks;
      };
  // Orders a pool's tracks: feasible first, then cost, then how badly they
  // miss, then candidate order.
  auto ranked = [&](const std::vector<Track>& tracks, int pool_index) {
    std::vector<const Track*> out;
    for (const Track& t : tracks) {
      if (t.pool == pool_index) out.push_back(&t);
    }
    const PoolState& pool = pools_[pool_index];
    auto key = [&](const Track* t) {
      const bool ok = t->search.feasible();
      const int n = ok ? t->search.nodes() : pool.spec->max_nodes;
      MissSeverity violation;
      const auto it = t->records.find(n);
      if (!ok && it != t->records.end()) {
        violation = SeverityOf(it->second.checks);
      }
      return std::make_tuple(!ok, CostOf(pool, t->candidate, n), violation,
                             t->candidate);
    };
    std::stable_sort(
        out.begin(), out.end(), [&](const Track* a, const Track* b) {
          const auto ka = key(a);
          const auto kb = key(b);
          if (std::get<0>(ka) != std::get<0>(kb)) {
            return std::get<0>(ka) < std::get<0>(kb);
          }
          if (!std::get<0>(ka)) {
            if (std::abs(std::get<1>(ka) - std::get<1>(kb)) > kCostEpsilon) {
              return std::get<1>(ka) < std::get<1>(kb);
            }
          } else if (MissesLess(std::get<2>(ka), std::get<2>(kb)) ||
                     MissesLess(std::get<2>(kb), std::get<2>(ka))) {
            return MissesLess(std::get<2>(ka), std::get<2>(kb));
          }
          return std::get<3>(ka) < std::get<3>(kb);
        });
    return out;
  };

  std::vector<Track> first = make_tracks(false, {});
  RunTracks(first, has_pilot_ ? pilot_ : scenario_, has_pilot_, lockstep);
  std::vector<Track> confirmed;
  if (has_pilot_) {
    std::vector<std::vector<std::pair<int, int>>> guesses(group.size());
    for (size_t g = 0; g < group.size(); ++g) {
      const PoolState& pool = pools_[group[g]];
      for (const Track* t : ranked(first, group[g])) {
        if (static_cast<int>(guesses[g].size()) >=
            plan_spec_.search.finalists) {
          break;
        }
        const bool ok = t->search.feasible();
        guesses[g].push_back(
            {t->candidate, ok ? t->search.nodes() : pool.spec->max_nodes});
      }
    }
    confirmed = make_tracks(true, guesses);
    RunTracks(confirmed, scenario_, false, lockstep);
  } else {
    confirmed = std::move(first);
  }

  for (int pool_index : group) {
    PoolState& pool = pools_[pool_index];
    const std::vector<const Track*> order = ranked(confirmed, pool_index);
    pool.options.clear();
    if (order.empty()) continue;
    // Cheapest feasible; ties by the weighted selection score.
    const Track* best = order.front();
    if (best->search.feasible()) {
      std::vector<const Track*> tied;
      for (const Track* t : order) {
        if (!t->search.feasible()) break;
        pool.options.push_back({t->candidate, t->search.nodes(), t->records});
        if (std::abs(CostOf(pool, t->candidate, t->search.nodes()) -
                     CostOf(pool, best->candidate, best->search.nodes())) <=
            kCostEpsilon) {
          tied.push_back(t);
        }
      }
      if (tied.size() > 1) {
        std::vector<double> lowest(pool.classes.size(), 0);
        for (const Track* t : tied) {
          const ProbeRecord& r = t->records.at(t->search.nodes());
          for (size_t i = 0; i < r.metrics.size(); ++i) {
            const double c = r.metrics[i].cost_per_served_pod;
            if (c > 0 && (lowest[i] == 0 || c < lowest[i])) lowest[i] = c;
          }
        }
        double best_score = -1;
        for (const Track* t : tied) {
          const double score =
              TieScore(pool, t->candidate,
                       t->records.at(t->search.nodes()).metrics, lowest);
          if (score > best_score + 1e-12) {
            best_score = score;
            best = t;
          }
        }
      }
      pool.chosen = best->candidate;
      pool.chosen_nodes = best->search.nodes();
      // The tie-break's choice first: the cluster limits keep it at equal
      // cost.
      for (size_t k = 0; k < pool.options.size(); ++k) {
        if (pool.options[k].candidate == pool.chosen) {
          std::rotate(pool.options.begin(), pool.options.begin() + k,
                      pool.options.begin() + k + 1);
          break;
        }
      }
    } else {
      // Nothing meets the constraints: the one that misses least, at max.
      pool.chosen = best->candidate;
      pool.chosen_nodes = pool.spec->max_nodes;
    }
    pool.chosen_records = best->records;
  }
}

void Planner::ChooseCombination() {
  const ClusterConstraints& limits = plan_spec_.cluster;
  if (limits.max_gpus < 0 && limits.max_cost_per_hour < 0) return;
  // The cheapest combination of confirmed options within the limits.
  double combos = 1;
  for (const PoolState& p : pools_) {
    combos *= std::max<size_t>(1, p.options.size());
  }
  if (combos > 100000) {
    result_.notes.push_back(
        "too many combinations to search under the cluster limits: each pool "
        "keeps its cheapest setting");
    return;
  }
  int64_t fixed_gpus = 0;
  double fixed_cost = 0;
  std::set<int> planned;
  for (const PoolState& p : pools_) planned.insert(p.index);
  for (size_t i = 0; i < scenario_.pools.size(); ++i) {
    if (planned.count(static_cast<int>(i)) > 0) continue;
    fixed_gpus += PoolGpus(scenario_.pools[i]);
    fixed_cost += WrittenPoolCostPerHour(scenario_.pools[i], catalog_);
  }
  std::vector<size_t> pick(pools_.size(), 0), best_pick;
  double best_cost = -1;
  while (true) {
    int64_t gpus = fixed_gpus;
    double cost = fixed_cost;
    bool complete = true;
    for (size_t i = 0; i < pools_.size(); ++i) {
      const PoolState& p = pools_[i];
      if (p.options.empty()) {
        complete = false;
        break;
      }
      const PoolOption& o = p.options[pick[i]];
      gpus += static_cast<int64_t>(o.nodes) *
              scenario_.pools[p.index].gpus_per_node;
      cost += CostOf(p, o.candidate, o.nodes);
    }
    if (complete && AllMet(CheckClusterConstraints(limits, gpus, cost)) &&
        (best_cost < 0 || cost < best_cost - kCostEpsilon)) {
      best_cost = cost;
      best_pick = pick;
    }
    size_t i = 0;
    for (; i < pools_.size(); ++i) {
      if (++pick[i] < std::max<size_t>(1, pools_[i].options.size())) break;
      pick[i] = 0;
    }
    if (i == pools_.size()) break;
  }
  if (best_pick.empty()) return;
  for (size_t i = 0; i < pools_.size(); ++i) {
    PoolState& p = pools_[i];
    const PoolOption& o = p.options[best_pick[i]];
    if (o.candidate != p.chosen || o.nodes != p.chosen_nodes) {
      p.chosen = o.candidate;
      p.chosen_nodes = o.nodes;
      p.chosen_records = o.records;
    }
  }
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
                    SharingLabel(p.sharing, &catalog_.Get(p.gpu_model))));
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
    const SchemeVariant variant = MakeSchemeVariant(
        scenario_, v.scheme, spec_.compare, catalog_, families);
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
      out.written = SharingLabel(written.sharing, &model);
      out.setting = SharingLabel(p.sharing, &model);
      out.cost_per_hour = WrittenPoolCostPerHour(p, catalog_);
    }
    for (const PoolState& s : pools_) {
      if (s.index != static_cast<int>(i)) continue;
      out.candidates = static_cast<int>(s.candidates.size());
      if (!searched) break;
      out.at_minimum = p.nodes <= s.spec->min_nodes;
      const auto it = s.chosen_records.find(p.nodes - 1);
      if (it != s.chosen_records.end()) out.binding = Missed(it->second.checks);
    }
    result_.pools.push_back(out);
  }
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
    const bool better =
        r.feasible &&
        (!best.feasible || r.cost_per_hour < best.cost_per_hour - kCostEpsilon);
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
  return result_;
}

}  // namespace

PlanResult RunPlanner(const Scenario& scenario, const ComparisonSpec& spec,
                      const PlanSpec& plan_spec, const Catalog& catalog,
                      int threads, double budget_s,
                      const RunObserverFactory& observe) {
  Planner planner(scenario, spec, plan_spec, catalog, threads, budget_s,
                  observe);
  return planner.Run();
}

}  // namespace gpushare
