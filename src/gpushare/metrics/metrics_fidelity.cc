#include "gpushare/metrics/metrics_fidelity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gpushare {
namespace {

// Compared points of one field: (recorded, simulated).
using FidelityPoints = std::vector<std::pair<double, double>>;

FidelityError FidelitySummarize(const FidelityPoints& points) {
  FidelityError e;
  e.points = static_cast<int>(points.size());
  if (points.empty()) return e;
  std::vector<double> errors;
  for (const auto& [rec, sim] : points) {
    e.recorded_mean += rec;
    e.simulated_mean += sim;
    errors.push_back(std::abs(sim - rec));
    e.mean_abs_error += errors.back();
  }
  const double n = static_cast<double>(points.size());
  e.recorded_mean /= n;
  e.simulated_mean /= n;
  e.mean_abs_error /= n;
  std::sort(errors.begin(), errors.end());
  const size_t rank =
      static_cast<size_t>(std::ceil(0.95 * static_cast<double>(errors.size())));
  e.p95_abs_error = errors[std::max<size_t>(rank, 1) - 1];
  return e;
}

// Per field, per time: sums of both sides over a pool's devices.
struct FidelityPoolAccumulator {
  std::map<double, std::tuple<double, double, int>> fields[3];
  int devices = 0;
};

}  // namespace

MetricsFidelity CompareWithRecording(const SimulationResult& result,
                                     const DcgmRecording& recording) {
  MetricsFidelity out;
  out.files = recording.files;
  out.start_unix_s = recording.StartUnixS();
  std::map<std::tuple<std::string, int, int>, int> device_index;
  for (size_t i = 0; i < result.devices.size(); ++i) {
    const DeviceInfo& d = result.devices[i];
    device_index[{d.node, d.gpu, d.mig_instance}] = static_cast<int>(i);
  }
  // The run's samples per device, in time order.
  std::vector<std::vector<const DeviceSample*>> samples(result.devices.size());
  for (const DeviceSample& s : result.device_samples) {
    if (s.device >= 0 && s.device < static_cast<int>(samples.size())) {
      samples[s.device].push_back(&s);
    }
  }
  std::vector<const DcgmDevice*> by_device(result.devices.size(), nullptr);
  for (const DcgmDevice& d : recording.devices) {
    const auto it = device_index.find({d.node, d.gpu, d.instance});
    if (it == device_index.end()) {
      out.unmatched_devices.push_back(
          d.node + "/" + std::to_string(d.gpu) +
          (d.instance >= 0 ? "/" + std::to_string(d.instance) : ""));
      continue;
    }
    by_device[it->second] = &d;
  }
  std::map<std::string, FidelityPoolAccumulator> pools;
  for (size_t i = 0; i < by_device.size(); ++i) {
    const DcgmDevice* rec = by_device[i];
    if (rec == nullptr) continue;
    const DeviceInfo& info = result.devices[i];
    FidelityPoolAccumulator& pool = pools[info.pool];
    ++pool.devices;
    FidelityPoints points[3];
    const std::vector<const DeviceSample*>& sim = samples[i];
    for (const auto& [time, values] : rec->values) {
      const double tau = time - out.start_unix_s;
      if (tau > result.end_s + 1e-9) break;
      // The last sample at or before tau.
      const auto after = std::upper_bound(
          sim.begin(), sim.end(), tau + 1e-9,
          [](double t, const DeviceSample* s) { return t < s->time_s; });
      if (after == sim.begin()) continue;
      const DeviceSample& s = **(after - 1);
      const double util = values.gpu_util_percent >= 0
                              ? values.gpu_util_percent
                              : (values.gr_engine_active >= 0
                                     ? values.gr_engine_active * 100
                                     : -1);
      const double recorded[3] = {util, values.sm_active, values.fb_used_mib};
      const double simulated[3] = {s.gpu_util * 100, s.sm_active,
                                   static_cast<double>(s.fb_used_mib)};
      for (int f = 0; f < 3; ++f) {
        if (recorded[f] < 0) continue;
        points[f].emplace_back(recorded[f], simulated[f]);
        auto& [rec_sum, sim_sum, n] = pool.fields[f][time];
        rec_sum += recorded[f];
        sim_sum += simulated[f];
        ++n;
      }
    }
    FidelityRow row;
    row.pool = info.pool;
    row.node = info.node;
    row.gpu = info.gpu;
    row.mig_instance = info.mig_instance;
    row.devices = 1;
    row.gpu_util = FidelitySummarize(points[0]);
    row.sm_active = FidelitySummarize(points[1]);
    row.fb_used_mib = FidelitySummarize(points[2]);
    out.devices.push_back(std::move(row));
  }
  for (const PoolSummary& p : result.pools) {
    const auto it = pools.find(p.name);
    if (it == pools.end()) continue;
    FidelityRow row;
    row.pool = p.name;
    row.devices = it->second.devices;
    FidelityError* errors[3] = {&row.gpu_util, &row.sm_active,
                                &row.fb_used_mib};
    for (int f = 0; f < 3; ++f) {
      FidelityPoints points;
      for (const auto& [time, sums] : it->second.fields[f]) {
        const auto& [rec_sum, sim_sum, n] = sums;
        points.emplace_back(rec_sum / n, sim_sum / n);
      }
      *errors[f] = FidelitySummarize(points);
    }
    out.pools.push_back(std::move(row));
  }
  return out;
}

}  // namespace gpushare
