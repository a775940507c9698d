// The Kubernetes features of the DRA files by version, checked by hand
// against kube_features.go (kube-scheduler/pkg/features) and the KEPs.

#include "gpushare/emit/dra_feature_gates.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace dra_feature_gates_test {
namespace {

using F = DraApiFeature;
using S = DraGateState;

S State(F f, int minor, std::map<std::string, bool> gates = {}) {
  return DraGateStateIn(DraFeatureGate(f), minor, gates);
}

TEST(DraFeatureGatesTest, StatesByVersion) {
  // resource.k8s.io/v1: GA in 1.34, locked in 1.35; not in 1.33 whatever
  // the gate says.
  EXPECT_EQ(State(F::kResourceV1, 33, {{"DynamicResourceAllocation", true}}),
            S::kAbsent);
  EXPECT_EQ(State(F::kResourceV1, 34), S::kOn);
  EXPECT_EQ(State(F::kResourceV1, 35, {{"DynamicResourceAllocation", false}}),
            S::kOn);
  // DRAConsumableCapacity: alpha (off) 1.34-1.35, beta (on) from 1.36.
  EXPECT_EQ(State(F::kConsumableCapacity, 33), S::kAbsent);
  EXPECT_EQ(State(F::kConsumableCapacity, 34), S::kOff);
  EXPECT_EQ(State(F::kConsumableCapacity, 35), S::kOff);
  EXPECT_EQ(
      State(F::kConsumableCapacity, 35, {{"DRAConsumableCapacity", true}}),
      S::kOn);
  EXPECT_EQ(State(F::kConsumableCapacity, 36), S::kOn);
  EXPECT_EQ(
      State(F::kConsumableCapacity, 36, {{"DRAConsumableCapacity", false}}),
      S::kOff);
  // DRAExtendedResource: alpha 1.34, beta 1.36, GA and locked 1.37.
  EXPECT_EQ(State(F::kExtendedResource, 35), S::kOff);
  EXPECT_EQ(State(F::kExtendedResource, 36), S::kOn);
  EXPECT_EQ(State(F::kExtendedResource, 37, {{"DRAExtendedResource", false}}),
            S::kOn);
  // DRAPartitionableDevices: alpha 1.33, beta (on) 1.36.
  EXPECT_EQ(State(F::kPartitionableDevices, 33), S::kOff);
  EXPECT_EQ(State(F::kPartitionableDevices, 36), S::kOn);
}

Scenario WithVersion(const std::string& pools, const std::string& version,
                     std::map<std::string, bool> gates = {}) {
  Scenario s = emit_test::PoolsScenario("k", pools);
  s.platform.kubernetes_version = version;
  s.platform.feature_gates = std::move(gates);
  return s;
}

std::string ErrorOf(const Scenario& s) {
  try {
    CheckDraKubernetes(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr char kWhole[] =
    "    - {name: w, gpu: A100-80GB, nodes: 1, devices: dra}\n";
constexpr char kShared[] =
    "    - {name: s, gpu: L4, nodes: 1, devices: dra,\n"
    "       sharing: {scheme: time-slicing, replicas: 4},\n"
    "       dra: {consumable_shares: memory}}\n";
constexpr char kExtended[] =
    "    - {name: e, gpu: A100-80GB, nodes: 1, devices: dra,\n"
    "       dra: {extended_resource: true}}\n";
constexpr char kDynamic[] =
    "    - {name: d, gpu: H100-80GB, nodes: 1, devices: dra,\n"
    "       sharing: {scheme: mig}, dra: {dynamic_mig: true}}\n";

TEST(DraFeatureGatesTest, FeaturesOfTheScenario) {
  EXPECT_EQ(DraFeaturesOf(emit_test::PoolsScenario(
                "n", "    - {name: c, gpu: L4, nodes: 1}\n")),
            std::vector<F>{});
  EXPECT_EQ(DraFeaturesOf(WithVersion(kWhole, "")),
            std::vector<F>{F::kResourceV1});
  EXPECT_EQ(DraFeaturesOf(WithVersion(std::string(kShared) + kExtended, "")),
            (std::vector<F>{F::kResourceV1, F::kConsumableCapacity,
                            F::kExtendedResource}));
  EXPECT_EQ(DraFeaturesOf(WithVersion(kDynamic, "")),
            (std::vector<F>{F::kResourceV1, F::kPartitionableDevices}));
}

TEST(DraFeatureGatesTest, RefusedWhereTheVersionLacksOrHasItOff) {
  // 1.33 serves no resource.k8s.io/v1.
  const std::string v133 = ErrorOf(WithVersion(kWhole, "1.33"));
  EXPECT_NE(v133.find("Kubernetes 1.33 (platform.kubernetes.version) does "
                      "not have it"),
            std::string::npos)
      << v133;
  EXPECT_NE(v133.find("Target Kubernetes 1.34 or later"), std::string::npos);
  EXPECT_EQ(ErrorOf(WithVersion(kWhole, "1.34")), "");
  // 1.34: consumable capacity is off unless the gate is on.
  const std::string v134 = ErrorOf(WithVersion(kShared, "1.34"));
  for (const char* part :
       {"DRAConsumableCapacity", "KEP-5075",
        "off by default in 1.34-1.35, on by default from 1.36",
        "it is off by default in Kubernetes 1.34",
        "drops their fields without an error",
        "platform.kubernetes.feature_gates: {DRAConsumableCapacity: true}",
        "kube-apiserver, kube-scheduler and kubelet"}) {
    EXPECT_NE(v134.find(part), std::string::npos) << part << "\n" << v134;
  }
  EXPECT_EQ(
      ErrorOf(WithVersion(kShared, "1.34", {{"DRAConsumableCapacity", true}})),
      "");
  EXPECT_NE(ErrorOf(WithVersion(kShared, "1.35")), "");
  // 1.36: on by default; turned off explicitly, refused.
  EXPECT_EQ(ErrorOf(WithVersion(kShared, "1.36")), "");
  EXPECT_NE(
      ErrorOf(WithVersion(kShared, "1.36", {{"DRAConsumableCapacity", false}}))
          .find("feature_gates turns it off"),
      std::string::npos);
  // Extended resources: alpha until 1.36.
  EXPECT_NE(ErrorOf(WithVersion(kExtended, "1.35")).find("DRAExtendedResource"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(WithVersion(kExtended, "1.36")), "");
  // Dynamic MIG's partitionable devices: beta in 1.36.
  EXPECT_NE(
      ErrorOf(WithVersion(kDynamic, "1.35")).find("DRAPartitionableDevices"),
      std::string::npos);
  EXPECT_EQ(ErrorOf(WithVersion(kDynamic, "1.36")), "");
  // Unknown version: nothing refused.
  EXPECT_EQ(ErrorOf(WithVersion(kShared, "")), "");
}

TEST(DraFeatureGatesTest, TheHeaderSaysTheGatesAndTheVersionChecked) {
  PlatformSpec p;
  std::string text =
      DraKubernetesNeeds({F::kResourceV1, F::kConsumableCapacity}, p);
  EXPECT_EQ(text.rfind("# Kubernetes: 1.34 or later (resource.k8s.io/v1)", 0),
            0u)
      << text;
  EXPECT_NE(text.find("#   DRAConsumableCapacity (KEP-5075; from 1.34, off by "
                      "default in 1.34-1.35, on"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("The Kubernetes version is not known"),
            std::string::npos);
  p.kubernetes_version = "1.36";
  p.kubernetes_version_source =
      "the lowest kubelet version of the nodes in "
      "d.json, node n1";
  text = DraKubernetesNeeds({F::kResourceV1}, p);
  EXPECT_NE(text.find("Checked against Kubernetes 1.36 (the lowest kubelet "
                      "version of the nodes in\n# d.json, node n1)"),
            std::string::npos)
      << text;
  for (size_t at = 0, eol; (eol = text.find('\n', at)) != std::string::npos;
       at = eol + 1) {
    EXPECT_LE(eol - at, 80u) << text.substr(at, eol - at);
    EXPECT_EQ(text[at], '#');
  }
  EXPECT_EQ(DraKubernetesNeeds({}, p), "");
}

}  // namespace
}  // namespace dra_feature_gates_test
}  // namespace gpushare
