// CSV files of a SimulationResult (columns: docs/output.md): pods.csv (one
// row per pod), pools.csv (pool samples over time), devices.csv (each GPU or
// MIG instance) and device_samples.csv (DCGM-style samples per device, when
// recorded). Fields containing commas or quotes are quoted (RFC 4180).

#ifndef GPUSHARE_METRICS_CSV_WRITER_H_
#define GPUSHARE_METRICS_CSV_WRITER_H_

#include <string>

#include "gpushare/metrics/results.h"

namespace gpushare {

std::string PodsCsv(const SimulationResult& result);
std::string PoolsCsv(const SimulationResult& result);
std::string DevicesCsv(const SimulationResult& result);
std::string DeviceSamplesCsv(const SimulationResult& result);

// Writes the four files into `directory` (created if needed).
void WriteResultCsv(const SimulationResult& result,
                    const std::string& directory);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_CSV_WRITER_H_
