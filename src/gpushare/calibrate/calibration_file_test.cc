#include "gpushare/calibrate/calibration_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "gpushare/calibrate/calibration_run.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace calibration_file_test {
namespace {

// A temporary file holding `text`, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& text)
      : path_(testing::TempDir() + "calibration_file_test_" +
              std::to_string(getpid()) + "_" + std::to_string(counter_++) +
              ".yaml") {
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

std::string ErrorOf(const std::string& text) {
  TempFile f(text);
  try {
    ReadCalibrationFile(f.path());
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find(".yaml:") + 5);
  }
  return "no error";
}

TEST(CalibrationFileTest, WrittenFitReadsBackAndAppliesOverTheScenario) {
  const CalibrationFit fit = FitCalibration(
      ReadCalibrationRun(std::string(GS_TESTDATA_DIR) + "/calibrate/synthetic"),
      ModelParams());
  const std::string yaml = CalibrationYaml(fit);
  EXPECT_EQ(yaml, CalibrationYaml(fit));  // deterministic
  TempFile f(yaml);
  const CalibrationFile file = ReadCalibrationFile(f.path());
  EXPECT_EQ(file.gpu, fit.device.gpu);
  ModelParams scenario;
  scenario.mps_interference_per_corunner = 0.2;  // the scenario's own value
  const ModelParams applied = ApplyCalibration(file, scenario);
  EXPECT_NEAR(applied.time_slice_ms, fit.time_slice_ms, 1e-4);
  EXPECT_NEAR(applied.context_switch_us, fit.context_switch_us, 1e-3);
  EXPECT_EQ(applied.mps_interference_per_corunner, 0.2);  // kept
}

TEST(CalibrationFileTest, HandWrittenFileNeedsOnlyGpuAndModel) {
  TempFile f("calibration: {gpu: H100}\nmodel: {context_switch_us: 120}\n");
  const ModelParams p = ApplyCalibration(ReadCalibrationFile(f.path()), {});
  EXPECT_EQ(p.context_switch_us, 120);
  EXPECT_EQ(p.time_slice_ms, ModelParams().time_slice_ms);
}

TEST(CalibrationFileTest, BadFilesAreLocatedErrors) {
  EXPECT_EQ(ErrorOf("model: {time_slice_ms: 2}\n"),
            ":1:1: calibration file: missing required key 'calibration'");
  EXPECT_EQ(ErrorOf("calibration: {gpu: H100}\nmodel: {time_slice_ms: 0}\n"),
            ":2:24: model parameter time_slice_ms must be in [0.01, 60000], "
            "got 0");
  EXPECT_EQ(ErrorOf("calibration: {gpu: H100}\nmodel: {profile: seed}\n"),
            ":2:9: model: unknown key 'profile'; did you mean node_boot_s? "
            "(allowed: time_slice_ms, "
            "context_switch_us, dra_time_slice_short_ms, "
            "dra_time_slice_medium_ms, dra_time_slice_long_ms, "
            "mps_interference_per_corunner, "
            "hami_interception_overhead, hami_core_cap_overshoot, "
            "hami_cap_when_alone, mig_reconfigure_s, mig_instance_create_s, "
            "mig_instance_destroy_s, mig_mode_enable_s, multi_gpu_comm_share, "
            "mig_comm_slowdown, restart_backoff_initial_s, "
            "restart_backoff_max_s, max_restarts, eviction_warning_per_pod, "
            "llm_prefill_flops_efficiency, llm_fp8_flops_efficiency, "
            "llm_decode_bandwidth_efficiency, llm_kernel_overlap, "
            "llm_allreduce_latency_us, llm_allreduce_bandwidth_efficiency, "
            "llm_step_overhead_chunked_prefill_ms, "
            "llm_step_overhead_multi_step_ms, llm_step_overhead_eager_ms, "
            "llm_step_overhead_per_seq_ms, llm_request_overhead_ms, "
            "quantile_exact_limit, quantile_relative_accuracy, node_boot_s, "
            "gpu_stack_ready_s, hami_register_s, spot_interruption_notice_s, "
            "node_group_backoff_s)");
  EXPECT_EQ(ErrorOf("calibration: {gpu: ''}\nmodel: {}\n"),
            ":1:20: calibration: gpu: expected the GPU's name");
  EXPECT_EQ(ErrorOf("calibration: {gpu: H100}\nmodel: {}\nchecks: 3\n"),
            ":3:9: checks: expected a list, got '3'");
  EXPECT_EQ(ErrorOf("calibration: {gpu: H100}\nmodel: {}\nextra: 1\n"),
            ":3:1: calibration file: unknown key 'extra'; did you mean model? "
            "(allowed: "
            "calibration, model, checks)");
}

}  // namespace
}  // namespace calibration_file_test
}  // namespace gpushare
