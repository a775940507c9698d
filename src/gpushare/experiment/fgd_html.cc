#include "gpushare/experiment/fgd_html.h"

#include <algorithm>
#include <functional>

#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_line_chart.h"

namespace gpushare {
namespace {

using Measure = std::function<double(const FgdBucket&)>;

// One series per policy: mean and min-max over its runs at each arrived %.
std::vector<LineSeries> PolicySeries(const std::vector<FgdPolicy>& policies,
                                     const std::vector<FgdRunResult>& runs,
                                     const Measure& measure) {
  int last = 0;
  for (const FgdRunResult& run : runs) {
    if (!run.buckets.empty()) last = std::max(last, run.buckets.back().arrived_pct);
  }
  std::vector<LineSeries> out;
  for (size_t k = 0; k < policies.size(); ++k) {
    LineSeries s;
    s.name = std::string(FgdPolicyPluginName(policies[k]));  // as the table
    s.color = static_cast<int>(k);
    for (int pct = 0; pct <= last; ++pct) {
      double sum = 0, lo = 0, hi = 0;
      int n = 0;
      for (const FgdRunResult& run : runs) {
        if (run.policy != policies[k]) continue;
        const FgdBucket* b = run.At(pct);
        if (b == nullptr) continue;
        const double v = measure(*b);
        lo = n == 0 ? v : std::min(lo, v);
        hi = n == 0 ? v : std::max(hi, v);
        sum += v;
        ++n;
      }
      if (n == 0) continue;
      s.points.push_back({static_cast<double>(pct), sum / n});
      s.low.push_back(lo);
      s.high.push_back(hi);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string PercentTick(double v) { return FormatPlainTick(v) + "%"; }

std::string FgdLineChart(const std::string& id, const std::string& title,
                         const std::string& y_label, double y_max,
                         std::vector<LineSeries> series) {
  LineChartSpec spec;
  spec.id = id;
  spec.title = title;
  spec.x_label = "arrived workload, % of cluster GPU capacity";
  spec.y_label = y_label;
  spec.y_max = y_max;
  spec.height = 320;
  spec.format_x = PercentTick;
  spec.format_y = PercentTick;
  return RenderLineChart(spec, series);
}

}  // namespace

std::string FgdHtmlReport(const std::string& summary,
                          const std::vector<FgdPolicy>& policies,
                          const std::vector<FgdRunResult>& runs) {
  HtmlPage page("gpushare-sim experiment fgd");
  page.AddHeading("Experiment", "summary");
  page.AddHtml("<pre>" + HtmlEscape(summary) + "</pre>\n");
  page.AddHeading("Allocation and fragmentation", "curves");
  page.AddParagraph(
      "Per policy the mean over the seeds (line) and the lowest to highest "
      "seed (band), against the GPU share of the pods arrived so far.");
  page.AddHtml(FgdLineChart(
      "fgd-alloc", "GPU allocation", "% of cluster GPUs", 100,
      PolicySeries(policies, runs,
                   [](const FgdBucket& b) { return b.alloc_pct; })));
  page.AddHtml(FgdLineChart(
      "fgd-frag", "Fragmentation (FGD measure)", "% of cluster GPUs", NAN,
      PolicySeries(policies, runs,
                   [](const FgdBucket& b) { return b.frag_amount_pct; })));
  return page.Render();
}

}  // namespace gpushare
