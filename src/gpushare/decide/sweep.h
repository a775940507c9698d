// Sweep: a scenario evaluated at every point of a grid (docs/sweep.md).
//
// Contract: a Sweep reads (checks) its first point when made, and every
// other point just before it runs: points are read one at a time, in the
// order of `points` (decide/sweep_point.h, the grid parsed once), and each
// is handed to one of `threads` threads as soon as it is read, so the first
// result does not wait for the grid's other points to be read. The first bad
// point, in that order, is an InputError: no point after it is read or
// started, the points before it all run to the end (and are passed to
// `done`), and Run() then throws the error. A `run` sweep simulates the
// point's scenario once, as compare and plan run theirs (its one variant is
// named "scenario"); a `compare` sweep runs the comparison
// (decide/comparison.h) and its selection, and records each tenant class's
// winner. `done` is called once per point as it finishes, one call at a time
// (under a lock), in any order; each result depends only on the grid, the
// scenario and the point, never on the thread count or timing. An exception
// of a run (or of `done`) stops the sweep likewise: the one of the lowest
// point is rethrown. CheckSweepPoints() reads every point, for a caller that
// must know them all good before it writes anything (emit sweep-job).

#ifndef GPUSHARE_DECIDE_SWEEP_H_
#define GPUSHARE_DECIDE_SWEEP_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
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
  // Reads the first point of `points` (`grid` and `catalog` must outlive
  // the Sweep); a bad one is an InputError.
  Sweep(const SweepGrid& grid, const std::string& scenario_text,
        const std::string& scenario_file, std::vector<int64_t> points,
        const Catalog& catalog);

  // The simulations the points take: 1 per `run` point; for `compare`, the
  // first point's count for each (the total of a progress bar, which grows
  // when a later point takes more).
  int64_t runs() const { return runs_; }

  // The points whose reading has begun so far (by the constructor and
  // Run(); a bad one counts).
  int64_t points_read() const { return points_read_; }

  void Run(int threads,
           const std::function<void(const SweepPointResult&)>& done,
           const RunObserverFactory& observe = {}) const;

 private:
  // The point's result: values, classes, scheme, and its variants run.
  SweepPointResult Evaluate(int64_t point, const SweepPoint& read,
                            const RunObserverFactory& observe) const;

  const SweepGrid& grid_;
  const std::string scenario_text_;
  const std::string scenario_file_;
  const std::vector<int64_t> points_;
  const Catalog& catalog_;
  const SweepPointReader reader_;
  int64_t runs_ = 0;
  // points_[0], read by the constructor (Run() uses it).
  std::optional<SweepPoint> first_;
  mutable std::atomic<int64_t> points_read_{0};
};

// Reads every point of `grid` in order; the first bad one is an InputError.
void CheckSweepPoints(const SweepGrid& grid, const std::string& scenario_text,
                      const std::string& scenario_file, const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_H_
