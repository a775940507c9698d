// The JSON form of a SimulationResult (schema: docs/output.md,
// "gpushare-sim/run/v1"). Deterministic: keys sorted, numbers printed in
// their shortest round-trip form.

#ifndef GPUSHARE_METRICS_JSON_WRITER_H_
#define GPUSHARE_METRICS_JSON_WRITER_H_

#include <string>

#include <nlohmann/json.hpp>

#include "gpushare/io/output_file.h"
#include "gpushare/metrics/pod_output_spool.h"
#include "gpushare/metrics/results.h"

namespace gpushare {

// With the pods of result.pod_records (kept only on request:
// CollectorOptions).
nlohmann::json ResultToJson(const SimulationResult& result);
std::string ResultToJsonText(const SimulationResult& result);
// One pod's record as ResultToJson() lists it.
nlohmann::json PodRecordJson(const PodRecord& pod);
// Its text as an element of the written document's "pod_records" array
// (indented two levels), without a separator.
std::string PodRecordJsonText(const PodRecord& pod);
// Adds `document` (a ResultToJson() of a result without pod records) to
// `batch` at `path`, with `pods`' records (a kJson spool outliving the
// batch's Commit(); none: as it is) streamed into its "pod_records" array,
// in pod order: the same text as ResultToJson() of a result with those
// records, never held whole in memory.
void AddResultJson(const nlohmann::json& document, const std::string& path,
                   const PodOutputSpool* pods, OutputBatch* batch);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_JSON_WRITER_H_
