#include "gpushare/metrics/openmetrics_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gpushare/metrics/gpu_uuid.h"

namespace gpushare {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Node n-0 of pool p: GPU 0 whole and time-sliced (two pods on replicas),
// GPU 1 split into two 3g.40gb instances. Samples at t = 0 and 60.
SimulationResult SmallResult() {
  SimulationResult r;
  r.scenario = "small";
  PoolSummary pool;
  pool.name = "p";
  pool.scheme = "time-slicing";
  pool.model = "A100-80GB";
  pool.samples = {{0, 0.5, 0.25, 0.1, 0.5, 2}, {60, 1, 0.5, 0.2, 1, 0}};
  r.pools = {pool};
  r.devices = {{"n-0", "p", 0, -1, "", "A100-80GB", 81920},
               {"n-0", "p", 1, 0, "3g.40gb", "A100-80GB", 40192},
               {"n-0", "p", 1, 1, "3g.40gb", "A100-80GB", 40192}};
  for (double t : {0.0, 60.0}) {
    for (int d = 0; d < 3; ++d) {
      DeviceSample s;
      s.time_s = t;
      s.device = d;
      s.gpu_util = d == 0 ? 0.5 : 0;
      s.sm_active = d == 0 ? 0.125 : 0;
      s.fb_used_mib = d == 0 ? 1000 : 0;
      s.pods = d == 0 ? 1 : 0;
      s.down = d == 1 && t > 0;
      s.mig_config_drift = d == 2 && t > 0;
      r.device_samples.push_back(s);
    }
  }
  PodRecord a;
  a.name = "a\"x";
  a.namespace_name = "ns";
  a.workload_class = "inference";
  a.pool = "p";
  a.start_s = 30;
  a.wait_s = 5;
  a.outcome = PodOutcome::kRunning;
  PodRecord b = a;
  b.name = "b";
  b.start_s = 0;
  b.wait_s = 0;
  b.end_s = 60;
  b.outcome = PodOutcome::kSucceeded;
  PodRecord c = a;
  c.name = "c";
  c.start_s = -1;
  c.outcome = PodOutcome::kPending;
  r.pod_records = {a, b, c};
  r.device_holdings = {{1, 0, 1, 0, 60}, {0, 0, 0, 30, -1}};
  r.latency_samples = {{0, 1, std::numeric_limits<double>::infinity(), false},
                       {60, 0, 12.5, true}};
  r.nodes = {{"n-0", "p"}};
  r.extended_resources = {"nvidia.com/gpu"};
  r.node_samples = {{0, 0, 0, 16}, {60, 0, 0, 0}};
  return r;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(OpenMetricsWriterTest, FamiliesInOrderEachOnce) {
  const std::string text = ResultToOpenMetrics(WithPodSummaries(SmallResult()), 1704067200);
  std::vector<std::string> families;
  for (const std::string& line : Lines(text)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      families.push_back(line.substr(7, line.find(' ', 7) - 7));
    }
  }
  EXPECT_THAT(families,
              ElementsAre("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_PROF_SM_ACTIVE",
                          "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE",
                          "gpushare_device_pods", "gpushare_device_healthy",
                          "gpushare_mig_config_drift",
                          "kube_node_status_allocatable",
                          "gpushare_pool_gpu_util_ratio",
                          "gpushare_pool_sm_active_ratio",
                          "gpushare_pool_fb_used_ratio",
                          "gpushare_pool_allocation_ratio",
                          "gpushare_pods_succeeded", "gpushare_pending_pods",
                          "gpushare_pod_wait_seconds",
                          "gpushare_pod_latency_p99_seconds",
                          "gpushare_pod_slo_met"));
}

// Samples follow their family's metadata; each series is contiguous and in
// increasing time; the text ends with exactly one "# EOF".
TEST(OpenMetricsWriterTest, FamiliesAndSeriesAreNotInterleaved) {
  const std::string text = ResultToOpenMetrics(WithPodSummaries(SmallResult()), 1704067200);
  ASSERT_GE(text.size(), 6u);
  EXPECT_EQ(text.substr(text.size() - 6), "# EOF\n");
  EXPECT_EQ(text.find("# EOF"), text.size() - 6);
  std::string family;
  std::set<std::string> closed;
  std::string series;
  double last_time = -1;
  for (const std::string& line : Lines(text)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      family = line.substr(7, line.find(' ', 7) - 7);
      continue;
    }
    if (line[0] == '#') continue;
    const std::string name = line.substr(0, line.find_first_of("{ "));
    EXPECT_TRUE(name == family || name == family + "_total") << line;
    const std::string key = line.substr(0, line.rfind(' ', line.rfind(' ') - 1));
    const double time = std::stod(line.substr(line.rfind(' ') + 1));
    if (key != series) {
      EXPECT_TRUE(closed.insert(key).second) << "series reopened: " << line;
      series = key;
    } else {
      EXPECT_GT(time, last_time) << line;
    }
    last_time = time;
  }
}

