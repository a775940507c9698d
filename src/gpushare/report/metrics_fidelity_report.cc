#include "gpushare/report/metrics_fidelity_report.h"

#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/html_page.h"
#include "gpushare/report/text_table.h"

namespace gpushare {
namespace {

struct FidelityFieldView {
  const char* name;
  const FidelityError FidelityRow::*error;
  // "41.2%", "0.220", "12,000 MiB"
  std::string (*format)(double);
};

std::string FidelityPercent(double v) { return fmt::format("{:.1f}%", v); }
std::string FidelityRatio(double v) { return fmt::format("{:.3f}", v); }
std::string FidelityMib(double v) { return fmt::format("{:.0f} MiB", v); }

const FidelityFieldView kFidelityFields[] = {
    {"GPU util", &FidelityRow::gpu_util, FidelityPercent},
    {"SM active", &FidelityRow::sm_active, FidelityRatio},
    {"FB used", &FidelityRow::fb_used_mib, FidelityMib},
};

std::string FidelityRowName(const FidelityRow& r) {
  if (r.node.empty()) {
    return fmt::format("{} ({} device{})", r.pool, r.devices,
                       r.devices == 1 ? "" : "s");
  }
  return r.mig_instance >= 0
             ? fmt::format("{}/{}/{}", r.node, r.gpu, r.mig_instance)
             : fmt::format("{}/{}", r.node, r.gpu);
}

std::vector<std::vector<std::string>> FidelityCells(
    const std::vector<FidelityRow>& rows) {
  std::vector<std::vector<std::string>> cells;
  for (const FidelityRow& r : rows) {
    bool first = true;
    for (const FidelityFieldView& f : kFidelityFields) {
      const FidelityError& e = r.*(f.error);
      if (e.points == 0) continue;
      cells.push_back({first ? FidelityRowName(r) : "", f.name,
                       f.format(e.recorded_mean), f.format(e.simulated_mean),
                       f.format(e.mean_abs_error), f.format(e.p95_abs_error),
                       std::to_string(e.points)});
      first = false;
    }
  }
  return cells;
}

const std::vector<std::string>& FidelityHeader() {
  static const std::vector<std::string> header = {
      "POOL / GPU", "METRIC", "RECORDED", "SIMULATED", "MEAN |ERR|",
      "P95 |ERR|", "POINTS"};
  return header;
}

std::string FidelityFiles(const MetricsFidelity& f) {
  std::string files;
  for (const std::string& file : f.files) {
    files += (files.empty() ? "" : ", ") + file;
  }
  return files;
}

std::string FidelityPodCounts(const MetricsFidelity& f) {
  if (f.pods.empty()) return "";
  std::map<std::string, int> counts;
  for (const FidelityPod& p : f.pods) ++counts[p.outcome];
  return fmt::format(
      "imported pods: {} with needs from their series, {} from their "
      "controller's earlier pods,\n{} shared a GPU or asked a shared "
      "resource and {} have no series (defaults kept)",
      counts["derived"], counts["controller"], counts["shared"],
      counts["no_series"]);
}

nlohmann::json FidelityErrorJson(const FidelityError& e) {
  return {{"points", e.points},
          {"recorded_mean", e.recorded_mean},
          {"simulated_mean", e.simulated_mean},
          {"mean_abs_error", e.mean_abs_error},
          {"p95_abs_error", e.p95_abs_error}};
}

nlohmann::json FidelityRowJson(const FidelityRow& r) {
  nlohmann::json j = {{"pool", r.pool},
                      {"devices", r.devices},
                      {"gpu_util_percent", FidelityErrorJson(r.gpu_util)},
                      {"sm_active", FidelityErrorJson(r.sm_active)},
                      {"fb_used_mib", FidelityErrorJson(r.fb_used_mib)}};
  if (!r.node.empty()) {
    j["node"] = r.node;
    j["gpu"] = r.gpu;
    j["mig_instance"] = r.mig_instance;
  }
  return j;
}

}  // namespace

std::string MetricsFidelityText(const MetricsFidelity& f) {
  std::string out = fmt::format(
      "\nFidelity against recorded dcgm-exporter series, simulated time 0 at "
      "their start\n({}):\n",
      FidelityFiles(f));
  TextTable table;
  const std::vector<std::string>& header = FidelityHeader();
  for (size_t i = 0; i < header.size(); ++i) {
    table.AddColumn(header[i], i < 2 ? TextTable::Align::kLeft
                                     : TextTable::Align::kRight);
  }
  for (std::vector<std::string>& row : FidelityCells(f.pools)) {
    table.AddRow(std::move(row));
  }
  out += f.pools.empty() ? "no recorded device matches a simulated one\n"
                         : table.Render();
  if (!f.unmatched_devices.empty()) {
    out += fmt::format("{} recorded device(s) not in the cluster, not "
                       "compared: {}\n",
                       f.unmatched_devices.size(),
                       fmt::join(f.unmatched_devices, ", "));
  }
  const std::string counts = FidelityPodCounts(f);
  if (!counts.empty()) out += counts + "\n";
  out += "per GPU: --json (metrics_fidelity) or --html\n";
  for (const std::string& w : f.warnings) {
    out += WrapText("warning: " + w + ".", kReportWidth, 2);
  }
  return out;
}

nlohmann::json MetricsFidelityJson(const MetricsFidelity& f) {
  nlohmann::json pools = nlohmann::json::array();
  for (const FidelityRow& r : f.pools) pools.push_back(FidelityRowJson(r));
  nlohmann::json devices = nlohmann::json::array();
  for (const FidelityRow& r : f.devices) devices.push_back(FidelityRowJson(r));
  nlohmann::json pods = nlohmann::json::array();
  for (const FidelityPod& p : f.pods) {
    pods.push_back({{"pod", p.pod},
                    {"outcome", p.outcome},
                    {"duty", p.duty},
                    {"sm_demand", p.sm_demand},
                    {"gpu_memory_mib", p.gpu_memory_mib}});
  }
  return {{"files", f.files},
          {"start_unix_s", f.start_unix_s},
          {"pools", pools},
          {"devices", devices},
          {"unmatched_devices", f.unmatched_devices},
          {"pods", pods},
          {"recording_warnings", f.recording_warnings},
          {"warnings", f.warnings}};
}

std::string MetricsFidelityHtml(const MetricsFidelity& f) {
  std::string html = "<p>" +
                     HtmlEscape(fmt::format(
                         "Simulated against recorded dcgm-exporter series "
                         "({}), simulated time 0 at the recording's start; "
                         "per pool (the mean over its matched GPUs at each "
                         "time) and per GPU.",
                         FidelityFiles(f))) +
                     "</p>\n";
  std::vector<std::vector<std::string>> rows = FidelityCells(f.pools);
  for (std::vector<std::string>& row : FidelityCells(f.devices)) {
    rows.push_back(std::move(row));
  }
  html += HtmlTable(FidelityHeader(), rows);
  if (!f.unmatched_devices.empty()) {
    html += "<p>" +
            HtmlEscape(fmt::format("Not in the cluster, not compared: {}.",
                                   fmt::join(f.unmatched_devices, ", "))) +
            "</p>\n";
  }
  const std::string counts = FidelityPodCounts(f);
  if (!counts.empty()) html += "<p>" + HtmlEscape(counts) + ".</p>\n";
  for (const std::string& w : f.recording_warnings) {
    html += "<p class=\"warning\">Warning: " + HtmlEscape(w) + "</p>\n";
  }
  for (const std::string& w : f.warnings) {
    html += "<p class=\"warning\">Warning: " + HtmlEscape(w) + ".</p>\n";
  }
  return html;
}

std::string ReplayCheckHtml(const ReplayCheck& check) {
  if (check.running_pods == 0) return "";
  std::string html = "<p>" +
                     HtmlEscape(fmt::format(
                         "Replay of today: {} of the {} pod(s) Running in the "
                         "dump do not run in the replay as in the cluster "
                         "(OOM-killed, failed, or waiting past {:.0f} s): "
                         "artefacts of the model's inputs, not the "
                         "cluster's failures.",
                         check.artefacts.size(), check.running_pods,
                         check.window_s)) +
                     "</p>\n";
  if (check.artefacts.empty()) return html;
  std::vector<std::vector<std::string>> rows;
  for (const ReplayArtefact& a : check.artefacts) {
    rows.push_back({a.pod, a.what, a.cause});
  }
  return html + HtmlTable({"pod", "in the replay", "cause"}, rows);
}

}  // namespace gpushare
