// The text of `run` about its autoscaled pools (elastic_summary.h).

#include "gpushare/report/elastic_summary.h"

#include <fmt/format.h>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/html_page.h"
#include "gpushare/report/svg_line_chart.h"
#include "gpushare/report/units.h"

namespace gpushare {

std::string ElasticPoolsText(const SimulationResult& r) {
  std::string out;
  for (const PoolSummary& p : r.pools) {
    if (!p.elastic) continue;
    const ElasticPoolStats& s = p.autoscaling;
    out += "\n";
    out += WrapText(
        fmt::format(
            "autoscaling {} ({} {}..{}): {} nodes at the start, peak {}; "
            "{:.2f} node-hours, {:.2f} GPU-hours, ${:.2f}; {} launched, {} "
            "drained, {} given up, {} spot interruptions; {} pods evicted",
            p.name, s.provider, s.min_nodes, s.max_nodes, s.start_nodes,
            s.peak_nodes, s.node_hours, s.gpu_hours, s.cost,
            s.nodes_launched, s.nodes_removed, s.nodes_given_up,
            s.spot_interruptions, s.pods_evicted),
        kReportWidth, 2);
    if (s.pods_waited > 0) {
      out += WrapText(
          fmt::format("  {} pods waited for a scale-up: mean {}, p99 {}",
                      s.pods_waited, FormatSeconds(s.wait_mean_s),
                      FormatSeconds(s.wait_p99_s)),
          kReportWidth, 4);
    }
    for (const ElasticPoolStats::NoScaleUp& n : s.no_scale_up) {
      out += WrapText(
          fmt::format("  no scale-up for {} pods: {}{}", n.pods, n.reason,
                      n.upstream.empty() ? "" : " (" + n.upstream + ")"),
          kReportWidth, 4);
    }
  }
  return out;
}

std::string ElasticPoolsHtml(const SimulationResult& r) {
  std::string out;
  for (const PoolSummary& p : r.pools) {
    if (!p.elastic) continue;
    const ElasticPoolStats& s = p.autoscaling;
    LineSeries nodes{"nodes (billed)", 0, false, {}, {}, {}};
    LineSeries ready{"ready", 1, true, {}, {}, {}};
    for (const ElasticPoolStats::Sample& x : s.samples) {
      nodes.points.push_back({x.time_s, static_cast<double>(x.nodes)});
      ready.points.push_back({x.time_s, static_cast<double>(x.ready)});
    }
    LineChartSpec spec;
    spec.id = "autoscaling-" + p.name;
    spec.title = fmt::format("{}: nodes over the run ({} {}..{})", p.name,
                             s.provider, s.min_nodes, s.max_nodes);
    spec.x_label = "time";
    spec.y_label = "nodes";
    spec.y_max = s.max_nodes;
    spec.x_is_time = true;
    out += "<p>" +
           HtmlEscape(fmt::format(
               "{}: {:.2f} node-hours, {:.2f} GPU-hours, ${:.2f}; {} nodes "
               "launched, {} drained, {} given up; {} pods waited for a "
               "scale-up (mean {}, p99 {}).",
               p.name, s.node_hours, s.gpu_hours, s.cost, s.nodes_launched,
               s.nodes_removed, s.nodes_given_up, s.pods_waited,
               FormatSeconds(s.wait_mean_s), FormatSeconds(s.wait_p99_s))) +
           "</p>\n";
    for (const ElasticPoolStats::NoScaleUp& n : s.no_scale_up) {
      out += "<p>" +
             HtmlEscape(fmt::format(
                 "No scale-up for {} pods: {}{}.", n.pods, n.reason,
                 n.upstream.empty() ? "" : " (" + n.upstream + ")")) +
             "</p>\n";
    }
    out += RenderLineChart(spec, {nodes, ready});
  }
  return out;
}

}  // namespace gpushare
