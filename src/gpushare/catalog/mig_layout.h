// MIG layouts: which GPU instances sit where on one GPU.
//
// Contract: a layout is a list of GPU instances, each a profile of the GPU's
// MigGeometry placed at a start position on the memory axis, occupying
// [start, start + memory_slices). A layout is valid iff (NVIDIA MIG User
// Guide, "Concepts > Partitioning", "Supported GPUs" and "Supported MIG
// Profiles"; HAMi migPlacementsOverlap, Project-HAMi/HAMi
// pkg/device/nvidia/mig_topology.go): every instance starts at an allowed
// start of its profile, no profile exceeds its max count, at most one
// media-extension (+me) instance exists, the instance count is within the
// GPU's limit, the compute slices sum to at most the GPU's, and no two
// instances' memory ranges overlap. These functions are pure; they never
// throw on an invalid layout but say why.

#ifndef GPUSHARE_CATALOG_MIG_LAYOUT_H_
#define GPUSHARE_CATALOG_MIG_LAYOUT_H_

#include <optional>
#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"

namespace gpushare {

// One GPU instance: a profile (index into MigGeometry::profiles) at a start.
struct MigInstance {
  int profile = 0;
  int start = 0;
  bool operator==(const MigInstance&) const = default;
};

// The GPU instances of one GPU, kept sorted by start (see SortMigLayout).
using MigLayout = std::vector<MigInstance>;

// Sorts by start, then profile.
void SortMigLayout(MigLayout& layout);

// "" when `layout` is valid on `model`, else the first problem found, e.g.
// "3g.40gb cannot start at 2 on H100-80GB (allowed starts: 0, 4)".
std::string FindMigLayoutProblem(const GpuModel& model, const MigLayout& layout);

// True iff adding `profile` at `start` to the valid `layout` keeps it valid.
bool CanAddMigInstance(const GpuModel& model, const MigLayout& layout,
                       int profile, int start);

// Places the profiles `free_profiles` (indexes, repeats allowed) around the
// valid layout `fixed`. Returns the whole layout if any placement exists;
// otherwise nullopt and, if `why_not` is set, the reason. Starts are tried in
// HAMi's preference order (1g.* and 3g.* from the highest start, the others
// from the lowest; HAMi orderedMigPlacements, Project-HAMi/HAMi
// pkg/device/nvidia/mig_topology.go), so results are deterministic.
std::optional<MigLayout> PlaceMigProfiles(const GpuModel& model,
                                          const MigLayout& fixed,
                                          const std::vector<int>& free_profiles,
                                          std::string* why_not);

// Every distinct maximal layout of `model`: valid layouts to which no further
// instance of any profile can be added. Distinct as sets of placed instances;
// sorted layouts, in a deterministic order.
std::vector<MigLayout> EnumerateMaximalMigLayouts(const GpuModel& model);

// Instances per profile: result[i] counts profile i.
std::vector<int> MigProfileCounts(const GpuModel& model,
                                  const MigLayout& layout);

// "3g.20gb@4 2g.10gb@0 1g.5gb@2" (in layout order).
std::string FormatMigLayout(const GpuModel& model, const MigLayout& layout);

// "3g.20gb + 2g.10gb + 2 x 1g.5gb" for per-profile counts; larger profiles
// (more compute slices) first; "(none)" when all counts are zero.
std::string FormatMigCounts(const GpuModel& model,
                            const std::vector<int>& counts);

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_MIG_LAYOUT_H_