TEST(OpenMetricsWriterTest, DcgmLabelsAndOneSeriesPerPod) {
  const std::string text = ResultToOpenMetrics(WithPodSummaries(SmallResult()), 1704067200);
  const std::string gpu0 = FakeGpuUuid("n-0", 0);
  const std::string gpu1 = FakeGpuUuid("n-0", 1);
  // Pod b holds replica 1 at t=0 only (it ends at 60); pod a from 30 on.
  EXPECT_THAT(text, HasSubstr("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"" + gpu0 +
                              "\",device=\"nvidia0\",modelName=\"A100-80GB\","
                              "Hostname=\"n-0\",container=\"b\","
                              "namespace=\"ns\",pod=\"b\",vgpu=\"1\","
                              "pool=\"p\"} 50 1704067200\n"));
  EXPECT_THAT(text, HasSubstr("container=\"a\\\"x\",namespace=\"ns\","
                              "pod=\"a\\\"x\",vgpu=\"0\",pool=\"p\"} 50 "
                              "1704067260\n"));
  EXPECT_THAT(text, Not(HasSubstr("pod=\"b\",vgpu=\"1\",pool=\"p\"} 50 "
                                  "1704067260")));
  // MIG instances: GPU_I_PROFILE and GPU_I_ID, no pod labels when idle.
  EXPECT_THAT(text,
              HasSubstr("DCGM_FI_DEV_FB_FREE{gpu=\"1\",UUID=\"" + gpu1 +
                        "\",device=\"nvidia1\",modelName=\"A100-80GB\","
                        "GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"1\","
                        "Hostname=\"n-0\",pool=\"p\"} 40192 1704067260\n"));
  EXPECT_THAT(text, HasSubstr("DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\""));
  EXPECT_THAT(text, HasSubstr("pool=\"p\"} 0.125 1704067200\n"));
}

// An imported pod's record is named "namespace/name"; dcgm-exporter's pod
// label is the name alone.
TEST(OpenMetricsWriterTest, DcgmPodLabelIsTheNameWithoutItsNamespace) {
  SimulationResult r = SmallResult();
  r.pod_records[1].name = "ns/b";
  const std::string text = ResultToOpenMetrics(WithPodSummaries(r), 1704067200);
  EXPECT_THAT(text, HasSubstr("Hostname=\"n-0\",container=\"b\","
                              "namespace=\"ns\",pod=\"b\",vgpu=\"1\""));
  EXPECT_THAT(text, Not(HasSubstr("pod=\"ns/b\",vgpu")));
}

TEST(OpenMetricsWriterTest, SimulatorSeries) {
  const std::string text = ResultToOpenMetrics(WithPodSummaries(SmallResult()), 1704067200);
  const std::string gpu1 = FakeGpuUuid("n-0", 1);
  EXPECT_THAT(text, HasSubstr("gpushare_mig_config_drift{gpu=\"1\",UUID=\"" +
                              gpu1 +
                              "\",device=\"nvidia1\",modelName=\"A100-80GB\","
                              "Hostname=\"n-0\",pool=\"p\"} 1 1704067260\n"));
  // Instance 0 is down at t=60.
  EXPECT_THAT(text, HasSubstr("gpushare_device_healthy{gpu=\"1\",UUID=\"" +
                              gpu1 +
                              "\",device=\"nvidia1\",modelName=\"A100-80GB\","
                              "GPU_I_PROFILE=\"3g.40gb\",GPU_I_ID=\"0\","
                              "Hostname=\"n-0\",pool=\"p\"} 0 1704067260\n"));
  EXPECT_THAT(text, HasSubstr("kube_node_status_allocatable{node=\"n-0\","
                              "resource=\"nvidia_com_gpu\",unit=\"integer\","
                              "pool=\"p\"} 16 1704067200\n"));
  EXPECT_THAT(text, HasSubstr("gpushare_pool_sm_active_ratio{pool=\"p\","
                              "scheme=\"time-slicing\",modelName=\"A100-80GB\""
                              "} 0.5 1704067260\n"));
  EXPECT_THAT(text, HasSubstr("# UNIT gpushare_pool_sm_active_ratio ratio\n"));
  EXPECT_THAT(text, HasSubstr("gpushare_pods_succeeded_total{pool=\"p\"} 0 "
                              "1704067200\ngpushare_pods_succeeded_total{pool="
                              "\"p\"} 1 1704067260\n"));
  EXPECT_THAT(text, HasSubstr("gpushare_pending_pods 2 1704067200\n"));
  EXPECT_THAT(text, HasSubstr("gpushare_pod_wait_seconds{namespace=\"ns\","
                              "pod=\"a\\\"x\",tenant=\"\",tenant_class=\"\","
                              "class=\"inference\",pool=\"p\"} 5 1704067230\n"));
  EXPECT_THAT(text, Not(HasSubstr("pod=\"c\"")));  // never started
  EXPECT_THAT(text, HasSubstr("pod=\"b\",tenant=\"\",tenant_class=\"\","
                              "class=\"inference\",pool=\"p\"} +Inf "
                              "1704067200\n"));
  EXPECT_THAT(text, HasSubstr("} 0.0125 1704067260\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE gpushare_pod_slo_met gauge\n"));
}

TEST(OpenMetricsWriterTest, StartTimeShiftsEveryTimestampAndIsDeterministic) {
  const SimulationResult r = SmallResult();
  const std::string a = ResultToOpenMetrics(WithPodSummaries(r), 1704067200);
  EXPECT_EQ(a, ResultToOpenMetrics(WithPodSummaries(r), 1704067200));
  const std::string b = ResultToOpenMetrics(WithPodSummaries(r), 1800000000);
  EXPECT_THAT(b, HasSubstr("gpushare_pending_pods 2 1800000000\n"));
  EXPECT_THAT(b, Not(HasSubstr(" 1704067")));
}

TEST(OpenMetricsWriterTest, WithoutRecordedSamplesOnlyPoolAndPodSeries) {
  SimulationResult r = SmallResult();
  r.device_samples.clear();
  r.device_holdings.clear();
  r.node_samples.clear();
  const std::string text = ResultToOpenMetrics(WithPodSummaries(r), 0);
  EXPECT_THAT(text, Not(HasSubstr("\nDCGM_")));
  EXPECT_THAT(text, Not(HasSubstr("# TYPE DCGM_")));
  EXPECT_THAT(text, Not(HasSubstr("kube_node")));
  EXPECT_THAT(text, HasSubstr("gpushare_pending_pods 2 0\n"));
}

}  // namespace
}  // namespace gpushare
