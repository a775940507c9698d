#include "gpushare/scenario/dcgm_metrics_import.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gpushare/exec/share_model.h"
#include "gpushare/scenario/dcgm_recording_checks.h"
#include "gpushare/workload/dcgm_derivation.h"

namespace gpushare {
namespace {

// The SM fraction f of the device: its MIG profile's SMs over the GPU's.
double DcgmSmFraction(const DcgmDevice& d, const GpuModel& model) {
  const MigProfile* profile = DcgmDeviceProfile(d, model);
  if (profile == nullptr) return 1.0;
  return static_cast<double>(profile->sms) / static_cast<double>(model.sms);
}

// A request that several pods may hold on one device under one pod label.
bool DcgmAsksSharedResource(const Pod& pod) {
  for (const auto& [name, amount] : pod.explicit_requests) {
    if (amount <= 0) continue;
    if (name.size() > 7 && name.compare(name.size() - 7, 7, ".shared") == 0) {
      return true;
    }
    if (name.rfind("nvidia.com/gpumem", 0) == 0 ||
        name == "nvidia.com/gpucores") {
      return true;
    }
  }
  return false;
}

// namespace/name of a pod (kubectl pods are named so already).
std::string DcgmPodKey(const Pod& pod) {
  const std::string prefix = pod.namespace_name + "/";
  return pod.name.rfind(prefix, 0) == 0 ? pod.name : prefix + pod.name;
}

struct DcgmPodAccumulator {
  bool seen = false;
  double duty_sum = 0;
  double sm_sum = 0;
  int devices = 0;
  int sm_devices = 0;
  int64_t footprint_mib = -1;
};

void DcgmSetNeeds(const DcgmPodAccumulator& acc, Pod* pod) {
  if (acc.devices > 0) pod->needs.duty = acc.duty_sum / acc.devices;
  if (acc.sm_devices > 0) pod->needs.sm_demand = acc.sm_sum / acc.sm_devices;
  if (acc.footprint_mib >= 0) pod->needs.gpu_memory_mib = acc.footprint_mib;
}

// The recorded pods of `pod`'s controller (namespace/<generateName><suffix>,
// the suffix without '-' or '/'), merged; their keys go to `used`.
DcgmPodAccumulator DcgmControllerPods(
    const Pod& pod, const std::map<std::string, DcgmPodAccumulator>& found,
    std::set<std::string>* used) {
  const std::string prefix = pod.namespace_name + "/" + pod.generate_name;
  DcgmPodAccumulator merged;
  for (auto it = found.lower_bound(prefix);
       it != found.end() && it->first.rfind(prefix, 0) == 0; ++it) {
    const std::string suffix = it->first.substr(prefix.size());
    if (suffix.empty() || suffix.find_first_of("-/") != std::string::npos) {
      continue;
    }
    const DcgmPodAccumulator& acc = it->second;
    merged.seen = true;
    merged.duty_sum += acc.duty_sum;
    merged.sm_sum += acc.sm_sum;
    merged.devices += acc.devices;
    merged.sm_devices += acc.sm_devices;
    merged.footprint_mib = std::max(merged.footprint_mib, acc.footprint_mib);
    used->insert(it->first);
  }
  return merged;
}

}  // namespace

DcgmImportCounts ApplyDcgmMetrics(const DcgmRecording& recording,
                                  const Catalog& catalog,
                                  double busy_threshold,
                                  std::vector<Pod>* pods,
                                  std::vector<std::string>* notes) {
  // Every device's model and MIG profile first, in the recording's order:
  // one the catalog lacks is an error whether or not a pod label is on it.
  std::vector<const GpuModel*> models;
  std::vector<double> fractions;
  for (const DcgmDevice& d : recording.devices) {
    models.push_back(&DcgmDeviceModel(d, catalog));
    fractions.push_back(DcgmSmFraction(d, *models.back()));
  }
  std::map<std::string, DcgmPodAccumulator> found;
  for (size_t i = 0; i < recording.devices.size(); ++i) {
    const DcgmDevice& d = recording.devices[i];
    if (d.pods.empty()) continue;
    const GpuModel& model = *models[i];
    const double f = fractions[i];
    for (const auto& [pod, series] : d.pods) {
      DcgmPodAccumulator& acc = found[pod];
      acc.seen = true;
      const DcgmDerivedNeeds needs =
          DeriveDcgmNeeds(d.AloneSamples(pod), busy_threshold);
      if (needs.samples == 0 && needs.footprint_mib < 0) continue;
      if (needs.footprint_mib >= 0) {
        acc.footprint_mib = std::max(acc.footprint_mib, needs.footprint_mib);
      }
      if (needs.samples == 0) continue;
      // SM demand: this device's, else the model's default of a whole GPU.
      const double d_for_speed = needs.sm_demand >= 0 ? needs.sm_demand : 1.0;
      const double speed = model.relative_speed * GpuPhaseSpeed(f, d_for_speed);
      acc.duty_sum += DutyFromActivity(needs.mean_activity, speed);
      ++acc.devices;
      if (needs.sm_demand >= 0) {
        acc.sm_sum += needs.sm_demand;
        ++acc.sm_devices;
      }
    }
  }
  DcgmImportCounts counts;
  std::set<std::string> listed;
  std::set<std::string> used_by_controllers;
  for (Pod& pod : *pods) {
    const std::string key = DcgmPodKey(pod);
    listed.insert(key);
    const auto it = found.find(key);
    const bool gpu_pod = pod.needs.gpus > 0;
    DcgmPodAccumulator merged;
    if (it == found.end() && !pod.generate_name.empty()) {
      merged = DcgmControllerPods(pod, found, &used_by_controllers);
      if (merged.seen) {
        if (DcgmAsksSharedResource(pod) ||
            (merged.devices == 0 && merged.footprint_mib < 0)) {
          ++counts.shared;
          counts.pods.push_back({key, DcgmPodOutcome::kShared});
        } else {
          ++counts.from_controller;
          counts.pods.push_back({key, DcgmPodOutcome::kController});
          DcgmSetNeeds(merged, &pod);
        }
        continue;
      }
    }
    if (it == found.end()) {
      if (gpu_pod) {
        ++counts.without_series;
        counts.pods.push_back({key, DcgmPodOutcome::kNoSeries});
      }
      continue;
    }
    const DcgmPodAccumulator& acc = it->second;
    if (DcgmAsksSharedResource(pod) ||
        (acc.devices == 0 && acc.footprint_mib < 0)) {
      ++counts.shared;
      counts.pods.push_back({key, DcgmPodOutcome::kShared});
      continue;
    }
    ++counts.derived;
    counts.pods.push_back({key, DcgmPodOutcome::kDerived});
    DcgmSetNeeds(acc, &pod);
  }
  for (const auto& [key, acc] : found) {
    if (listed.count(key) == 0 && used_by_controllers.count(key) == 0) {
      ++counts.unknown_pods;
    }
  }
  if (notes != nullptr) {
    notes->push_back(fmt::format(
        "metrics: duty, SM demand and footprint of {} pod(s) derived from "
        "their dcgm-exporter series and of {} from their controller's "
        "earlier pods' ({} file(s), docs/model.md §3.2); {} "
        "pod(s) shared their GPU with other pods or asked a shared resource "
        "and keep the defaults (a shared device's series are its sums, "
        "NVIDIA/dcgm-exporter #307); {} GPU pod(s) without series keep the "
        "defaults; {} pod(s) in the series are not in the pod list "
        "(ignored).",
        counts.derived, counts.from_controller, recording.files.size(),
        counts.shared,
        counts.without_series, counts.unknown_pods));
  }
  return counts;
}

}  // namespace gpushare
