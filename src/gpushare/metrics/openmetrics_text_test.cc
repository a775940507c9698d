#include "gpushare/metrics/openmetrics_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace gpushare {
namespace {

TEST(OpenMetricsTextTest, EscapesLabelValues) {
  EXPECT_EQ(EscapeLabelValue("plain"), "plain");
  EXPECT_EQ(EscapeLabelValue("a\"b"), "a\\\"b");
  EXPECT_EQ(EscapeLabelValue("a\\b"), "a\\\\b");
  EXPECT_EQ(EscapeLabelValue("a\nb"), "a\\nb");
  EXPECT_EQ(EscapeLabelValue("\\\"\n"), "\\\\\\\"\\n");
  EXPECT_EQ(EscapeLabelValue("显卡 {x=1}"), "显卡 {x=1}");  // UTF-8 as is
}

TEST(OpenMetricsTextTest, EscapesHelpButNotQuotes) {
  EXPECT_EQ(EscapeHelp("a \"b\" c\\d\ne"), "a \"b\" c\\\\d\\ne");
}

TEST(OpenMetricsTextTest, FormatsLabelSets) {
  EXPECT_EQ(FormatLabels({}), "");
  EXPECT_EQ(FormatLabels({{"gpu", "0"}, {"pod", "a\"b"}}),
            "{gpu=\"0\",pod=\"a\\\"b\"}");
}

TEST(OpenMetricsTextTest, FormatsValues) {
  EXPECT_EQ(FormatSampleValue(0), "0");
  EXPECT_EQ(FormatSampleValue(100), "100");
  EXPECT_EQ(FormatSampleValue(0.1), "0.1");
  EXPECT_EQ(FormatSampleValue(-2.5), "-2.5");
  EXPECT_EQ(FormatSampleValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatSampleValue(-std::numeric_limits<double>::infinity()),
            "-Inf");
  EXPECT_EQ(FormatSampleValue(std::nan("")), "NaN");
  // Round trip: the shortest form that parses back to the same double.
  EXPECT_EQ(std::stod(FormatSampleValue(1.0 / 3)), 1.0 / 3);
}

TEST(OpenMetricsTextTest, FormatsTimestampsInSeconds) {
  EXPECT_EQ(FormatTimestamp(1704067200000), "1704067200");
  EXPECT_EQ(FormatTimestamp(1704067260500), "1704067260.5");
  EXPECT_EQ(FormatTimestamp(1704067260050), "1704067260.05");
  EXPECT_EQ(FormatTimestamp(1704067260001), "1704067260.001");
  EXPECT_EQ(FormatTimestamp(0), "0");
}

TEST(OpenMetricsTextTest, WritesFamiliesWithMetadataAndEof) {
  OpenMetricsText text(1704067200);
  text.BeginFamily("gpushare_pod_wait_seconds", MetricType::kGauge, "seconds",
                   "Wait.\nSecond line.");
  text.Sample("{pod=\"a\"}", 1.5, 0);
  text.Sample("{pod=\"a\"}", 2, 60.25);
  text.BeginFamily("gpushare_pods_succeeded", MetricType::kCounter, "",
                   "Done.");
  text.Sample("", 3, 120);
  EXPECT_EQ(text.Finish(),
            "# HELP gpushare_pod_wait_seconds Wait.\\nSecond line.\n"
            "# TYPE gpushare_pod_wait_seconds gauge\n"
            "# UNIT gpushare_pod_wait_seconds seconds\n"
            "gpushare_pod_wait_seconds{pod=\"a\"} 1.5 1704067200\n"
            "gpushare_pod_wait_seconds{pod=\"a\"} 2 1704067260.25\n"
            "# HELP gpushare_pods_succeeded Done.\n"
            "# TYPE gpushare_pods_succeeded counter\n"
            "gpushare_pods_succeeded_total 3 1704067320\n"
            "# EOF\n");
}

TEST(OpenMetricsTextTest, RoundsTimesToMilliseconds) {
  OpenMetricsText text(0);
  text.BeginFamily("x", MetricType::kGauge, "", "x");
  text.Sample("", 1, 0.0004);
  text.Sample("", 1, 0.0006);
  EXPECT_EQ(text.Finish(),
            "# HELP x x\n# TYPE x gauge\nx 1 0\nx 1 0.001\n# EOF\n");
}

TEST(OpenMetricsTextDeathTest, RefusesAReopenedFamily) {
  OpenMetricsText text(0);
  text.BeginFamily("x", MetricType::kGauge, "", "x");
  text.BeginFamily("y", MetricType::kGauge, "", "y");
  EXPECT_DEATH(text.BeginFamily("x", MetricType::kGauge, "", "x"),
               "written twice");
}

TEST(OpenMetricsTextDeathTest, RefusesBadNamesAndUnits) {
  OpenMetricsText text(0);
  EXPECT_DEATH(text.BeginFamily("1x", MetricType::kGauge, "", "x"),
               "invalid OpenMetrics metric name");
  EXPECT_DEATH(text.BeginFamily("x_ms", MetricType::kGauge, "seconds", "x"),
               "unit");
  EXPECT_DEATH(FormatLabels({{"bad-name", "v"}}), "label name");
}

}  // namespace
}  // namespace gpushare
