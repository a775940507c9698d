#include "gpushare/report/scenario_notes.h"

#include <fmt/format.h>

#include "gpushare/report/comparison_report.h"

namespace gpushare {

std::string ScenarioNotes(const Scenario& scenario) {
  std::string out;
  for (const WorkloadClassSpec& c : scenario.workload.classes) {
    if (c.gpu_ms_per_request_on.empty()) continue;
    const Distribution& d = c.gpu_ms_per_request;
    const std::string what =
        d.kind == Distribution::Kind::kConstant
            ? fmt::format(
                  "{:.4g} ms on {} (relative speed {:.3g}) is {:.4g} "
                  "ms",
                  d.value / c.gpu_ms_per_request_speed, c.gpu_ms_per_request_on,
                  c.gpu_ms_per_request_speed, d.value)
            : fmt::format(
                  "on {} is multiplied by its relative speed {:.3g} "
                  "to time",
                  c.gpu_ms_per_request_on, c.gpu_ms_per_request_speed);
    out += WrapText(
        fmt::format("note: class '{}' gpu_ms_per_request: {} on the "
                    "reference GPU (relative speed 1, A100); each GPU takes "
                    "that divided by its own relative speed",
                    c.name, what),
        kReportWidth, 2);
  }
  for (const std::string& note : scenario.cluster_import_notes) {
    out += WrapText("note: node import: " + note, kReportWidth, 2);
  }
  for (const std::string& note : scenario.workload.trace.import_notes) {
    out += WrapText("note: pod import: " + note, kReportWidth, 2);
  }
  return out;
}

}  // namespace gpushare
