// A Prometheus query result saved as JSON: the series of
// `/api/v1/query_range` (resultType matrix) or `/api/v1/query` (vector), as
// `curl` prints the HTTP API's answer or `promtool query range|instant -o
// json` prints its `result` array alone (docs/scenario.md "metrics").
//
// Contract: ParsePrometheusResult() accepts the envelope
// `{"status": "success", "data": {"resultType": "matrix"|"vector",
// "result": [...]}}` or the bare `result` array. Each element is an object
// with `metric` (string label values; `__name__` required: query selectors,
// not aggregations that drop the name) and `values` (matrix: [[time,
// "value"], ...]) or `value` (vector: [time, "value"]). Times are Unix
// seconds (finite, >= 0), values decimal strings or numbers; "NaN", "+Inf"
// and "-Inf" points are dropped (Prometheus writes them for gaps and
// divisions, they are no sample) and counted per series (`non_finite`). A
// matrix series' times must increase.
// Anything else — malformed JSON, `status: error`, a scalar or string
// result, a missing `metric` or `__name__`, a point that is not a pair — is
// an InputError "FILE:LINE:COL: PATH: expected ..." naming the JSON path.
// Series keep the file's order; the same labels given twice is an error.

#ifndef GPUSHARE_WORKLOAD_PROMETHEUS_RESULT_H_
#define GPUSHARE_WORKLOAD_PROMETHEUS_RESULT_H_

#include <string>
#include <vector>

#include "gpushare/cluster/labels.h"

namespace gpushare {

struct PrometheusPoint {
  double time_s = 0;  // Unix seconds
  double value = 0;
};

struct PrometheusSeries {
  std::string name;    // __name__
  Labels labels;       // every other label
  std::vector<PrometheusPoint> points;  // in time order
  int non_finite = 0;  // NaN / +Inf / -Inf points dropped
  std::string file;    // where the series is, for later errors
  int line = 0;
  int column = 0;
};

std::vector<PrometheusSeries> ParsePrometheusResult(const std::string& file,
                                                    const std::string& text);
std::vector<PrometheusSeries> ReadPrometheusResult(const std::string& path);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_PROMETHEUS_RESULT_H_
