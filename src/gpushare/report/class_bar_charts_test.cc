// Tests of the tenant-class bar charts: a p99 chart per class on its own
// axis, and notes instead of charts with nothing to show.

#include "gpushare/report/class_bar_charts.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace class_bar_charts_test {
namespace {

// The <svg> element whose data-chart is `id` ("" if none).
std::string ChartOf(const std::string& html, const std::string& id) {
  const size_t start = html.find("<svg data-chart=\"" + id + "\"");
  if (start == std::string::npos) return "";
  return html.substr(start, html.find("</svg>", start) - start);
}

ClassMetrics Served(int64_t pods) {
  ClassMetrics m;
  m.pods = pods;
  m.served = pods;
  m.mean_wait_s = 30;
  m.cost_per_served_pod = 1.5;
  return m;
}

TEST(ClassBarChartsTest, P99ChartPerClassOnItsOwnAxis) {
  ClassMetrics inference = Served(4);
  inference.mean_p99_ms = 5;
  inference.mean_slo_p99_ms = 8;
  ClassMetrics training = Served(2);
  training.mean_p99_ms = 20000;
  training.mean_slo_p99_ms = 30000;
  training.mean_slowdown = 1.5;
  ClassMetrics dev = Served(3);  // no latency samples
  const std::string html =
      ClassBarCharts("class-", {"inference", "training", "dev"}, {"mig", "mps"},
                     {{inference, training, dev}, {inference, training, dev}});
  EXPECT_EQ(ChartOf(html, "class-p99"), "");
  const std::string small = ChartOf(html, "class-p99-inference");
  const std::string large = ChartOf(html, "class-p99-training");
  ASSERT_NE(small, "");
  ASSERT_NE(large, "");
  EXPECT_EQ(ChartOf(html, "class-p99-dev"), "");
  // Each axis ends near its own class's values: the 5 ms bars and the 8 ms
  // SLO are not drawn on a 30 s axis.
  EXPECT_NE(small.find(">8 ms</text>"), std::string::npos) << small;
  EXPECT_EQ(small.find("0000 ms</text>"), std::string::npos) << small;
  EXPECT_NE(large.find(">30000 ms</text>"), std::string::npos) << large;
  // The SLO is a mark on every bar: one line per run, plus the legend's.
  EXPECT_NE(small.find("inference, mig: 5 ms (SLO 8 ms)"), std::string::npos);
  // The class without latency samples is named in a note.
  EXPECT_NE(html.find("<p class=\"no-chart\" data-no-chart=\"class-p99\">"
                      "No latency samples in any run for dev: no p99 chart "
                      "for them.</p>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html, ClassBarCharts(
                      "class-", {"inference", "training", "dev"},
                      {"mig", "mps"},
                      {{inference, training, dev}, {inference, training, dev}}));
}

TEST(ClassBarChartsTest, NoChartForAMetricZeroOrAbsentEverywhere) {
  ClassMetrics a = Served(2);  // no OOM kill, no completed job, no latency
  ClassMetrics b = Served(3);
  b.mean_wait_s = 0;
  const std::string html =
      ClassBarCharts("class-", {"a", "b"}, {"exclusive", "mps"}, {{a, b}, {a, b}});
  for (const char* gone : {"class-slowdown", "class-oom", "class-p99"}) {
    EXPECT_EQ(html.find(std::string("data-chart=\"") + gone), std::string::npos)
        << gone;
    EXPECT_NE(html.find(std::string("data-no-chart=\"") + gone + "\""),
              std::string::npos)
        << gone;
  }
  EXPECT_NE(html.find(">No OOM kills in any run.</p>"), std::string::npos);
  EXPECT_NE(html.find(">No completed jobs in any run: no slowdown to show.</p>"),
            std::string::npos);
  EXPECT_NE(html.find(">No latency samples in any run: no p99 to show.</p>"),
            std::string::npos);
  // Charts with data are drawn, notes follow them.
  EXPECT_NE(ChartOf(html, "class-wait"), "");
  EXPECT_NE(ChartOf(html, "class-cost"), "");
  EXPECT_LT(html.rfind("</svg>"), html.find("class=\"no-chart\""));

  // Nothing served: no cost per served pod; nothing started: no wait.
  ClassMetrics none;
  none.pods = 2;
  none.pending = 2;
  const std::string empty =
      ClassBarCharts("class-", {"a"}, {"only"}, {{none}});
  EXPECT_EQ(empty.find("<svg"), std::string::npos) << empty;
  EXPECT_NE(empty.find(">No pod served in the run: no cost per served pod.</p>"),
            std::string::npos)
      << empty;
  EXPECT_NE(empty.find(">No pod started in the run: no queue wait to show.</p>"),
            std::string::npos);
}

}  // namespace
}  // namespace class_bar_charts_test
}  // namespace gpushare
