#include "gpushare/emit/dra_driver_release.h"

#include <fmt/format.h>

#include <optional>
#include <regex>

#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// A chart version read: its release line in the driver's SemVer terms
// (featuregates.go: "~25.8 -> 0.2, ~25.12 -> 0.3, ~26.4 -> 0.4") — 2, 3, 4
// or 5 (0.5 and every later version, which gpushare-sim takes to have what
// commit 95932046, 0.5.0-dev, has) — and whether it is a pre-release.
struct DriverLine {
  int line = 0;  // 0: unknown
  bool calendar = false;
  bool prerelease = false;
};

std::string Bare(const std::string& version) {
  return !version.empty() && version[0] == 'v' ? version.substr(1) : version;
}

DriverLine LineOf(const std::string& chart_version) {
  static const std::regex kVersion(
      R"((0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})(-[0-9A-Za-z.-]+)?)");
  std::smatch m;
  const std::string v = Bare(chart_version);
  DriverLine out;
  if (!std::regex_match(v, m, kVersion)) return out;
  const int major = std::stoi(m[1].str());
  const int minor = std::stoi(m[2].str());
  out.prerelease = m[4].matched;
  if (major == 25) {
    out.calendar = true;
    out.line = minor >= 12 ? 3 : minor >= 8 ? 2 : 0;
  } else if (major == 0) {
    out.line = minor >= 5 ? 5 : minor == 4 ? 4 : 0;
  } else if (major < 25) {
    out.line = 5;
  }
  return out;
}

struct FeatureInfo {
  DraDriverFeature feature;
  int line;          // the release line that has it
  const char* what;  // the feature, its gate and chart key
  const char* from;  // the release that has it, or the commit
};

constexpr FeatureInfo kFeatures[] = {
    {DraDriverFeature::kTimeSlicingSettings, 2,
     "a time-slicing interval in the claims' GpuConfig (driver feature gate "
     "TimeSlicingSettings)",
     "release v25.8.0 and later"},
    {DraDriverFeature::kMpsSupport, 2,
     "MPS in the claims' GpuConfig (driver feature gate MPSSupport)",
     "release v25.8.0 and later"},
    {DraDriverFeature::kDynamicMig, 3,
     "dynamic MIG (driver feature gate DynamicMIG)",
     "release v25.12.0 and later"},
    {DraDriverFeature::kConsumableShares, 5,
     "consumable shares (driver feature gate ConsumableShares and the "
     "chart's consumableShares value)",
     "no release yet, only in kubernetes-sigs/dra-driver-nvidia-gpu commit "
     "c38ce5b5 (unreleased, 2026-07-29; the chart value in 6487e05c) and the "
     "0.5.0 development charts after it, e.g. 0.5.0-dev-95932046 from "},
};

const FeatureInfo& InfoOf(DraDriverFeature f) {
  for (const FeatureInfo& i : kFeatures) {
    if (i.feature == f) return i;
  }
  return kFeatures[0];
}

// The installed version when gpushare-sim knows its line.
std::optional<std::string> InstalledVersion(const Scenario& scenario) {
  const auto& today = scenario.platform.dra_driver_today;
  if (!today.found || today.version.empty()) return std::nullopt;
  if (LineOf(today.version).line == 0) return std::nullopt;
  return Bare(today.version);
}

// The chart's own name for a version (Chart.yaml name).
std::string ChartName(const std::string& chart_version) {
  return LineOf(chart_version).calendar ? kDraDriverOldName : kDraDriverRelease;
}

}  // namespace

HelmReleaseSpec DraDriverRelease(const Scenario& scenario) {
  const PlatformSpec& p = scenario.platform;
  const auto& today = p.dra_driver_today;
  HelmReleaseSpec r;
  r.release = !p.dra_driver.release.empty()           ? p.dra_driver.release
              : today.found && !today.release.empty() ? today.release
                                                      : kDraDriverRelease;
  r.namespace_name =
      !p.dra_driver.namespace_name.empty() ? p.dra_driver.namespace_name
      : today.found && !today.namespace_name.empty() ? today.namespace_name
                                                     : kDraDriverRelease;
  if (!p.dra_driver.chart_version.empty()) {
    r.chart_version = Bare(p.dra_driver.chart_version);
  } else if (const auto installed = InstalledVersion(scenario)) {
    r.chart_version = *installed;
  } else {
    r.chart_version = kDraDriverChartVersion;
  }
  return r;
}

std::string DraDriverVersionSource(const Scenario& scenario) {
  const PlatformSpec& p = scenario.platform;
  if (!p.dra_driver.chart_version.empty()) {
    return "platform.dra_driver.chart_version";
  }
  if (InstalledVersion(scenario)) {
    return fmt::format("installed today: the image of its pods in {}",
                       p.dra_driver_today.source);
  }
  std::string out = "gpushare-sim's default, the newest release";
  if (p.dra_driver_today.found && !p.dra_driver_today.version.empty()) {
    out += fmt::format("; {} runs today, which gpushare-sim does not know",
                       p.dra_driver_today.version);
  }
  return out;
}

