// SweepPoint: the scenario of one point of a sweep — the scenario file with
// the grid's values for that point set (docs/sweep.md).
//
// Contract: ReadSweepPoint() parses the scenario's bytes anew, sets every
// `set` key and each varied key's value at `point` (decide/sweep_grid.h),
// and reads the result with the scenario reader (and, for `compare`, the
// comparison spec reader), so a point is checked exactly as a scenario file
// written with those values would be. A key that leads nowhere in the
// scenario is an InputError at the key in the grid. When the scenario
// reader refuses the point with the error the scenario has on its own,
// that error is reported as it is (at its place in the scenario). Otherwise
// the value to blame is found by setting the
// `set` values alone, then each varied value alone with them: the error is
// at that value in the grid, with the reader's message (and its place in
// the scenario when it is not the value itself); when only the combination
// fails, at the point's first varied key, naming every value.

#ifndef GPUSHARE_DECIDE_SWEEP_POINT_H_
#define GPUSHARE_DECIDE_SWEEP_POINT_H_

#include <cstdint>
#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/comparison_spec.h"
#include "gpushare/decide/sweep_grid.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

struct SweepPoint {
  int64_t index = 0;
  Scenario scenario;
  ComparisonSpec spec;  // `compare` sweeps only
};

SweepPoint ReadSweepPoint(const SweepGrid& grid,
                          const std::string& scenario_text,
                          const std::string& scenario_file, int64_t point,
                          const Catalog& catalog);

// "key=value, key=value": the varied values of `point`, for messages.
std::string DescribeSweepPoint(const SweepGrid& grid, int64_t point);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_POINT_H_
