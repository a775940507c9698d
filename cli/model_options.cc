#include "cli/model_options.h"

#include "gpushare/calibrate/calibration_file.h"

namespace gpushare::cli {

void AddModelOptions(CLI::App* cmd, ModelOptions* options, bool with_profile) {
  if (with_profile) {
    cmd->add_option("--model", options->profile,
                    "Replace the scenario's model parameters with a named "
                    "profile: default or seed (the source document's values)")
        ->check(CLI::IsMember({"default", "seed"}));
  }
  cmd->add_option("--calibration", options->calibration,
                  "Apply the model parameters measured on a GPU "
                  "(`calibrate fit`; docs/model.md §6.6) over the scenario's")
      ->check(CLI::ExistingFile);
}

void ApplyModelOptions(const ModelOptions& options, Scenario* scenario) {
  if (options.profile == "seed") {
    scenario->model = ModelParams::Seed();
  } else if (options.profile == "default") {
    scenario->model = ModelParams();
  }
  if (!options.calibration.empty()) {
    scenario->model = ApplyCalibration(
        ReadCalibrationFile(options.calibration), scenario->model);
  }
}

}  // namespace gpushare::cli
