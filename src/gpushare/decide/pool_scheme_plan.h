// PoolSchemePlan: the selection's per-class answers resolved into one
// sharing scheme per GPU pool. A pool runs one scheme, so tenant classes
// whose pods share a pool but whose winners differ conflict there; the pool
// plan settles each pool and says how it did when run.
//
// Contract: plain data, filled by ResolvePoolSchemes()
// (decide/pool_scheme_resolution.h) and read by the reports.

#ifndef GPUSHARE_DECIDE_POOL_SCHEME_PLAN_H_
#define GPUSHARE_DECIDE_POOL_SCHEME_PLAN_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gpushare {

// One tenant class's pods routed to a pool, and the scheme it wins.
struct PoolRoutedClass {
  std::string tenant_class;
  int64_t pods = 0;    // routed to this pool (mean over the seeds)
  std::string winner;  // the class's winning variant ("" none)
  // When the class is too close to call: the other variant within the
  // margin (ClassChoice::contender); "" when its win is decisive.
  std::string contender;
  bool ok = false;   // the pool's scheme serves it well (its contract)
  double total = 0;  // its score under the pool's scheme (0 unranked)
};

// The scheme one GPU pool gets.
struct PoolSchemeChoice {
  std::string pool;
  std::string written;  // the scheme the scenario gives it ("mig", ...)
  // The variant chosen ("mig", "hami", ...); "" when no pods are routed to
  // the pool (it keeps its written scheme).
  std::string variant;
  std::vector<PoolRoutedClass> classes;  // with pods routed, class order
  // No one variant is the winner (or, when too close to call, the winner
  // or its contender) of every routed class that has one.
  bool conflict = false;
  // Routed pods the scheme strands: of classes it serves none of, and the
  // pods it cannot run of the others (class-wide counts, at most the
  // routed pods).
  int64_t pods_stranded = 0;
  // Routed pods of classes whose work the scheme throws away: their
  // contract misses its limit on OOM kills or failed pods.
  int64_t pods_losing_work = 0;
  // Routed pods whose class the chosen scheme serves well, and
  // the pod-weighted mean of the classes' totals under it.
  int64_t pods_ok = 0;
  int64_t pods = 0;
  double score = 0;
  // The pod-weighted mean of the classes' measured totals under it (the
  // rating priors left out; SchemeScore::measured_by_seed, mean over the
  // seeds; 0 where not ranked).
  double measured = 0;
  // When the variant is not the written scheme: what the change buys over
  // it ("3 more routed pods in classes it serves well", "a measured score
  // of 7.4 vs 6.9 (pod-weighted, ratings left out)"); "" otherwise.
  std::string buys;
  // When the written scheme was kept at a tie: the variant that scored
  // higher on its ratings alone ("" otherwise), and its measured score.
  std::string kept_over;
  double kept_over_measured = 0;
};

struct PoolSchemePlan {
  std::vector<PoolSchemeChoice> pools;  // GPU pools, in scenario order
  bool conflict = false;                // some pool conflicts
  // The uniform variant every GPU pool got (then its run is the plan's);
  // "" when the plan mixes schemes (then its run is the "pool-plan"
  // variant of the comparison).
  std::string same_as;
  bool ran = false;  // the mixed plan was run (a "pool-plan" variant)
};

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_POOL_SCHEME_PLAN_H_
