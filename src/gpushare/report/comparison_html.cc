#include "gpushare/report/comparison_html.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/decide/scheme_variant.h"
#include "gpushare/report/class_bar_charts.h"
#include "gpushare/report/class_outcome_columns.h"
#include "gpushare/report/eviction_warnings.h"
#include "gpushare/report/html_page.h"
#include "gpushare/report/pool_charts.h"
#include "gpushare/report/pool_plan_text.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string HtmlP99VsSlo(const ClassMetrics& m) {
  return FormatP99VsSlo(m.mean_p99_ms, m.mean_slo_p99_ms, " / ");
}

std::string HtmlRuns(const Comparison& c) {
  std::string out = "<ul>\n";
  for (const VariantOutcome& v : c.variants) {
    out += "<li><b>" + HtmlEscape(VariantDisplayName(v.name)) + "</b>: ";
    for (size_t i = 0; i < v.pools.size(); ++i) {
      out += (i > 0 ? "; " : "") + HtmlEscape(v.pools[i]);
    }
    for (const std::string& note : v.notes) {
      out += "<br><span class=\"note\">note: " + HtmlEscape(note) + "</span>";
    }
    out += "</li>\n";
  }
  out += "</ul>\n";
  if (!c.mig_choices.empty()) {
    out += "<p>" +
           HtmlEscape(fmt::format(
               "MIG layouts: each pool's best family on {} ({} pods), by "
               "mean performance of the pods routed to it.",
               c.mig_pilot ? "a scaled-down pilot" : "the whole workload",
               c.mig_pilot_pods)) +
           "</p>\n";
    std::vector<std::vector<std::string>> rows;
    for (const MigPoolChoice& m : c.mig_choices) {
      std::string tried;
      for (const MigCandidate& k : m.candidates) {
        tried += fmt::format("{}{} {:.3f}", tried.empty() ? "" : ", ", k.family,
                             k.performance);
      }
      rows.push_back({m.pool, m.model, m.config, tried});
    }
    out +=
        HtmlTable({"pool", "model", "chosen config", "families tried"}, rows);
  }
  return out;
}

std::string HtmlClusterTable(const Comparison& c) {
  std::vector<std::vector<std::string>> rows;
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.cluster;
    rows.push_back(
        {VariantDisplayName(v.name), fmt::format("{}/{}", m.served, m.pods),
         FormatSeconds(m.started > 0 ? m.mean_wait_s : -1),
         FormatPercent(m.slo_attainment), FormatPercent(v.mean_allocation),
         FormatPercent(v.mean_sm_active), FormatPercent(v.mean_gpu_util),
         v.faults > 0 ? FormatMeanCount(v.max_blast_radius) : "-",
         FormatAlertCounts(v.alerts), FormatMoney(v.cluster_cost)});
  }
  return HtmlTable(
      {"scheme", "served", "mean wait", "SLO met", "allocation", "SM active",
       "GPU util", "blast radius", "patrol alerts", "cost $"},
      rows);
}

