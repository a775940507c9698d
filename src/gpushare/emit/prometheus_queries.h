// `gpushare-sim emit prometheus-queries`: the PromQL query, and the curl and
// promtool commands, whose answer is the input of `workload.trace.metrics`
// and `run --compare-metrics` (docs/emit.md, docs/scenario.md "metrics").
//
// Contract: PrometheusQueriesText() names the four dcgm-exporter series the
// import reads (DCGM_FI_PROF_GR_ENGINE_ACTIVE, DCGM_FI_PROF_SM_ACTIVE,
// DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED) in one selector — no
// aggregation, so every series keeps its name and dcgm-exporter's labels —
// optionally narrowed by `selector` (label matchers, e.g.
// `Hostname=~"gpu-.*"`), and prints it on a line `query: '<PromQL>'`, then
// a curl command of the HTTP API's /api/v1/query_range and the same query
// with `promtool query range -o json`, both over [start, end] every `step`
// against `url`, written to `file`. Arguments that would need quoting in a
// shell (a single quote, a control character, space in start, end, step,
// url or file) are an InputError naming the flag, and so are a range
// Prometheus would refuse: start not before end, times outside 1970..9999,
// a step that is not above zero or gives more than 11,000 steps
// (emit/prometheus_range.h). Deterministic.

#ifndef GPUSHARE_EMIT_PROMETHEUS_QUERIES_H_
#define GPUSHARE_EMIT_PROMETHEUS_QUERIES_H_

#include <string>

namespace gpushare {

struct PrometheusQueryOptions {
  std::string url = "http://localhost:9090";
  std::string start;  // Unix seconds or RFC 3339, as Prometheus reads them
  std::string end;
  std::string step = "30s";  // dcgm-exporter's default collection interval
  std::string selector;      // extra label matchers ("" none)
  std::string file = "dcgm-range.json";
};

// The PromQL selector alone.
std::string DcgmImportQuery(const std::string& selector);

std::string PrometheusQueriesText(const PrometheusQueryOptions& options);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_PROMETHEUS_QUERIES_H_