std::string DraDriverChartRef(const std::string& chart_version) {
  const DriverLine line = LineOf(chart_version);
  if (line.calendar) return kDraDriverNgcChart;
  return line.prerelease ? kDraDriverStagingChart : kDraDriverChart;
}

std::string DraDriverRepoAdd(const std::string& chart_version) {
  if (!LineOf(chart_version).calendar) return "";
  return fmt::format("helm repo add nvidia {} && helm repo update nvidia",
                     kDraDriverNgcRepo);
}

std::string DraDriverHelmUpgrade(const Scenario& scenario,
                                 const std::string& values_file) {
  const HelmReleaseSpec r = DraDriverRelease(scenario);
  return fmt::format(
      "helm upgrade --install {} {} --version {} --namespace {} "
      "--create-namespace -f {}",
      ShellWord(r.release), ShellWord(DraDriverChartRef(r.chart_version)),
      ShellWord(r.chart_version), ShellWord(r.namespace_name),
      ShellWord(values_file));
}

bool DraDriverHas(const std::string& chart_version, DraDriverFeature feature) {
  const int line = LineOf(chart_version).line;
  return line > 0 && line >= InfoOf(feature).line;
}

void CheckDraDriverFeatures(const Scenario& scenario) {
  const HelmReleaseSpec r = DraDriverRelease(scenario);
  bool any = false;
  for (const NodePoolSpec& p : scenario.pools) {
    any = any || (p.devices == PoolDevices::kDra && p.gpus_per_node > 0);
  }
  if (!any) return;
  if (LineOf(r.chart_version).line == 0) {
    throw InputError(fmt::format(
        "platform.dra_driver.chart_version: NVIDIA's DRA driver chart {} is "
        "not one gpushare-sim writes for (25.8.x, 25.12.x, 0.4.x and later; "
        "the newest release is {}): its feature gates and values are not "
        "known",
        r.chart_version, kDraDriverChartVersion));
  }
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.devices != PoolDevices::kDra || p.gpus_per_node == 0) continue;
    const DraPoolSettings dra = EffectiveDraPoolSettings(p.dra, p.sharing);
    std::vector<DraDriverFeature> needs;
    if (dra.consumable_shares != DraConsumableShares::kDisabled) {
      needs.push_back(DraDriverFeature::kConsumableShares);
    }
    if (p.sharing.mig_enabled && p.sharing.mig.dynamic) {
      needs.push_back(DraDriverFeature::kDynamicMig);
    }
    if (p.sharing.scheme() == SharingScheme::kMps) {
      needs.push_back(DraDriverFeature::kMpsSupport);
    }
    if (!p.sharing.mig_enabled &&
        dra.time_slice_interval != DraTimeSliceInterval::kDefault) {
      needs.push_back(DraDriverFeature::kTimeSlicingSettings);
    }
    for (DraDriverFeature f : needs) {
      if (DraDriverHas(r.chart_version, f)) continue;
      const FeatureInfo& info = InfoOf(f);
      const std::string from =
          f == DraDriverFeature::kConsumableShares
              ? std::string(info.from) + kDraDriverStagingChart
              : std::string(info.from);
      throw InputError(fmt::format(
          "DRA pool '{}' needs {}, which NVIDIA's DRA driver chart {} ({}) "
          "lacks: its kubelet plugin exits on a feature gate it does not "
          "know. It is in {}. Set platform.dra_driver.chart_version to a "
          "version that has it, or give the pool a sharing that does not "
          "need it",
          p.name, info.what, r.chart_version, DraDriverVersionSource(scenario),
          from));
    }
  }
}

std::string DraDriverNameOverride(const Scenario& scenario) {
  const auto& today = scenario.platform.dra_driver_today;
  if (!today.found || today.name.empty()) return "";
  const HelmReleaseSpec r = DraDriverRelease(scenario);
  return today.name == ChartName(r.chart_version) ? "" : today.name;
}

Scenario WithTodaysPlatform(const Scenario& scenario, const Scenario* today) {
  Scenario out = scenario;
  if (today == nullptr) return out;
  PlatformSpec& p = out.platform;
  const PlatformSpec& t = today->platform;
  if (!p.dra_driver_today.found) p.dra_driver_today = t.dra_driver_today;
  if (p.kubernetes_version.empty()) {
    p.kubernetes_version = t.kubernetes_version;
    p.kubernetes_version_source = t.kubernetes_version_source;
    if (p.kubernetes_version_source.empty() && !p.kubernetes_version.empty()) {
      p.kubernetes_version_source =
          "platform.kubernetes.version of today's scenario";
    }
  }
  if (!p.gpu_operator_driver.has_value()) {
    p.gpu_operator_driver = t.gpu_operator_driver;
  }
  if (p.device_classes_today.empty()) {
    p.device_classes_today = t.device_classes_today;
  }
  return out;
}

}  // namespace gpushare
