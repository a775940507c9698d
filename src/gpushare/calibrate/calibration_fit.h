// Calibration fit: the time-slicing parameters of the execution model
// (exec/model_params.h) from a CalibrationRun, and the model's predictions
// against every measured case.
//
// Contract: FitCalibration() derives, from the runs with full-GPU kernels
// (blocks ≥ the GPU's SMs; else the largest block size):
//   η      switching efficiency: the mean over N ≥ 2 of the N processes'
//          total kernel rate over the rate of one process alone (capped at
//          1); the model's η = t_slice / (t_slice + t_switch);
//   C      the turn cycle t_slice + t_switch: a probe behind k compute-bound
//          co-runners waits uniformly on [0, k·C] (exec/latency_model.h), so
//          its q-quantile grows by q·k·C over the probe alone; C is the
//          least-squares slope over q ∈ {0.5, 0.99} and every k ≥ 1;
// then time_slice_ms = η·C and context_switch_us = 1000·(1 − η)·C. Each
// check compares a measured value with the model's prediction under
// `defaults` and under the fitted parameters, through the model's own code
// (the time-slicing share model for throughput, InferenceLatency for the
// probe): the total throughput of N processes relative to one, per block
// size (SM-limited kernels included: time-slicing runs one context at a
// time however few SMs it uses, so the model predicts the same η), and the
// probe's p50 and p99 per k. Throws InputError when the data cannot give
// the parameters (no N ≥ 2 run, a cycle ≤ 0, or parameters out of
// ModelParams' ranges), saying which measurement is at fault.

#ifndef GPUSHARE_CALIBRATE_CALIBRATION_FIT_H_
#define GPUSHARE_CALIBRATE_CALIBRATION_FIT_H_

#include <string>
#include <vector>

#include "gpushare/calibrate/calibration_run.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {

struct CalibrationCheck {
  std::string name;  // "4 procs, 132 blocks (d 1.00)", "probe p99, 2 co-runners"
  std::string unit;  // "x alone", "us"
  double measured = 0;
  double default_model = 0;
  double fitted_model = 0;
};

struct CalibrationFit {
  CalibrationDevice device;
  std::string source;  // the run's directory
  double efficiency = 0;      // η
  double cycle_ms = 0;        // C
  double time_slice_ms = 0;
  double context_switch_us = 0;
  std::vector<CalibrationCheck> checks;
};

CalibrationFit FitCalibration(const CalibrationRun& run,
                              const ModelParams& defaults);

// The quantile q of `values` (linear between order statistics; values need
// not be sorted). Exposed for tests.
double CalibrationQuantile(std::vector<double> values, double q);

}  // namespace gpushare

#endif  // GPUSHARE_CALIBRATE_CALIBRATION_FIT_H_
