// The options of `run`, `compare` and `plan` that change the execution
// model: `--model PROFILE` (default or seed) and `--calibration FILE` (a
// calibration file, gpushare/calibrate/calibration_file.h).
//
// Contract: AddModelOptions() registers both on `cmd` (`--model` only when
// `with_profile`); ApplyModelOptions() replaces the scenario's model with
// the named profile, then applies the calibration file's parameters over
// it. A bad calibration file throws InputError at FILE:LINE:COL.

#ifndef GPUSHARE_CLI_MODEL_OPTIONS_H_
#define GPUSHARE_CLI_MODEL_OPTIONS_H_

#include <string>

#include <CLI/CLI.hpp>

#include "gpushare/scenario/scenario.h"

namespace gpushare::cli {

struct ModelOptions {
  std::string profile;      // "", "default" or "seed"
  std::string calibration;  // "" or a calibration file
};

void AddModelOptions(CLI::App* cmd, ModelOptions* options, bool with_profile);

void ApplyModelOptions(const ModelOptions& options, Scenario* scenario);

}  // namespace gpushare::cli

#endif  // GPUSHARE_CLI_MODEL_OPTIONS_H_
