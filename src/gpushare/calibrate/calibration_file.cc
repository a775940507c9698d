#include "gpushare/calibrate/calibration_file.h"

#include <fmt/format.h>

#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/model_reader.h"

namespace gpushare {
namespace {

// A YAML double-quoted scalar.
std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Num(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

std::string CalibrationYaml(const CalibrationFit& fit) {
  std::string out =
      "# gpushare-sim calibration: the time-slicing model fitted to "
      "measurements\n# on one GPU (docs/model.md §6.6). Apply with "
      "--calibration FILE.\n";
  out += "calibration:\n";
  out += "  gpu: " + Quoted(fit.device.gpu) + "\n";
  out += "  driver: " + Quoted(fit.device.driver) + "\n";
  out += "  cuda: " + Quoted(fit.device.cuda) + "\n";
  if (!fit.device.compute_capability.empty()) {
    out += "  compute_capability: " + Quoted(fit.device.compute_capability) +
           "\n";
  }
  out += fmt::format("  sms: {}\n", fit.device.sms);
  out += "  kernel_us: " + Num(fit.device.kernel_us) + "\n";
  out += "  source: " + Quoted(fit.source) + "\n";
  out += "  efficiency: " + Num(fit.efficiency) + "\n";
  out += "  cycle_ms: " + Num(fit.cycle_ms) + "\n";
  out += "model:\n";
  out += "  time_slice_ms: " + Num(fit.time_slice_ms) + "\n";
  out += "  context_switch_us: " + Num(fit.context_switch_us) + "\n";
  out += "checks:\n";
  for (const CalibrationCheck& c : fit.checks) {
    out += "  - case: " + Quoted(c.name) + "\n";
    out += "    unit: " + Quoted(c.unit) + "\n";
    out += "    measured: " + Num(c.measured) + "\n";
    out += "    default_model: " + Num(c.default_model) + "\n";
    out += "    fitted_model: " + Num(c.fitted_model) + "\n";
  }
  return out;
}

CalibrationFile ReadCalibrationFile(const std::string& path) {
  const YAML::Node root = LoadYamlFile(path);
  if (!root) FailAt(path, root, "calibration file: expected a mapping, got nothing");
  YamlMap top(path, root, "calibration file");
  top.AllowOnly({"calibration", "model", "checks"});
  CalibrationFile out;
  out.file = path;
  const YamlMap about = top.Map("calibration", "calibration");
  about.AllowOnly({"gpu", "driver", "cuda", "compute_capability", "sms",
                   "kernel_us", "source", "efficiency", "cycle_ms"});
  out.gpu = about.String("gpu");
  if (out.gpu.empty()) {
    about.Fail(about.Get("gpu"), "gpu: expected the GPU's name");
  }
  for (const char* key : {"driver", "cuda", "compute_capability", "source"}) {
    if (about.Has(key)) about.String(key);
  }
  if (about.Has("sms")) about.Int("sms", 1, 1000);
  if (about.Has("kernel_us")) about.Double("kernel_us", 1e-3, 1e9);
  if (about.Has("efficiency")) about.Double("efficiency", 0, 1);
  if (about.Has("cycle_ms")) about.Double("cycle_ms", 0, 1e6);
  const YamlMap model = top.Map("model", "model");
  ReadModelSection(model, ModelParams(), /*allow_profile=*/false);
  out.model = model.node();
  if (top.Has("checks")) {
    const YAML::Node checks = top.Get("checks");
    if (!checks.IsSequence()) {
      FailAt(path, checks,
             "checks: expected a list, got " + DescribeYamlNode(checks));
    }
    for (const YAML::Node& item : checks) {
      const YamlMap c(path, item, "check");
      c.AllowOnly(
          {"case", "unit", "measured", "default_model", "fitted_model"});
      c.String("case");
      if (c.Has("unit")) c.String("unit");
      for (const char* key : {"measured", "default_model", "fitted_model"}) {
        c.Double(key, -1e12, 1e12);
      }
    }
  }
  return out;
}

ModelParams ApplyCalibration(const CalibrationFile& calibration,
                             const ModelParams& base) {
  return ReadModelSection(YamlMap(calibration.file, calibration.model, "model"),
                          base, /*allow_profile=*/false);
}

}  // namespace gpushare