std::string HtmlClassTable(const Comparison& c, size_t k) {
  // The admission part of the wait, when some run queued the class's pods;
  // the evictions always (class_outcome_columns.h), with the most of one pod
  // and the up time they cost when some scheme evicted any; TTFT and TPOT
  // when the class runs an LLM engine.
  bool queued = false;
  bool evictions = false;
  std::vector<const ClassMetrics*> metrics;
  for (const VariantOutcome& v : c.variants) {
    queued = queued || v.classes[k].queued > 0;
    evictions = evictions || v.classes[k].preemptions > 0;
    metrics.push_back(&v.classes[k]);
  }
  const bool engine = HasEngine(metrics);
  std::vector<std::vector<std::string>> rows;
  for (const VariantOutcome& v : c.variants) {
    const ClassMetrics& m = v.classes[k];
    std::string label = VariantDisplayName(v.name);
    if ((v.plan || v.pool_plan) && !v.class_schemes[k].empty()) {
      label += " (" + v.class_schemes[k] + ")";
    }
    std::vector<std::string> row = {
        label, fmt::format("{}/{}", m.served, m.pods),
        FormatSeconds(m.started > 0 ? m.mean_wait_s : -1)};
    if (queued) {
      row.push_back(
          FormatSeconds(m.started > 0 ? m.mean_admission_wait_s : -1) +
          (IsQuotaBound(m) ? " (quota-bound)" : ""));
    }
    row.insert(row.end(), {FormatSlowdown(m.mean_slowdown), HtmlP99VsSlo(m)});
    if (engine) {
      const std::vector<std::string> cells = EngineCells(m);
      row.insert(row.end(), cells.begin(), cells.end());
    }
    row.insert(row.end(), {FormatPercent(m.slo_attainment),
                           std::to_string(m.oom_kills), EvictionCell(m)});
    if (evictions) {
      row.insert(row.end(), {std::to_string(m.max_pod_preemptions),
                             FormatSeconds(m.eviction_down_s)});
    }
    row.insert(row.end(),
               {std::to_string(m.failed + m.cannot_run),
                m.served > 0 ? FormatMoney(m.cost_per_served_pod) : "-"});
    rows.push_back(std::move(row));
  }
  std::vector<std::string> header = {"scheme", "served", "mean wait"};
  if (queued) header.push_back("of which admission");
  header.insert(header.end(), {"slowdown", "p99 / SLO ms"});
  if (engine) {
    const std::vector<std::string> cells = EngineHeader();
    header.insert(header.end(), cells.begin(), cells.end());
  }
  header.insert(header.end(), {"SLO met", "OOM kills", EvictionHeader()});
  if (evictions) {
    header.insert(header.end(),
                  {"most evictions of one pod", "up time lost to evictions"});
  }
  header.insert(header.end(), {"failed or cannot run", "$ per served pod"});
  std::string warnings;
  for (const std::string& w : ClassEvictionWarnings(c, k)) {
    warnings += "<p>" + HtmlEscape("Warning: " + w + ".") + "</p>\n";
  }
  return "<h3>" +
         HtmlEscape(fmt::format(
             "Tenant class {} ({}, {} pod{})", c.tenant_classes[k],
             c.workload_classes[k], c.variants.front().classes[k].pods,
             c.variants.front().classes[k].pods == 1 ? "" : "s")) +
         "</h3>\n<div data-class-table=\"" + HtmlEscape(c.tenant_classes[k]) +
         "\">\n" + HtmlTable(header, rows) + "</div>\n" + warnings;
}

