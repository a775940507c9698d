// The tables of a whole sweep (columns: docs/sweep.md): summary.csv, one
// row per point and variant, classes.csv, one row per point, variant and
// tenant class, and for `compare` sweeps pools.csv, one row per point and
// GPU pool; built from the point files alone, so that one sweep
// and the merge of its shards give the same bytes.
//
// Contract: CompleteSweep() takes the point files of one sweep in any
// order and returns them ordered by point, or throws InputError naming the
// files when they come from different sweeps (digests), when a point is
// there twice, or when points are missing (the first few listed).

#ifndef GPUSHARE_REPORT_SWEEP_SUMMARY_H_
#define GPUSHARE_REPORT_SWEEP_SUMMARY_H_

#include <string>
#include <vector>

#include "gpushare/report/sweep_json.h"

namespace gpushare {

std::vector<SweepPointFile> CompleteSweep(std::vector<SweepPointFile> files);

// Preconditions: `points` is CompleteSweep()'s result. Files read without
// their JSON are read again one at a time (InputError if one changed).
std::string SweepSummaryCsv(const std::vector<SweepPointFile>& points);
std::string SweepClassesCsv(const std::vector<SweepPointFile>& points);
// `compare` sweeps: one row per point and GPU pool, the scheme the pool
// plan gives it (docs/sweep.md "pools.csv").
std::string SweepPoolsCsv(const std::vector<SweepPointFile>& points);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SWEEP_SUMMARY_H_
