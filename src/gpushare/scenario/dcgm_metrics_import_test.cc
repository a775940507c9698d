#include "gpushare/scenario/dcgm_metrics_import.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/prometheus_result.h"

namespace gpushare {
namespace {

// One series of `name` on node n1, GPU `gpu`, for `pod` ("" none), with the
// values at t = 100, 160.
std::string DcgmTestSeries(const std::string& name, int gpu,
                           const std::string& pod, const std::string& v1,
                           const std::string& v2) {
  std::string labels = "\"__name__\": \"" + name + "\", \"gpu\": \"" +
                       std::to_string(gpu) +
                       "\", \"Hostname\": \"n1\", \"modelName\": \"NVIDIA "
                       "H100 80GB HBM3\"";
  if (!pod.empty()) labels += ", \"namespace\": \"ns1\", \"pod\": \"" + pod + "\"";
  return "{\"metric\": {" + labels + "}, \"values\": [[100, \"" + v1 +
         "\"], [160, \"" + v2 + "\"]]}";
}

DcgmRecording DcgmTestRecording(const std::vector<std::string>& series) {
  std::string text = "[";
  for (size_t i = 0; i < series.size(); ++i) {
    text += (i > 0 ? ",\n" : "") + series[i];
  }
  return BuildDcgmRecording({"m.json"},
                            {ParsePrometheusResult("m.json", text + "]")});
}

Pod DcgmTestPod(const std::string& name, double gpus) {
  Pod p;
  p.name = name;
  p.namespace_name = "ns1";
  p.needs.gpus = gpus;
  p.needs.duty = 1;
  p.needs.sm_demand = 1;
  p.needs.gpu_memory_mib = 12000;
  return p;
}

class DcgmMetricsImportTest : public ::testing::Test {
 protected:
  Catalog catalog_ = Catalog::Builtin();
};

TEST_F(DcgmMetricsImportTest, DerivesAlonePodsAndKeepsSharedOnes) {
  const DcgmRecording rec = DcgmTestRecording({
      // alone on GPU 0: activity 0.5, SM active 0.2, FB 7000 then 7100.
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "alone", "50", "50"),
      DcgmTestSeries("DCGM_FI_PROF_SM_ACTIVE", 0, "alone", "0.2", "0.2"),
      DcgmTestSeries("DCGM_FI_DEV_FB_USED", 0, "alone", "7000", "7100"),
      // pa and pb on GPU 1 at the same times: the device's sums.
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 1, "pa", "90", "90"),
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 1, "pb", "90", "90"),
      // A pod the list lacks.
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 2, "ghost", "10", "10"),
  });
  std::vector<Pod> pods = {DcgmTestPod("alone", 1), DcgmTestPod("pa", 1),
                           DcgmTestPod("pb", 1), DcgmTestPod("quiet", 1),
                           DcgmTestPod("cpu", 0)};
  std::vector<std::string> notes;
  const DcgmImportCounts c =
      ApplyDcgmMetrics(rec, catalog_, 0.05, &pods, &notes);
  EXPECT_EQ(c.derived, 1);
  EXPECT_EQ(c.shared, 2);
  EXPECT_EQ(c.without_series, 1);
  EXPECT_EQ(c.unknown_pods, 1);
  ASSERT_EQ(c.pods.size(), 4u);  // the CPU pod is not listed
  EXPECT_EQ(c.pods[3].pod, "ns1/quiet");
  EXPECT_EQ(c.pods[3].outcome, DcgmPodOutcome::kNoSeries);
  // d = 0.2 / 0.5 = 0.4; whole H100 (s = 3.17, g = 1): S = 3.17,
  // u = 0.5·3.17 / (1 − 0.5 + 0.5·3.17) = 1.585 / 2.085.
  EXPECT_NEAR(pods[0].needs.sm_demand, 0.4, 1e-12);
  EXPECT_NEAR(pods[0].needs.duty, 1.585 / 2.085, 1e-12);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, 7100);
  EXPECT_DOUBLE_EQ(pods[1].needs.duty, 1);  // kept
  EXPECT_EQ(pods[1].needs.gpu_memory_mib, 12000);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1 pod(s) derived"), std::string::npos);
}

// A device whose modelName the catalog lacks is an error at its series even
// when no pod label is on it (docs/scenario.md), not skipped.
TEST_F(DcgmMetricsImportTest, UnknownModelIsAnErrorOnADeviceWithoutPods) {
  std::string podless = DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 1, "", "0", "0");
  podless.replace(podless.find("NVIDIA H100 80GB HBM3"), 21, "NVIDIA Z9000");
  const DcgmRecording rec = DcgmTestRecording(
      {DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "alone", "50", "50"),
       podless});
  std::vector<Pod> pods = {DcgmTestPod("alone", 1)};
  try {
    ApplyDcgmMetrics(rec, catalog_, 0.05, &pods, nullptr);
    FAIL() << "an unknown modelName was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find(
                  "modelName 'NVIDIA Z9000': no such GPU model"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(DcgmMetricsImportTest, MigInstanceUsesItsProfilesSms) {
  // A100-40GB 3g.20gb: 42 of 108 SMs. Activity 0.4, SM active 0.2: d = 0.5,
  // g = 1 / (0.5 + 0.5·108/42), S = g (s = 1), u = 0.4·S / (0.6 + 0.4·S).
  const DcgmRecording rec = DcgmTestRecording({
      R"({"metric": {"__name__": "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gpu": "0",
          "GPU_I_ID": "1", "GPU_I_PROFILE": "3g.20gb",
          "modelName": "NVIDIA A100-SXM4-40GB", "Hostname": "n1",
          "exported_namespace": "ns1", "exported_pod": "mig",
          "namespace": "gpu-operator", "pod": "dcgm-exporter-x"},
          "values": [[100, "0.4"]]})",
      R"({"metric": {"__name__": "DCGM_FI_PROF_SM_ACTIVE", "gpu": "0",
          "GPU_I_ID": "1", "GPU_I_PROFILE": "3g.20gb",
          "modelName": "NVIDIA A100-SXM4-40GB", "Hostname": "n1",
          "exported_namespace": "ns1", "exported_pod": "mig"},
          "values": [[100, "0.2"]]})",
  });
  ASSERT_EQ(rec.devices.size(), 1u);
  EXPECT_EQ(rec.devices[0].instance, 1);
  std::vector<Pod> pods = {DcgmTestPod("mig", 0.4)};
  ApplyDcgmMetrics(rec, catalog_, 0.05, &pods, nullptr);
  const double g = 1 / (0.5 + 0.5 * 108.0 / 42.0);
  EXPECT_NEAR(pods[0].needs.sm_demand, 0.5, 1e-12);
  EXPECT_NEAR(pods[0].needs.duty, 0.4 * g / (0.6 + 0.4 * g), 1e-12);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, 12000);  // no FB_USED: kept
}

