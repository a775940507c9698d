// Comparison: the same workload on the same hardware under every sharing
// scheme (and the scenario's own mixed plan), run side by side.
//
// Contract: RunComparison() builds one variant per scheme of the
// CompareSpec (decide/scheme_variant.h), plus the scenario as written when
// its pools mix schemes, and simulates each on CompareSpec::seeds seeds (the
// scenario's seed, seed + 1, ...) on `threads` threads; results
// are identical whatever the thread count (each run is deterministic and
// writes only its own slot). For MIG it first runs every layout family on
// a pilot (the workload scaled down to about `mig_pilot_pods` pods by
// shortening the arrival window and scaling class counts; the whole workload
// when it is smaller) and gives each MIG-capable pool the family that served
// the pods routed to it best over the seeds (highest mean pod performance,
// then lowest cost per served pod, then family order); pools are judged
// apart because pods reach them by their selectors. Each variant keeps the
// cluster-wide and per-tenant-class metrics (decide/class_metrics.h), as the
// mean over the seeds and per seed, the pools' descriptions, the first
// seed's pool summaries and samples and, for the plan, the scheme each class
// ran under.
// Throws InputError when a variant's scenario is invalid.

#ifndef GPUSHARE_DECIDE_COMPARISON_H_
#define GPUSHARE_DECIDE_COMPARISON_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/class_metrics.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/scheme_variant.h"
#include "gpushare/metrics/results.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/sim/simulation_observer.h"

