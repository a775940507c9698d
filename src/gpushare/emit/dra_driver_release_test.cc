// The DRA driver release the files are written for: defaults, the dump's
// release, the chart a version comes from, the features each line has.

#include "gpushare/emit/dra_driver_release.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace dra_driver_release_test {
namespace {

Scenario OneDraPool(const std::string& sharing = "") {
  return emit_test::PoolsScenario(
      "r", "    - {name: p, gpu: L4, nodes: 1, devices: dra" + sharing + "}\n");
}

std::string ErrorOf(const Scenario& s) {
  try {
    CheckDraDriverFeatures(s);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DraDriverReleaseTest, DefaultsAreTheInstallGuidesAndTheNewestRelease) {
  const Scenario s = OneDraPool();
  const HelmReleaseSpec r = DraDriverRelease(s);
  EXPECT_EQ(r.release, "dra-driver-nvidia-gpu");
  EXPECT_EQ(r.namespace_name, "dra-driver-nvidia-gpu");
  EXPECT_EQ(r.chart_version, "0.4.1");
  EXPECT_EQ(DraDriverHelmUpgrade(s, "v.yaml"),
            "helm upgrade --install dra-driver-nvidia-gpu "
            "oci://registry.k8s.io/dra-driver-nvidia/charts/"
            "dra-driver-nvidia-gpu --version 0.4.1 --namespace "
            "dra-driver-nvidia-gpu --create-namespace -f v.yaml");
  EXPECT_EQ(DraDriverRepoAdd(r.chart_version), "");
  EXPECT_EQ(DraDriverNameOverride(s), "");
}

// The dump's release and namespace, its version when known; the scenario's
// values win; a leading 'v' is dropped.
TEST(DraDriverReleaseTest, TheInstalledReleaseUnlessTheScenarioSaysOtherwise) {
  Scenario s = OneDraPool();
  auto& today = s.platform.dra_driver_today;
  today = {true,
           "nvidia-dra-driver-gpu",
           "nvidia-dra-driver-gpu",
           "nvidia-dra-driver-gpu",
           "25.8.0",
           "dump.json"};
  HelmReleaseSpec r = DraDriverRelease(s);
  EXPECT_EQ(r.release, "nvidia-dra-driver-gpu");
  EXPECT_EQ(r.namespace_name, "nvidia-dra-driver-gpu");
  EXPECT_EQ(r.chart_version, "25.8.0");
  EXPECT_NE(DraDriverVersionSource(s).find("installed today"),
            std::string::npos);
  // 25.x comes from NGC's repository, under its own chart name.
  EXPECT_EQ(DraDriverChartRef(r.chart_version), "nvidia/nvidia-dra-driver-gpu");
  EXPECT_EQ(DraDriverRepoAdd(r.chart_version),
            "helm repo add nvidia https://helm.ngc.nvidia.com/nvidia && "
            "helm repo update nvidia");
  EXPECT_EQ(DraDriverNameOverride(s), "");

  s.platform.dra_driver = {"gpu", "dra", "v0.4.1"};
  r = DraDriverRelease(s);
  EXPECT_EQ(r.release, "gpu");
  EXPECT_EQ(r.namespace_name, "dra");
  EXPECT_EQ(r.chart_version, "0.4.1");
  EXPECT_EQ(DraDriverVersionSource(s), "platform.dra_driver.chart_version");
  // The 0.4 chart beside objects named by the 25.x chart keeps their name.
  EXPECT_EQ(DraDriverNameOverride(s), "nvidia-dra-driver-gpu");

  // A version gpushare-sim does not know is not taken from the dump.
  s.platform.dra_driver = {};
  today.version = "25.3.2";
  EXPECT_EQ(DraDriverRelease(s).chart_version, "0.4.1");
  EXPECT_NE(DraDriverVersionSource(s).find("25.3.2 runs today"),
            std::string::npos);
}

TEST(DraDriverReleaseTest, ChartsOfEachKindOfVersion) {
  EXPECT_EQ(DraDriverChartRef("0.4.0"), kDraDriverChart);
  EXPECT_EQ(DraDriverChartRef("0.5.0-dev-95932046"), kDraDriverStagingChart);
  EXPECT_EQ(DraDriverChartRef("25.12.0"), kDraDriverNgcChart);
}

// featuregates.go of each tag: TimeSlicingSettings and MPSSupport from
// v25.8.0 (0.2), DynamicMIG from v25.12.0 (0.3), ConsumableShares in no
// release (0.5, commit c38ce5b5).
TEST(DraDriverReleaseTest, FeaturesByReleaseLine) {
  using F = DraDriverFeature;
  for (const char* v : {"25.8.0", "25.8.1", "25.12.0", "0.4.0", "0.4.1"}) {
    EXPECT_TRUE(DraDriverHas(v, F::kMpsSupport)) << v;
    EXPECT_TRUE(DraDriverHas(v, F::kTimeSlicingSettings)) << v;
    EXPECT_FALSE(DraDriverHas(v, F::kConsumableShares)) << v;
  }
  EXPECT_FALSE(DraDriverHas("25.8.1", F::kDynamicMig));
  EXPECT_TRUE(DraDriverHas("25.12.0", F::kDynamicMig));
  EXPECT_TRUE(DraDriverHas("v0.4.1", F::kDynamicMig));
  EXPECT_TRUE(DraDriverHas("0.5.0-dev-95932046", F::kConsumableShares));
  EXPECT_TRUE(DraDriverHas("0.5.0", F::kConsumableShares));
  for (const char* v : {"25.3.2", "0.3.0", "26.4.0", "x"}) {
    EXPECT_FALSE(DraDriverHas(v, F::kMpsSupport)) << v;
  }
}

TEST(DraDriverReleaseTest, AFeatureTheVersionLacksIsRefusedWithWhereItIs) {
  Scenario s = OneDraPool(
      ", sharing: {scheme: time-slicing, replicas: 4},"
      " dra: {consumable_shares: memory}");
  const std::string e = ErrorOf(s);
  for (const char* part :
       {"DRA pool 'p' needs consumable shares", "ConsumableShares",
        "chart 0.4.1 (gpushare-sim's default, the newest release)",
        "no release yet", "commit c38ce5b5", "0.5.0-dev-95932046",
        "platform.dra_driver.chart_version"}) {
    EXPECT_NE(e.find(part), std::string::npos) << part << "\n" << e;
  }
  s.platform.dra_driver.chart_version = "0.5.0-dev-95932046";
  EXPECT_EQ(ErrorOf(s), "");

  Scenario mig = emit_test::PoolsScenario(
      "m",
      "    - {name: m, gpu: H100-80GB, nodes: 1, devices: dra,\n"
      "       sharing: {scheme: mig}, dra: {dynamic_mig: true}}\n");
  mig.platform.dra_driver.chart_version = "25.8.1";
  const std::string e2 = ErrorOf(mig);
  EXPECT_NE(e2.find("dynamic MIG"), std::string::npos) << e2;
  EXPECT_NE(e2.find("release v25.12.0 and later"), std::string::npos) << e2;
  mig.platform.dra_driver.chart_version = "25.12.0";
  EXPECT_EQ(ErrorOf(mig), "");

  Scenario old = OneDraPool();
  old.platform.dra_driver.chart_version = "25.3.2";
  EXPECT_NE(ErrorOf(old).find("not one gpushare-sim writes for"),
            std::string::npos);
  // No DRA pool: nothing to check.
  Scenario none =
      emit_test::PoolsScenario("n", "    - {name: c, gpu: L4, nodes: 1}\n");
  none.platform.dra_driver.chart_version = "25.3.2";
  EXPECT_EQ(ErrorOf(none), "");
}

// A written scenario emitted --from an imported one upgrades the driver the
// import found, in its namespace, and is checked against its Kubernetes.
TEST(DraDriverReleaseTest, TodaysImportCompletesAWrittenScenario) {
  Scenario today = OneDraPool();
  today.platform.dra_driver_today = {true,      "nvidia-dra-driver-gpu",
                                     "gpu-dra", "nvidia-dra-driver-gpu",
                                     "25.12.0", "dump.json"};
  today.platform.kubernetes_version = "1.35";
  today.platform.kubernetes_version_source = "the nodes of dump.json";
  today.platform.gpu_operator_driver = false;
  const Scenario s = WithTodaysPlatform(OneDraPool(), &today);
  const HelmReleaseSpec r = DraDriverRelease(s);
  EXPECT_EQ(r.release, "nvidia-dra-driver-gpu");
  EXPECT_EQ(r.namespace_name, "gpu-dra");
  EXPECT_EQ(r.chart_version, "25.12.0");
  EXPECT_EQ(s.platform.kubernetes_version, "1.35");
  EXPECT_EQ(s.platform.kubernetes_version_source, "the nodes of dump.json");
  EXPECT_EQ(s.platform.gpu_operator_driver, false);
  // What the scenario says stays.
  Scenario own = OneDraPool();
  own.platform.kubernetes_version = "1.36";
  EXPECT_EQ(WithTodaysPlatform(own, &today).platform.kubernetes_version,
            "1.36");
  EXPECT_EQ(WithTodaysPlatform(own, nullptr).platform.kubernetes_version,
            "1.36");
}

}  // namespace
}  // namespace dra_driver_release_test
}  // namespace gpushare
