#include "gpushare/workload/dcgm_recording.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <tuple>
#include <utility>

#include <fmt/format.h>

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

// The most a field's sample can be: 100 for dcgm-exporter's percentages,
// 1 for DCGM's profiling ratios (NVIDIA/dcgm-exporter
// etc/default-counters.csv: "GPU utilization (in %)", "Ratio of time the
// graphics engine is active", ...); < 0 for a field without a bound here.
double DcgmFieldMaximum(const std::string& name) {
  if (name == "DCGM_FI_DEV_GPU_UTIL" || name == "DCGM_FI_DEV_MEM_COPY_UTIL" ||
      name == "DCGM_FI_DEV_ENC_UTIL" || name == "DCGM_FI_DEV_DEC_UTIL") {
    return 100;
  }
  constexpr std::string_view kProf = "DCGM_FI_PROF_";
  constexpr std::string_view kActive = "_ACTIVE";
  if (name.rfind(kProf, 0) == 0 &&
      (name == "DCGM_FI_PROF_SM_OCCUPANCY" ||
       (name.size() > kProf.size() + kActive.size() &&
        name.compare(name.size() - kActive.size(), kActive.size(),
                     kActive) == 0))) {
    return 1;
  }
  return -1;
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

// Refuses a sample below 0 or above the field's maximum (rounding of the
// exporter's text aside).
void DcgmCheckRange(const PrometheusSeries& s, const PrometheusPoint& p,
                    double maximum) {
  if (p.value < 0) {
    DcgmFail(s, fmt::format("expected values >= 0, got {} at time {}",
                            p.value, p.time_s));
  }
  if (maximum > 0 && p.value > maximum * (1 + 1e-9)) {
    DcgmFail(s, fmt::format(
                    "{} at time {} is above {}: the field is {}", p.value,
                    p.time_s, maximum,
                    maximum == 100 ? "a percentage (0 to 100)"
                                   : "a ratio (0 to 1), not a percentage"));
  }
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

// Counts the device samples whose SM active exceeds the engine's activity
// by more than the tolerance; one warning naming the first.
void DcgmWarnSmAboveEngine(const std::vector<DcgmDevice>& devices,
                           std::vector<std::string>* warnings) {
  int samples = 0;
  int device_count = 0;
  const DcgmDevice* first = nullptr;
  double first_time = 0;
  DcgmValues first_values;
  for (const DcgmDevice& d : devices) {
    bool counted = false;
    for (const auto& [time, v] : d.values) {
      if (v.gr_engine_active < 0 || v.sm_active < 0 ||
          v.sm_active <= v.gr_engine_active + kDcgmSmAboveEngineTolerance) {
        continue;
      }
      ++samples;
      if (!counted) ++device_count;
      counted = true;
      if (first == nullptr) {
        first = &d;
        first_time = time;
        first_values = v;
      }
    }
  }
  if (first == nullptr) return;
  warnings->push_back(fmt::format(
      "SM_ACTIVE above GR_ENGINE_ACTIVE by more than {} at {} sample(s) of "
      "{} device(s) (first: {} gpu {}{} at time {}, SM active {} against "
      "{}, series at {}:{}:{}): an SM is active only while the engine is, "
      "so the series are not of the same device or interval; the SM demand "
      "derived from them is suspect",
      kDcgmSmAboveEngineTolerance, samples, device_count, first->node,
      first->gpu,
      first->instance < 0 ? std::string()
                          : fmt::format(" instance {}", first->instance),
      first_time, first_values.sm_active, first_values.gr_engine_active,
      first->file, first->line, first->column));
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

double DcgmRecording::EndUnixS() const {
  double end = 0;
  for (const DcgmDevice& d : devices) {
    if (!d.values.empty()) end = std::max(end, d.values.rbegin()->first);
  }
  return end;
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
  int non_finite = 0;
  int non_finite_series = 0;
  const PrometheusSeries* non_finite_first = nullptr;
  std::map<std::tuple<std::string, int, int>, DcgmDevice> devices;
  for (const std::vector<PrometheusSeries>& series : per_file) {
    for (const PrometheusSeries& s : series) {
      const double maximum = DcgmFieldMaximum(s.name);
      DcgmField field = DcgmField::kFbUsed;
      if (!DcgmFieldOf(s.name, &field)) {
        // Not read, but an impossible value says the file is not what it
        // claims to be.
        if (maximum > 0) {
          for (const PrometheusPoint& p : s.points) {
            DcgmCheckRange(s, p, maximum);
          }
        }
        continue;
      }
      ++out.series;
      if (s.non_finite > 0) {
        if (non_finite == 0) non_finite_first = &s;
        non_finite += s.non_finite;
        ++non_finite_series;
      }
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
        DcgmCheckRange(s, p, maximum);
        if (field == DcgmField::kFbUsed) {
          d.fb_min_mib = d.fb_min_mib < 0 ? p.value
                                          : std::min(d.fb_min_mib, p.value);
          if (p.value > d.fb_max_mib) {
            d.fb_max_mib = p.value;
            d.fb_max_time_s = p.time_s;
            if (d.fb_max_file != s.file) d.fb_max_file = s.file;
            d.fb_max_line = s.line;
            d.fb_max_column = s.column;
          }
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
  if (non_finite > 0) {
    const PrometheusSeries& s = *non_finite_first;
    out.warnings.push_back(fmt::format(
        "{} NaN/Inf sample(s) of {} series skipped (first: {} at {}:{}:{}): "
        "Prometheus writes them for gaps and failed divisions; the needs and "
        "the fidelity use the other samples",
        non_finite, non_finite_series, s.name, s.file, s.line, s.column));
  }
  DcgmWarnSmAboveEngine(out.devices, &out.warnings);
  return out;
}

DcgmRecording ReadDcgmRecording(const std::vector<std::string>& files) {
  std::vector<std::vector<PrometheusSeries>> per_file;
  for (const std::string& f : files) per_file.push_back(ReadPrometheusResult(f));
  return BuildDcgmRecording(files, per_file);
}

}  // namespace gpushare
