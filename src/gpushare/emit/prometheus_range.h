// The time range of a Prometheus range query (`/api/v1/query_range`,
// `promtool query range`), checked as Prometheus checks it, for `emit
// prometheus-queries` (docs/cli.md).
//
// Contract: ParsePrometheusTime() reads Unix seconds (digits with an
// optional fraction and exponent, `1704067200`, `1.7e9`; rounded to the
// millisecond as Prometheus's API does) or an RFC 3339 time
// (`2024-01-01T00:00:00Z`, `...T01:00:00.5+02:00`; fractions past the
// millisecond truncated, as Prometheus's timestamps are), and refuses a
// time before 1970-01-01T00:00:00Z or after 9999-12-31T23:59:59.999Z
// (kMaxPrometheusTimeMs). ParsePrometheusStep() reads a duration of the
// units h, m, s and ms, each at most once and in that order (`30s`,
// `1m30s`, `500ms`: what both Prometheus's API and promtool's Go
// time.ParseDuration read), above zero. CheckPrometheusRange() requires
// start before end and at most kMaxPrometheusPoints points per series:
// Prometheus refuses a query whose (end - start) / step exceeds 11,000
// ("exceeded maximum resolution of 11,000 points per timeseries"). Each
// error is an InputError naming the flag.

#ifndef GPUSHARE_EMIT_PROMETHEUS_RANGE_H_
#define GPUSHARE_EMIT_PROMETHEUS_RANGE_H_

#include <cstdint>
#include <string>

namespace gpushare {

// 9999-12-31T23:59:59.999Z in Unix milliseconds.
inline constexpr int64_t kMaxPrometheusTimeMs = 253402300799999;
// Prometheus's limit on (end - start) / step (web/api/v1's query_range).
inline constexpr int64_t kMaxPrometheusResolution = 11000;

// Unix milliseconds of `text`; `flag` names it in errors.
int64_t ParsePrometheusTime(const std::string& flag, const std::string& text);

// Milliseconds of `text`; `flag` names it in errors.
int64_t ParsePrometheusStep(const std::string& flag, const std::string& text);

// Checks --start, --end and --step together (each already parsed).
void CheckPrometheusRange(const std::string& start, const std::string& end,
                          const std::string& step);

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_PROMETHEUS_RANGE_H_
