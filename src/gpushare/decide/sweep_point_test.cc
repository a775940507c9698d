#include "gpushare/decide/sweep_point.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace sweep_point_test {
namespace {

using ::testing::HasSubstr;

constexpr char kScenario[] = R"(name: tiny
seed: 5
cluster:
  pools:
    - name: l4
      gpu: L4
      nodes: 2
      gpus_per_node: 4
      sharing: {scheme: time-slicing, replicas: 4}
workload:
  horizon_s: 600
  classes:
    - name: notebooks
      class: dev
      arrival_rate_per_s: 0.02
      gpus: 1
      gpu_memory_mib: 2000
      work_s: 300
)";

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

SweepPoint Point(const std::string& grid_text, int64_t point) {
  const SweepGrid grid = ReadSweepGrid(grid_text, "grid.yaml", true);
  return ReadSweepPoint(grid, kScenario, "tiny.yaml", point, TestCatalog());
}

std::string PointError(const std::string& grid_text, int64_t point) {
  try {
    Point(grid_text, point);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SweepPointTest, SetsTheValuesOfThePoint) {
  const std::string grid = R"(set:
  horizon_s: 7200
cross:
  cluster.pools[l4].sharing.replicas: {from: 2, to: 3}
  workload.classes[notebooks].arrival_rate_per_s: [0.01, 0.5]
  seed: [9]
)";
  const SweepPoint p = Point(grid, 3);
  EXPECT_EQ(p.scenario.horizon_s, 7200);
  EXPECT_EQ(p.scenario.pools[0].sharing.replicas.replicas, 3);
  EXPECT_DOUBLE_EQ(p.scenario.workload.classes[0].arrival_rate_per_s, 0.5);
  // seed: also the scheduler's, as when written in the file.
  EXPECT_EQ(p.scenario.seed, 9u);
  EXPECT_EQ(p.scenario.scheduler.seed, 9u);
  const SweepPoint q = Point(grid, 0);
  EXPECT_EQ(q.scenario.pools[0].sharing.replicas.replicas, 2);
  EXPECT_DOUBLE_EQ(q.scenario.workload.classes[0].arrival_rate_per_s, 0.01);
  EXPECT_EQ(q.scenario.name, "tiny");
}

TEST(SweepPointTest, WholeMappingsAndCompareSections) {
  const SweepPoint p = Point(R"(command: compare
cross:
  cluster.pools[l4].sharing: [{scheme: mps, replicas: 2}]
  compare.schemes: [[exclusive, mps]]
)",
                             0);
  EXPECT_EQ(p.scenario.pools[0].sharing.scheme(), SharingScheme::kMps);
  EXPECT_EQ(p.spec.compare.schemes.size(), 2u);
}

TEST(SweepPointTest, BlamesTheValue) {
  // A listed value: at the value, with the reader's message.
  EXPECT_THAT(
      PointError("cross:\n  cluster.pools[l4].nodes: [1, 0]\n", 1),
      HasSubstr("grid.yaml:2:32: cross 'cluster.pools[l4].nodes' = 0: pool "
                "'l4' nodes: 0 is out of range"));
  // The first point is fine.
  EXPECT_EQ(PointError("cross:\n  cluster.pools[l4].nodes: [1, 0]\n", 0),
            "no error");
  // A range's value: at the range.
  EXPECT_THAT(
      PointError("cross:\n  cluster.pools[l4].nodes: {from: 0, to: 1}\n", 0),
      HasSubstr("grid.yaml:2:28: cross 'cluster.pools[l4].nodes' = 0:"));
  // A set value, whatever the point.
  EXPECT_THAT(PointError("set:\n  horizon_s: -1\ncross: {seed: [1, 2]}\n", 1),
              HasSubstr("grid.yaml:2:14: set 'horizon_s' = -1:"));
  // Where the reader points into the scenario rather than at the value, it
  // says so.
  EXPECT_THAT(PointError("cross:\n  cluster.pools[l4].gpu: [A100-40GB, T4]\n"
                         "  cluster.pools[l4].sharing.replicas: [1]\n",
                         0),
              HasSubstr("cross 'cluster.pools[l4].sharing.replicas' = 1"));
  // An unknown key added by the grid.
  EXPECT_THAT(PointError("cross:\n  cluster.pools[l4].nodez: [1]\n", 0),
              HasSubstr("grid.yaml:2:29: cross 'cluster.pools[l4].nodez' = "
                        "1: pool 'l4': unknown key 'nodez'"));
  // A key that leads nowhere: at the key.
  EXPECT_THAT(PointError("cross:\n  cluster.pools[h100].nodes: [1]\n", 0),
              HasSubstr("grid.yaml:2:3: cross key 'cluster.pools[h100]."
                        "nodes': no item named 'h100'"));
}

TEST(SweepPointTest, TheScenariosOwnErrorIsNotBlamedOnAValue) {
  const SweepGrid grid = ReadSweepGrid(
      "set: {horizon_s: 60}\ncross: {seed: [1, 2]}\n", "grid.yaml", true);
  const std::string bad = std::string(kScenario) + "bogus: 1\n";
  try {
    ReadSweepPoint(grid, bad, "tiny.yaml", 1, TestCatalog());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("tiny.yaml:19:1: scenario: unknown key "
                                    "'bogus'"));
  }
}

TEST(SweepPointTest, BlamesTheCombination) {
  // Each value is fine alone with the written scenario; together they make
  // more than a million samples.
  const std::string grid = R"(cross:
  horizon_s: [10, 2000000]
  sample_interval_s: [1]
)";
  EXPECT_EQ(PointError(grid, 0), "no error");
  EXPECT_THAT(PointError(grid, 1),
              HasSubstr("grid.yaml:2:3: point 1 (horizon_s=2000000, "
                        "sample_interval_s=1): these values together make "
                        "the scenario invalid: grid.yaml:3:23: "));
}

TEST(SweepPointTest, EveryExampleGridReadsEachPoint) {
  int grids = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(GS_TESTDATA_DIR "/../../examples")) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with("sweep-") || !name.ends_with(".yaml")) continue;
    SCOPED_TRACE(name);
    ++grids;
    const SweepGrid grid =
        ReadSweepGridFile(entry.path().string(), /*scenario_given=*/false);
    const std::string text = ReadInputFile(grid.scenario);
    for (int64_t p = 0; p < grid.points; ++p) {
      const SweepPoint point =
          ReadSweepPoint(grid, text, grid.scenario, p, TestCatalog());
      EXPECT_EQ(point.index, p);
    }
  }
  EXPECT_GE(grids, 1);
}

}  // namespace
}  // namespace sweep_point_test
}  // namespace gpushare
