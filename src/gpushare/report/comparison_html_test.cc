// Tests of the compare HTML page: the answer first, one time axis for
// every chart over time, notes instead of empty charts.

#include "gpushare/report/comparison_html.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace comparison_html_test {
namespace {

size_t CountOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + 1)) {
    ++n;
  }
  return n;
}

PoolSummary Pool(const std::string& name, double end_s) {
  PoolSummary p;
  p.name = name;
  p.scheme = "mig";
  p.model = "A100-80GB";
  p.gpus = 8;
  for (double t = 0; t <= end_s; t += 60) {
    PoolSample s;
    s.time_s = t;
    s.sm_active = 0.4;
    s.gpu_util = 0.8;
    s.allocation = 0.5;
    s.pending = t < 300 ? 3 : 0;
    p.samples.push_back(s);
  }
  return p;
}

VariantOutcome Run(const std::string& name, SharingScheme scheme,
                   double end_s) {
  VariantOutcome v;
  v.name = name;
  v.scheme = scheme;
  v.pools = {"serving A100-80GB " + name};
  for (int k = 0; k < 3; ++k) {
    ClassMetrics m;
    m.pods = 4;
    m.served = 4;
    m.mean_wait_s = 10;
    m.cost_per_served_pod = 2;
    v.classes.push_back(m);
  }
  v.classes[0].mean_p99_ms = 5;
  v.classes[0].mean_slo_p99_ms = 10;
  v.class_schemes = {name, name, name};
  v.pool_summaries = {Pool("serving", end_s)};
  return v;
}

SchemeScore Score(const std::string& variant, double total) {
  SchemeScore s;
  s.variant = variant;
  s.scheme = variant;
  s.total = total;
  s.totals_by_seed = {total, total, total};
  s.total_min = s.total_max = total;
  return s;
}

struct Page {
  Comparison comparison;
  Selection selection;
};

// Three classes: MIG wins inference on every seed, training is too close
// to call, and no scheme is ranked for dev.
Page ThreeClasses() {
  Page p;
  Comparison& c = p.comparison;
  c.scenario = "mixed";
  c.seed = 7;
  c.seeds = {7, 8, 9};
  c.pods = 12;
  c.tenant_classes = {"inference", "training", "dev"};
  c.workload_classes = {"inference", "training", "dev"};
  c.variants = {Run("mig", SharingScheme::kMig, 1800),
                Run("time-slicing", SharingScheme::kTimeSlicing, 600)};
  Selection& s = p.selection;
  s.decisive_margin = 0.05;
  ClassChoice inference;
  inference.tenant_class = "inference";
  inference.seeds = 3;
  inference.ranking = {Score("mig", 8), Score("time-slicing", 5)};
  inference.explanation = "MIG wins inference.";
  ClassChoice training;
  training.tenant_class = "training";
  training.seeds = 3;
  training.ranking = {Score("time-slicing", 6), Score("mig", 5.98)};
  training.decisive = false;
  training.contender = "mig";
  training.contender_seeds = 3;
  ClassChoice dev;
  dev.tenant_class = "dev";
  dev.seeds = 3;
  dev.not_ranked = {"MIG: not ranked: its run put this class's pods under "
                    "exclusive"};
  s.classes = {inference, training, dev};
  return p;
}

TEST(ComparisonHtmlTest, TheAnswerComesFirst) {
  const Page p = ThreeClasses();
  const std::string html = ComparisonHtmlReport(p.comparison, p.selection);
  const size_t answer = html.find(">Answer</h2>");
  ASSERT_NE(answer, std::string::npos);
  EXPECT_LT(html.find("</h1>"), answer);
  EXPECT_LT(answer, html.find(">Runs</h2>"));
  const std::string recommended =
      "<p><b>Recommended:</b> inference → MIG, training → time-slicing or MIG "
      "(too close to call), dev → no scheme ranked (MIG: not ranked: its run "
      "put this class&#39;s pods under exclusive)</p>";
  EXPECT_NE(html.find(recommended), std::string::npos) << html;
  EXPECT_LT(html.find(recommended), html.find(">Runs</h2>"));
  EXPECT_EQ(CountOf(html, "<b>Recommended:</b>"), 1u);
  EXPECT_NE(html.find("Scores are means over 3 seeds (7-9); a win counts only "
                      "if it holds on every seed by more than 0.05 points "
                      "(selection.decisive_margin), otherwise the class is "
                      "too close to call; too close to call here: training."),
            std::string::npos)
      << html;
  // The Selection section keeps its details.
  EXPECT_LT(html.find(">Runs</h2>"), html.find(">Selection</h2>"));
  EXPECT_NE(html.find("<p>MIG wins inference.</p>"), std::string::npos);
  EXPECT_EQ(html, ComparisonHtmlReport(p.comparison, p.selection));
}

TEST(ComparisonHtmlTest, OneSeedEveryWinHolds) {
  Page p = ThreeClasses();
  p.comparison.seeds = {7};
  p.selection.classes.resize(1);
  const std::string html = ComparisonHtmlReport(p.comparison, p.selection);
  EXPECT_NE(html.find("Scores are from one seed (7); a win counts only if it "
                      "holds on every seed by more than 0.05 points "
                      "(selection.decisive_margin), otherwise the class is "
                      "too close to call; every win here holds."),
            std::string::npos);
}

TEST(ComparisonHtmlTest, ChartsOverTimeShareTheLongestRunsAxis) {
  const Page p = ThreeClasses();
  const std::string html = ComparisonHtmlReport(p.comparison, p.selection);
  // The time-slicing run ends at 10 min, MIG at 30: both pool charts and
  // the pending chart run to 30 min.
  for (const char* id : {"pool-mig-serving", "pool-time-slicing-serving",
                         "pending"}) {
    const size_t start = html.find(std::string("<svg data-chart=\"") + id);
    ASSERT_NE(start, std::string::npos) << id;
    const std::string svg =
        html.substr(start, html.find("</svg>", start) - start);
    EXPECT_NE(svg.find(">30m</text>"), std::string::npos) << id;
  }
}

TEST(ComparisonHtmlTest, PerClassP99AndNotesForEmptyCharts) {
  const Page p = ThreeClasses();
  const std::string html = ComparisonHtmlReport(p.comparison, p.selection);
  // The legend says SLO met counts latency samples, not pods; the score
  // column is performance.
  EXPECT_NE(html.find("SLO met: share of latency samples (one per pod per "
                      "sampling interval) whose p99 is within the pod&#39;s "
                      "SLO"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<th>performance</th>"), std::string::npos);
  EXPECT_EQ(html.find("overhead"), std::string::npos);
  EXPECT_EQ(CountOf(html, "<svg data-chart=\"class-p99-"), 1u);
  EXPECT_NE(html.find("<svg data-chart=\"class-p99-inference\""),
            std::string::npos);
  // No OOM kill and no completed job anywhere: notes, not charts.
  EXPECT_EQ(html.find("data-chart=\"class-oom\""), std::string::npos);
  EXPECT_NE(html.find("data-no-chart=\"class-oom\">No OOM kills in any "
                      "run.</p>"),
            std::string::npos);
  EXPECT_EQ(html.find("data-chart=\"class-slowdown\""), std::string::npos);
  EXPECT_NE(html.find("data-no-chart=\"class-slowdown\""), std::string::npos);
}

}  // namespace
}  // namespace comparison_html_test
}  // namespace gpushare
