#include "gpushare/metrics/metrics_fidelity.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

DcgmValues FidelityTestValues(double util, double sm, double fb) {
  DcgmValues v;
  v.gpu_util_percent = util;
  v.sm_active = sm;
  v.fb_used_mib = fb;
  return v;
}

// Two simulated GPUs of pool p on node n, sampled at 0 and 60 s; recorded
// from Unix time 1000 (simulated 0).
class MetricsFidelityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    result_.end_s = 60;
    result_.devices = {{"n", "p", 0, -1, "", "A100-40GB", 40960},
                       {"n", "p", 1, -1, "", "A100-40GB", 40960}};
    PoolSummary pool;
    pool.name = "p";
    result_.pools = {pool};
    const auto sample = [](double t, int device, double util, double sm,
                           int64_t fb) {
      DeviceSample s;
      s.time_s = t;
      s.device = device;
      s.gpu_util = util;
      s.sm_active = sm;
      s.fb_used_mib = fb;
      return s;
    };
    result_.device_samples = {sample(0, 0, 0.5, 0.2, 1000),
                              sample(0, 1, 0, 0, 0),
                              sample(60, 0, 0.5, 0.2, 1000),
                              sample(60, 1, 1.0, 0.5, 2000)};
    DcgmDevice d0;
    d0.node = "n";
    d0.gpu = 0;
    d0.values[1000] = FidelityTestValues(40, 0.2, 1000);
    d0.values[1060] = FidelityTestValues(60, 0.1, 3000);
    d0.values[1200] = FidelityTestValues(99, 0.9, 9999);  // after the run
    DcgmDevice d1;
    d1.node = "n";
    d1.gpu = 1;
    d1.values[1000] = FidelityTestValues(0, -1, -1);
    d1.values[1060].gr_engine_active = 0.8;  // no GPU_UTIL: 80 %
    DcgmDevice other;
    other.node = "n";
    other.gpu = 5;
    other.values[1000] = FidelityTestValues(10, 0.1, 10);
    recording_.files = {"r.json"};
    recording_.devices = {d0, d1, other};
  }

  SimulationResult result_;
  DcgmRecording recording_;
};

TEST_F(MetricsFidelityTest, PerDevice) {
  const MetricsFidelity f = CompareWithRecording(result_, recording_);
  EXPECT_DOUBLE_EQ(f.start_unix_s, 1000);
  ASSERT_EQ(f.devices.size(), 2u);
  const FidelityRow& d0 = f.devices[0];
  // Util: (40, 50), (60, 50): errors 10, 10.
  EXPECT_EQ(d0.gpu_util.points, 2);
  EXPECT_DOUBLE_EQ(d0.gpu_util.recorded_mean, 50);
  EXPECT_DOUBLE_EQ(d0.gpu_util.simulated_mean, 50);
  EXPECT_DOUBLE_EQ(d0.gpu_util.mean_abs_error, 10);
  // SM: (0.2, 0.2), (0.1, 0.2): errors 0, 0.1; p95 the 2nd of 2.
  EXPECT_NEAR(d0.sm_active.mean_abs_error, 0.05, 1e-12);
  EXPECT_NEAR(d0.sm_active.p95_abs_error, 0.1, 1e-12);
  // FB: (1000, 1000), (3000, 1000).
  EXPECT_DOUBLE_EQ(d0.fb_used_mib.mean_abs_error, 1000);
  EXPECT_DOUBLE_EQ(d0.fb_used_mib.p95_abs_error, 2000);
  const FidelityRow& d1 = f.devices[1];
  // Util: (0, 0), (80 from GR engine active, 100).
  EXPECT_DOUBLE_EQ(d1.gpu_util.recorded_mean, 40);
  EXPECT_DOUBLE_EQ(d1.gpu_util.simulated_mean, 50);
  EXPECT_DOUBLE_EQ(d1.gpu_util.p95_abs_error, 20);
  EXPECT_EQ(d1.sm_active.points, 0);
  ASSERT_EQ(f.unmatched_devices.size(), 1u);
  EXPECT_EQ(f.unmatched_devices[0], "n/5");
}

TEST_F(MetricsFidelityTest, PoolIsTheMeanOverItsDevicesAtEachTime) {
  const MetricsFidelity f = CompareWithRecording(result_, recording_);
  ASSERT_EQ(f.pools.size(), 1u);
  const FidelityRow& p = f.pools[0];
  EXPECT_EQ(p.devices, 2);
  // t = 1000: recorded (40 + 0) / 2 = 20, simulated 25; t = 1060: 70 and
  // 75.
  EXPECT_EQ(p.gpu_util.points, 2);
  EXPECT_DOUBLE_EQ(p.gpu_util.recorded_mean, 45);
  EXPECT_DOUBLE_EQ(p.gpu_util.simulated_mean, 50);
  EXPECT_DOUBLE_EQ(p.gpu_util.mean_abs_error, 5);
  EXPECT_DOUBLE_EQ(p.gpu_util.p95_abs_error, 5);
  // SM only on GPU 0.
  EXPECT_NEAR(p.sm_active.mean_abs_error, 0.05, 1e-12);
}

// A real H100's GPU instance IDs are the driver's (3g.40gb: 1 and 2;
// 1g.10gb: 9 to 14), not layout indexes: the k-th instance of a profile on
// a GPU, by ID, is the k-th of that profile in the simulated layout.
TEST(MetricsFidelityMigTest, InstancesMatchByProfileAndRank) {
  SimulationResult result;
  result.end_s = 0;
  // GPU 0 of node n: 3g.40gb (layout index 0), 1g.10gb (1), 3g.40gb (2).
  result.devices = {{"n", "p", 0, 0, "3g.40gb", "H100-80GB", 40960},
                    {"n", "p", 0, 1, "1g.10gb", "H100-80GB", 10240},
                    {"n", "p", 0, 2, "3g.40gb", "H100-80GB", 40960}};
  PoolSummary pool;
  pool.name = "p";
  result.pools = {pool};
  for (int d = 0; d < 3; ++d) {
    DeviceSample s;
    s.device = d;
    s.gpu_util = 0.1 * (d + 1);  // 10 %, 20 %, 30 %
    result.device_samples.push_back(s);
  }
  DcgmRecording recording;
  recording.files = {"r.json"};
  const auto instance = [](int id, const char* profile, double util) {
    DcgmDevice d;
    d.node = "n";
    d.gpu = 0;
    d.instance = id;
    d.profile = profile;
    d.values[500] = FidelityTestValues(util, -1, -1);
    return d;
  };
  // Listed out of order; a second 1g.10gb has no simulated counterpart.
  recording.devices = {instance(2, "3g.40gb", 30), instance(9, "1g.10gb", 20),
                       instance(1, "3g.40gb", 10), instance(10, "1g.10gb", 5)};
  const MetricsFidelity f = CompareWithRecording(result, recording);
  ASSERT_EQ(f.devices.size(), 3u);
  for (const FidelityRow& row : f.devices) {
    EXPECT_EQ(row.gpu_util.points, 1);
    EXPECT_NEAR(row.gpu_util.mean_abs_error, 0, 1e-9);  // each its own
  }
  EXPECT_EQ(f.unmatched_devices, std::vector<std::string>{"n/0/10"});
}

}  // namespace
}  // namespace gpushare
