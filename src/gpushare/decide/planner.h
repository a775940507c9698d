// Planner: the cheapest mix of node pools — each pool's sharing scheme,
// settings and node count — under which every tenant class meets its
// constraints, with the simulator as the judge.
//
// Contract: RunPlanner() first runs the comparison (decide/comparison.h):
// its single-scheme variants and the scenario's own plan are the reference
// plans. It then searches the PlanSpec's pools (docs/model.md, "The
// planner"):
//   1. Routing: a pilot run tells which pool each tenant class's pods are
//      routed to by their selectors. When every pod has one target pool the
//      pools are separable: a class is judged only in its pool and every
//      pool is searched in the same runs; otherwise pools are searched one
//      at a time (coordinate descent, PlanSearchSpec::rounds passes), the
//      others at their current choice, and classes without a target pool
//      are judged with every pool.
//   2. Pilot: for every candidate setting of every pool (decide/
//      plan_candidates.h), the fewest nodes in the pool's range under which
//      its classes meet their constraints (decide/node_search.h) on the
//      pilot workload (PilotScenario, PlanSearchSpec::pilot_pods).
//   3. Confirm: the `finalists` cheapest pilot-feasible candidates of each
//      pool searched again on the whole workload from the pilot's answer.
//      Every probe on the whole workload runs on each seed of
//      CompareSpec::seeds and is judged on the classes' mean metrics, as
//      the answer is (the pilot runs on the first seed only).
//   4. Choice: per pool the cheapest confirmed candidate (ties: the pool's
//      setting as written, else the higher weighted selection score of its
//      classes, then candidate order), the combination the cheapest under
//      the cluster-wide limits; the plan is run once more whole and checked
//      against every constraint.
//   5. The answer is the cheapest plan that meets every constraint among
//      the searched plan and the reference plans that lie in the plan's
//      space (each changed pool listed in `pools` with that scheme, its
//      written node count within the range), so it never costs more than a
//      feasible single-scheme variant; today's plan at equal cost is kept.
//      When none meets them, the plan that misses least
//      (plan_constraints.h MissesLess) is returned with what it misses.
//   Each planned pool's row says what its change from today's setting buys
//   and whether it is a knife edge (PoolPlan).
// Simulations run on `threads` threads; the result does not depend on the
// thread count. When `budget_s` > 0 no new batch of simulations starts
// after that much wall time (the comparison always runs): unfinished
// searches keep their best answer so far and the result says so (then it
// may depend on the machine's speed). Throws InputError when a pool or a
// candidate is invalid.

#ifndef GPUSHARE_DECIDE_PLANNER_H_
#define GPUSHARE_DECIDE_PLANNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/plan_constraints.h"
#include "gpushare/decide/plan_spec.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// The constraints one seed of a probe or plan missed.
struct SeedMisses {
  uint64_t seed = 0;
  std::vector<ConstraintCheck> missed;
};

// One simulation of one pool's candidate at one node count (one per seed
// on the whole workload).
struct PlanProbe {
  std::string pool;
  std::string candidate;  // PoolCandidate::label
  int nodes = 0;
  bool pilot = false;        // on the pilot workload
  bool feasible = false;     // its classes met their constraints
  double cost_per_hour = 0;  // of the pool
  std::vector<ConstraintCheck> missed;
  // The pool's classes, worst case: lowest SLO attainment (-1: no SLO
  // samples) and longest mean wait.
  double min_slo_attainment = -1;
  double max_mean_wait_s = 0;
  // The seeds it ran on, those on which its classes met every constraint,
  // and what each other seed missed.
  int seeds = 1;
  int seeds_feasible = 0;
  std::vector<SeedMisses> seed_misses;
};

// A setting cheaper than the answer's for its pool that met every
// constraint on some seed but not on the mean of the seeds: what a search
// on fewer seeds could have chosen, and why this one did not.
struct RejectedPlan {
  std::string pool;
  std::string setting;
  int nodes = 0;
  double cost_per_hour = 0;  // of the pool
  int seeds = 1;
  int seeds_feasible = 0;
  std::vector<ConstraintCheck> missed;  // on the mean
  std::vector<SeedMisses> seed_misses;  // per seed that missed
};

