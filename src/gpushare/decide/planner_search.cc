// Planner (planner_internal.h), the search: each pool's candidates probed
// at node counts (pilot, then confirmation on the whole workload), judged
// against their classes' constraints, and the cheapest combination chosen
// under the cluster-wide limits (planner.h, steps 2 to 4).

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
  r.seeds_feasible = r.feasible ? 1 : 0;
  r.metrics = metrics;
  if (!r.feasible) r.seed_misses.push_back({scenario_.seed, Missed(r.checks)});
  return r;
}

ProbeRecord Planner::JudgeSeeds(
    const std::vector<std::vector<ClassMetrics>>& by_seed,
    const PoolState& pool) const {
  // One seed: its own metrics, as they are.
  if (by_seed.size() == 1) return Judge(by_seed.front(), pool);
  std::vector<ClassMetrics> mean;
  for (size_t k = 0; k < pool.classes.size(); ++k) {
    std::vector<ClassMetrics> runs;
    for (const std::vector<ClassMetrics>& seed : by_seed) {
      runs.push_back(seed[k]);
    }
    mean.push_back(MeanClassMetrics(runs));
  }
  ProbeRecord r = Judge(mean, pool);
  r.seeds = static_cast<int>(by_seed.size());
  r.seeds_feasible = 0;
  r.seed_misses.clear();
  for (size_t i = 0; i < by_seed.size(); ++i) {
    const ProbeRecord one = Judge(by_seed[i], pool);
    if (one.feasible) {
      ++r.seeds_feasible;
    } else {
      r.seed_misses.push_back(
          {scenario_.seed + static_cast<uint64_t>(i), Missed(one.checks)});
    }
  }
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
    // On the whole workload every probe runs on each seed, as the answer is
    // judged; the pilot only ranks candidates, on the first seed.
    const int seeds = pilot ? 1 : Seeds();
    // [probe][seed][track of the probe][class]
    std::vector<std::vector<std::vector<std::vector<ClassMetrics>>>> metrics(
        probes.size(),
        std::vector<std::vector<std::vector<ClassMetrics>>>(seeds));
    SimulateScenarios(
        static_cast<int>(probes.size()) * seeds, threads_, catalog_,
        [&](int i, Scenario* s) -> const Scenario& {
          *s = with_choices;
          for (int t : probes[i / seeds]) {
            const Track& track = tracks[t];
            const PoolState& pool = pools_[track.pool];
            s->pools[pool.index] = ApplyCandidate(
                s->pools[pool.index], pool.candidates[track.candidate],
                track.search.Next());
          }
          AdaptToPools(*s);
          if (i % seeds > 0) {
            *s = ScenarioWithSeed(
                *s, scenario_.seed + static_cast<uint64_t>(i % seeds));
          }
          return *s;
        },
        [&](int i, const Scenario&, const SimulationResult& result) {
          for (int t : probes[i / seeds]) {
            metrics[i / seeds][i % seeds].push_back(
                JudgedMetrics(result, pools_[tracks[t].pool]));
          }
        },
        observe_);
    result_.simulations += static_cast<int>(probes.size()) * seeds;
    for (size_t i = 0; i < probes.size(); ++i) {
      for (size_t j = 0; j < probes[i].size(); ++j) {
        Track& track = tracks[probes[i][j]];
        const PoolState& pool = pools_[track.pool];
        const int nodes = track.search.Next();
        std::vector<std::vector<ClassMetrics>> by_seed;
        for (int k = 0; k < seeds; ++k) by_seed.push_back(metrics[i][k][j]);
        ProbeRecord record = JudgeSeeds(by_seed, pool);
        PlanProbe log;
        log.pool = scenario_.pools[pool.index].name;
        log.candidate = pool.candidates[track.candidate].label;
        log.nodes = nodes;
        log.pilot = pilot;
        log.feasible = record.feasible;
        log.cost_per_hour = CostOf(pool, track.candidate, nodes);
        log.missed = Missed(record.checks);
        log.seeds = record.seeds;
        log.seeds_feasible = record.seeds_feasible;
        log.seed_misses = record.seed_misses;
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
                        spec_.selection.isolation_prior_weight,
                        spec_.selection.compatibility_prior_weight),
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
    pool.kept_over.clear();
    NoteWrittenSetting(pool_index, confirmed, has_pilot_ ? &first : nullptr);
    if (order.empty()) continue;
    // Cheapest feasible; ties keep the setting as written, else go to the
    // weighted selection score.
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
      const auto today = std::find_if(
          tied.begin(), tied.end(),
          [&](const Track* t) { return t->candidate == pool.written; });
      if (today != tied.end()) {
        best = *today;
        for (const Track* t : tied) {
          if (t != best) {
            pool.kept_over.push_back(pool.candidates[t->candidate].label);
          }
        }
      } else if (tied.size() > 1) {
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

void Planner::NoteWrittenSetting(int pool_index,
                                 const std::vector<Track>& confirmed,
                                 const std::vector<Track>* pilot) {
  PoolState& pool = pools_[pool_index];
  pool.written_result = {};
  if (pool.written < 0) return;
  const auto find = [&](const std::vector<Track>& tracks) -> const Track* {
    for (const Track& t : tracks) {
      if (t.pool == pool_index && t.candidate == pool.written) return &t;
    }
    return nullptr;
  };
  const Track* t = find(confirmed);
  const bool on_pilot = t == nullptr && pilot != nullptr;
  if (on_pilot) t = find(*pilot);
  if (t == nullptr || t->records.empty()) return;
  WrittenSettingResult& w = pool.written_result;
  w.known = true;
  w.pilot = on_pilot;
  w.feasible = t->search.feasible();
  w.nodes = w.feasible ? t->search.nodes() : t->records.rbegin()->first;
  w.cost_per_hour = CostOf(pool, pool.written, w.nodes);
  if (!w.feasible) w.missed = Missed(t->records.rbegin()->second.checks);
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

}  // namespace planner_internal
}  // namespace gpushare
