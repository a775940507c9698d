#include "gpushare/sim/pool_model_params.h"

namespace gpushare {

ModelParams PoolModelParams(const ModelParams& scenario,
                            const NodePoolSpec& pool) {
  ModelParams params = scenario;
  if (pool.devices != PoolDevices::kDra) return params;
  const DraPoolSettings dra = EffectiveDraPoolSettings(pool.dra, pool.sharing);
  switch (dra.time_slice_interval) {
    case DraTimeSliceInterval::kDefault:
      break;
    case DraTimeSliceInterval::kShort:
      params.time_slice_ms = scenario.dra_time_slice_short_ms;
      break;
    case DraTimeSliceInterval::kMedium:
      params.time_slice_ms = scenario.dra_time_slice_medium_ms;
      break;
    case DraTimeSliceInterval::kLong:
      params.time_slice_ms = scenario.dra_time_slice_long_ms;
      break;
  }
  return params;
}

}  // namespace gpushare