std::string SelectionHtml(const Selection& s) {
  std::string out;
  for (const ClassChoice& c : s.classes) {
    if (!c.no_scheme.empty()) {
      // Nothing scored: the sentence says why.
      out += "<h3>" + HtmlEscape(c.tenant_class + ": no GPU scheme") +
             "</h3>\n<p>" + HtmlEscape(c.explanation) + "</p>\n";
      continue;
    }
    const double sum = c.weights.Sum();
    out += "<h3>" +
           HtmlEscape(fmt::format(
               "{}: profile {} (weights isolation {:.2f}, performance {:.2f}, "
               "compatibility {:.2f}, cost {:.2f})",
               c.tenant_class, c.profile, c.weights.isolation / sum,
               c.weights.overhead / sum, c.weights.compatibility / sum,
               c.weights.cost / sum)) +
           "</h3>\n";
    std::vector<std::vector<std::string>> rows;
    int rank = 0;
    auto add = [&rows](std::string label, const SchemeScore& x,
                       std::string name) {
      rows.push_back(
          {std::move(label), std::move(name), FormatScore(x.scores.isolation),
           FormatScore(x.scores.overhead), FormatScore(x.scores.compatibility),
           FormatScore(x.scores.cost), fmt::format("{:.1f}", x.total),
           x.totals_by_seed.size() > 1
               ? fmt::format("{:.1f}-{:.1f}", x.total_min, x.total_max)
               : std::string("-"),
           x.slo_attainment < 0 ? std::string("-")
           : !x.serves          ? std::string("none served")
           : x.meets_slo        ? std::string("met")
                                : std::string("missed"),
           !x.serves       ? std::string("none")
           : x.served_well ? std::string("well")
                           : "poorly: " + DescribeInWords(x.missed)});
    };
    for (const SchemeScore& x : c.ranking) {
      add(std::to_string(++rank), x, VariantDisplayName(x.variant));
    }
    if (c.has_plan) add("-", c.plan, "plan (" + c.plan.scheme + ")");
    if (c.has_pool_plan) {
      add("-", c.pool_plan, "pool plan (" + c.pool_plan.scheme + ")");
    }
    out += HtmlTable(
        {"rank", "scheme", "isolation", "performance", "compatibility", "cost",
         "total",
         fmt::format("range over {} seed{}", c.seeds, c.seeds == 1 ? "" : "s"),
         "SLO (target " + FormatPercent(c.min_slo_attainment) + ")", "served"},
        rows);
    out += "<p>Served well: the class's contract met (" +
           HtmlEscape(DescribeLimits(c.served_well, /*with_slo=*/true)) +
           "); a scheme that does not serve it well cannot win.</p>\n";
    for (const std::string& n : c.not_ranked) {
      out += "<p>" + HtmlEscape(n) + "</p>\n";
    }
    if (!c.explanation.empty()) {
      out += "<p>" + HtmlEscape(c.explanation) + "</p>\n";
    }
    for (const std::string& caveat : c.caveats) {
      out += "<p class=\"caveat\">Caveat: " + HtmlEscape(caveat) + ".</p>\n";
    }
  }
  return out;
}

// The answer per class: the Recommended line (as the terminal report's,
// plus the classes no scheme is ranked for), then how sure it is.
std::string AnswerHtml(const Comparison& c, const Selection& s) {
  std::string line;
  std::string close;
  int decided = 0;
  for (const ClassChoice& k : s.classes) {
    std::string answer = k.Recommendation();
    if (k.ranking.empty() && k.no_scheme.empty()) {
      answer = "no scheme ranked";
      for (size_t i = 0; i < k.not_ranked.size(); ++i) {
        answer += (i == 0 ? " (" : "; ") + k.not_ranked[i];
      }
      if (!k.not_ranked.empty()) answer += ")";
    } else if (k.has_winner() && !k.decisive) {
      close += (close.empty() ? "" : ", ") + k.tenant_class;
    } else if (k.has_winner()) {
      ++decided;
    }
    line += fmt::format("{}{} → {}", line.empty() ? "" : ", ", k.tenant_class,
                        answer);
  }
  std::string out;
  if (!line.empty()) {
    out += "<p><b>Recommended:</b> " + HtmlEscape(line) + "</p>\n";
  }
  const size_t seeds = c.seeds.size();
  const std::string scores =
      seeds > 1 ? fmt::format("the mean of {} runs with different random "
                              "draws (seeds {}-{})",
                              seeds, c.seeds.front(), c.seeds.back())
                : fmt::format("from one run (seed {})", c.seed);
  const std::string reading = !close.empty()
                                  ? "; too close to call here: " + close
                              : decided > 0 ? "; every win here holds"
                                            : "";
  out += "<p>" +
         HtmlEscape(fmt::format(
             "How sure: each score (0 to 10) is {}; a scheme wins a class "
             "only if its score is ahead on every run by more than {:g} "
             "(selection.decisive_margin), otherwise the class is too close "
             "to call{}.",
             scores, s.decisive_margin, reading)) +
         "</p>\n";
  const PoolPlanLines pool_plan = DescribePoolPlan(c, s);
  if (!pool_plan.empty()) {
    out += "<p><b>" + HtmlEscape(pool_plan.heading) + "</b></p>\n<ul>\n";
    for (const std::string& p : pool_plan.pools) {
      out += "<li>" + HtmlEscape(p) + "</li>\n";
    }
    out += "</ul>\n<p>" + HtmlEscape(pool_plan.closing) + "</p>\n";
  }
  return out;
}

}  // namespace

