#include "gpushare/decide/sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpushare/decide/sweep_grid_reader.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace sweep_test {
namespace {

constexpr char kScenario[] = R"(name: tiny
seed: 5
cluster:
  pools:
    - {name: l4, gpu: L4, nodes: 1, gpus_per_node: 2}
workload:
  horizon_s: 60
  classes:
    - {name: jobs, class: batch, count: 2, gpus: 1, work_s: 30}
)";

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

std::vector<int64_t> AllPoints(const SweepGrid& grid) {
  std::vector<int64_t> points(static_cast<size_t>(grid.points));
  std::iota(points.begin(), points.end(), 0);
  return points;
}

struct Stop : std::runtime_error {
  Stop() : std::runtime_error("stop") {}
};

// A grid of 10^6 points gives its first result after reading a point per
// thread, not every point first (issue 51: 10^5 points took 28 s to the
// first result); the work is counted, not timed.
TEST(SweepTest, TheFirstResultComesBeforeTheOtherPointsAreRead) {
  const SweepGrid grid = ReadSweepGrid(
      "cross:\n  horizon_s: {from: 601, to: 1600}\n"
      "  seed: {from: 1, to: 1000}\n",
      "grid.yaml", true);
  ASSERT_EQ(grid.points, 1000000);
  for (const int threads : {1, 2}) {
    const Sweep sweep(grid, kScenario, "tiny.yaml", AllPoints(grid),
                      TestCatalog());
    EXPECT_EQ(sweep.points_read(), 1);
    EXPECT_EQ(sweep.runs(), 1000000);
    int64_t read_at_first = -1;
    EXPECT_THROW(sweep.Run(threads,
                           [&](const SweepPointResult&) {
                             read_at_first = sweep.points_read();
                             throw Stop();
                           }),
                 Stop);
    EXPECT_GE(read_at_first, 1);
    EXPECT_LE(read_at_first, threads + 1) << threads << " threads";
    // The sweep stopped: no point was read after the failed one's thread
    // gave up (each other thread finishes the point it holds).
    EXPECT_LE(sweep.points_read(), 2 * threads + 1);
  }
}

// A bad point stops the sweep: every point before it runs, none after it
// is read, and its error is thrown, on any thread count.
TEST(SweepTest, ABadPointStopsTheSweepAfterThePointsBeforeIt) {
  const SweepGrid grid = ReadSweepGrid(
      "cross:\n  horizon_s: [60, -1, 60]\n  seed: {from: 1, to: 5}\n",
      "grid.yaml", true);
  for (const int threads : {1, 3}) {
    const Sweep sweep(grid, kScenario, "tiny.yaml", AllPoints(grid),
                      TestCatalog());
    std::vector<int64_t> done;
    try {
      sweep.Run(threads,
                [&](const SweepPointResult& r) { done.push_back(r.point); });
      FAIL() << "the bad point was run";
    } catch (const InputError& e) {
      EXPECT_EQ(e.line(), 2);
      EXPECT_NE(std::string(e.what()).find("cross 'horizon_s' = -1"),
                std::string::npos)
          << e.what();
    }
    std::sort(done.begin(), done.end());
    EXPECT_EQ(done, (std::vector<int64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(sweep.points_read(), 6);
  }
}

}  // namespace
}  // namespace sweep_test
}  // namespace gpushare
