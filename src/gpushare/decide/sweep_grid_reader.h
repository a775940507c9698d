// Reading sweep grid files (format: docs/sweep.md).
//
// Contract: the whole grid is read and checked before anything is returned:
// only the keys `scenario`, `command`, `set`, `cross` and `zip` at the top;
// every dotted key parses (scenario/scenario_overrides.h) and no key names a
// value another key sets or lies inside it; `cross` values are non-empty
// lists or ranges {from, to, step}; `zip` values are lists of one length;
// at least one key varies; and there are at most kMaxSweepPoints points,
// kMaxSweepKeys keys, kMaxSweepAxisValues values per key,
// kMaxSweepValueBytes bytes per value and kMaxSweepGridBytes bytes in the
// file (refused before it is parsed, at the line where it passes the
// limit). Reading is linear in the grid's size (the overlap check of keys
// is quadratic in their number, at most kMaxSweepKeys). The first problem is an InputError at file:line:col. Whether a value
// means anything to the scenario is checked when the points are read
// (decide/sweep_point.h).

#ifndef GPUSHARE_DECIDE_SWEEP_GRID_READER_H_
#define GPUSHARE_DECIDE_SWEEP_GRID_READER_H_

#include <string>

#include "gpushare/decide/sweep_grid.h"

namespace gpushare {

// Reads a grid from `text`; `file` names it in errors. With
// `scenario_given` the grid's `scenario:` key is optional and not read (the
// command line named the scenario); otherwise it is required and must name
// an existing file, relative to the grid's folder.
SweepGrid ReadSweepGrid(const std::string& text, const std::string& file,
                        bool scenario_given);

// The same for the grid file at `path`.
SweepGrid ReadSweepGridFile(const std::string& path, bool scenario_given);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_SWEEP_GRID_READER_H_