std::string ComparisonHtmlReport(const Comparison& c, const Selection& s,
                                 const std::string& fidelity_html) {
  HtmlPage page(fmt::format("gpushare-sim compare: {} (seed {}), {} pods",
                            c.scenario, c.seed, c.pods));
  page.AddHeading("Answer", "answer");
  page.AddHtml(AnswerHtml(c, s));
  if (!fidelity_html.empty()) {
    page.AddHeading("How well the model replays today's cluster",
                    "fidelity");
    page.AddHtml(fidelity_html);
  }

  page.AddHeading("Runs", "runs");
  page.AddParagraph(
      "Each run has the same pods and nodes; only the sharing scheme "
      "differs.");
  page.AddHtml(HtmlRuns(c));

  page.AddHeading("Cluster-wide", "cluster");
  page.AddParagraph(
      "SM active against GPU util: a busy-looking GPU can be idle inside.");
  page.AddHtml(HtmlClusterTable(c));

  page.AddHeading("Per tenant class", "classes");
  page.AddParagraph(
      std::string(
          "Mean queue wait; slowdown: run time / alone on a whole "
          "GPU; p99 / SLO: mean worst-interval p99 and SLO; SLO met: ") +
      kSloMetMeaning +
      "; failed: gave up, or cannot run under the scheme; cost per served "
      "pod.");
  for (size_t k = 0; k < c.tenant_classes.size(); ++k) {
    page.AddHtml(HtmlClassTable(c, k));
  }
  std::vector<std::string> runs;
  std::vector<std::vector<ClassMetrics>> metrics;
  for (const VariantOutcome& v : c.variants) {
    runs.push_back(v.name);
    metrics.push_back(v.classes);
  }
  page.AddHtml(ClassBarCharts("class-", c.tenant_classes, runs, metrics));

  page.AddHeading("Selection", "selection");
  page.AddParagraph(
      "Each scheme scored 0-10 per dimension and weighted per tenant class; "
      "the plan (the scenario's own mix) is scored as a reference.");
  page.AddHtml(SelectionHtml(s));

  page.AddHeading("Over time", "time");
  // One time axis for every chart: 0 to the longest run's last sample.
  double end = 0;
  for (const VariantOutcome& v : c.variants) {
    end = std::max(end, LastSampleTime(v.pool_summaries));
  }
  std::vector<std::pair<std::string, const std::vector<PoolSample>*>> pending;
  for (const VariantOutcome& v : c.variants) {
    pending.emplace_back(v.name, v.pool_summaries.empty()
                                     ? nullptr
                                     : &v.pool_summaries.front().samples);
  }
  page.AddHtml(PendingChart("pending", "Pending pods per run", pending, end));
  page.AddParagraph(
      "Per run and pool: SM active against GPU util, memory used and "
      "allocation (series downsampled to 600 points); every chart on the "
      "same time axis, 0 to the end of the longest run.");
  for (const VariantOutcome& v : c.variants) {
    page.AddHtml("<h3>" + HtmlEscape(VariantDisplayName(v.name)) +
                 "</h3>\n<div class=\"charts\">\n");
    for (const PoolSummary& p : v.pool_summaries) {
      if (p.gpus == 0) continue;
      page.AddHtml(
          PoolUtilizationChart("pool-" + v.name + "-" + p.name,
                               fmt::format("{}: pool {} ({}, {} x {})", v.name,
                                           p.name, p.scheme, p.gpus, p.model),
                               p, end));
    }
    page.AddHtml("</div>\n");
  }
  return page.Render();
}

}  // namespace gpushare
