// The fit on tests/data/calibrate/synthetic: timings generated from a GPU
// whose time-slicing follows the model with 2.0 ms slices and 250 us
// switches (tests/data/calibrate/make_synthetic.py; not a measurement).

#include "gpushare/calibrate/calibration_fit.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/calibrate/calibration_run.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace calibration_fit_test {
namespace {

const std::string kSynthetic =
    std::string(GS_TESTDATA_DIR) + "/calibrate/synthetic";

TEST(CalibrationQuantileTest, InterpolatesBetweenOrderStatistics) {
  EXPECT_DOUBLE_EQ(CalibrationQuantile({3, 1, 2}, 0.5), 2);
  EXPECT_DOUBLE_EQ(CalibrationQuantile({1, 2}, 0.5), 1.5);
  EXPECT_DOUBLE_EQ(CalibrationQuantile({1, 2, 3, 4, 5}, 0.99), 4.96);
  EXPECT_DOUBLE_EQ(CalibrationQuantile({}, 0.5), 0);
}

TEST(CalibrationFitTest, RecoversTheParametersTheTimingsCameFrom) {
  const CalibrationRun run = ReadCalibrationRun(kSynthetic);
  EXPECT_EQ(run.device.sms, 132);
  EXPECT_EQ(run.throughput.size(), 72u);
  EXPECT_EQ(run.latency.size(), 1000u);
  const CalibrationFit fit = FitCalibration(run, ModelParams());
  EXPECT_NEAR(fit.efficiency, 2.0 / 2.25, 0.002);
  EXPECT_NEAR(fit.cycle_ms, 2.25, 0.03);
  EXPECT_NEAR(fit.time_slice_ms, 2.0, 0.03);
  EXPECT_NEAR(fit.context_switch_us, 250, 10);
}

TEST(CalibrationFitTest, ChecksCompareTheModelWithEveryMeasuredCase) {
  const CalibrationFit fit =
      FitCalibration(ReadCalibrationRun(kSynthetic), ModelParams());
  // 2 block sizes x N = 2..8, and p50 and p99 for k = 1..4.
  ASSERT_EQ(fit.checks.size(), 2u * 7 + 4 * 2);
  for (const CalibrationCheck& c : fit.checks) {
    // The fitted model reproduces timings made by the model.
    EXPECT_NEAR(c.fitted_model, c.measured, 0.02 * c.measured) << c.name;
  }
  // The defaults (1.024 ms slice, 200 us switch: efficiency 0.837, cycle
  // 1.224 ms) predict less throughput and half the wait.
  const CalibrationCheck& t = fit.checks.front();
  EXPECT_EQ(t.name, "2 procs, 33 blocks (d 0.25)");
  EXPECT_NEAR(t.default_model, 1.024 / 1.224, 1e-9);
  EXPECT_NEAR(t.measured, 2.0 / 2.25, 0.002);
  const CalibrationCheck& p = fit.checks[14];
  EXPECT_EQ(p.name, "probe p50, 1 co-runner");
  EXPECT_EQ(p.unit, "us");
  EXPECT_NEAR(p.measured - 22, 0.5 * 2250, 30);
  EXPECT_NEAR(p.default_model - 22, 0.5 * 1224, 30);
}

TEST(CalibrationFitTest, NoWaitBesideCorunnersIsAnError) {
  CalibrationRun run = ReadCalibrationRun(kSynthetic);
  for (LatencyRow& r : run.latency) r.latency_us = 20;
  try {
    FitCalibration(run, ModelParams());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no slower beside co-runners"),
              std::string::npos)
        << e.what();
  }
}

TEST(CalibrationFitTest, OneProcessOnlyIsAnError) {
  CalibrationRun run = ReadCalibrationRun(kSynthetic);
  std::erase_if(run.throughput,
                [](const ThroughputRow& r) { return r.processes > 1; });
  EXPECT_THROW(FitCalibration(run, ModelParams()), InputError);
}

}  // namespace
}  // namespace calibration_fit_test
}  // namespace gpushare
