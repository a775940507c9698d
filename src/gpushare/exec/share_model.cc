#include "gpushare/exec/share_model.h"

#include <memory>

#include "gpushare/exec/exclusive_share_model.h"
#include "gpushare/exec/hami_share_model.h"
#include "gpushare/exec/mig_share_model.h"
#include "gpushare/exec/mps_share_model.h"
#include "gpushare/exec/share_math.h"
#include "gpushare/exec/time_slicing_share_model.h"
#include "gpushare/io/check.h"

namespace gpushare {
namespace {

// The smallest SM fraction GpuPhaseSpeed uses: f is clamped to (0, 1].
constexpr double kMinSmFraction = 1e-9;

}  // namespace

std::unique_ptr<ShareModel> MakeShareModel(SharingScheme scheme) {
  switch (scheme) {
    case SharingScheme::kExclusive:
      return std::make_unique<ExclusiveShareModel>();
    case SharingScheme::kTimeSlicing:
      return std::make_unique<TimeSlicingShareModel>();
    case SharingScheme::kMps:
      return std::make_unique<MpsShareModel>();
    case SharingScheme::kMig:
      return std::make_unique<MigShareModel>();
    case SharingScheme::kHami:
      return std::make_unique<HamiShareModel>();
  }
  GS_CHECK(false, "not a SharingScheme value");
  return nullptr;
}

double GpuPhaseSpeed(double sm_fraction, double sm_demand) {
  const double f = sm_fraction > kMinSmFraction
                       ? (sm_fraction < 1.0 ? sm_fraction : 1.0)
                       : kMinSmFraction;
  const double d = ClampUnit(sm_demand);
  return 1.0 / ((1.0 - d) + d / f);
}

}  // namespace gpushare
