// The JSON file of one sweep point (schema: docs/sweep.md,
// "gpushare-sim/sweep-point/v1"), and reading it back for `merge`.
//
// Contract: SweepPointJsonText() is deterministic (keys sorted, numbers in
// their shortest round-trip form): the same point of the same sweep gives
// the same bytes on any machine and thread count. ReadSweepPointFile()
// accepts only such files: JSON of that schema with the sweep's digest,
// point count, keys and the point's index within range; anything else is
// an InputError naming the file.

#ifndef GPUSHARE_REPORT_SWEEP_JSON_H_
#define GPUSHARE_REPORT_SWEEP_JSON_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpushare/decide/sweep.h"
#include "gpushare/decide/sweep_grid.h"

namespace gpushare {

inline constexpr char kSweepPointSchema[] = "gpushare-sim/sweep-point/v1";

std::string SweepPointJsonText(const SweepGrid& grid, const std::string& digest,
                               const SweepPointResult& result);

// The file name of point `point` in a sweep's points/ folder.
std::string SweepPointFileName(int64_t point);

struct SweepPointFile {
  std::string path;
  std::string digest;
  std::string command;
  int64_t points = 0;
  int64_t point = 0;
  std::vector<std::string> keys;
  // The whole file; null when it was read without it (a large sweep's
  // tables read each file again when they need it).
  nlohmann::json json;
};

SweepPointFile ParseSweepPointFile(const std::string& text,
                                   const std::string& path,
                                   bool keep_json = true);
SweepPointFile ReadSweepPointFile(const std::string& path,
                                  bool keep_json = true);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_SWEEP_JSON_H_
