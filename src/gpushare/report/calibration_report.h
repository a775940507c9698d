// The terminal report of `calibrate fit`: the GPU, the fitted parameters
// against the defaults, and every check's measurement against the model's
// predictions (calibrate/calibration_fit.h).
//
// Contract: plain text within 80 columns, deterministic for a given fit.

#ifndef GPUSHARE_REPORT_CALIBRATION_REPORT_H_
#define GPUSHARE_REPORT_CALIBRATION_REPORT_H_

#include <string>

#include "gpushare/calibrate/calibration_fit.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {

std::string CalibrationReport(const CalibrationFit& fit,
                              const ModelParams& defaults);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_CALIBRATION_REPORT_H_
