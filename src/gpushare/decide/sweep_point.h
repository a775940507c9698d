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
//
// A SweepPointReader parses the grid once and, for each point, copies only
// that point's values out of it, so reading a point costs the scenario and
// its own values, not the whole grid (a grid of 10^5 values read once, not
// once per point). The marks of a copied value are lost; a point that fails
// is read again with the grid's own nodes so that the error is located in
// the grid exactly as above. Read() is not thread-safe (one at a time).

#ifndef GPUSHARE_DECIDE_SWEEP_POINT_H_
#define GPUSHARE_DECIDE_SWEEP_POINT_H_

#include <yaml-cpp/yaml.h>

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

class SweepPointReader {
 public:
  // `grid`, `scenario_text`, `scenario_file` and `catalog` must outlive the
  // reader.
  SweepPointReader(const SweepGrid& grid, const std::string& scenario_text,
                   const std::string& scenario_file, const Catalog& catalog);
  SweepPoint Read(int64_t point) const;

 private:
  const SweepGrid& grid_;
  const std::string& scenario_text_;
  const std::string& scenario_file_;
  const Catalog& catalog_;
  YAML::Node grid_root_;  // parsed once; never changed
};

// One point read by a reader of its own (parses the grid).
SweepPoint ReadSweepPoint(const SweepGrid& grid,
                          const std::string& scenario_text,
                          const std::string& scenario_file, int64_t point,
                          const Catalog& catalog);

// "key=value, key=value": the varied values of `point`, for messages.
std::string DescribeSweepPoint(const SweepGrid& grid, int64_t point);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_POINT_H_
