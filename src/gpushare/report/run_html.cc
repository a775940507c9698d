#include "gpushare/report/run_html.h"

#include <algorithm>

#include <fmt/format.h>

#include "gpushare/decide/class_metrics.h"
#include "gpushare/report/class_bar_charts.h"
#include "gpushare/report/elastic_summary.h"
#include "gpushare/report/eviction_warnings.h"
#include "gpushare/report/gpu_timeline.h"
#include "gpushare/report/html_page.h"
#include "gpushare/report/llm_engine_table.h"
#include "gpushare/report/pool_charts.h"
#include "gpushare/report/queue_html.h"
#include "gpushare/report/queue_table.h"
#include "gpushare/report/units.h"

namespace gpushare {
namespace {

std::string SummaryTable(const SimulationResult& r) {
  return HtmlTable(
      {"measure", "value"},
      {{"pods", std::to_string(r.pods)},
       {"succeeded (incl. services deleted at their end)",
        std::to_string(r.succeeded)},
       {"failed", std::to_string(r.failed)},
       {"unschedulable", std::to_string(r.unschedulable)},
       {"OOM kills", std::to_string(r.oom_kills)},
       {"preemptions (DefaultPreemption and Kueue evictions)",
        std::to_string(r.preemptions)},
       {"GPU faults / pods killed by them",
        fmt::format("{} / {}", r.faults, r.fault_kills)},
       {"mean / p99 queue wait", FormatSeconds(r.mean_wait_s) + " / " +
                                     FormatSeconds(r.p99_wait_s)},
       {"mean slowdown (completed jobs)",
        r.mean_slowdown > 0 ? fmt::format("{:.2f}x", r.mean_slowdown) : "-"},
       {"throughput", fmt::format("{:.1f} pods/h", r.throughput_per_h)},
       {"goodput", FormatPercent(r.goodput)},
       {"SLO attainment (inference samples)", FormatPercent(r.slo_attainment)},
       {"cost (every GPU for the whole run)", "$" + FormatMoney(r.cost)},
       {"simulated time", FormatSeconds(r.end_s)}});
}

std::string PoolTable(const SimulationResult& r) {
  std::vector<std::vector<std::string>> rows;
  for (const PoolSummary& p : r.pools) {
    rows.push_back({p.name, p.label.empty() ? p.scheme : p.label, p.model,
                    std::to_string(p.nodes),
                    std::to_string(p.gpus), FormatPercent(p.mean_allocation),
                    FormatPercent(p.mean_sm_active),
                    FormatPercent(p.mean_gpu_util), FormatMoney(p.cost)});
  }
  return HtmlTable({"pool", "scheme", "model", "nodes", "GPUs",
                    "allocation", "SM active", "GPU util", "cost $"},
                   rows);
}

// The patrol alerts that fired, one row each (all of them: a run fires few).
std::string AlertTable(const SimulationResult& r) {
  std::vector<std::vector<std::string>> rows;
  for (const PatrolAlert& a : r.alerts) {
    rows.push_back({a.name, a.severity, a.node,
                    a.gpu >= 0 ? std::to_string(a.gpu) : "-",
                    FormatSeconds(a.active_s), FormatSeconds(a.fired_s),
                    a.resolved_s >= 0 ? FormatSeconds(a.resolved_s) : "firing",
                    a.description});
  }
  return HtmlTable({"alert", "severity", "node", "GPU", "pending since",
                    "fired", "resolved", "description"},
                   rows);
}

}  // namespace

std::string RunHtmlReport(const SimulationResult& r,
                          const std::string& fidelity_html) {
  HtmlPage page(fmt::format("gpushare-sim run: {} (seed {})", r.scenario,
                            r.seed));
  page.AddHeading("Summary", "summary");
  page.AddHtml(SummaryTable(r));
  page.AddHtml(PoolTable(r));
  if (!fidelity_html.empty()) {
    page.AddHeading("Today's replay: running pods and recorded metrics",
                    "fidelity");
    page.AddHtml(fidelity_html);
  }

  page.AddHeading("Pools over time", "pools");
  page.AddParagraph(
      "Per pool, weighted by GPU-equivalents: SM active (the share of the "
      "SMs doing work) against GPU util (the share of time any kernel runs; "
      "what nvidia-smi shows): a GPU that looks busy can be idle inside. "
      "Every chart spans the whole run. Series longer than 600 points are "
      "downsampled keeping each stretch's lowest and highest values.");
  page.AddHtml("<div class=\"charts\">\n");
  for (size_t i = 0; i < r.pools.size(); ++i) {
    const PoolSummary& p = r.pools[i];
    if (p.gpus == 0) continue;
    page.AddHtml(PoolUtilizationChart(
        "pool-" + p.name,
        fmt::format("Pool {} ({}, {} x {})", p.name,
                    p.label.empty() ? p.scheme : p.label, p.gpus,
                    p.model),
        p, r.end_s));
  }
  page.AddHtml(PendingChart("pending", "Pending pods (cluster-wide)",
                            {{"pending", r.pools.empty()
                                             ? nullptr
                                             : &r.pools.front().samples}},
                            r.end_s));
  page.AddHtml("</div>\n");

  // Tenant classes in order of first appearance.
  std::vector<std::string> classes;
  r.pod_summaries.ForEach([&](const PodSummary& p) {
    const std::string& tenant_class = r.text(p.tenant_class);
    if (std::find(classes.begin(), classes.end(), tenant_class) ==
        classes.end()) {
      classes.push_back(tenant_class);
    }
  });
  std::vector<std::vector<ClassMetrics>> metrics(1);
  std::vector<std::vector<std::string>> rows;
  for (const std::string& c : classes) {
    metrics[0].push_back(ComputeClassMetrics(r, c));
    const ClassMetrics& m = metrics[0].back();
    std::vector<std::string> row = {
        c, m.workload_class, fmt::format("{}/{}", m.served, m.pods),
        FormatSeconds(m.started > 0 ? m.mean_wait_s : -1)};
    // With queues, the part of the wait spent waiting for admission.
    if (!r.queue_system.empty()) {
      row.push_back(
          FormatSeconds(m.started > 0 ? m.mean_admission_wait_s : -1));
    }
    row.insert(
        row.end(),
        {m.mean_slowdown > 0 ? fmt::format("{:.2f}x", m.mean_slowdown) : "-",
         FormatPercent(m.slo_attainment), std::to_string(m.oom_kills),
         std::to_string(m.preemptions), std::to_string(m.failed + m.cannot_run),
         m.served > 0 ? FormatMoney(m.cost_per_served_pod) : "-"});
    rows.push_back(std::move(row));
  }
  std::vector<std::string> header = {"tenant class", "kind", "served",
                                     "mean wait"};
  if (!r.queue_system.empty()) header.push_back("of which admission");
  header.insert(header.end(),
                {"slowdown", "SLO met", "OOM kills", "preemptions",
                 "failed or cannot run", "$ per served pod"});
  if (r.preemptions > 0) {
    // The most evictions of one pod and the up time they cost, after the
    // preemptions column.
    const size_t at = header.size() - 2;
    header.insert(header.begin() + at,
                  {"most of one pod", "up time lost to evictions"});
    for (size_t i = 0; i < rows.size(); ++i) {
      const ClassMetrics& m = metrics[0][i];
      rows[i].insert(rows[i].begin() + at,
                     {std::to_string(m.max_pod_preemptions),
                      FormatSeconds(m.eviction_down_s)});
    }
  }
  page.AddHeading("Tenant classes", "classes");
  page.AddParagraph(std::string("SLO met: ") + kSloMetMeaning + ".");
  page.AddHtml(HtmlTable(header, rows));
  for (const std::string& w : RunEvictionWarnings(r)) {
    page.AddParagraph("Warning: " + w + ".");
  }
  page.AddHtml(ClassBarCharts("class-", classes, {r.scenario}, metrics));
  const auto engine_rows = LlmEngineRows(r);
  if (!engine_rows.empty()) {
    page.AddHeading("LLM engines", "llm-engines");
    page.AddParagraph(
        "Per tenant class running an LLM engine (docs/model.md §6.8): KV "
        "cache tokens and sequences at once per started engine; time to "
        "first token (TTFT) and time per output token (TPOT), p50 the mean "
        "of the pods' interval means, p99 the worst interval, against the "
        "class's objectives.");
    page.AddHtml(HtmlTable(LlmEngineHeader(), engine_rows));
  }

  if (!r.queues.empty()) {
    page.AddHeading("Kueue ClusterQueues", "queues");
    page.AddParagraph(
        "Admission by quota before kube-scheduler: per ClusterQueue, its "
        "workloads, admissions (borrowing from the cohort), evictions it "
        "suffered and caused by Kueue's reason, workloads still pending, the "
        "wait from creation to admission and the work its pods lost; the "
        "charts show the GPU quota its admitted workloads hold at each "
        "sample against the nominal quota (dashed): above it, borrowed.");
    page.AddHtml(QueueHtml(r));
    // Queues held at their quota while GPUs of their flavor sat idle.
    const std::string warnings = QueueQuotaWarnings(r.queues, r.queue_system);
    if (!warnings.empty()) {
      std::string text;
      for (char ch : warnings) text += ch == '\n' ? ' ' : ch;
      page.AddParagraph(text);
    }
  }

  const std::string elastic = ElasticPoolsHtml(r);
  if (!elastic.empty()) {
    page.AddHeading("Autoscaled pools", "autoscaling");
    page.AddParagraph(
        "Per autoscaled pool (docs/model.md §12): its nodes over the run, "
        "launched (billed) and ready (GPUs allocatable); what the elastic "
        "run cost, and the scale-ups its autoscaler did not make.");
    page.AddHtml(elastic);
  }

  page.AddHeading("Patrol alerts", "alerts");
  page.AddParagraph(fmt::format(
      "The rules of gpushare-sim emit prometheus-rules evaluated at every "
      "sample: noisy neighbour, MIG config drift, device plugin stalled. "
      "{} fired.",
      r.alerts.empty() ? "None" : std::to_string(r.alerts.size())));
  if (!r.alerts.empty()) page.AddHtml(AlertTable(r));

  page.AddHeading("Pods per GPU", "timeline");
  page.AddHtml(GpuTimeline(r, kTimelineMaxGpus));
  return page.Render();
}

}  // namespace gpushare
