#include "gpushare/report/plan_html.h"

#include <fmt/format.h>

#include "gpushare/report/class_outcome_columns.h"
#include "gpushare/report/html_page.h"
#include "gpushare/report/plan_report.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/svg_scatter_chart.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string Frontier(const PlanResult& r, const PoolPlan& pool) {
  bool slo = false;
  for (const PlanProbe& p : r.log) {
    if (p.pool == pool.pool && !p.pilot && p.min_slo_attainment >= 0)
      slo = true;
  }
  std::vector<ScatterPoint> points;
  for (const PlanProbe& p : r.log) {
    if (p.pool != pool.pool || p.pilot) continue;
    ScatterPoint s;
    s.x = p.cost_per_hour;
    s.y = slo ? std::max(0.0, p.min_slo_attainment) : p.max_mean_wait_s;
    s.color = p.feasible ? 2 : -1;
    s.highlight = p.candidate == pool.setting && p.nodes == pool.nodes;
    s.title = fmt::format("{} x{}: {}{}", p.candidate, p.nodes,
                          FormatMoneyPerHour(p.cost_per_hour),
                          p.feasible ? ", meets its constraints"
                                     : "; " + DescribeChecks(p.missed));
    points.push_back(s);
  }
  ScatterChartSpec spec;
  spec.id = "frontier-" + pool.pool;
  spec.title = fmt::format("{}: every setting confirmed on the whole workload",
                           pool.pool);
  spec.x_label = "cost per hour (USD)";
  spec.y_label = slo ? "worst SLO attainment" : "longest mean wait";
  spec.format_y = slo ? FormatPercentTick : FormatTimeTick;
  return RenderScatterChart(spec, points);
}

// Per tenant class: the recommended plan's mean metrics over the seeds and
// today's, with the evictions and, for a class running an LLM engine, TTFT
// and TPOT (class_outcome_columns.h).
std::string ClassTables(const PlanResult& r) {
  const PlanOutcome* today = TodaysPlan(r);
  std::vector<std::pair<std::string, const PlanOutcome*>> plans = {
      {"recommended plan", &r.chosen}};
  if (today != nullptr && today != &r.chosen) {
    plans.emplace_back("today", today);
  }
  std::string html;
  for (size_t k = 0; k < r.chosen.class_metrics.size(); ++k) {
    std::vector<const ClassMetrics*> metrics;
    for (const auto& [label, plan] : plans) {
      metrics.push_back(k < plan->class_metrics.size()
                            ? &plan->class_metrics[k]
                            : nullptr);
    }
    const bool engine = HasEngine(metrics);
    std::vector<std::string> header = {"plan", "served", "mean wait",
                                       "p99 / SLO ms"};
    if (engine) {
      const std::vector<std::string> cells = EngineHeader();
      header.insert(header.end(), cells.begin(), cells.end());
    }
    header.insert(header.end(), {"SLO met", "OOM kills", EvictionHeader(),
                                 "failed or cannot run"});
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < plans.size(); ++i) {
      if (metrics[i] == nullptr) continue;
      const ClassMetrics& m = *metrics[i];
      std::vector<std::string> row = {
          plans[i].first, fmt::format("{}/{}", m.served, m.pods),
          FormatSeconds(m.started > 0 ? m.mean_wait_s : -1),
          FormatP99VsSlo(m.mean_p99_ms, m.mean_slo_p99_ms, " / ")};
      if (engine) {
        const std::vector<std::string> cells = EngineCells(m);
        row.insert(row.end(), cells.begin(), cells.end());
      }
      row.insert(row.end(),
                 {FormatPercent(m.slo_attainment), std::to_string(m.oom_kills),
                  EvictionCell(m), std::to_string(m.failed + m.cannot_run)});
      rows.push_back(std::move(row));
    }
    const std::string& name = r.chosen.class_metrics[k].tenant_class;
    html += "<h3>" + HtmlEscape("Tenant class " + name) +
            "</h3>\n<div data-class-table=\"" + HtmlEscape(name) + "\">\n" +
            HtmlTable(header, rows) + "</div>\n";
  }
  return html;
}

}  // namespace

