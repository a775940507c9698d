#include "gpushare/emit/dra_feature_gates.h"

#include <fmt/format.h>

#include <cctype>

#include "gpushare/emit/comment_wrap.h"
#include "gpushare/emit/dra_driver_values.h"
#include "gpushare/emit/quoting.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/platform_reader.h"

namespace gpushare {
namespace {

// kubernetes/enhancements (2026-07-24) keps/sig-node/4381-dra-structured-
// parameters, sig-scheduling/5075-dra-consumable-capacity, 5004-dra-
// extended-resource, 4815-dra-partitionable-devices kep.yaml (milestones,
// feature gates and their components); the default per version from
// kubernetes/kubernetes staging/src/k8s.io/kube-scheduler/pkg/features/
// kube_features.go defaultVersionedKubernetesFeatureGates.
constexpr DraGateRow kRows[] = {
    {DraApiFeature::kResourceV1,
     "resource.k8s.io/v1 DeviceClasses, ResourceClaims and templates, and the "
     "driver's v1 ResourceSlices",
     "DynamicResourceAllocation", "KEP-4381", 34, 34, 35,
     "kube-apiserver, kube-controller-manager, kube-scheduler and kubelet"},
    {DraApiFeature::kConsumableCapacity,
     "consumable capacity: the driver's multi-allocatable devices and the "
     "claims' capacity.requests",
     "DRAConsumableCapacity", "KEP-5075", 34, 36, 0,
     "kube-apiserver, kube-scheduler and kubelet"},
    {DraApiFeature::kExtendedResource,
     "extended resources backed by DRA: DeviceClass extendedResourceName and "
     "pods asking nvidia.com/gpu or nvidia.com/mig-* of it",
     "DRAExtendedResource", "KEP-5004", 34, 36, 37,
     "kube-apiserver, kube-controller-manager, kube-scheduler and kubelet"},
    {DraApiFeature::kPartitionableDevices,
     "partitionable devices: the shared counters dynamic MIG publishes",
     "DRAPartitionableDevices", "KEP-4815", 33, 36, 0,
     "kube-apiserver and kube-scheduler"},
};

std::string Versions(const DraGateRow& row) {
  std::string out;
  if (row.since_minor == row.default_on_minor) {
    out = fmt::format("from 1.{}, on by default", row.since_minor);
  } else {
    out = fmt::format(
        "from 1.{}, off by default in 1.{}-1.{}, on by default from 1.{}",
        row.since_minor, row.since_minor, row.default_on_minor - 1,
        row.default_on_minor);
  }
  if (row.locked_minor > 0) {
    out += fmt::format(", locked on from 1.{}", row.locked_minor);
  }
  return out;
}

// Where the version came from, for the messages.
std::string VersionSource(const PlatformSpec& p) {
  return p.kubernetes_version_source.empty()
             ? std::string("platform.kubernetes.version")
             : p.kubernetes_version_source;
}

}  // namespace

const DraGateRow& DraFeatureGate(DraApiFeature feature) {
  for (const DraGateRow& row : kRows) {
    if (row.feature == feature) return row;
  }
  return kRows[0];
}

DraGateState DraGateStateIn(const DraGateRow& row, int minor,
                            const std::map<std::string, bool>& gates) {
  if (minor < row.since_minor) return DraGateState::kAbsent;
  if (row.locked_minor > 0 && minor >= row.locked_minor) {
    return DraGateState::kOn;
  }
  const auto it = gates.find(row.gate);
  if (it != gates.end()) {
    return it->second ? DraGateState::kOn : DraGateState::kOff;
  }
  return minor >= row.default_on_minor ? DraGateState::kOn : DraGateState::kOff;
}

std::vector<DraApiFeature> DraFeaturesOf(const Scenario& scenario) {
  bool dra = false;
  bool extended = false;
  bool dynamic = false;
  for (const NodePoolSpec& p : scenario.pools) {
    if (p.devices != PoolDevices::kDra || p.gpus_per_node == 0) continue;
    dra = true;
    extended = extended || p.dra.extended_resource;
    dynamic = dynamic || (p.sharing.mig_enabled && p.sharing.mig.dynamic);
  }
  if (!dra) return {};
  std::vector<DraApiFeature> out = {DraApiFeature::kResourceV1};
  if (DraDriverSettings(scenario.pools).consumable_shares !=
      DraConsumableShares::kDisabled) {
    out.push_back(DraApiFeature::kConsumableCapacity);
  }
  if (extended) out.push_back(DraApiFeature::kExtendedResource);
  if (dynamic) out.push_back(DraApiFeature::kPartitionableDevices);
  return out;
}

void CheckDraKubernetes(const Scenario& scenario) {
  const PlatformSpec& p = scenario.platform;
  const auto version = KubernetesMinorVersion(p.kubernetes_version);
  if (!version) return;
  const int minor = version->second;
  for (DraApiFeature f : DraFeaturesOf(scenario)) {
    const DraGateRow& row = DraFeatureGate(f);
    const DraGateState state = DraGateStateIn(row, minor, p.feature_gates);
    if (state == DraGateState::kOn) continue;
    std::string why;
    std::string fix;
    if (state == DraGateState::kAbsent) {
      why = fmt::format("Kubernetes 1.{} ({}) does not have it", minor,
                        VersionSource(p));
      fix = fmt::format("target Kubernetes 1.{} or later", row.since_minor);
      if (f == DraApiFeature::kResourceV1) {
        why += " (it serves resource.k8s.io v1beta1 or v1beta2 at most)";
      }
    } else {
      const auto explicit_gate = p.feature_gates.find(row.gate);
      why = explicit_gate != p.feature_gates.end()
                ? fmt::format(
                      "platform.kubernetes.feature_gates turns it "
                      "off in Kubernetes 1.{} ({})",
                      minor, VersionSource(p))
                : fmt::format("it is off by default in Kubernetes 1.{} ({})",
                              minor, VersionSource(p));
      fix = fmt::format(
          "turn {} on in {} and say so with platform.kubernetes."
          "feature_gates: {{{}: true}}, or target Kubernetes 1.{} or later",
          row.gate, row.components, row.gate, row.default_on_minor);
    }
    throw InputError(fmt::format(
        "the DRA pools need {} (feature gate {}, {}: {}), and {}; without it "
        "the API server refuses the objects or drops their fields without an "
        "error. {}{}",
        row.what, row.gate, row.kep, Versions(row), why,
        char(std::toupper(fix[0])), fix.substr(1)));
  }
}

std::string DraKubernetesNeeds(const std::vector<DraApiFeature>& features,
                               const PlatformSpec& platform) {
  if (features.empty()) return "";
  std::string out =
      "# Kubernetes: 1.34 or later (resource.k8s.io/v1), these feature gates "
      "on:\n";
  for (DraApiFeature f : features) {
    const DraGateRow& row = DraFeatureGate(f);
    out +=
        WrappedComment(fmt::format("{} ({}; {}) in {}: {}.", row.gate, row.kep,
                                   Versions(row), row.components, row.what),
                       "#   ", "#     ");
  }
  const auto version = KubernetesMinorVersion(platform.kubernetes_version);
  if (version) {
    out += WrappedComment(
        fmt::format("Checked against Kubernetes 1.{} ({}): each is on there.",
                    version->second, VersionSource(platform)));
  } else {
    out += WrappedComment(
        "The Kubernetes version is not known (platform.kubernetes.version, "
        "or the nodes' kubelet version in a kubectl import): check these "
        "before applying.");
  }
  return out;
}

}  // namespace gpushare
