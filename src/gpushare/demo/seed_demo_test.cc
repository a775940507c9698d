#include "gpushare/demo/seed_demo.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace gpushare {
namespace {

std::string TestDataPath(const std::string& name) {
  return std::string(GS_TESTDATA_DIR) + "/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return std::string(std::istreambuf_iterator<char>(in),
                     std::istreambuf_iterator<char>());
}

void ExpectResult(const SeedResult& result, const std::string& mode,
                  double total_time, double utilization) {
  EXPECT_EQ(result.mode, mode);
  EXPECT_EQ(result.total_time, total_time) << mode;
  EXPECT_EQ(result.utilization, utilization) << mode;
}

// tests/data/seed_tasks_42.txt was written by (in shared/seed):
//   python3 -c "import seed_demo as d
//   for t in d.gen_tasks(24, 42): print(t.name, repr(t.mem), repr(t.time))"
TEST(SeedDemoTest, GeneratesPythonTasksForSeed42) {
  const std::vector<SeedTask> tasks = GenerateSeedTasks(24, 42);
  std::istringstream expected(ReadFile(TestDataPath("seed_tasks_42.txt")));
  std::string name;
  double mem = 0.0;
  double time = 0.0;
  size_t i = 0;
  while (expected >> name >> mem >> time) {
    ASSERT_LT(i, tasks.size());
    EXPECT_EQ(tasks[i].name, name);
    EXPECT_EQ(tasks[i].mem, mem) << name;
    EXPECT_EQ(tasks[i].time, time) << name;
    ++i;
  }
  EXPECT_EQ(i, tasks.size());
  EXPECT_EQ(i, 24u);
}

// Expected dicts: python3 -c "import seed_demo as d; ts = d.gen_tasks()
// for fn in (d.time_slice, d.mig_partition, d.vgpu_slice): print(fn(ts))"
TEST(SeedDemoTest, ResultsForDefaultTasks) {
  const std::vector<SeedTask> tasks = GenerateSeedTasks(24, 42);
  ExpectResult(TimeSlice(tasks), "time-slice", 96.55, 0.904);
  ExpectResult(MigPartition(tasks), "mig", 53.8, 0.406);
  ExpectResult(VgpuSlice(tasks), "vgpu", 92.87, 0.94);
}

// python3 -c "import seed_demo as d; ts = d.gen_tasks(24, 42)
// print(d.time_slice(ts, 8.0, 0.3)); print(d.mig_partition(ts, 30.0, 3))
// print(d.vgpu_slice(ts, 5.0, 0.1))"
TEST(SeedDemoTest, ResultsForOtherParameters) {
  const std::vector<SeedTask> tasks = GenerateSeedTasks(24, 42);
  ExpectResult(TimeSlice(tasks, 8.0, 0.3), "time-slice", 63.2, 0.851);
  ExpectResult(MigPartition(tasks, 30.0, 3), "mig", 87.3, 0.333);
  ExpectResult(VgpuSlice(tasks, 5.0, 0.1), "vgpu", 35.33, 0.9);
}

// python3 -c "import seed_demo as d; ts = d.gen_tasks(5, 7)
// print(ts)
// for fn in (d.time_slice, d.mig_partition, d.vgpu_slice): print(fn(ts))"
TEST(SeedDemoTest, Seed7FiveTasks) {
  const std::vector<SeedTask> tasks = GenerateSeedTasks(5, 7);
  ASSERT_EQ(tasks.size(), 5u);
  EXPECT_EQ(tasks[0].mem, 4.6);
  EXPECT_EQ(tasks[0].time, 2.1);
  EXPECT_EQ(tasks[4].name, "job-4");
  EXPECT_EQ(tasks[4].mem, 2.3);
  EXPECT_EQ(tasks[4].time, 4.0);
  ExpectResult(TimeSlice(tasks), "time-slice", 17.5, 0.903);
  ExpectResult(MigPartition(tasks), "mig", 15.8, 0.25);
  ExpectResult(VgpuSlice(tasks), "vgpu", 16.81, 0.94);
}

// tests/data/seed_demo.out is a byte copy of shared/seed/seed_demo.out, the
// output of `python3 seed_demo.py`.
TEST(SeedDemoTest, FormatMatchesPythonOutputByteForByte) {
  EXPECT_EQ(FormatSeedDemo(GenerateSeedTasks(24, 42), Lang::kZh),
            ReadFile(TestDataPath("seed_demo.out")));
}

// Expected: the seed demo's print loop with the English labels substituted,
// run by python3 on d.gen_tasks(5, 7).
TEST(SeedDemoTest, FormatEnglishSeed7) {
  EXPECT_EQ(FormatSeedDemo(GenerateSeedTasks(5, 7), Lang::kEn),
            "Simulated tasks: 5\n"
            " time-slice | total time:  17.50s | utilization: 90.3%\n"
            "        mig | total time:  15.80s | utilization: 25.0%\n"
            "       vgpu | total time:  16.81s | utilization: 94.0%\n");
}

TEST(SeedDemoTest, FormatChineseSeed7) {
  EXPECT_EQ(FormatSeedDemo(GenerateSeedTasks(5, 7), Lang::kZh),
            "模拟任务数: 5\n"
            " time-slice | 完成时间:  17.50s | 利用率: 90.3%\n"
            "        mig | 完成时间:  15.80s | 利用率: 25.0%\n"
            "       vgpu | 完成时间:  16.81s | 利用率: 94.0%\n");
}

}  // namespace
}  // namespace gpushare
