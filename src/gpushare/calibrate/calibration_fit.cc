#include "gpushare/calibrate/calibration_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "gpushare/exec/latency_model.h"
#include "gpushare/exec/share_model.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

constexpr double kProbeQuantiles[] = {0.5, 0.99};

// The model's total rate of `n` compute-bound contexts (duty 1, SM demand
// `d`) time-slicing one GPU, relative to one alone.
double PredictedThroughput(int n, double d, const ModelParams& params) {
  const std::unique_ptr<ShareModel> model =
      MakeShareModel(SharingScheme::kTimeSlicing);
  const auto total = [&](int contexts) {
    Resident r;
    r.duty = 1;
    r.sm_demand = d;
    DomainRates out;
    model->ComputeRates(Domain(), std::vector<Resident>(contexts, r), params,
                        &out);
    double sum = 0;
    for (double rate : out.rates) sum += rate;
    return sum;
  };
  return total(n) / total(1);
}

// The model's q-quantile (ms) of a lone tiny request beside `corunners`
// compute-bound contexts, its time alone being `alone_ms`.
double PredictedProbeMs(double alone_ms, int corunners, double q,
                        const ModelParams& params) {
  LatencyInputs in;
  in.request_rate = 0;
  in.gpu_ms_per_request = alone_ms;
  in.contexts = corunners + 1;
  in.time_slice_ms = params.time_slice_ms;
  in.context_switch_ms = params.context_switch_us / 1000;
  const Latency l = InferenceLatency(in);
  return q < 0.9 ? l.p50_ms : l.p99_ms;
}

}  // namespace

double CalibrationQuantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(values.size() - 1, lo + 1);
  return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

CalibrationFit FitCalibration(const CalibrationRun& run,
                              const ModelParams& defaults) {
  CalibrationFit fit;
  fit.device = run.device;
  fit.source = run.dir;
  const int sms = run.device.sms;

  // Kernel rate per (blocks, processes): the sum over the processes.
  std::map<int, std::map<int, double>> rate;
  for (const ThroughputRow& r : run.throughput) {
    rate[r.blocks][r.processes] += static_cast<double>(r.kernels) / r.seconds;
  }
  int full = rate.rbegin()->first;
  for (const auto& [blocks, by_n] : rate) {
    if (blocks >= sms) {
      full = blocks;
      break;
    }
  }
  double sum = 0;
  int count = 0;
  for (const auto& [n, total] : rate[full]) {
    if (n < 2) continue;
    sum += total / rate[full][1];
    ++count;
  }
  if (count == 0) {
    throw InputError(fmt::format(
        "{}: no run of 2 or more processes with {} blocks: cannot measure the "
        "switching efficiency",
        run.dir, full));
  }
  fit.efficiency = std::min(1.0, sum / count);

  // Probe quantiles (ms) per co-runner count.
  std::map<int, std::vector<double>> samples;
  for (const LatencyRow& r : run.latency) {
    samples[r.corunners].push_back(r.latency_us / 1000);
  }
  std::map<int, std::map<double, double>> quantile;
  for (const auto& [k, v] : samples) {
    for (double q : kProbeQuantiles) quantile[k][q] = CalibrationQuantile(v, q);
  }
  double num = 0;
  double den = 0;
  for (const auto& [k, by_q] : quantile) {
    if (k == 0) continue;
    for (double q : kProbeQuantiles) {
      const double x = q * k;
      num += (by_q.at(q) - quantile[0][q]) * x;
      den += x * x;
    }
  }
  fit.cycle_ms = num / den;
  if (!(fit.cycle_ms > 0)) {
    throw InputError(fmt::format(
        "{}: the probe is no slower beside co-runners (fitted turn cycle "
        "{:.4f} ms): no time-slicing wait to fit; were the co-runners "
        "running?",
        run.dir, fit.cycle_ms));
  }
  fit.time_slice_ms = fit.efficiency * fit.cycle_ms;
  fit.context_switch_us = 1000 * (1 - fit.efficiency) * fit.cycle_ms;

  ModelParams fitted = defaults;
  fitted.time_slice_ms = fit.time_slice_ms;
  fitted.context_switch_us = fit.context_switch_us;
  try {
    fitted.Validate();
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: the fitted parameters are out of the "
                                 "model's range: {}",
                                 run.dir, e.message()));
  }

  for (const auto& [blocks, by_n] : rate) {
    const double d = std::min(1.0, static_cast<double>(blocks) / sms);
    for (const auto& [n, total] : by_n) {
      if (n < 2) continue;
      CalibrationCheck c;
      c.name = fmt::format("{} procs, {} blocks (d {:.2f})", n, blocks, d);
      c.unit = "x alone";
      c.measured = total / by_n.at(1);
      c.default_model = PredictedThroughput(n, d, defaults);
      c.fitted_model = PredictedThroughput(n, d, fitted);
      fit.checks.push_back(c);
    }
  }
  for (const auto& [k, by_q] : quantile) {
    if (k == 0) continue;
    for (double q : kProbeQuantiles) {
      CalibrationCheck c;
      c.name = fmt::format("probe p{}, {} co-runner{}",
                           q < 0.9 ? 50 : 99, k, k == 1 ? "" : "s");
      c.unit = "us";
      c.measured = by_q.at(q) * 1000;
      c.default_model =
          PredictedProbeMs(quantile[0][q], k, q, defaults) * 1000;
      c.fitted_model = PredictedProbeMs(quantile[0][q], k, q, fitted) * 1000;
      fit.checks.push_back(c);
    }
  }
  return fit;
}

}  // namespace gpushare
