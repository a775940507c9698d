// The scenario's `platform` mapping: versions, gates and Helm releases.

#include "gpushare/scenario/platform_reader.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace platform_reader_test {
namespace {

constexpr const char* kScenario = R"(cluster:
  pools:
    - {name: p, gpu: A100-80GB, nodes: 1}
workload:
  classes:
    - {name: a, class: batch, count: 1, work_s: 60}
)";

Scenario Read(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(std::string(kScenario) + text, "s.yaml", catalog);
}

std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PlatformReaderTest, AbsentLeavesEverythingUnset) {
  const PlatformSpec p = Read("").platform;
  EXPECT_EQ(p.kubernetes_version, "");
  EXPECT_TRUE(p.feature_gates.empty());
  EXPECT_EQ(p.gpu_operator.chart_version, "");
  EXPECT_FALSE(p.gpu_operator_daemonset_tolerations.has_value());
  EXPECT_FALSE(p.nfd_worker_tolerations.has_value());
  EXPECT_EQ(p.kueue_version, "");
}

TEST(PlatformReaderTest, ReadsEveryKey) {
  const PlatformSpec p = Read(R"(platform:
  kubernetes: {version: "v1.34.2", feature_gates: {DRAConsumableCapacity: true, DRAExtendedResource: false}}
  gpu_operator:
    release: gpu-op
    namespace: nvidia-system
    chart_version: v25.10.1
    daemonsets:
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
    nfd_worker: {}
  hami: {chart_version: 2.6.1, release: hami, namespace: kube-system}
  dra_driver: {chart_version: 25.8.1-rc.1, release: nvidia-dra-driver-gpu}
  kueue: {version: v0.15.2}
)").platform;
  EXPECT_EQ(p.kubernetes_version, "1.34");
  EXPECT_EQ(p.feature_gates.at("DRAConsumableCapacity"), true);
  EXPECT_EQ(p.feature_gates.at("DRAExtendedResource"), false);
  EXPECT_EQ(p.gpu_operator.release, "gpu-op");
  EXPECT_EQ(p.gpu_operator.namespace_name, "nvidia-system");
  EXPECT_EQ(p.gpu_operator.chart_version, "v25.10.1");
  ASSERT_TRUE(p.gpu_operator_daemonset_tolerations.has_value());
  ASSERT_EQ(p.gpu_operator_daemonset_tolerations->size(), 1u);
  EXPECT_EQ((*p.gpu_operator_daemonset_tolerations)[0].key, "nvidia.com/gpu");
  EXPECT_EQ((*p.gpu_operator_daemonset_tolerations)[0].op,
            Toleration::Operator::kExists);
  ASSERT_TRUE(p.nfd_worker_tolerations.has_value());
  EXPECT_TRUE(p.nfd_worker_tolerations->empty());
  EXPECT_EQ(p.hami.chart_version, "2.6.1");
  EXPECT_EQ(p.hami.namespace_name, "kube-system");
  EXPECT_EQ(p.dra_driver.chart_version, "25.8.1-rc.1");
  EXPECT_EQ(p.dra_driver.release, "nvidia-dra-driver-gpu");
  EXPECT_EQ(p.dra_driver.namespace_name, "");
  EXPECT_EQ(p.kueue_version, "0.15.2");
}

TEST(PlatformReaderTest, BadValuesFailAtTheirKey) {
  EXPECT_NE(Error("platform: {kubernetes: {version: \"2.1\"}}")
                .find("s.yaml:7:"),
            std::string::npos);
  EXPECT_NE(Error("platform: {kubernetes: {version: 1.34.x}}")
                .find("is not a Kubernetes version"),
            std::string::npos);
  EXPECT_NE(Error("platform: {kubernetes: {feature_gates: {dra: true}}}")
                .find("'dra' is not a feature gate name"),
            std::string::npos);
  EXPECT_NE(Error("platform: {kubernetes: {feature_gates: {DRA: maybe}}}"),
            "");
  EXPECT_NE(Error("platform: {gpu_operator: {chart_version: \">=25.0\"}}")
                .find("not an exact chart version"),
            std::string::npos);
  EXPECT_NE(Error("platform: {gpu_operator: {chart_version: \"v25.10.1; "
                  "rm -rf /\"}}")
                .find("not an exact chart version"),
            std::string::npos);
  EXPECT_NE(Error("platform: {hami: {release: Hami}}")
                .find("not a Helm release name"),
            std::string::npos);
  EXPECT_NE(Error("platform: {hami: {release: " + std::string(54, 'a') + "}}")
                .find("not a Helm release name"),
            std::string::npos);
  EXPECT_NE(Error("platform: {dra_driver: {namespace: a.b}}")
                .find("not a namespace name"),
            std::string::npos);
  EXPECT_NE(Error("platform: {kueue: {version: latest}}")
                .find("not a Kueue release"),
            std::string::npos);
  EXPECT_NE(Error("platform: {hami: {version: 1.0.0}}").find("version"),
            std::string::npos);
  EXPECT_NE(Error("platform: {gpu_operator: {daemonsets: {tolerations: "
                  "[{key: a, operator: Sometimes}]}}}"),
            "");
}

// platform.dra_driver.driver_root: an absolute host path, DRA only.
TEST(PlatformReaderTest, DraDriverRoot) {
  EXPECT_EQ(Read("platform: {dra_driver: {driver_root: /home/kubernetes/bin/"
                 "nvidia}}")
                .platform.dra_driver_root,
            "/home/kubernetes/bin/nvidia");
  EXPECT_EQ(Read("platform: {dra_driver: {driver_root: /}}")
                .platform.dra_driver_root,
            "/");
  for (const char* bad : {"run/nvidia", "/run/../etc", "\"/a b\"",
                          "\"/a'b\"", "/a/."}) {
    EXPECT_NE(Error(std::string("platform: {dra_driver: {driver_root: ") +
                    bad + "}}")
                  .find("is not an absolute host path"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(Error("platform: {hami: {driver_root: /}}").find("driver_root"),
            std::string::npos);
}

TEST(PlatformReaderTest, KubernetesMinorVersionParses) {
  EXPECT_EQ(KubernetesMinorVersion("1.34"), std::make_pair(1, 34));
  EXPECT_EQ(KubernetesMinorVersion("v1.35.0"), std::make_pair(1, 35));
  EXPECT_FALSE(KubernetesMinorVersion("1").has_value());
  EXPECT_FALSE(KubernetesMinorVersion("1.034").has_value());
  EXPECT_FALSE(KubernetesMinorVersion("").has_value());
}

}  // namespace
}  // namespace platform_reader_test
}  // namespace gpushare
