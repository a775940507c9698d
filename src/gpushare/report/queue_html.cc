#include "gpushare/report/queue_html.h"

#include <fmt/format.h>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/units.h"

namespace gpushare {

std::string QueueHtml(const SimulationResult& r) {
  if (r.queues.empty()) return "";
  const bool kai = r.queue_system == "KAI-Scheduler";
  std::vector<std::vector<std::string>> rows;
  for (const QueueSummary& q : r.queues) {
    std::string caused;
    for (const auto& [reason, n] : q.preempted_by_reason) {
      caused += fmt::format("{}{} {}", caused.empty() ? "" : ", ", reason, n);
    }
    rows.push_back(
        {q.name, q.cohort.empty() ? "-" : q.cohort, q.queueing_strategy,
         std::to_string(q.workloads),
         fmt::format("{} ({} {})", q.admissions, q.borrowing_admissions,
                     kai ? "over quota" : "borrowing"),
         std::to_string(q.evictions), caused.empty() ? "-" : caused,
         std::to_string(q.pending_at_end),
         FormatSeconds(q.mean_admission_wait_s) + " / " +
             FormatSeconds(q.p99_admission_wait_s),
         FormatSeconds(q.lost_work_s)});
  }
  if (kai) {
    // Fair share and its deviation, by queue.
    for (size_t i = 0; i < r.queues.size(); ++i) {
      const QueueSummary& q = r.queues[i];
      const QueueQuota* k = q.quotas.empty() ? nullptr : &q.quotas.front();
      rows[i].push_back(
          k == nullptr ? "-"
                       : fmt::format("{:.1f} / {:.1f} / {}", k->mean_used,
                                     k->mean_fair_share,
                                     k->nominal < 0
                                         ? std::string("unlimited")
                                         : fmt::format("{}", k->nominal)));
      rows[i].push_back(
          k == nullptr ? "-" : fmt::format("{:.2f}", k->fair_share_deviation));
    }
  }
  std::vector<std::string> header = {
      kai ? "KAI queue" : "ClusterQueue", kai ? "parent" : "cohort",
      "strategy", "workloads", "admissions", "evicted",
      "evictions caused", "pending at end", "admission wait mean / p99",
      "work lost"};
  if (kai) {
    header.push_back("GPU units allocated / fair share / deserved (mean)");
    header.push_back("fair-share deviation");
  }
  std::string html = HtmlTable(header, rows);
  html += "<div class=\"charts\">\n";
  const std::vector<PoolSample>* times =
      r.pools.empty() ? nullptr : &r.pools[0].samples;
  for (const QueueSummary& q : r.queues) {
    std::vector<LineSeries> series;
    int color = 0;
    for (const QueueQuota& k : q.quotas) {
      if (k.resource == "cpu" || k.resource == "memory") continue;
      LineSeries used;
      used.name = k.flavor + " " + k.resource;
      used.color = color;
      LineSeries nominal;
      nominal.name = used.name + (kai ? " deserved" : " nominal");
      nominal.color = color++;
      nominal.dashed = true;
      for (size_t i = 0;
           times != nullptr && i < k.used.size() && i < times->size(); ++i) {
        used.points.push_back({(*times)[i].time_s, k.used[i]});
        nominal.points.push_back({(*times)[i].time_s, k.nominal});
      }
      if (!k.fair_share.empty()) {
        LineSeries fair;
        fair.name = "gpu fair share";
        fair.color = color++;
        for (size_t i = 0;
             times != nullptr && i < k.fair_share.size() && i < times->size();
             ++i) {
          fair.points.push_back({(*times)[i].time_s, k.fair_share[i]});
        }
        series.push_back(std::move(fair));
      }
      series.push_back(std::move(used));
      if (k.nominal >= 0) series.push_back(std::move(nominal));
    }
    if (series.empty()) continue;
    LineChartSpec spec;
    spec.id = "queue-" + q.name;
    spec.title = (kai ? "KAI queue " : "ClusterQueue ") + q.name +
                 (kai ? ": GPU units allocated" : ": quota used");
    spec.x_label = "simulated time";
    spec.y_label = "reserved";
    spec.width = 560;
    spec.format_x = FormatTimeTick;
    spec.x_is_time = true;
    html += RenderLineChart(spec, series);
  }
  html += "</div>\n";
  return html;
}

}  // namespace gpushare
