// Tests of the plan HTML page's per-class tables: the recommended plan's
// and today's rows, the evictions column, the TTFT/TPOT columns only for a
// class running an LLM engine.

#include "gpushare/report/plan_html.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace plan_html_test {
namespace {

ClassMetrics Class(const std::string& name, int64_t preemptions) {
  ClassMetrics m;
  m.tenant_class = name;
  m.pods = 8;
  m.served = 8;
  m.started = 8;
  m.mean_wait_s = 2;
  m.preemptions = preemptions;
  return m;
}

PlanResult TwoClasses() {
  PlanResult r;
  r.scenario = "llm";
  r.tenant_classes = {"chat", "batch"};
  r.chosen.name = "plan (searched)";
  r.chosen.feasible = true;
  r.chosen.class_metrics = {Class("chat", 0), Class("batch", 3)};
  ClassMetrics& chat = r.chosen.class_metrics[0];
  chat.mean_ttft_p99_ms = 184.526;
  chat.mean_tpot_p99_ms = 15.08;
  chat.mean_slo_ttft_p99_ms = 500;
  chat.mean_slo_tpot_p99_ms = 40;
  PlanOutcome today;
  today.name = "today";
  today.class_metrics = {Class("chat", 0), Class("batch", 11)};
  r.references = {today};
  return r;
}

// The rows of class `name`'s table (cells between <td> and </td>).
std::vector<std::string> Rows(const std::string& html,
                              const std::string& name) {
  const size_t start = html.find("<div data-class-table=\"" + name + "\">");
  EXPECT_NE(start, std::string::npos) << name;
  const size_t end = html.find("</table>", start);
  std::vector<std::string> rows;
  for (size_t tr = html.find("<tr>", start); tr < end;
       tr = html.find("<tr>", tr + 1)) {
    std::string row;
    const size_t row_end = html.find("</tr>", tr);
    for (size_t td = html.find("<t", tr + 4); td < row_end;
         td = html.find("<t", td + 1)) {
      const size_t open = html.find('>', td) + 1;
      row += (row.empty() ? "" : "|") +
             html.substr(open, html.find("</t", open) - open);
    }
    rows.push_back(row);
  }
  return rows;
}

TEST(PlanHtmlTest, ClassTablesForThePlanAndToday) {
  const std::string html = PlanHtmlReport(TwoClasses());
  EXPECT_LT(html.find(">Recommended plan</h2>"),
            html.find(">Per tenant class</h2>"));
  const std::vector<std::string> chat = Rows(html, "chat");
  ASSERT_EQ(chat.size(), 3u);
  EXPECT_EQ(chat[0],
            "plan|served|mean wait|p99 / SLO ms|"
            "p99 TTFT / SLO ms (time to first token)|"
            "p99 TPOT / SLO ms (time per output token)|SLO met|OOM kills|"
            "evictions (preempted by the scheduler or Kueue)|"
            "failed or cannot run");
  EXPECT_EQ(chat[1], "recommended plan|8/8|2.0s|-|184.5 / 500|15.1 / 40|-|0|"
                     "0|0");
  // Today measured no engine interval: "-".
  EXPECT_EQ(chat[2], "today|8/8|2.0s|-|-|-|-|0|0|0");
  const std::vector<std::string> batch = Rows(html, "batch");
  ASSERT_EQ(batch.size(), 3u);
  EXPECT_EQ(batch[0],
            "plan|served|mean wait|p99 / SLO ms|SLO met|OOM kills|"
            "evictions (preempted by the scheduler or Kueue)|"
            "failed or cannot run");
  EXPECT_EQ(batch[1], "recommended plan|8/8|2.0s|-|-|0|3|0");
  EXPECT_EQ(batch[2], "today|8/8|2.0s|-|-|0|11|0");
  // No fidelity without a recording.
  EXPECT_EQ(html.find("id=\"fidelity\""), std::string::npos);
  EXPECT_NE(PlanHtmlReport(TwoClasses(), "<p>x</p>\n").find("id=\"fidelity\""),
            std::string::npos);
}

TEST(PlanHtmlTest, PoolsNotPlannedAreKeptAsToday) {
  PlanResult r = TwoClasses();
  PoolPlan p;
  p.pool = "dev";
  p.model = "L4";
  p.gpus_per_node = 4;
  p.nodes = 2;
  p.written = "time-slicing x4";
  p.written_nodes = 2;
  p.setting = "time-slicing x4";
  r.pools = {p};
  const std::string html = PlanHtmlReport(r);
  EXPECT_NE(html.find("<td>kept as today (not in plan.pools)</td>"),
            std::string::npos)
      << html;
  EXPECT_EQ(html.find("as written"), std::string::npos);
}

}  // namespace
}  // namespace plan_html_test
}  // namespace gpushare
