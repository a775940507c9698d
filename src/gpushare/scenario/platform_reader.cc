#include "gpushare/scenario/platform_reader.h"

#include <fmt/format.h>

#include <regex>

#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace {

// Helm refuses release names longer than 53 characters or that are not a
// DNS-1123 subdomain (helm/helm pkg/chartutil validate_name.go:
// ValidateReleaseName, maxReleaseNameLen).
constexpr size_t kMaxReleaseName = 53;

std::string ChartVersion(const YamlMap& m) {
  const std::string v = m.String("chart_version");
  static const std::regex kExact(
      R"(v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?)");
  if (v.size() > 64 || !std::regex_match(v, kExact)) {
    m.Fail(m.Get("chart_version"),
           fmt::format("chart_version: '{}' is not an exact chart version "
                       "(expected [v]MAJOR.MINOR.PATCH[-PRERELEASE], e.g. "
                       "v25.10.1; the files pin one version)",
                       v));
  }
  return v;
}

HelmReleaseSpec ReadRelease(const YamlMap& m) {
  HelmReleaseSpec r;
  if (m.Has("release")) {
    r.release = m.String("release");
    if (r.release.size() > kMaxReleaseName || !IsDnsSubdomain(r.release)) {
      m.Fail(m.Get("release"),
             fmt::format("release: '{}' is not a Helm release name (lowercase "
                         "letters, digits, '-' and '.', at most {})",
                         r.release, kMaxReleaseName));
    }
  }
  if (m.Has("namespace")) {
    r.namespace_name = m.String("namespace");
    if (!IsDnsLabel(r.namespace_name)) {
      m.Fail(m.Get("namespace"),
             fmt::format("namespace: '{}' is not a namespace name (a DNS-1123 "
                         "label: lowercase letters, digits and '-', at most "
                         "63)",
                         r.namespace_name));
    }
  }
  if (m.Has("chart_version")) r.chart_version = ChartVersion(m);
  return r;
}

// platform.dra_driver.driver_root: the host path of the NVIDIA driver the
// DRA driver's chart mounts (nvidiaDriverRoot): absolute, printable, no
// quote or backslash (it is written into a YAML value and the chart's
// container environment), no "." or ".." element.
std::string DriverRoot(const YamlMap& m) {
  const std::string v = m.String("driver_root");
  static const std::regex kPath(R"(/([A-Za-z0-9_.+@-]+(/[A-Za-z0-9_.+@-]+)*)?/?)");
  const bool dots = v.find("/./") != std::string::npos ||
                    v.find("/../") != std::string::npos ||
                    (v.size() >= 2 && v.compare(v.size() - 2, 2, "/.") == 0) ||
                    (v.size() >= 3 && v.compare(v.size() - 3, 3, "/..") == 0);
  if (v.size() > 256 || !std::regex_match(v, kPath) || dots) {
    m.Fail(m.Get("driver_root"),
           fmt::format("driver_root: '{}' is not an absolute host path "
                       "(letters, digits, '_', '.', '+', '@', '-' between "
                       "'/', at most 256 characters, e.g. /run/nvidia/driver)",
                       v));
  }
  return v;
}

// `tolerations` of the mapping under `key` of `m`, when it is there.
std::optional<std::vector<Toleration>> ReadTolerationsOf(
    const YamlMap& m, std::string_view key) {
  if (!m.Has(key)) return std::nullopt;
  const YamlMap sub = m.Map(key, m.what() + " " + std::string(key));
  sub.AllowOnly({"tolerations"});
  if (!sub.Has("tolerations")) return std::vector<Toleration>{};
  return scenario_internal::ReadTolerations(sub);
}

}  // namespace

std::optional<std::pair<int, int>> KubernetesMinorVersion(
    const std::string& version) {
  static const std::regex kVersion(
      R"(v?(0|[1-9][0-9]{0,2})\.(0|[1-9][0-9]{0,3})(\.(0|[1-9][0-9]{0,5}))?)");
  std::smatch m;
  if (!std::regex_match(version, m, kVersion)) return std::nullopt;
  return std::make_pair(std::stoi(m[1].str()), std::stoi(m[2].str()));
}

PlatformSpec ReadPlatform(const YamlMap& top) {
  PlatformSpec p;
  if (!top.Has("platform")) return p;
  const YamlMap m = top.Map("platform", "platform");
  m.AllowOnly({"kubernetes", "gpu_operator", "hami", "dra_driver", "kueue"});
  if (m.Has("kubernetes")) {
    const YamlMap k = m.Map("kubernetes", "platform kubernetes");
    k.AllowOnly({"version", "feature_gates"});
    if (k.Has("version")) {
      const std::string v = k.String("version");
      const auto minor = KubernetesMinorVersion(v);
      if (!minor || minor->first != 1) {
        k.Fail(k.Get("version"),
               fmt::format("version: '{}' is not a Kubernetes version "
                           "(expected 1.MINOR or 1.MINOR.PATCH, e.g. \"1.34\"; "
                           "quote it so YAML keeps it a string)",
                           v));
      }
      p.kubernetes_version = fmt::format("{}.{}", minor->first, minor->second);
    }
    if (k.Has("feature_gates")) {
      const YamlMap gates = k.Map("feature_gates", "platform feature_gates");
      static const std::regex kGate("[A-Z][A-Za-z0-9]{0,99}");
      for (const auto& kv : gates.node()) {
        const std::string name =
            ScalarString(gates.file(), kv.first, "feature gate name");
        if (!std::regex_match(name, kGate)) {
          gates.Fail(kv.first,
                     fmt::format("'{}' is not a feature gate name (UpperCamel"
                                 "Case, e.g. DRAConsumableCapacity)",
                                 name));
        }
        p.feature_gates[name] = gates.Bool(name);
      }
    }
  }
  if (m.Has("gpu_operator")) {
    const YamlMap g = m.Map("gpu_operator", "platform gpu_operator");
    g.AllowOnly({"release", "namespace", "chart_version", "daemonsets",
                 "nfd_worker"});
    p.gpu_operator = ReadRelease(g);
    p.gpu_operator_daemonset_tolerations = ReadTolerationsOf(g, "daemonsets");
    p.nfd_worker_tolerations = ReadTolerationsOf(g, "nfd_worker");
  }
  for (const auto& [key, release] :
       {std::pair<const char*, HelmReleaseSpec*>{"hami", &p.hami},
        {"dra_driver", &p.dra_driver}}) {
    if (!m.Has(key)) continue;
    const YamlMap r = m.Map(key, std::string("platform ") + key);
    if (release == &p.dra_driver) {
      r.AllowOnly({"release", "namespace", "chart_version", "driver_root"});
      if (r.Has("driver_root")) p.dra_driver_root = DriverRoot(r);
    } else {
      r.AllowOnly({"release", "namespace", "chart_version"});
    }
    *release = ReadRelease(r);
  }
  if (m.Has("kueue")) {
    const YamlMap q = m.Map("kueue", "platform kueue");
    q.AllowOnly({"version"});
    if (q.Has("version")) {
      const std::string v = q.String("version");
      static const std::regex kSemver(
          R"(v?(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,5}))");
      if (!std::regex_match(v, kSemver)) {
        q.Fail(q.Get("version"),
               fmt::format("version: '{}' is not a Kueue release (expected "
                           "MAJOR.MINOR.PATCH, e.g. 0.15.2)",
                           v));
      }
      p.kueue_version = v[0] == 'v' ? v.substr(1) : v;
    }
  }
  return p;
}

}  // namespace gpushare
