// Reading one GPU model entry of a catalog file (format: docs/catalog.md).

#ifndef GPUSHARE_CATALOG_GPU_MODEL_PARSER_H_
#define GPUSHARE_CATALOG_GPU_MODEL_PARSER_H_

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {

// Parses and validates the model entry `entry`. With `base` null every
// required field must be present; otherwise absent fields keep `base`'s
// values (an override). Throws InputError at the offending key or value.
GpuModel ParseGpuModel(const YamlMap& entry, const GpuModel* base);

}  // namespace gpushare

#endif  // GPUSHARE_CATALOG_GPU_MODEL_PARSER_H_
