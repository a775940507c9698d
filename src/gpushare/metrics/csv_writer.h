// CSV files of a SimulationResult (columns: docs/output.md): pods.csv (one
// row per pod), pools.csv (pool samples over time), devices.csv (each GPU or
// MIG instance), device_samples.csv (DCGM-style samples per device, when
// recorded), pod_shares.csv (each pod's share of a time-shared device's
// time per sample, when recorded) and alerts.csv (the patrol alerts that
// fired). Fields containing commas or quotes are quoted (RFC 4180).

#ifndef GPUSHARE_METRICS_CSV_WRITER_H_
#define GPUSHARE_METRICS_CSV_WRITER_H_

#include <string>
#include <vector>

#include "gpushare/io/output_file.h"
#include "gpushare/metrics/pod_output_spool.h"
#include "gpushare/metrics/results.h"

namespace gpushare {

// pods.csv of result.pod_records (kept only on request: CollectorOptions).
std::string PodsCsv(const SimulationResult& result);
// Its header line, and one pod's row.
std::string PodsCsvHeader();
std::string PodCsvRow(const PodRecord& pod);
std::string PoolsCsv(const SimulationResult& result);
std::string DevicesCsv(const SimulationResult& result);
std::string DeviceSamplesCsv(const SimulationResult& result);
// Kueue's quota usage per ClusterQueue, flavor, resource and sample.
std::string QueuesCsv(const SimulationResult& result);

// The names of the files AddResultCsv() writes.
std::vector<std::string> ResultCsvFileNames();

// Adds the files in `directory` (created if needed) to `batch`; pods.csv's
// rows from `pods` (a kCsv spool, outliving the batch's Commit()) when
// given, else from result.pod_records.
void AddResultCsv(const SimulationResult& result, const std::string& directory,
                  OutputBatch* batch, const PodOutputSpool* pods = nullptr);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_CSV_WRITER_H_
