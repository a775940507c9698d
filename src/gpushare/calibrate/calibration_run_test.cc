#include "gpushare/calibrate/calibration_run.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace calibration_run_test {
namespace {

namespace fs = std::filesystem;

const std::string kSynthetic =
    std::string(GS_TESTDATA_DIR) + "/calibrate/synthetic";

// A copy of the synthetic run with one file replaced.
class RunCopy {
 public:
  RunCopy(const std::string& name, const std::string& text)
      : dir_(testing::TempDir() + "calibration_run_test_" +
             std::to_string(getpid()) + "_" + std::to_string(counter_++)) {
    fs::create_directories(dir_);
    for (const char* f : {"device.yaml", "throughput.csv", "latency.csv"}) {
      fs::copy_file(kSynthetic + "/" + f, dir_ + "/" + f,
                    fs::copy_options::overwrite_existing);
    }
    std::ofstream(dir_ + "/" + name) << text;
  }
  ~RunCopy() { fs::remove_all(dir_); }
  const std::string& dir() const { return dir_; }

 private:
  static inline int counter_ = 0;
  std::string dir_;
};

std::string ErrorOf(const std::string& name, const std::string& text) {
  RunCopy copy(name, text);
  try {
    ReadCalibrationRun(copy.dir());
  } catch (const InputError& e) {
    const std::string what = e.what();
    return what.substr(what.find(name) + name.size());
  }
  return "no error";
}

TEST(CalibrationRunTest, ReadsTheThreeFiles) {
  const CalibrationRun run = ReadCalibrationRun(kSynthetic);
  EXPECT_EQ(run.device.cuda, "0.0");
  EXPECT_EQ(run.device.kernel_us, 2000);
  EXPECT_EQ(run.throughput.front().blocks, 132);
  EXPECT_EQ(run.throughput.front().kernels, 2500);
  EXPECT_EQ(run.latency.back().corunners, 4);
}

TEST(CalibrationRunTest, BadTimingsAreLocatedErrors) {
  EXPECT_EQ(ErrorOf("throughput.csv", "blocks,processes,kernels\n"),
            ":1:1: expected the header "
            "'blocks,processes,process,kernels,seconds', got "
            "'blocks,processes,kernels'");
  EXPECT_EQ(ErrorOf("throughput.csv",
                    "blocks,processes,process,kernels,seconds\n"
                    "132,1,0,2500,0\n"),
            ":2:14: column 'seconds': expected seconds > 0, got 0");
  EXPECT_EQ(ErrorOf("throughput.csv",
                    "blocks,processes,process,kernels,seconds\n"
                    "132,1,0,2500,5\n132,2,0,1000,5\n"),
            ": 132 blocks, 2 processes: 1 rows, expected one per process "
            "(0..1)");
  EXPECT_EQ(ErrorOf("throughput.csv",
                    "blocks,processes,process,kernels,seconds\n"
                    "132,2,0,1000,5\n132,2,1,1000,5\n"),
            ": 132 blocks: no run with 1 process, the reference the others "
            "are measured against");
  EXPECT_EQ(ErrorOf("throughput.csv",
                    "blocks,processes,process,kernels,seconds\n"
                    "132,2,2,1000,5\n"),
            ":2:7: column 'process': 2 is out of range [0, 1]");
  EXPECT_EQ(ErrorOf("latency.csv",
                    "corunners,corunner_blocks,sample,latency_us\n"
                    "0,0,0,20\n0,0,1,21\n"),
            ": no samples with co-runners (corunners >= 1)");
  EXPECT_EQ(ErrorOf("latency.csv",
                    "corunners,corunner_blocks,sample,latency_us\n"
                    "0,0,0,abc\n"),
            ":2:7: column 'latency_us': expected a number, got 'abc'");
  EXPECT_EQ(ErrorOf("device.yaml", "gpu: X\ndriver: '1'\ncuda: '1'\n"
                                   "sms: 0\nkernel_us: 10\n"),
            ":4:6: device sms: 0 is out of range (expected 1..1000)");
}

}  // namespace
}  // namespace calibration_run_test
}  // namespace gpushare
