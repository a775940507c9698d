// Calibration files: the execution model fitted on one GPU, as YAML that
// `run`, `compare` and `plan --calibration FILE` apply.
//
// Contract: CalibrationYaml() writes a fit (calibrate/calibration_fit.h)
// as
//   calibration: {gpu, driver, cuda, compute_capability, sms, kernel_us,
//                 source, efficiency, cycle_ms}
//   model: {time_slice_ms, context_switch_us}
//   checks: [{case, unit, measured, default_model, fitted_model}, ...]
// (deterministic; numbers with enough digits to read back).
// ReadCalibrationFile() reads such a file, or one written by hand:
// `calibration` (a mapping with a non-empty `gpu`; the other keys
// optional) and `model` (the keys of a scenario's `model:` section except
// `profile`; docs/scenario.md) are required, `checks` optional (each with
// the keys above). Unknown keys, wrong types and parameters out of range
// are InputErrors at FILE:LINE:COL. ApplyCalibration() returns `base` with
// the file's `model` values over it, validated.

#ifndef GPUSHARE_CALIBRATE_CALIBRATION_FILE_H_
#define GPUSHARE_CALIBRATE_CALIBRATION_FILE_H_

#include <string>

#include <yaml-cpp/yaml.h>

#include "gpushare/calibrate/calibration_fit.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {

std::string CalibrationYaml(const CalibrationFit& fit);

struct CalibrationFile {
  std::string file;
  std::string gpu;
  YAML::Node model;  // the `model` mapping, applied by ApplyCalibration()
};

CalibrationFile ReadCalibrationFile(const std::string& path);

ModelParams ApplyCalibration(const CalibrationFile& calibration,
                             const ModelParams& base);

}  // namespace gpushare

#endif  // GPUSHARE_CALIBRATE_CALIBRATION_FILE_H_
