// Reader of a `model:` mapping (format: docs/scenario.md, "model"): the
// execution model's parameters (exec/model_params.h), in a scenario or in a
// calibration file (calibrate/calibration_file.h).
//
// Contract: ReadModelSection() starts from `base` — or, when `allow_profile`
// and the mapping names `profile: seed`, from ModelParams::Seed() — and
// overrides each parameter the mapping gives. The result is validated. An
// unknown key (or `profile` where not allowed), a wrong type or a value out
// of its range throws InputError at file:line:col: the key or the value,
// with the allowed keys or the parameter's range.

#ifndef GPUSHARE_SCENARIO_MODEL_READER_H_
#define GPUSHARE_SCENARIO_MODEL_READER_H_

#include "gpushare/exec/model_params.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {

ModelParams ReadModelSection(const YamlMap& m, const ModelParams& base,
                             bool allow_profile);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_MODEL_READER_H_
