#include "gpushare/report/calibration_report.h"

#include <cmath>

#include <fmt/format.h>

#include "gpushare/report/comparison_report.h"
#include "gpushare/report/text_table.h"

namespace gpushare {
namespace {

std::string ErrorPercent(double model, double measured) {
  if (measured == 0) return "-";
  return fmt::format("{:+.1f}%", 100 * (model - measured) / measured);
}

std::string Value(double v, const std::string& unit) {
  return unit == "us" ? fmt::format("{:.0f}", v) : fmt::format("{:.3f}", v);
}

}  // namespace

std::string CalibrationReport(const CalibrationFit& fit,
                              const ModelParams& defaults) {
  std::string out = WrapText(
      fmt::format("calibration of {} ({} SMs; driver {}, CUDA {}) from {}",
                  fit.device.gpu, fit.device.sms, fit.device.driver,
                  fit.device.cuda, fit.source),
      kReportWidth, 2);
  out += WrapText(fmt::format("switching efficiency {:.3f} (N processes' "
                              "total / one alone), turn cycle {:.3f} ms",
                              fit.efficiency, fit.cycle_ms),
                  kReportWidth, 2) +
         "\n";
  TextTable params;
  params.AddColumn("PARAMETER");
  params.AddColumn("DEFAULT", TextTable::Align::kRight);
  params.AddColumn("FITTED", TextTable::Align::kRight);
  params.AddRow({"time_slice_ms", fmt::format("{:.3f}", defaults.time_slice_ms),
                 fmt::format("{:.3f}", fit.time_slice_ms)});
  params.AddRow({"context_switch_us",
                 fmt::format("{:.1f}", defaults.context_switch_us),
                 fmt::format("{:.1f}", fit.context_switch_us)});
  out += params.Render() + "\n";
  TextTable checks;
  checks.AddColumn("CASE");
  checks.AddColumn("MEASURED", TextTable::Align::kRight);
  checks.AddColumn("DEFAULT", TextTable::Align::kRight);
  checks.AddColumn("ERR", TextTable::Align::kRight);
  checks.AddColumn("FITTED", TextTable::Align::kRight);
  checks.AddColumn("ERR", TextTable::Align::kRight);
  for (const CalibrationCheck& c : fit.checks) {
    checks.AddRow({c.name, Value(c.measured, c.unit),
                   Value(c.default_model, c.unit),
                   ErrorPercent(c.default_model, c.measured),
                   Value(c.fitted_model, c.unit),
                   ErrorPercent(c.fitted_model, c.measured)});
  }
  out += checks.Render();
  out += WrapText(
      "N procs x B blocks: the N processes' total kernel rate / one alone "
      "(d = B / SMs: SM-limited kernels below 1); probe: a tiny kernel's "
      "launch-to-completion in microseconds beside compute-bound "
      "co-runners; ERR: model against measured",
      kReportWidth, 0);
  return out;
}

}  // namespace gpushare
