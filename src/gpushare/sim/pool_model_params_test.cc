// PoolModelParams: a DRA pool's TimeSlicing interval is its time slice.

#include "gpushare/sim/pool_model_params.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(PoolModelParamsTest, DraIntervalSetsTheTimeSlice) {
  ModelParams scenario;
  scenario.time_slice_ms = 1.5;
  NodePoolSpec pool;
  pool.sharing = TimeSlicingSharing(4);
  pool.dra.time_slice_interval = DraTimeSliceInterval::kLong;
  // A device-plugin pool keeps the scenario's.
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 1.5);
  pool.devices = PoolDevices::kDra;
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 8.192);
  pool.dra.time_slice_interval = DraTimeSliceInterval::kShort;
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 0.512);
  pool.dra.time_slice_interval = DraTimeSliceInterval::kMedium;
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 2.048);
  pool.dra.time_slice_interval = DraTimeSliceInterval::kDefault;
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 1.5);
  // Exclusive DRA pools have no TimeSlicing config.
  pool.dra.time_slice_interval = DraTimeSliceInterval::kLong;
  pool.sharing = ExclusiveSharing();
  EXPECT_EQ(PoolModelParams(scenario, pool).time_slice_ms, 1.5);
}

}  // namespace
}  // namespace gpushare
