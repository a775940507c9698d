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
  EXPECT_NE(html.find("How sure: each score (0 to 10) is the mean of 3 runs "
                      "with different random draws (seeds 7-9); a scheme "
                      "wins a class only if its score is ahead on every run "
                      "by more than 0.05 (selection.decisive_margin), "
                      "otherwise the class is too close to call; too close "
                      "to call here: training."),
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
  EXPECT_NE(html.find("How sure: each score (0 to 10) is from one run (seed "
                      "7); a scheme wins a class only if its score is ahead "
                      "on every run by more than 0.05 "
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

// The <table> of tenant class `name`'s rows, header first, cells as text.
std::vector<std::vector<std::string>> ClassTable(const std::string& html,
                                                 const std::string& name) {
  const size_t start = html.find("<div data-class-table=\"" + name + "\">");
  EXPECT_NE(start, std::string::npos) << name;
  if (start == std::string::npos) return {};
  const size_t end = html.find("</table>", start);
  std::vector<std::vector<std::string>> rows;
  for (size_t tr = html.find("<tr", start); tr < end;
       tr = html.find("<tr", tr + 1)) {
    const size_t row_end = html.find("</tr>", tr);
    std::vector<std::string> cells;
    for (size_t cell = html.find("<t", tr + 3); cell < row_end;
         cell = html.find("<t", cell + 1)) {
      const size_t open = html.find('>', cell) + 1;
      cells.push_back(html.substr(open, html.find("</t", open) - open));
    }
    rows.push_back(cells);
  }
  return rows;
}

TEST(ComparisonHtmlTest, ClassTablesShowEvictionsAlwaysAndEnginesWhereRun) {
  Page p = ThreeClasses();
  // training: MIG evicted 5 pods' worth (2 of one pod), time-slicing none.
  p.comparison.variants[0].classes[1].preemptions = 5;
  p.comparison.variants[0].classes[1].max_pod_preemptions = 2;
  // inference runs an LLM engine under MIG only (time-slicing measured no
  // interval).
  ClassMetrics& llm = p.comparison.variants[0].classes[0];
  llm.mean_ttft_p99_ms = 114.07;
  llm.mean_tpot_p99_ms = 21.26;
  llm.mean_slo_ttft_p99_ms = 500;
  llm.mean_slo_tpot_p99_ms = 40;
  const std::string html = ComparisonHtmlReport(p.comparison, p.selection);
  const auto inference = ClassTable(html, "inference");
  ASSERT_EQ(inference.size(), 3u);
  const std::vector<std::string> header = {
      "scheme", "served", "mean wait", "slowdown", "p99 / SLO ms",
      "p99 TTFT / SLO ms (time to first token)",
      "p99 TPOT / SLO ms (time per output token)", "SLO met", "OOM kills",
      "evictions (preempted by the scheduler or Kueue)",
      "failed or cannot run", "$ per served pod"};
  EXPECT_EQ(inference[0], header);
  EXPECT_EQ(inference[1][5], "114.1 / 500");
  EXPECT_EQ(inference[1][6], "21.3 / 40");
  EXPECT_EQ(inference[2][5], "-");
  EXPECT_EQ(inference[1][9], "0");
  // training: no engine columns; its evictions, the most of one pod and the
  // up time lost.
  const auto training = ClassTable(html, "training");
  ASSERT_EQ(training.size(), 3u);
  EXPECT_EQ(training[0].size(), header.size() - 2 + 2);
  EXPECT_EQ(training[0][7], "evictions (preempted by the scheduler or Kueue)");
  EXPECT_EQ(training[0][8], "most evictions of one pod");
  EXPECT_EQ(training[1][7], "5");
  EXPECT_EQ(training[1][8], "2");
  EXPECT_EQ(training[2][7], "0");
  // dev: nothing evicted, no engine: the evictions column alone, all 0.
  const auto dev = ClassTable(html, "dev");
  ASSERT_EQ(dev.size(), 3u);
  EXPECT_EQ(dev[0].size(), header.size() - 2);
  EXPECT_EQ(dev[1][7], "0");
  EXPECT_EQ(html.find("TTFT", html.find("data-class-table=\"training\"")),
            std::string::npos);
}

}  // namespace
}  // namespace comparison_html_test
}  // namespace gpushare
