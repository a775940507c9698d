#include "gpushare/metrics/pod_output_spool.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/metrics/csv_writer.h"
#include "gpushare/metrics/json_writer.h"

namespace gpushare {
namespace {

namespace fs = std::filesystem;

class PodOutputSpoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gs-pod-spool-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  // Three pods, the last running an LLM engine, one with a message that
  // CSV quotes.
  static SimulationResult ThreePods() {
    SimulationResult r;
    r.scenario = "s";
    r.pods = 3;
    for (int i = 0; i < 3; ++i) {
      PodRecord p;
      p.name = "pod-" + std::to_string(i);
      p.tenant_class = "jobs";
      p.devices = {i, i + 1};
      p.arrival_s = 0.1 * i;
      p.wait_s = 1.0 / 3 + i;
      p.outcome = PodOutcome::kSucceeded;
      r.pod_records.push_back(p);
    }
    r.pod_records[1].message = "a, \"quoted\" message";
    r.pod_records[2].kv_cache_tokens = 4096;
    return r;
  }

  std::string dir_;
};

// Records spooled in the order pods end (not pod order) give the very text
// the whole result's JSON and pods.csv had, the spools leaving no file.
TEST_F(PodOutputSpoolTest, StreamedOutputsEqualTheWholeOnes) {
  const SimulationResult whole = ThreePods();
  SimulationResult bare = whole;
  bare.pod_records.clear();
  PodOutputSpool json(PodOutputSpool::Format::kJson, dir_, "x.json");
  PodOutputSpool csv(PodOutputSpool::Format::kCsv, dir_, "pods.csv");
  for (const int i : {2, 0, 1}) {
    json.Add(i, whole.pod_records[i]);
    csv.Add(i, whole.pod_records[i]);
  }
  OutputBatch batch;
  AddResultJson(ResultToJson(bare), dir_ + "/x.json", &json, &batch);
  AddResultCsv(bare, dir_ + "/csv", &batch, &csv);
  batch.Commit();
  EXPECT_EQ(Read(dir_ + "/x.json"), ResultToJsonText(whole));
  EXPECT_EQ(Read(dir_ + "/csv/pods.csv"), PodsCsv(whole));
  EXPECT_NE(Read(dir_ + "/csv/pods.csv").find("pod-2"), std::string::npos);
  // x.json and the csv folder only: no spool or temporary left.
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 2);
}

// No pod: the document as it is, with an empty "pod_records".
TEST_F(PodOutputSpoolTest, NoPodsGiveAnEmptyArray) {
  SimulationResult r;
  PodOutputSpool json(PodOutputSpool::Format::kJson, dir_, "x.json");
  OutputBatch batch;
  AddResultJson(ResultToJson(r), dir_ + "/x.json", &json, &batch);
  batch.Commit();
  EXPECT_EQ(Read(dir_ + "/x.json"), ResultToJsonText(r));
  EXPECT_NE(Read(dir_ + "/x.json").find("\"pod_records\": []"),
            std::string::npos);
}

// A producer that fails leaves the target as it was and no temporary.
TEST_F(PodOutputSpoolTest, AFailingProducerLeavesNothing) {
  const std::string path = dir_ + "/out.txt";
  std::ofstream(path) << "before";
  OutputBatch batch;
  batch.Add(dir_ + "/other.txt", "other");
  batch.AddProduced(path, [](const OutputWriter& write) {
    write("half");
    throw InputError("out.txt", 0, 0, "spool lost");
  });
  EXPECT_THROW(batch.Commit(), InputError);
  EXPECT_EQ(Read(path), "before");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(dir_)) {
    (void)e;
    ++entries;
  }
  EXPECT_EQ(entries, 1);
}

}  // namespace
}  // namespace gpushare