TEST_F(DcgmMetricsImportTest, AskingASharedResourceKeepsTheNeeds) {
  // One pod label on a time-sliced GPU may stand for several pods (#307).
  const DcgmRecording rec = DcgmTestRecording(
      {DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "ts", "50", "50")});
  std::vector<Pod> pods = {DcgmTestPod("ts", 1)};
  pods[0].explicit_requests = {{"nvidia.com/gpu.shared", 1}};
  EXPECT_EQ(ApplyDcgmMetrics(rec, catalog_, 0.05, &pods, nullptr).shared, 1);
  EXPECT_DOUBLE_EQ(pods[0].needs.duty, 1);
}

TEST_F(DcgmMetricsImportTest, APodWithoutSeriesTakesItsControllersPods) {
  // web-abc12 replaced web-x9z8k (same ReplicaSet: generateName "web-")
  // during the recording; web-x-y is another controller's pod.
  const DcgmRecording rec = DcgmTestRecording({
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "web-x9z8k", "40", "60"),
      DcgmTestSeries("DCGM_FI_PROF_SM_ACTIVE", 0, "web-x9z8k", "0.1", "0.15"),
      DcgmTestSeries("DCGM_FI_DEV_FB_USED", 0, "web-x9z8k", "3000", "3000"),
      DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 1, "web-x-y", "90", "90"),
  });
  std::vector<Pod> pods = {DcgmTestPod("web-abc12", 1)};
  pods[0].generate_name = "web-";
  const DcgmImportCounts c =
      ApplyDcgmMetrics(rec, catalog_, 0.05, &pods, nullptr);
  EXPECT_EQ(c.from_controller, 1);
  EXPECT_EQ(c.unknown_pods, 1);  // web-x-y
  ASSERT_EQ(c.pods.size(), 1u);
  EXPECT_EQ(c.pods[0].outcome, DcgmPodOutcome::kController);
  // ā = 0.5, d = 0.25 / 1.0 = 0.25, on an H100: u = 1.585 / 2.085.
  EXPECT_NEAR(pods[0].needs.sm_demand, 0.25, 1e-12);
  EXPECT_NEAR(pods[0].needs.duty, 1.585 / 2.085, 1e-12);
  EXPECT_EQ(pods[0].needs.gpu_memory_mib, 3000);
}

std::string DcgmBuildErrorOf(const std::string& text) {
  try {
    BuildDcgmRecording({"m.json"}, {ParsePrometheusResult("m.json", text)});
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(DcgmRecordingTest, LocatedErrors) {
  EXPECT_EQ(DcgmBuildErrorOf(R"([{"metric": {"__name__": "up"},
      "value": [1, "1"]}])"),
            "m.json:1:1: expected dcgm-exporter series "
            "(DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_PROF_SM_ACTIVE, "
            "DCGM_FI_DEV_GPU_UTIL or DCGM_FI_DEV_FB_USED), found none");
  EXPECT_EQ(DcgmBuildErrorOf(R"([
      {"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "0"},
       "value": [1, "1"]}])"),
            "m.json:2:7: DCGM_FI_DEV_FB_USED: expected the node in label "
            "Hostname (or hostname), as dcgm-exporter writes it");
  EXPECT_EQ(DcgmBuildErrorOf(R"([{"metric": {"__name__":
      "DCGM_FI_DEV_FB_USED", "gpu": "x", "Hostname": "n"},
      "value": [1, "1"]}])"),
            "m.json:1:2: DCGM_FI_DEV_FB_USED: label gpu: expected a device "
            "index (0, 1, ...), got 'x'");
}

TEST(DcgmRecordingTest, DeviceValueIsTheLargestOfItsSeries) {
  // Podless 0 and the pod's 60 at t = 100 (a lookback of the podless
  // series): the device reads 60.
  const DcgmRecording rec = DcgmTestRecording(
      {DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "", "0", "0"),
       DcgmTestSeries("DCGM_FI_DEV_GPU_UTIL", 0, "p", "60", "40")});
  ASSERT_EQ(rec.devices.size(), 1u);
  EXPECT_DOUBLE_EQ(rec.devices[0].values.at(100).gpu_util_percent, 60);
  EXPECT_DOUBLE_EQ(rec.devices[0].values.at(160).activity(), 0.4);
  EXPECT_DOUBLE_EQ(rec.StartUnixS(), 100);
}

}  // namespace
}  // namespace gpushare