namespace gpushare {

// One family tried on one pool.
struct MigCandidate {
  std::string family;
  std::string config;      // the pool model's named config
  double performance = 0;  // mean over the pods routed to the pool
  double cost_per_served_pod = 0;
};

// The MIG layout chosen for one MIG-capable pool.
struct MigPoolChoice {
  std::string pool;
  std::string model;
  std::string family;  // chosen
  std::string config;
  int64_t pods = 0;  // pilot pods routed to the pool
  std::vector<MigCandidate> candidates;
};

struct VariantOutcome {
  std::string name;  // "exclusive", ..., "plan", "pool-plan"
  bool plan = false;
  bool pool_plan = false;  // the selection's pool plan (decide/pool_plan.h)
  SharingScheme scheme = SharingScheme::kExclusive;
  std::vector<std::string> notes;
  std::vector<std::string> pools;  // "prod H100-80GB mig all-balanced"
  // Means over the seeds (MeanClassMetrics).
  ClassMetrics cluster;
  std::vector<ClassMetrics> classes;  // in Comparison::tenant_classes order
  // Per seed, in Comparison::seeds order: [seed][class]. Empty when built
  // by hand with one run (then `classes` is that run).
  std::vector<std::vector<ClassMetrics>> classes_by_seed;
  // The scheme each tenant class's pods mostly ran under (or were routed
  // to, for pods that never ran; "" if none was routed):
  // the plan's per-class scheme; another variant's own scheme, unless its
  // pools could not apply it (MIG on GPUs without MIG).
  std::vector<std::string> class_schemes;
  // The pods of each tenant class its selectors route to each pool, in the
  // scenario's pool order ([class][pool], the rounded mean over the seeds);
  // the same in every variant, since routing depends on labels and taints,
  // not on schemes.
  std::vector<std::vector<int64_t>> class_routed_pods;
  // Cluster-wide figures, means over the seeds (counts rounded; alerts:
  // the rounded mean count of each alert).
  double end_s = 0;
  int64_t faults = 0;
  double max_blast_radius = 0;
  // Patrol alerts that fired in the run, per alert name (sorted by name).
  std::map<std::string, int> alerts;
  double mean_allocation = 0;  // over pools, weighted by GPUs
  double mean_sm_active = 0;
  double mean_gpu_util = 0;
  double cluster_cost = 0;  // every GPU for the whole run
  double goodput = -1;  // SimulationResult::goodput (mean over seeds with work)
  // The first seed's pools with their samples (metrics/results.h), for
  // charts.
  std::vector<PoolSummary> pool_summaries;
};

struct Comparison {
  std::string scenario;
  uint64_t seed = 0;
  std::vector<uint64_t> seeds;  // every seed run, `seed` first
  int64_t pods = 0;             // of the first seed's runs
  std::vector<std::string> tenant_classes;    // workload class names
  std::vector<std::string> workload_classes;  // their kinds
  std::vector<std::string> pools;             // the scenario's pool names
  // Each pool's scheme as written ("mig", ...; "" for pools without GPUs).
  std::vector<std::string> pool_schemes;
  // Per tenant class, why no scheme is offered to it (TenantClassInfo::
  // no_scheme; "": one is). Empty: every class is offered schemes.
  std::vector<std::string> class_no_scheme;
  std::vector<MigPoolChoice> mig_choices;     // empty without a MIG variant
  bool mig_pilot = false;      // candidates judged on a scaled-down pilot
  int64_t mig_pilot_pods = 0;  // pods in the pilot (or the whole workload)
  std::vector<VariantOutcome> variants;
  // The scenario's model.eviction_warning_per_pod.
  int eviction_warning_per_pod = 3;
};

// Makes one more observer for each simulation run (a progress bar's feed);
// called on the run's thread, the observer lives for the run. May be empty.
using RunObserverFactory = std::function<std::unique_ptr<SimulationObserver>()>;

Comparison RunComparison(const Scenario& scenario, const CompareSpec& spec,
                         const Catalog& catalog, int threads,
                         const RunObserverFactory& observe = {});

// How many simulations RunComparison runs: per seed, the MIG families'
// pilots (when MIG is compared), one per scheme, and the plan when the pools
// mix schemes.
int ComparisonRunCount(const Scenario& scenario, const CompareSpec& spec);

// Summarizes one run of `variant` (exposed for tests).
VariantOutcome SummarizeVariant(const SchemeVariant& variant,
                                const SimulationResult& result,
                                const std::vector<std::string>& tenant_classes);

// One variant over its runs on several seeds (in seed order, at least one):
// names, notes, pools, class schemes and pool summaries of the first; the
// metrics and figures averaged as VariantOutcome says; classes_by_seed
// filled.
VariantOutcome MergeSeedRuns(std::vector<VariantOutcome> runs);

// `scenario` with `seed` everywhere it seeds a draw (workload, scheduler
// tie-breaks, faults), as if the file said so.
Scenario ScenarioWithSeed(const Scenario& scenario, uint64_t seed);

// One run of `scenario` with its collector (pod records, no per-device
// samples) and, when `observe` is set, one more observer.
SimulationResult SimulateScenario(const Scenario& scenario,
                                  const Catalog& catalog,
                                  const RunObserverFactory& observe = {});

// Simulations in a batch, the machinery `compare` (its MIG pilots and
// variants), `plan` (its probes) and `sweep` (its points) share: runs
// SimulateScenario() on the scenario `scenario_of(i, &scratch)` returns (one
// of the caller's, or `scratch` filled on the worker thread) for every i in
// [0, n) on `threads` threads, and calls `use(i, scenario, result)` on that
// thread.
// As ParallelFor (base/parallel.h): each index once, `use` writes only its
// own slot, results do not depend on the thread count.
using ScenarioOf = std::function<const Scenario&(int index, Scenario* scratch)>;
void SimulateScenarios(int n, int threads, const Catalog& catalog,
                       const ScenarioOf& scenario_of,
                       const std::function<void(int, const Scenario&,
                                                const SimulationResult&)>& use,
                       const RunObserverFactory& observe = {});

// The pods a workload's generator classes are expected to create (counts,
// or rate x arrival window); trace pods are not counted.
double ExpectedPods(const WorkloadSpec& workload);

// The scenario scaled down to about `pods` pods (see RunComparison);
// unchanged when it expects no more than that.
Scenario PilotScenario(const Scenario& scenario, int64_t pods);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_COMPARISON_H_