// The chosen setting of one pool of the scenario.
struct PoolPlan {
  std::string pool;
  std::string model;
  int gpus_per_node = 0;
  bool planned = false;  // listed in plan.pools (others stay)
  std::string written;   // the scenario's setting ("MIG all-balanced")
  int written_nodes = 0;
  std::string setting;  // the plan's
  int nodes = 0;
  int min_nodes = 0;
  int max_nodes = 0;
  double licence_per_gpu_hour = 0;
  double cost_per_hour = 0;
  std::vector<std::string> tenant_classes;  // routed to it
  int candidates = 0;                       // settings tried
  // The answer with one node fewer in this pool, on the answer's seeds:
  // what it misses on their mean and on each seed (`binding_known` false
  // when it was not run); `at_minimum` when the pool is at the bottom of
  // its range.
  bool binding_known = false;
  std::vector<ConstraintCheck> binding;
  int binding_seeds = 1;
  std::vector<SeedMisses> binding_seed_misses;
  bool at_minimum = false;
  // Knife edge (docs/model.md §10): its classes lost no work in the answer
  // (no OOM kills, failed pods or evictions) but do with one node fewer:
  // what they lose there (mean over the seeds).
  bool knife_edge = false;
  int64_t edge_oom_kills = 0;
  int64_t edge_failed = 0;
  int64_t edge_evictions = 0;
  double edge_lost_gpu_hours = 0;
  // What the answer's change of the pool from today's setting and nodes
  // buys ("cheaper by $12.00/h than ..."); "" when it keeps them. When it
  // kept today's setting at equal cost: the settings it was tied with.
  std::string change_buys;
  std::vector<std::string> kept_over;
};

// A tenant class whose wait is mostly admission wait while its queue sat at
// its quota with room for its pods on its flavor's nodes — free replicas,
// MIG instances, HAMi slots or whole GPUs (docs/model.md §10, "Quotas"):
// more nodes do not shorten it.
struct QuotaBoundClass {
  std::string tenant_class;
  std::string queue;
  double mean_wait_s = 0;
  double mean_admission_wait_s = 0;
  double idle_at_quota_share = 0;  // of the samples
  // The mean free units of its flavor's nodes then, and their resource
  // ("nvidia.com/gpu", "nvidia.com/mig-3g.40gb", "whole GPUs").
  double free_at_quota = 0;
  std::string free_resource;
  bool pinned = false;             // listed in plan.pinned_quotas
};

// A whole plan run on the whole workload.
struct PlanOutcome {
  std::string name;      // "plan (searched)", "exclusive", ..., "today"
  bool in_space = true;  // a plan the spec allows
  bool feasible = false;
  int64_t gpus = 0;
  double cost_per_hour = 0;
  // Every class's and the cluster's, on the classes' mean metrics over the
  // seeds (CompareSpec::seeds); `feasible` when all are met.
  std::vector<ConstraintCheck> checks;
  int seeds = 1;
  int seeds_feasible = 0;  // seeds on which every constraint is met
  std::vector<std::string> pools;       // "prod H100-80GB x6 MIG all-balanced"
  std::vector<QuotaBoundClass> quota_bound;
  // Every tenant class's mean metrics over the seeds, in class order (not
  // reported; the knife-edge flag reads them).
  std::vector<ClassMetrics> class_metrics;
};

struct PlanResult {
  std::string scenario;
  uint64_t seed = 0;
  int64_t pods = 0;
  int64_t pilot_pods = 0;  // pods of the pilot (== pods: no pilot)
  bool separable = true;
  std::vector<std::string> tenant_classes;
  std::vector<PoolPlan> pools;  // every pool, in cluster order
  PlanOutcome chosen;
  std::string chosen_from;              // "search" or a reference's name
  std::vector<PlanOutcome> references;  // compare's variants and today's
  std::vector<PlanProbe> log;           // every probe, in search order
  // Cheaper settings rejected on the seeds (in pool order, then cost).
  std::vector<RejectedPlan> rejected;
  int simulations = 0;
  bool budget_exhausted = false;
  std::vector<std::string> notes;
  Scenario plan;  // the chosen plan as a scenario
};

PlanResult RunPlanner(const Scenario& scenario, const ComparisonSpec& spec,
                      const PlanSpec& plan_spec, const Catalog& catalog,
                      int threads, double budget_s = 0,
                      const RunObserverFactory& observe = {});

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_PLANNER_H_
