// CalibrationRun: the raw timings of one run of the calibration
// microbenchmarks (calibrate/run_calibration.sh) on one GPU.
//
// Contract: ReadCalibrationRun(dir) reads three files written by the
// script (formats: calibrate/README.md, docs/model.md §6.6):
//   device.yaml     gpu, driver, cuda (strings), sms (1..1000), kernel_us
//                   (> 0), optional compute_capability
//   throughput.csv  blocks,processes,process,kernels,seconds — per block
//                   size B and process count N, N rows (process 0..N-1):
//                   spin kernels of B blocks each process completed in
//                   `seconds` of wall time, all N processes at once
//   latency.csv     corunners,corunner_blocks,sample,latency_us — a tiny
//                   kernel's launch-to-completion time beside k co-runners
// and checks them: every block size has N = 1 and each N its processes
// 0..N-1 once, seconds > 0; the latency probe has k = 0 and some k ≥ 1,
// at least 2 samples each, latency > 0. Any problem is an InputError at
// FILE:LINE:COL naming the column or key, or naming the file and what is
// missing. Rows come back in file order.

#ifndef GPUSHARE_CALIBRATE_CALIBRATION_RUN_H_
#define GPUSHARE_CALIBRATE_CALIBRATION_RUN_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gpushare {

struct CalibrationDevice {
  std::string gpu;
  std::string driver;
  std::string cuda;
  std::string compute_capability;  // "" when not given
  int sms = 0;
  double kernel_us = 0;  // one spin kernel alone
};

struct ThroughputRow {
  int blocks = 0;
  int processes = 0;
  int process = 0;
  int64_t kernels = 0;
  double seconds = 0;
};

struct LatencyRow {
  int corunners = 0;
  int corunner_blocks = 0;
  int sample = 0;
  double latency_us = 0;
};

struct CalibrationRun {
  std::string dir;
  CalibrationDevice device;
  std::vector<ThroughputRow> throughput;
  std::vector<LatencyRow> latency;
};

CalibrationRun ReadCalibrationRun(const std::string& dir);

}  // namespace gpushare

#endif  // GPUSHARE_CALIBRATE_CALIBRATION_RUN_H_
