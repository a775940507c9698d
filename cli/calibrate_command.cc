// `gpushare-sim calibrate fit DIR [--out FILE]`: fits the execution model's
// time-slicing parameters to the raw timings the calibration
// microbenchmarks wrote in DIR (calibrate/README.md), and writes the
// calibration file that `run`, `compare` and `plan --calibration FILE`
// apply.

#include <iostream>
#include <memory>

#include "cli/command.h"
#include "gpushare/calibrate/calibration_file.h"
#include "gpushare/calibrate/calibration_fit.h"
#include "gpushare/calibrate/calibration_run.h"
#include "gpushare/io/output_file.h"
#include "gpushare/report/calibration_report.h"

namespace gpushare::cli {
namespace {

struct CalibrateFitArgs {
  std::string dir;
  std::string out_file;
};

void Fit(const CalibrateFitArgs& args) {
  const ModelParams defaults;
  const CalibrationFit fit =
      FitCalibration(ReadCalibrationRun(args.dir), defaults);
  const std::string yaml = CalibrationYaml(fit);
  if (args.out_file.empty()) {
    std::cout << yaml;
    return;
  }
  OutputBatch outputs;
  outputs.Add(args.out_file, yaml);
  const std::string report = CalibrationReport(fit, defaults);
  outputs.Commit();
  std::cout << report << "wrote " << args.out_file << "\n";
}

}  // namespace

void RegisterCalibrateCommand(CLI::App& app, GlobalOptions& /*options*/) {
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit the execution model to measurements on a real GPU "
      "(docs/model.md §6.6)");
  cmd->require_subcommand(1);
  auto args = std::make_shared<CalibrateFitArgs>();
  CLI::App* fit = cmd->add_subcommand(
      "fit",
      "Fit time_slice_ms and context_switch_us to the raw timings of "
      "calibrate/run_calibration.sh and compare the model with them");
  fit->add_option("dir", args->dir,
                  "Directory with device.yaml, throughput.csv and latency.csv")
      ->required()
      ->check(CLI::ExistingDirectory);
  fit->add_option("--out", args->out_file,
                  "Write the calibration file here and print the report "
                  "(default: the file on stdout)");
  fit->callback([args] { Fit(*args); });
}

}  // namespace gpushare::cli
