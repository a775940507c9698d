// Tests of the pool charts over time: one time axis for charts given the
// same end, notes instead of charts without data.

#include "gpushare/report/pool_charts.h"

#include <cmath>

#include <gtest/gtest.h>

namespace gpushare {
namespace pool_charts_test {
namespace {

PoolSummary PoolUntil(double end_s, double busy) {
  PoolSummary p;
  p.name = "dev";
  p.gpus = 4;
  for (double t = 0; t <= end_s; t += 60) {
    PoolSample s;
    s.time_s = t;
    s.sm_active = busy;
    s.gpu_util = busy;
    s.allocation = busy;
    s.pending = busy > 0 ? 2 : 0;
    p.samples.push_back(s);
  }
  return p;
}

// The x tick labels of a time chart, in order ("0s 5m 10m ...").
std::string TimeTickLabels(const std::string& svg) {
  std::string out;
  const std::string marker = "text-anchor=\"middle\">";
  for (size_t pos = svg.find(marker); pos != std::string::npos;
       pos = svg.find(marker, pos + 1)) {
    const size_t start = pos + marker.size();
    const std::string label = svg.substr(start, svg.find('<', start) - start);
    if (label == "simulated time") break;
    out += (out.empty() ? "" : " ") + label;
  }
  return out;
}

TEST(PoolChartsTest, ChartsGivenTheSameEndShareTheTimeAxis) {
  const PoolSummary short_run = PoolUntil(600, 0.5);
  const PoolSummary long_run = PoolUntil(1800, 0.5);
  const std::string a = PoolUtilizationChart("pool-a", "a", short_run, 1800);
  const std::string b = PoolUtilizationChart("pool-b", "b", long_run, 1800);
  EXPECT_EQ(TimeTickLabels(a), "0s 5m 10m 15m 20m 25m 30m");
  EXPECT_EQ(TimeTickLabels(a), TimeTickLabels(b));
  const std::string pending =
      PendingChart("pending", "p", {{"a", &short_run.samples}}, 1800);
  EXPECT_EQ(TimeTickLabels(pending), TimeTickLabels(b));
  // NaN: the data's own range.
  EXPECT_EQ(TimeTickLabels(PoolUtilizationChart("pool-a", "a", short_run, NAN)),
            "0s 2m 4m 6m 8m 10m");
}

TEST(PoolChartsTest, NoteInsteadOfAChartWithoutData) {
  PoolSummary none;
  none.gpus = 2;
  EXPECT_EQ(PoolUtilizationChart("pool-x", "Pool x", none, 600),
            "<p class=\"no-chart\" data-no-chart=\"pool-x\">Pool x: no "
            "samples.</p>\n");
  const PoolSummary idle = PoolUntil(600, 0);
  EXPECT_EQ(PoolUtilizationChart("pool-x", "Pool x", idle, 600),
            "<p class=\"no-chart\" data-no-chart=\"pool-x\">Pool x: nothing "
            "allocated, used or busy at any sample.</p>\n");
  EXPECT_EQ(PendingChart("pending", "Pending", {{"a", &idle.samples},
                                                {"b", nullptr}},
                         600),
            "<p class=\"no-chart\" data-no-chart=\"pending\">Pending: no pod "
            "pending at any sample of any run.</p>\n");
  EXPECT_EQ(PendingChart("pending", "Pending", {{"a", nullptr}}, 600),
            "<p class=\"no-chart\" data-no-chart=\"pending\">Pending: no "
            "samples.</p>\n");
  const PoolSummary busy = PoolUntil(600, 0.5);
  EXPECT_NE(PendingChart("pending", "Pending", {{"a", &idle.samples},
                                                {"b", &busy.samples}},
                         600)
                .find("<svg data-chart=\"pending\""),
            std::string::npos);
}

TEST(PoolChartsTest, LastSampleTimeIsTheLatestOfAnyPool) {
  EXPECT_EQ(LastSampleTime({}), 0);
  EXPECT_EQ(LastSampleTime({PoolUntil(600, 1), PoolSummary{},
                            PoolUntil(1200, 0)}),
            1200);
}

}  // namespace
}  // namespace pool_charts_test
}  // namespace gpushare
