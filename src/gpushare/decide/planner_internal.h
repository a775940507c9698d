// The Planner behind RunPlanner() (planner.h), shared by the files that
// implement it: planner.cc (the run: routing, pools, the answer),
// planner_search.cc (the search of each pool's candidates and node counts,
// and the choice of a combination) and planner_outcomes.cc (the reports:
// a plan judged on every seed, the reference plans, the pools' rows).
// Internal to decide/; nothing outside those files includes it.
//
// Contract: one Planner serves one RunPlanner() call; Run() is called once.
// Its members hold the search's state between the steps of planner.h's
// contract.

#ifndef GPUSHARE_DECIDE_PLANNER_INTERNAL_H_
#define GPUSHARE_DECIDE_PLANNER_INTERNAL_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gpushare/decide/node_search.h"
#include "gpushare/decide/plan_candidates.h"
#include "gpushare/decide/planner.h"
#include "gpushare/decide/queue_quota_conversion.h"

namespace gpushare {
namespace planner_internal {

// Costs closer than this are equal.
inline constexpr double kCostEpsilon = 1e-9;

// One probe's result for one track: judged on the judged classes' mean
// metrics over the seeds it ran on, with what each seed missed.
struct ProbeRecord {
  bool feasible = false;
  std::vector<ConstraintCheck> checks;
  std::vector<ClassMetrics> metrics;  // the judged classes' (mean)
  int seeds = 1;
  int seeds_feasible = 0;
  std::vector<SeedMisses> seed_misses;  // the seeds that missed
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

// What the search knew of a pool's setting as written: on the whole
// workload, else on the pilot; its fewest nodes that met every constraint
// and their cost, or what it missed at the most nodes tried.
struct WrittenSettingResult {
  bool known = false;
  bool pilot = false;
  bool feasible = false;
  int nodes = 0;
  double cost_per_hour = 0;
  std::vector<ConstraintCheck> missed;
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
  // The candidate that is the pool's setting as written (-1: its scheme is
  // not allowed), what the search knew of it, and the other settings that
  // tied with it when it was kept (ties keep today's setting).
  int written = -1;
  WrittenSettingResult written_result;
  std::vector<std::string> kept_over;
  // The confirmed feasible settings of the last pass, the chosen one
  // first.
  std::vector<PoolOption> options;
  std::map<int, ProbeRecord> chosen_records;  // of the chosen candidate
};

// The GPUs of a pool as written.
int64_t PoolGpus(const NodePoolSpec& pool);
// The pool's cost per hour as written (0 without GPUs).
double WrittenPoolCostPerHour(const NodePoolSpec& pool, const Catalog& catalog);
int64_t ScenarioGpus(const Scenario& scenario);
double ScenarioCostPerHour(const Scenario& scenario, const Catalog& catalog);

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
  // How the plan's quotas follow its pools (plan.pinned_quotas).
  QuotaScaling Scaling() const;
  // Requests dropped when a pool's scheme changed, and the queues' quotas
  // converted to the pools' schemes and scaled with their sizes.
  void AdaptToPools(Scenario& s) const;
  std::vector<ClassMetrics> JudgedMetrics(const SimulationResult& result,
                                          const PoolState& pool) const;
  ProbeRecord Judge(const std::vector<ClassMetrics>& metrics,
                    const PoolState& pool) const;
  // Judged on the mean of `by_seed` ([seed][class], seeds from the
  // scenario's), with each seed's misses.
  ProbeRecord JudgeSeeds(
      const std::vector<std::vector<ClassMetrics>>& by_seed,
      const PoolState& pool) const;
  // Seeds a whole-workload probe runs on (CompareSpec::seeds).
  int Seeds() const { return std::max(1, spec_.compare.seeds); }
  double CostOf(const PoolState& pool, int candidate, int nodes) const;
  void RunTracks(std::vector<Track>& tracks, const Scenario& base, bool pilot,
                 bool lockstep);
  void SearchPools(const std::vector<int>& group, bool lockstep);
  // What the search's tracks (`confirmed` on the whole workload, else
  // `pilot`, when given) knew of the pool's written setting.
  void NoteWrittenSetting(int pool_index, const std::vector<Track>& confirmed,
                          const std::vector<Track>* pilot);
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
  // The answer with one node fewer in each planned pool whose line is not
  // known from the search, run on every seed.
  void FillBindings(const Scenario& plan);
  // `row`'s knife-edge flag from its pool's classes with one node fewer
  // (`fewer`, in `pool.classes` order) against the answer's.
  void SetKnifeEdge(const PoolState& pool,
                    const std::vector<ClassMetrics>& fewer,
                    PoolPlan* row) const;
  // What the answer's change of `pool` from its written setting buys (""
  // when it keeps it).
  std::string ChangeBuys(const PoolState& pool, const PoolPlan& row) const;
  // Cheaper settings of the search log rejected on the seeds.
  void CollectRejected();

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

}  // namespace planner_internal
}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLANNER_INTERNAL_H_
