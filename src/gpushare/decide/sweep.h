// Sweep: a scenario evaluated at every point of a grid (docs/sweep.md).
//
// Contract: a Sweep reads every point of `points` first
// (decide/sweep_point.h; the first bad point is an InputError and nothing
// runs), then evaluates them on `threads` threads: a `run` sweep simulates
// the point's scenario once, through SimulateScenarios() as compare and
// plan run theirs (its one variant is named "scenario"); a
// `compare` sweep runs the comparison (decide/comparison.h) and its
// selection, and records each tenant class's winner. `done` is called once
// per point as it finishes, one call at a time (under a lock), in any
// order; each result depends only on the grid, the scenario and the point,
// never on the thread count or timing. Points are read one at a time.

#ifndef GPUSHARE_DECIDE_SWEEP_H_
#define GPUSHARE_DECIDE_SWEEP_H_

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison.h"
#include "gpushare/decide/pool_scheme_plan.h"
#include "gpushare/decide/sweep_grid.h"
#include "gpushare/decide/sweep_point.h"

namespace gpushare {

struct SweepPointResult {
  int64_t point = 0;
  std::vector<std::string> values;  // per varied key (SweepGrid::VariedKeys)
  std::vector<std::string> tenant_classes;
  // run: one, "scenario" (plan = true: each class's scheme is recorded);
  // compare: every variant of the comparison.
  std::vector<VariantOutcome> variants;
  // The point scenario's scheme: one scheme's name, or "mixed".
  std::string scheme;
  // compare: per tenant class, the winning variant ("" when none wins).
  std::vector<std::string> winners;
  // compare: the winners settled per pool (decide/pool_scheme_resolution.h);
  // when it mixes schemes, its run is the last variant, "pool-plan".
  PoolSchemePlan pool_plan;
};

class Sweep {
 public:
  // Reads every point of `points` (`grid` and `catalog` must outlive the
  // Sweep); the first bad point is an InputError.
  Sweep(const SweepGrid& grid, const std::string& scenario_text,
        const std::string& scenario_file, std::vector<int64_t> points,
        const Catalog& catalog);

  // The simulations the points take (1 per `run` point).
  int64_t runs() const { return runs_; }

  void Run(int threads,
           const std::function<void(const SweepPointResult&)>& done,
           const RunObserverFactory& observe = {}) const;

 private:
  // Reads a point's scenario, one thread at a time.
  SweepPoint Read(int64_t point, std::mutex& read_lock) const;
  // A point's result before its variants: values, classes, scheme.
  SweepPointResult Start(int64_t point, const Scenario& scenario) const;

  const SweepGrid& grid_;
  const std::string scenario_text_;
  const std::string scenario_file_;
  const std::vector<int64_t> points_;
  const Catalog& catalog_;
  int64_t runs_ = 0;
  // The points read when checking, kept for the run when there are at most
  // kKeptPoints and no trace (others are read again: same scenario).
  static constexpr int64_t kKeptPoints = 10000;
  std::map<int64_t, SweepPoint> kept_;
};

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_H_
