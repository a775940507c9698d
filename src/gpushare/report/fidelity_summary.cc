#include "gpushare/report/fidelity_summary.h"

#include <fmt/format.h>

#include <vector>

#include "gpushare/report/html_page.h"

namespace gpushare {
namespace {

bool Compared(const FidelityRow& r) {
  return r.gpu_util.points > 0 || r.sm_active.points > 0 ||
         r.fb_used_mib.points > 0;
}

// "its GPUs busy 17.3% of the time in the replay against 4.8% recorded;
// ..." for one pool row.
std::string PoolSentence(const FidelityRow& r) {
  std::vector<std::string> parts;
  if (r.gpu_util.points > 0) {
    parts.push_back(fmt::format(
        "its GPUs busy {:.1f}% of the time in the replay against {:.1f}% "
        "recorded",
        r.gpu_util.simulated_mean, r.gpu_util.recorded_mean));
  }
  if (r.sm_active.points > 0) {
    parts.push_back(fmt::format(
        "{:.1f}% of their compute units active against {:.1f}%",
        100 * r.sm_active.simulated_mean, 100 * r.sm_active.recorded_mean));
  }
  if (r.fb_used_mib.points > 0) {
    parts.push_back(fmt::format("{:.0f} MiB of memory used against {:.0f} MiB",
                                r.fb_used_mib.simulated_mean,
                                r.fb_used_mib.recorded_mean));
  }
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : "; ") + parts[i];
  }
  return out;
}

}  // namespace

std::string FidelitySummaryHtml(const MetricsFidelity& f) {
  std::vector<const FidelityRow*> rows;
  std::vector<std::string> off;
  for (const FidelityRow& r : f.pools) {
    if (!Compared(r)) continue;
    rows.push_back(&r);
    if (r.off_limits) off.push_back(r.pool);
  }
  if (rows.empty()) return "";
  const bool judged = f.warn_points >= 0;
  std::string lead;
  if (!judged) {
    lead = fmt::format(
        "How the replay of today's cluster compares with what dcgm-exporter "
        "recorded, per pool ({} compared):",
        rows.size());
  } else if (off.empty()) {
    lead = fmt::format(
        "The replay of today's cluster matches what dcgm-exporter recorded "
        "on {}: the answers on this page start from a model close to "
        "today's cluster.",
        rows.size() == 1 ? std::string("the one pool compared")
                         : fmt::format("all {} pools compared", rows.size()));
  } else {
    std::string names;
    for (size_t i = 0; i < off.size(); ++i) {
      names += (i == 0 ? "" : ", ") + off[i];
    }
    lead = fmt::format(
        "The replay of today's cluster is off what dcgm-exporter recorded on "
        "{} of the {} pools compared ({}): the answers for the classes there "
        "rest on a model that differs from today's cluster; check those "
        "pods' needs (how busy they keep a GPU, their compute and memory) "
        "before acting on them.",
        off.size(), rows.size(), names);
  }
  if (judged) {
    lead += fmt::format(
        " Close means within {:g} points of GPU busy time, {:g} points of "
        "compute units active and {:g}% of memory used (at least 1 GiB), "
        "on average over the recording (workload.trace.metrics_warn_points).",
        f.warn_points, f.warn_points, f.warn_points);
  }
  std::string html =
      "<p data-fidelity-summary=\"\">" + HtmlEscape(lead) + "</p>\n<ul>\n";
  for (const FidelityRow* r : rows) {
    const std::string verdict = !judged        ? ""
                                : r->off_limits ? "off"
                                                : "close";
    html += "<li data-fidelity-pool=\"" + HtmlEscape(r->pool) +
            "\" data-verdict=\"" + verdict + "\">" +
            HtmlEscape(fmt::format("{}{}: {}.", r->pool,
                                   verdict.empty() ? "" : " (" + verdict + ")",
                                   PoolSentence(*r))) +
            "</li>\n";
  }
  return html + "</ul>\n";
}

}  // namespace gpushare