std::string PlanHtmlReport(const PlanResult& r,
                           const std::string& fidelity_html) {
  HtmlPage page(fmt::format("gpushare-sim plan: {} (seed {}), {} pods",
                            r.scenario, r.seed, r.pods));
  const PlanOutcome& c = r.chosen;
  page.AddHeading("Recommended plan", "plan");
  std::string answer = fmt::format(
      "{} for {} GPUs, {}.", FormatMoneyPerHour(c.cost_per_hour), c.gpus,
      c.feasible ? "meeting every constraint"
                 : "the closest to the constraints (none meets them all)");
  if (const PlanOutcome* best = BestSingleScheme(r)) {
    answer += fmt::format(
        " The cheapest single scheme that meets them: {} "
        "at {}.",
        PlanOutcomeLabel(*best), FormatMoneyPerHour(best->cost_per_hour));
  }
  if (const PlanOutcome* today = TodaysPlan(r)) {
    answer += fmt::format(" Today's plan: {} ({} constraints missed).",
                          FormatMoneyPerHour(today->cost_per_hour),
                          Missed(today->checks).size());
  }
  page.AddParagraph(answer);
  std::vector<std::vector<std::string>> rows;
  for (const PoolPlan& p : r.pools) {
    if (p.gpus_per_node == 0) continue;
    std::string binding = BindingText(p);
    if (!p.planned) binding = "kept as today (not in plan.pools)";
    if (p.at_minimum) binding = "at the minimum of its range";
    rows.push_back(
        {p.pool, fmt::format("{}x{}", p.gpus_per_node, p.model),
         std::to_string(p.nodes), p.setting, FormatMoney(p.cost_per_hour),
         fmt::format("{} x{}", p.written, p.written_nodes), binding});
  }
  page.AddHtml(HtmlTable({"pool", "GPUs per node", "nodes", "setting", "$/h",
                          "today", "one node fewer"},
                         rows));
  for (const PoolPlan& p : r.pools) {
    if (p.knife_edge) page.AddParagraph(p.pool + ": " + KnifeEdgeText(p));
    if (!p.change_buys.empty()) {
      page.AddParagraph(fmt::format("{}: the change from today's {} x{} buys: "
                                    "{}",
                                    p.pool, p.written, p.written_nodes,
                                    p.change_buys));
    }
  }
  for (const QuotaBoundClass& q : c.quota_bound) {
    page.AddParagraph(QuotaBoundText(q));
  }
  if (!fidelity_html.empty()) {
    page.AddHeading("How well the model replays today's cluster",
                    "fidelity");
    page.AddHtml(fidelity_html);
  }
  if (!r.chosen.class_metrics.empty()) {
    page.AddHeading("Per tenant class", "classes");
    page.AddParagraph(
        "Each class under the recommended plan and under today's, means over "
        "the seeds: mean queue wait; p99 / SLO: mean worst-interval p99 "
        "latency and its objective; SLO met: the share of latency samples "
        "meeting it.");
    page.AddHtml(ClassTables(r));
  }
  if (!r.rejected.empty()) {
    page.AddHeading("Cheaper settings rejected", "rejected");
    page.AddParagraph(fmt::format(
        "Each meets every constraint on some of the {} seeds, not on their "
        "mean, which the plan is judged on.",
        r.rejected.front().seeds));
    rows.clear();
    for (const RejectedPlan& x : r.rejected) {
      rows.push_back({x.pool, x.setting, std::to_string(x.nodes),
                      FormatMoney(x.cost_per_hour),
                      fmt::format("{} of {}", x.seeds_feasible, x.seeds),
                      DescribeChecks(x.missed),
                      DescribeSeedMisses(x.seed_misses)});
    }
    page.AddHtml(HtmlTable({"pool", "setting", "nodes", "$/h",
                            "seeds met", "missed on the mean",
                            "missed per seed"},
                           rows));
  }
  page.AddHeading("Constraints", "constraints");
  rows.clear();
  for (const ConstraintCheck& k : c.checks) {
    rows.push_back(ConstraintCheckCells(k));
  }
  page.AddHtml(
      HtmlTable({"class", "constraint", "value", "limit", "margin", ""}, rows));
  page.AddHeading("Plans compared", "references");
  rows.clear();
  for (const PlanOutcome& o : r.references) {
    const std::vector<ConstraintCheck> missed = Missed(o.checks);
    std::string pools;
    for (const std::string& p : o.pools)
      pools += (pools.empty() ? "" : "; ") + p;
    rows.push_back(
        {PlanOutcomeLabel(o), std::to_string(o.gpus),
         FormatMoney(o.cost_per_hour),
         missed.empty() ? "all met" : fmt::format("{} missed", missed.size()),
         pools});
  }
  page.AddHtml(
      HtmlTable({"plan", "GPUs", "$/h", "constraints", "pools"}, rows));
  page.AddHeading("Search frontier per pool", "frontier");
  page.AddParagraph(
      "Each point is one setting at one node count, run on the whole "
      "workload; coloured points meet the pool's constraints, the ringed "
      "one is the plan's. Hover for the setting and what it misses.");
  for (const PoolPlan& p : r.pools) {
    if (p.planned) page.AddHtml(Frontier(r, p));
  }
  return page.Render();
}

}  // namespace gpushare
