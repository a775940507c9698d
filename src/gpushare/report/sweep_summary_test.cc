#include "gpushare/report/sweep_summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "gpushare/decide/sweep.h"
#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace sweep_summary_test {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kScenario[] = R"(name: tiny
cluster:
  pools:
    - name: l4
      gpu: L4
      nodes: 1
      gpus_per_node: 2
      sharing: {scheme: time-slicing, replicas: 2}
workload:
  horizon_s: 300
  classes:
    - name: notebooks
      class: dev
      arrival_rate_per_s: 0.05
      gpus: 1
      gpu_memory_mib: 2000
      work_s: 120
    - name: jobs
      class: training
      count: 4
      gpus: 1
      gpu_memory_mib: 8000
      work_s: 200
)";

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// Every point of `grid_text` evaluated on `threads` threads: its JSON text
// by point.
std::map<int64_t, std::string> RunAll(const std::string& grid_text,
                                      int threads) {
  const SweepGrid grid = ReadSweepGrid(grid_text, "grid.yaml", true);
  const std::string digest = SweepDigest(grid, kScenario);
  std::vector<int64_t> points;
  for (int64_t p = 0; p < grid.points; ++p) points.push_back(p);
  const Sweep sweep(grid, kScenario, "tiny.yaml", points, TestCatalog());
  std::map<int64_t, std::string> out;
  sweep.Run(threads, [&](const SweepPointResult& r) {
    EXPECT_TRUE(
        out.emplace(r.point, SweepPointJsonText(grid, digest, r)).second);
  });
  return out;
}

std::vector<SweepPointFile> Files(const std::map<int64_t, std::string>& json) {
  std::vector<SweepPointFile> files;
  for (const auto& [point, text] : json) {
    files.push_back(ParseSweepPointFile(text, SweepPointFileName(point)));
  }
  return files;
}

constexpr char kRunGrid[] = R"(cross:
  cluster.pools[l4].sharing.replicas: [2, 4]
  seed: {from: 1, to: 3}
)";

TEST(SweepSummaryTest, SameBytesOnAnyThreadCountAndOrder) {
  const std::map<int64_t, std::string> one = RunAll(kRunGrid, 1);
  const std::map<int64_t, std::string> three = RunAll(kRunGrid, 3);
  ASSERT_EQ(one.size(), 6u);
  EXPECT_EQ(one, three);
  std::vector<SweepPointFile> files = Files(one);
  const std::string summary = SweepSummaryCsv(CompleteSweep(files));
  std::reverse(files.begin(), files.end());
  EXPECT_EQ(SweepSummaryCsv(CompleteSweep(files)), summary);
}

TEST(SweepSummaryTest, RunTables) {
  const std::vector<SweepPointFile> files =
      CompleteSweep(Files(RunAll(kRunGrid, 2)));
  const std::string summary = SweepSummaryCsv(files);
  EXPECT_THAT(summary,
              StartsWith("point,cluster.pools[l4].sharing.replicas,seed,"
                         "variant,scheme,pods,served,"));
  // One row per point, in point order, with the point's values.
  EXPECT_EQ(std::count(summary.begin(), summary.end(), '\n'), 7);
  EXPECT_THAT(summary, HasSubstr("\n0,2,1,scenario,time-slicing,"));
  EXPECT_THAT(summary, HasSubstr("\n5,4,3,scenario,time-slicing,"));
  const std::string classes = SweepClassesCsv(files);
  EXPECT_EQ(std::count(classes.begin(), classes.end(), '\n'), 1 + 6 * 2);
  EXPECT_THAT(classes, HasSubstr("\n3,4,1,scenario,time-slicing,notebooks,"
                                 "time-slicing,"));
  // Different replicas give different results (the value reached the run).
  EXPECT_NE(files[0].json.at("variants"), files[3].json.at("variants"));
}

