// Tests of the SVG chart primitives: line and bar charts, the timeline.

#include <gtest/gtest.h>

#include "gpushare/report/svg_bar_chart.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/svg_timeline.h"

namespace gpushare {
namespace {

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + 1)) {
    ++n;
  }
  return n;
}

TEST(LineChartTest, SeriesTaggedEscapedAndDownsampled) {
  LineSeries a;
  a.name = "SM <active>";
  for (int i = 0; i < 5000; ++i) a.points.push_back({double(i), (i % 7) / 7.0});
  LineSeries b;
  b.name = "empty";
  LineChartSpec spec;
  spec.id = "pool-\"x\"";
  spec.title = "t";
  spec.y_max = 1;
  spec.max_points = 100;
  const std::string svg = RenderLineChart(spec, {a, b});
  EXPECT_NE(svg.find("data-chart=\"pool-&quot;x&quot;\""), std::string::npos);
  EXPECT_NE(svg.find("<g data-series=\"SM &lt;active&gt;\">"),
            std::string::npos);
  EXPECT_NE(svg.find("<g data-series=\"empty\">"), std::string::npos);
  // One path for the line of `a`, at most 100 points (M + L commands).
  const size_t start = svg.find("<g data-series=\"SM");
  const std::string group = svg.substr(start, svg.find("</g>", start) - start);
  EXPECT_EQ(Count(group, "<path"), 1u);
  EXPECT_LE(Count(group, "L") + 1, 101u);
  EXPECT_EQ(svg, RenderLineChart(spec, {a, b}));
}

// A series from (0, 0) to (10, 1), and a chart whose plot spans x 56 to
// 200 and y 0 to 1.
LineSeries RampSeries() {
  LineSeries a;
  a.name = "a";
  a.points = {{0, 0}, {10, 1}};
  return a;
}

LineChartSpec SmallPlot() {
  LineChartSpec spec;
  spec.width = 216;  // plot from x 56 to 200
  spec.height = 234;
  spec.y_max = 1;
  return spec;
}

TEST(LineChartTest, PointsLandInsideThePlot) {
  const LineSeries a = RampSeries();
  const LineChartSpec spec = SmallPlot();
  const std::string svg = RenderLineChart(spec, {a});
  // x: 0 → 56, 10 → 200; y: 0 → the plot bottom (234 − 34 = 200).
  EXPECT_NE(svg.find("d=\"M56 200L200 "), std::string::npos) << svg;
}

TEST(LineChartTest, ExplicitXRangeWidensTheAxis) {
  const LineSeries a = RampSeries();
  LineChartSpec spec = SmallPlot();
  spec.x_min = 0;
  spec.x_max = 20;
  // x: 0 → 56, 20 → 200, so 10 → 128.
  EXPECT_NE(RenderLineChart(spec, {a}).find("d=\"M56 200L128 "),
            std::string::npos);
  // A bound inside the data does not cut it off.
  spec.x_max = 5;
  EXPECT_NE(RenderLineChart(spec, {a}).find("d=\"M56 200L200 "),
            std::string::npos);
}

TEST(LineChartTest, BandDrawnAsArea) {
  LineSeries a;
  a.name = "fgd";
  a.points = {{0, 1}, {1, 2}};
  a.low = {0.5, 1.5};
  a.high = {1.5, 2.5};
  const std::string svg = RenderLineChart({}, {a});
  EXPECT_NE(svg.find("fill-opacity=\"0.18\""), std::string::npos);
  EXPECT_EQ(Count(svg, "<path"), 2u);
}

TEST(BarChartTest, OneRectPerApplicableValueWithMarks) {
  BarChartSpec spec;
  spec.id = "p99";
  spec.series = {"mig", "time-slicing"};
  spec.mark_name = "SLO";
  std::vector<BarGroup> groups = {{"inf<1>", {40, 80}, {50, 50}},
                                  {"dev", {-1, NAN}, {NAN, NAN}}};
  const std::string svg = RenderBarChart(spec, groups);
  EXPECT_EQ(Count(svg, "<rect"), 2u);
  EXPECT_NE(svg.find("<g data-series=\"mig\""), std::string::npos);
  EXPECT_NE(svg.find("<g data-series=\"time-slicing\""), std::string::npos);
  EXPECT_NE(svg.find("inf&lt;1&gt;, mig: 40 (SLO 50)"), std::string::npos);
  EXPECT_EQ(Count(svg, "stroke-dasharray=\"5 3\"/>"), 3u);  // 2 marks + legend
}

TEST(PackIntoLanesTest, FewestLanesAndDropsBeyondTheLimit) {
  std::vector<TimelineBar> bars = {
      {0, 10, 0, "a"}, {5, 15, 0, "b"}, {10, 20, 0, "c"}, {6, 7, 0, "d"}};
  int dropped = -1;
  auto lanes = PackIntoLanes(bars, 8, &dropped);
  ASSERT_EQ(lanes.size(), 3u);
  EXPECT_EQ(dropped, 0);
  EXPECT_EQ(lanes[0][0].label, "a");
  EXPECT_EQ(lanes[0][1].label, "c");  // a ends at 10 where c starts
  EXPECT_EQ(lanes[1][0].label, "b");
  EXPECT_EQ(lanes[2][0].label, "d");
  lanes = PackIntoLanes(bars, 2, &dropped);
  EXPECT_EQ(lanes.size(), 2u);
  EXPECT_EQ(dropped, 1);
}

TEST(MergeShortBarsTest, MergesRunsShorterThanAPixel) {
  // 1 s per pixel: three 0.2 s pods back to back, a long one, one short.
  std::vector<TimelineBar> bars = {{0, 0.2, 1, "a"},   {0.3, 0.5, 1, "b"},
                                   {0.9, 1.1, 2, "c"}, {2, 50, 3, "long"},
                                   {60, 60.5, 1, "lone"}};
  const auto out = MergeShortBars(bars, 1.0);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].color, -1);
  EXPECT_DOUBLE_EQ(out[0].start, 0);
  EXPECT_DOUBLE_EQ(out[0].end, 1.1);
  EXPECT_EQ(out[0].label.rfind("3 pods", 0), 0u);
  EXPECT_EQ(out[1].label, "long");
  EXPECT_EQ(out[2].label, "lone");  // a run of one is kept
}

TEST(TimelineTest, GroupsTaggedBarsEscapedAndBounded) {
  TimelineGroup g;
  g.label = "node<1> GPU 0";
  TimelineLane lane;
  for (int i = 0; i < 100000; ++i) {
    lane.bars.push_back({i * 0.01, i * 0.01 + 0.005, 0, "pod"});
  }
  g.lanes.push_back(lane);
  TimelineSpec spec;
  spec.x_max = 1000;
  const std::string svg = RenderTimeline(spec, {g});
  EXPECT_NE(svg.find("<g data-series=\"node&lt;1&gt; GPU 0\">"),
            std::string::npos);
  // 100,000 bars of 1/200 pixel each merge into one grey bar.
  EXPECT_EQ(Count(svg, "<rect") - 1, 1u);  // minus the lane background
  EXPECT_NE(svg.find("100000 pods shorter than a pixel"), std::string::npos);
}

}  // namespace
}  // namespace gpushare
