#include "gpushare/workload/dcgm_recording.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <tuple>
#include <utility>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

enum class DcgmField { kGrEngineActive, kGpuUtil, kSmActive, kFbUsed };

bool DcgmFieldOf(const std::string& name, DcgmField* field) {
  if (name == "DCGM_FI_PROF_GR_ENGINE_ACTIVE") {
    *field = DcgmField::kGrEngineActive;
  } else if (name == "DCGM_FI_DEV_GPU_UTIL") {
    *field = DcgmField::kGpuUtil;
  } else if (name == "DCGM_FI_PROF_SM_ACTIVE") {
    *field = DcgmField::kSmActive;
  } else if (name == "DCGM_FI_DEV_FB_USED") {
    *field = DcgmField::kFbUsed;
  } else {
    return false;
  }
  return true;
}

double* DcgmSlot(DcgmValues* v, DcgmField field) {
  switch (field) {
    case DcgmField::kGrEngineActive:
      return &v->gr_engine_active;
    case DcgmField::kGpuUtil:
      return &v->gpu_util_percent;
    case DcgmField::kSmActive:
      return &v->sm_active;
    case DcgmField::kFbUsed:
      return &v->fb_used_mib;
  }
  return &v->fb_used_mib;
}

std::string DcgmLabel(const PrometheusSeries& s, const char* name) {
  const auto it = s.labels.find(name);
  return it == s.labels.end() ? std::string() : it->second;
}

[[noreturn]] void DcgmFail(const PrometheusSeries& s, const std::string& m) {
  throw InputError(s.file, s.line, s.column, s.name + ": " + m);
}

int DcgmIndexLabel(const PrometheusSeries& s, const char* name) {
  const std::string text = DcgmLabel(s, name);
  int v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(),
                                         v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() ||
      v < 0) {
    DcgmFail(s, std::string("label ") + name +
                    ": expected a device index (0, 1, ...), got '" + text +
                    "'");
  }
  return v;
}

}  // namespace

std::string_view DcgmPodOutcomeName(DcgmPodOutcome outcome) {
  switch (outcome) {
    case DcgmPodOutcome::kDerived:
      return "derived";
    case DcgmPodOutcome::kController:
      return "controller";
    case DcgmPodOutcome::kShared:
      return "shared";
    case DcgmPodOutcome::kNoSeries:
      return "no_series";
  }
  return "";
}

std::vector<DcgmPodSample> DcgmDevice::AloneSamples(
    const std::string& pod) const {
  std::vector<DcgmPodSample> out;
  const auto it = pods.find(pod);
  if (it == pods.end()) return out;
  for (const auto& [time, pod_values] : it->second) {
    bool alone = true;
    for (const auto& [other, series] : pods) {
      if (other != pod && series.count(time) > 0) alone = false;
    }
    if (alone) out.push_back(pod_values.Sample());
  }
  return out;
}

double DcgmRecording::StartUnixS() const {
  double start = std::numeric_limits<double>::infinity();
  for (const DcgmDevice& d : devices) {
    if (!d.values.empty()) start = std::min(start, d.values.begin()->first);
  }
  return devices.empty() || start == std::numeric_limits<double>::infinity()
             ? 0
             : start;
}

DcgmRecording BuildDcgmRecording(
    const std::vector<std::string>& files,
    const std::vector<std::vector<PrometheusSeries>>& per_file) {
  DcgmRecording out;
  out.files = files;
  std::map<std::tuple<std::string, int, int>, DcgmDevice> devices;
  for (const std::vector<PrometheusSeries>& series : per_file) {
    for (const PrometheusSeries& s : series) {
      DcgmField field = DcgmField::kFbUsed;
      if (!DcgmFieldOf(s.name, &field)) continue;
      ++out.series;
      std::string node = DcgmLabel(s, "Hostname");
      if (node.empty()) node = DcgmLabel(s, "hostname");
      if (node.empty()) {
        DcgmFail(s, "expected the node in label Hostname (or hostname), as "
                    "dcgm-exporter writes it");
      }
      const int gpu = DcgmIndexLabel(s, "gpu");
      const int instance =
          s.labels.count("GPU_I_ID") > 0 ? DcgmIndexLabel(s, "GPU_I_ID") : -1;
      DcgmDevice& d = devices[{node, gpu, instance}];
      if (d.file.empty()) {
        d.node = node;
        d.gpu = gpu;
        d.instance = instance;
        d.model_name = DcgmLabel(s, "modelName");
        d.profile = DcgmLabel(s, "GPU_I_PROFILE");
        d.file = s.file;
        d.line = s.line;
        d.column = s.column;
      }
      std::string ns = DcgmLabel(s, "exported_namespace");
      std::string pod = DcgmLabel(s, "exported_pod");
      if (pod.empty()) {
        ns = DcgmLabel(s, "namespace");
        pod = DcgmLabel(s, "pod");
      }
      if (ns.empty()) ns = "default";
      // A pod label that holds its namespace already (the simulator's
      // kubectl-imported pods) is kept as it is.
      const std::string key =
          pod.rfind(ns + "/", 0) == 0 ? pod : ns + "/" + pod;
      std::map<double, DcgmValues>* pod_values =
          pod.empty() ? nullptr : &d.pods[key];
      for (const PrometheusPoint& p : s.points) {
        if (p.value < 0) {
          DcgmFail(s, "expected values >= 0, got " + std::to_string(p.value));
        }
        double* device_slot = DcgmSlot(&d.values[p.time_s], field);
        *device_slot = std::max(*device_slot, p.value);
        if (pod_values != nullptr) {
          *DcgmSlot(&(*pod_values)[p.time_s], field) = p.value;
        }
      }
    }
  }
  if (out.series == 0) {
    throw InputError(files.empty() ? std::string("metrics") : files.front(),
                     1, 1,
                     "expected dcgm-exporter series (DCGM_FI_PROF_GR_ENGINE_"
                     "ACTIVE, DCGM_FI_PROF_SM_ACTIVE, DCGM_FI_DEV_GPU_UTIL or "
                     "DCGM_FI_DEV_FB_USED), found none");
  }
  for (auto& [key, device] : devices) out.devices.push_back(std::move(device));
  return out;
}

DcgmRecording ReadDcgmRecording(const std::vector<std::string>& files) {
  std::vector<std::vector<PrometheusSeries>> per_file;
  for (const std::string& f : files) per_file.push_back(ReadPrometheusResult(f));
  return BuildDcgmRecording(files, per_file);
}

}  // namespace gpushare