TEST(SweepSummaryTest, CompareTablesNameTheWinners) {
  const std::vector<SweepPointFile> files = CompleteSweep(
      Files(RunAll("command: compare\ncross:\n  compare.schemes: [[exclusive, "
                   "time-slicing]]\n",
                   1)));
  ASSERT_EQ(files.size(), 1u);
  const nlohmann::json& winners = files[0].json.at("winners");
  ASSERT_TRUE(winners.contains("notebooks"));
  const std::string summary = SweepSummaryCsv(files);
  EXPECT_EQ(std::count(summary.begin(), summary.end(), '\n'), 3);
  EXPECT_THAT(summary, HasSubstr("\n0,\"[exclusive, time-slicing]\","
                                 "exclusive,exclusive,"));
  // Each class's winner is named on its variant's row, and classes.csv
  // marks it.
  if (winners.at("notebooks").is_string()) {
    const std::string w = winners.at("notebooks").get<std::string>();
    EXPECT_THAT(summary, HasSubstr(w + "," + w + ","));
    EXPECT_THAT(SweepClassesCsv(files),
                HasSubstr("," + w + "," + w + ",notebooks,"));
  }
  // One pool: the pool plan is one of the compared schemes, never a mix.
  const nlohmann::json& plan = files[0].json.at("pool_plan");
  ASSERT_EQ(plan.at("pools").size(), 1u);
  const std::string scheme = plan.at("same_as").get<std::string>();
  EXPECT_EQ(SweepPoolsCsv(files),
            "point,compare.schemes,pool,written,scheme,conflict,pods,pods_ok,"
            "score\n0,\"[exclusive, time-slicing]\",l4,time-slicing," +
                scheme + "," + (plan.at("conflict").get<bool>() ? "1" : "0") +
                "," + plan.at("pools")[0].at("pods").dump() + "," +
                plan.at("pools")[0].at("pods_ok").dump() + "," +
                plan.at("pools")[0].at("score").dump() + "\n");
  // A `run` sweep has no pool plan.
  EXPECT_THROW(SweepPoolsCsv(CompleteSweep(Files(RunAll(kRunGrid, 1)))),
               InputError);
}

TEST(SweepSummaryTest, CompleteSweepNamesWhatIsWrong) {
  std::vector<SweepPointFile> files = Files(RunAll(kRunGrid, 2));
  const auto error = [](std::vector<SweepPointFile> f) -> std::string {
    try {
      CompleteSweep(std::move(f));
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  std::vector<SweepPointFile> missing = files;
  missing.erase(missing.begin() + 2);
  missing.erase(missing.begin() + 3);
  EXPECT_THAT(error(missing),
              HasSubstr("the sweep has 6 points, 4 are here; missing points "
                        "2, 4 (run their shards"));
  std::vector<SweepPointFile> twice = files;
  twice.push_back(files[1]);
  twice.back().path = "other/point-000001.json";
  EXPECT_THAT(error(twice),
              HasSubstr("point 1 is there twice: point-000001.json and "
                        "other/point-000001.json"));
  std::vector<SweepPointFile> other = files;
  other[4].digest = "0123456789abcdef";
  EXPECT_THAT(error(other), HasSubstr("come from different sweeps"));
  EXPECT_THAT(error({}), HasSubstr("no sweep point files"));
}

TEST(SweepPointFileTest, RefusesOtherFiles) {
  const std::map<int64_t, std::string> json = RunAll(kRunGrid, 1);
  EXPECT_NO_THROW(ParseSweepPointFile(json.at(0), "p.json"));
  for (const char* bad :
       {"", "{", "[]", "{\"schema\": \"gpushare-sim/run/v1\"}",
        "{\"schema\": \"gpushare-sim/sweep-point/v1\"}"}) {
    EXPECT_THROW(ParseSweepPointFile(bad, "p.json"), InputError) << bad;
  }
  nlohmann::json j = nlohmann::json::parse(json.at(0));
  j["point"] = 6;
  try {
    ParseSweepPointFile(j.dump(), "p.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("p.json: not a sweep point file"));
    EXPECT_THAT(e.what(), HasSubstr("point 6 of 6"));
  }
}

}  // namespace
}  // namespace sweep_summary_test
}  // namespace gpushare
