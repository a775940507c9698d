// Reading MIG layouts written by users: "3g.40gb@4" (a profile at a start),
// "3g.40gb:2" (a count, placed by the simulator) or "3g.40gb" (one, placed),
// given as separate items or comma-separated ("3g.40gb:1,2g.20gb:1").

#ifndef GPUSHARE_CATALOG_MIG_LAYOUT_SPEC_H_
#define GPUSHARE_CATALOG_MIG_LAYOUT_SPEC_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/catalog/mig_layout.h"

namespace gpushare {

// A parsed layout request: instances at given starts, and profiles to place.
struct MigLayoutSpec {
  MigLayout fixed;
  std::vector<int> free_profiles;
};

// Parses `items` for `model`. Throws InputError on syntax errors, unknown
// profiles (naming the closest) or a model without MIG.
MigLayoutSpec ParseMigLayoutSpec(const GpuModel& model,
                                 const std::vector<std::string>& items);

// Parses and resolves to a complete valid layout: checks the fixed instances
// and places the others around them. Throws InputError saying why when the
// layout is impossible, e.g. "max 1 x 4g.40gb on H100-80GB (layout has 2)".
MigLayout ResolveMigLayout(const GpuModel& model,
                           const std::vector<std::string>& items);

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_MIG_LAYOUT_SPEC_H_
