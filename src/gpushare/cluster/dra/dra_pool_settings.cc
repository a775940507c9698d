#include "gpushare/cluster/dra/dra_pool_settings.h"

namespace gpushare {

std::string_view DraTimeSliceIntervalName(DraTimeSliceInterval interval) {
  switch (interval) {
    case DraTimeSliceInterval::kDefault: return "Default";
    case DraTimeSliceInterval::kShort: return "Short";
    case DraTimeSliceInterval::kMedium: return "Medium";
    case DraTimeSliceInterval::kLong: return "Long";
  }
  return "Default";
}

bool ParseDraTimeSliceInterval(std::string_view text,
                               DraTimeSliceInterval* interval) {
  for (DraTimeSliceInterval i :
       {DraTimeSliceInterval::kDefault, DraTimeSliceInterval::kShort,
        DraTimeSliceInterval::kMedium, DraTimeSliceInterval::kLong}) {
    if (text == DraTimeSliceIntervalName(i)) {
      *interval = i;
      return true;
    }
  }
  return false;
}

std::string DraConsumableSharesValue(const DraPoolSettings& settings) {
  switch (settings.consumable_shares) {
    case DraConsumableShares::kDisabled: return "disabled";
    case DraConsumableShares::kCount: return std::to_string(settings.shares);
    case DraConsumableShares::kMemoryShares: return "memory";
    case DraConsumableShares::kUnlimited: return "unlimited";
  }
  return "disabled";
}

}  // namespace gpushare
