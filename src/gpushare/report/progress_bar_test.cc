#include "gpushare/report/progress_bar.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "gpushare/report/progress_aggregate.h"

namespace gpushare {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(ProgressLineTest, ShowsBarPercentPodsTimeRateAndEta) {
  ProgressSnapshot s;
  s.pods_done = 4200;
  s.pods_total = 10000;
  s.sim_time_s = 3 * 3600;
  s.runs_total = 1;
  const std::string line = FormatProgressLine(s, 2.0, 80);
  EXPECT_EQ(line,
            "[########............]  42%  4,200/10,000 pods  t=3.0h  "
            "2,100 pods/s  ETA 3s");
}

TEST(ProgressLineTest, EtaInMinutesAndHours) {
  ProgressSnapshot s;
  s.pods_done = 1;
  s.pods_total = 100;
  EXPECT_THAT(FormatProgressLine(s, 2.0, 80), HasSubstr("ETA 3m18s"));
  s.pods_total = 10000;
  EXPECT_THAT(FormatProgressLine(s, 2.0, 80), HasSubstr("ETA 5h33m"));
}

TEST(ProgressLineTest, NoEtaBeforeTheFirstPodOrAfterTheLast) {
  ProgressSnapshot s;
  s.pods_total = 10;
  EXPECT_THAT(FormatProgressLine(s, 1.0, 80), Not(HasSubstr("ETA")));
  EXPECT_THAT(FormatProgressLine(s, 1.0, 80), HasSubstr("[....."));
  s.pods_done = 10;
  const std::string done = FormatProgressLine(s, 1.0, 80);
  EXPECT_THAT(done, Not(HasSubstr("ETA")));
  EXPECT_THAT(done, HasSubstr("[####################] 100%"));
}

TEST(ProgressLineTest, ShowsRunsWhenSeveral) {
  ProgressSnapshot s;
  s.pods_done = 5;
  s.pods_total = 50;
  s.runs_done = 1;
  s.runs_total = 5;
  EXPECT_THAT(FormatProgressLine(s, 1.0, 80), HasSubstr("runs 1/5"));
}

TEST(ProgressLineTest, FitsTheWidth) {
  ProgressSnapshot s;
  s.pods_done = 123456789;
  s.pods_total = 987654321;
  s.runs_done = 10;
  s.runs_total = 12;
  s.sim_time_s = 1e9;
  EXPECT_LE(FormatProgressLine(s, 0.5, 80).size(), 79u);
  EXPECT_LE(FormatProgressLine(s, 0.5, 40).size(), 39u);
}

TEST(ProgressAggregateTest, CountsAcrossThreads) {
  ProgressAggregate aggregate(4);
  EXPECT_EQ(aggregate.Snapshot().runs_total, 4);
  std::vector<std::thread> threads;
  for (int r = 0; r < 4; ++r) {
    threads.emplace_back([&aggregate, r] {
      aggregate.AddRun(1000);
      for (int i = 0; i < 900; ++i) aggregate.PodEnded();
      aggregate.AdvanceTime(100.0 * (r + 1));
      aggregate.RunFinished(100);
    });
  }
  for (std::thread& t : threads) t.join();
  const ProgressSnapshot s = aggregate.Snapshot();
  EXPECT_EQ(s.pods_total, 4000);
  EXPECT_EQ(s.pods_done, 4000);
  EXPECT_EQ(s.runs_done, 4);
  EXPECT_EQ(s.sim_time_s, 400);
}

TEST(ProgressBarTest, DisabledBarStartsNoThreadAndStopsTwice) {
  ProgressAggregate aggregate;
  ProgressBar bar(&aggregate, false);
  bar.Stop();
  bar.Stop();
}

}  // namespace
}  // namespace gpushare
