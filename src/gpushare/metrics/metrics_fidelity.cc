#include "gpushare/metrics/metrics_fidelity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "gpushare/base/quantile_summary.h"

namespace gpushare {
namespace {

// Compared points of one field, (recorded, simulated), summed as they come:
// the points themselves are not kept, their absolute errors' p95 is a
// QuantileSummary (exact up to the run's quantile_exact_limit points).
class FidelityPoints {
 public:
  explicit FidelityPoints(QuantileOptions quantiles) : errors_(quantiles) {}

  void Add(double recorded, double simulated) {
    recorded_sum_ += recorded;
    simulated_sum_ += simulated;
    const double error = std::abs(simulated - recorded);
    abs_error_sum_ += error;
    errors_.Add(error);
  }

  FidelityError Summarize() {
    FidelityError e;
    e.points = static_cast<int>(errors_.count());
    if (errors_.empty()) return e;
    const double n = static_cast<double>(errors_.count());
    e.recorded_mean = recorded_sum_ / n;
    e.simulated_mean = simulated_sum_ / n;
    e.mean_abs_error = abs_error_sum_ / n;
    e.p95_abs_error = errors_.Quantile(0.95);
    return e;
  }

 private:
  double recorded_sum_ = 0, simulated_sum_ = 0, abs_error_sum_ = 0;
  QuantileSummary errors_;
};

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
  out.recording_warnings = recording.warnings;
  // Whole GPUs match by node and GPU index. MIG instances do not match by
  // GPU_I_ID: a recorded ID is the driver's GPU instance ID (an H100's
  // 1g.10gb instances are 9 to 14), the simulator's is its index in the
  // layout. The k-th instance of a profile on a GPU, by GPU_I_ID, is the
  // k-th of that profile in the simulated layout (the simulator's own
  // recordings match exactly: its IDs are layout indexes).
  using MigKey = std::tuple<std::string, int, std::string>;
  std::map<std::tuple<std::string, int, int>, int> device_index;
  std::map<MigKey, std::vector<int>> simulated_instances;
  for (size_t i = 0; i < result.devices.size(); ++i) {
    const DeviceInfo& d = result.devices[i];
    if (d.mig_instance < 0) {
      device_index[{d.node, d.gpu, -1}] = static_cast<int>(i);
    } else {
      simulated_instances[{d.node, d.gpu, d.profile}].push_back(
          static_cast<int>(i));
    }
  }
  std::map<MigKey, std::vector<int>> recorded_ids;
  for (const DcgmDevice& d : recording.devices) {
    if (d.instance >= 0) {
      recorded_ids[{d.node, d.gpu, d.profile}].push_back(d.instance);
    }
  }
  for (auto& [key, ids] : recorded_ids) std::sort(ids.begin(), ids.end());
  const auto simulated_device = [&](const DcgmDevice& d) {
    if (d.instance < 0) {
      const auto it = device_index.find({d.node, d.gpu, -1});
      return it == device_index.end() ? -1 : it->second;
    }
    const MigKey key{d.node, d.gpu, d.profile};
    const std::vector<int>& ids = recorded_ids[key];
    const size_t rank = static_cast<size_t>(
        std::lower_bound(ids.begin(), ids.end(), d.instance) - ids.begin());
    const auto it = simulated_instances.find(key);
    return it == simulated_instances.end() || rank >= it->second.size()
               ? -1
               : it->second[rank];
  };
  // The run's samples per device, in time order.
  std::vector<std::vector<const DeviceSample*>> samples(result.devices.size());
  for (const DeviceSample& s : result.device_samples) {
    if (s.device >= 0 && s.device < static_cast<int>(samples.size())) {
      samples[s.device].push_back(&s);
    }
  }
  std::vector<const DcgmDevice*> by_device(result.devices.size(), nullptr);
  for (const DcgmDevice& d : recording.devices) {
    const int index = simulated_device(d);
    if (index < 0) {
      out.unmatched_devices.push_back(
          d.node + "/" + std::to_string(d.gpu) +
          (d.instance >= 0 ? "/" + std::to_string(d.instance) : ""));
      continue;
    }
    by_device[index] = &d;
  }
  std::map<std::string, FidelityPoolAccumulator> pools;
  for (size_t i = 0; i < by_device.size(); ++i) {
    const DcgmDevice* rec = by_device[i];
    if (rec == nullptr) continue;
    const DeviceInfo& info = result.devices[i];
    FidelityPoolAccumulator& pool = pools[info.pool];
    ++pool.devices;
    FidelityPoints points[3] = {FidelityPoints(result.quantiles),
                                FidelityPoints(result.quantiles),
                                FidelityPoints(result.quantiles)};
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
        points[f].Add(recorded[f], simulated[f]);
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
    row.gpu_util = points[0].Summarize();
    row.sm_active = points[1].Summarize();
    row.fb_used_mib = points[2].Summarize();
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
      FidelityPoints points(result.quantiles);
      for (const auto& [time, sums] : it->second.fields[f]) {
        const auto& [rec_sum, sim_sum, n] = sums;
        points.Add(rec_sum / n, sim_sum / n);
      }
      *errors[f] = points.Summarize();
    }
    out.pools.push_back(std::move(row));
  }
  return out;
}

}  // namespace gpushare
