#include "gpushare/scenario/dcgm_recording_checks.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/workload/prometheus_result.h"

namespace gpushare {
namespace {

// One series per line of "m.json" (the first on line 2), on node n1.
DcgmRecording CheckTestRecording(const std::vector<std::string>& series) {
  std::string text = "[";
  for (const std::string& s : series) {
    text += (text.size() > 1 ? ",\n" : "\n") + s;
  }
  return BuildDcgmRecording({"m.json"},
                            {ParsePrometheusResult("m.json", text + "]")});
}

std::string CheckTestSeries(const std::string& name, const std::string& model,
                            const std::string& extra, const std::string& v1,
                            const std::string& v2) {
  return R"({"metric": {"__name__": ")" + name +
         R"(", "gpu": "0", "Hostname": "n1", "modelName": ")" + model + "\"" +
         extra + R"(}, "values": [[100, ")" + v1 + R"("], [160, ")" + v2 +
         R"("]]})";
}

std::string CheckError(const DcgmRecording& rec, const Catalog& catalog,
                       const std::vector<NodePoolSpec>& pools = {}) {
  try {
    CheckDcgmRecording(rec, catalog, pools, nullptr, nullptr);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

class DcgmRecordingChecksTest : public ::testing::Test {
 protected:
  Catalog catalog_ = Catalog::Builtin();
  const std::string h100_ = "NVIDIA H100 80GB HBM3";  // 81559 MiB
};

TEST_F(DcgmRecordingChecksTest, FramebufferUpToTheMemoryIsKept) {
  const DcgmRecording rec = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_FB_USED", h100_, "", "100", "81559")});
  EXPECT_EQ(CheckError(rec, catalog_), "");
}

TEST_F(DcgmRecordingChecksTest, FramebufferAboveTheCardIsAnError) {
  const DcgmRecording rec = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_GPU_UTIL", h100_, "", "1", "1"),
       CheckTestSeries("DCGM_FI_DEV_FB_USED", h100_, "", "81560", "100")});
  const std::string error = CheckError(rec, catalog_);
  EXPECT_NE(error.find("m.json:3:1: DCGM_FI_DEV_FB_USED: 81560 MiB at time "
                       "100 on n1 gpu 0 is above the device's memory, 81559 "
                       "MiB (H100-80GB)"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find("bytes"), std::string::npos) << error;
}

TEST_F(DcgmRecordingChecksTest, BytesAreRecognized) {
  // The card's whole memory in bytes, and a value of 2^20 (1 MiB in bytes).
  for (const char* v : {"85520809984", "1048576"}) {
    const DcgmRecording rec = CheckTestRecording(
        {CheckTestSeries("DCGM_FI_DEV_FB_USED", h100_, "", "0", v)});
    const std::string error = CheckError(rec, catalog_);
    EXPECT_NE(error.find("the values look like bytes"), std::string::npos)
        << error;
  }
  // Above the card's memory even as bytes: not bytes.
  const DcgmRecording huge = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_FB_USED", h100_, "", "0", "1e12")});
  EXPECT_EQ(CheckError(huge, catalog_).find("bytes"), std::string::npos);
}

TEST_F(DcgmRecordingChecksTest, MigInstanceHasItsProfilesMemory) {
  const std::string mig = R"(, "GPU_I_PROFILE": "1g.10gb", "GPU_I_ID": "9")";
  const int64_t memory =
      catalog_.Find("H100-80GB")
          ->mig
          ->profiles[catalog_.Find("H100-80GB")->mig->FindProfile("1g.10gb")]
          .memory_mib;
  const DcgmRecording ok = CheckTestRecording({CheckTestSeries(
      "DCGM_FI_DEV_FB_USED", h100_, mig, "0", std::to_string(memory))});
  EXPECT_EQ(CheckError(ok, catalog_), "");
  const DcgmRecording over = CheckTestRecording({CheckTestSeries(
      "DCGM_FI_DEV_FB_USED", h100_, mig, "0", std::to_string(memory + 1))});
  EXPECT_NE(CheckError(over, catalog_)
                .find("on n1 gpu 0 instance 9 is above the device's memory, " +
                      std::to_string(memory) + " MiB (H100-80GB MIG 1g.10gb)"),
            std::string::npos);
}

TEST_F(DcgmRecordingChecksTest, ModelNameMustBeTheNodesGpu) {
  NodePoolSpec pool;
  pool.name = "l4";
  pool.gpu_model = "L4";
  pool.gpus_per_node = 4;
  pool.members.push_back({"n1", {{"nvidia.com/gpu.product", "NVIDIA-L4"}}, {}});
  const DcgmRecording rec = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_GPU_UTIL", h100_, "", "1", "1")});
  EXPECT_NE(CheckError(rec, catalog_, {pool})
                .find("m.json:2:1: modelName 'NVIDIA H100 80GB HBM3' "
                      "(H100-80GB) contradicts the cluster: node n1 has "
                      "nvidia.com/gpu.product 'NVIDIA-L4' (L4)"),
            std::string::npos);
  // The same model under another name is no contradiction.
  const DcgmRecording l4 = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_GPU_UTIL", "NVIDIA L4", "", "1", "1")});
  EXPECT_EQ(CheckError(l4, catalog_, {pool}), "");
  // A node the cluster lacks is not checked.
  pool.members[0].name = "n2";
  EXPECT_EQ(CheckError(rec, catalog_, {pool}), "");
}

TEST_F(DcgmRecordingChecksTest, RecordingBeforeTheDumpIsAWarning) {
  const DcgmRecording rec = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_GPU_UTIL", h100_, "", "1", "1")});
  std::vector<Pod> pods(2);
  pods[0].name = "ns/a";
  pods[1].name = "ns/b";
  pods[1].dump_time_unix_s = 161;  // after the last point, 160
  std::vector<std::string> warnings;
  CheckDcgmRecording(rec, catalog_, {}, &pods, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("ends 1 s before the earliest pod of the dump "
                             "started or was created (ns/b at 161)"),
            std::string::npos)
      << warnings[0];
  warnings.clear();
  pods[0].dump_time_unix_s = 160;  // overlaps at the last point
  CheckDcgmRecording(rec, catalog_, {}, &pods, &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST_F(DcgmRecordingChecksTest, ReaderRefusesImpossibleRatiosAndCountsOthers) {
  EXPECT_THROW(CheckTestRecording({CheckTestSeries(
                   "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", h100_, "", "0", "1.01")}),
               InputError);
  EXPECT_THROW(CheckTestRecording({CheckTestSeries("DCGM_FI_DEV_GPU_UTIL",
                                                   h100_, "", "100.5", "1")}),
               InputError);
  // 100 %, a ratio of 1 and a field without a bound are fine.
  const DcgmRecording ok = CheckTestRecording(
      {CheckTestSeries("DCGM_FI_DEV_GPU_UTIL", h100_, "", "100", "1"),
       CheckTestSeries("DCGM_FI_PROF_SM_OCCUPANCY", h100_, "", "1", "0"),
       CheckTestSeries("DCGM_FI_DEV_POWER_USAGE", h100_, "", "350", "700"),
       CheckTestSeries("DCGM_FI_PROF_GR_ENGINE_ACTIVE", h100_, "", "0.5",
                       "0.5"),
       // 0.52 is within the tolerance; 0.53 is not.
       CheckTestSeries("DCGM_FI_PROF_SM_ACTIVE", h100_, "", "0.52", "0.53")});
  ASSERT_EQ(ok.warnings.size(), 1u);
  EXPECT_NE(ok.warnings[0].find("at 1 sample(s) of 1 device(s) (first: n1 "
                                "gpu 0 at time 160"),
            std::string::npos)
      << ok.warnings[0];
}

}  // namespace
}  // namespace gpushare
