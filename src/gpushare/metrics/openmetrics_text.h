// OpenMetricsText: one exposition in the OpenMetrics 1.0 text format, the
// input of `promtool tsdb create-blocks-from openmetrics`.
//
// Contract: BeginFamily() writes a family's `# TYPE`, `# UNIT` (when given)
// and `# HELP` lines; Sample() adds a point to the family begun last. A
// family name is used once (checked), so families are never interleaved.
// The caller adds the points of one series (one label set) contiguously, in
// increasing time. Counter samples get the `_total` suffix. A point's time
// is simulated seconds after the exposition's start (Unix seconds), written
// in seconds with millisecond resolution ("1704067260.5"). Finish() appends
// `# EOF` and hands the text over. Names are checked against
// [a-zA-Z_:][a-zA-Z0-9_:]*; a unit must be the name's suffix ("_seconds").

#ifndef GPUSHARE_METRICS_OPENMETRICS_TEXT_H_
#define GPUSHARE_METRICS_OPENMETRICS_TEXT_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpushare {

enum class MetricType { kGauge, kCounter };

// A label set, written as `{name="value",...}` in the order given (empty:
// no braces). Values are escaped: backslash, double quote and newline.
using LabelList = std::vector<std::pair<std::string_view, std::string_view>>;
std::string FormatLabels(const LabelList& labels);

// The escaped form of a label value (`a"b` -> `a\"b`).
std::string EscapeLabelValue(std::string_view value);
// The escaped form of HELP text (backslash and newline).
std::string EscapeHelp(std::string_view help);
// A sample value: shortest round-trip decimal, "NaN", "+Inf" or "-Inf".
std::string FormatSampleValue(double value);
// Unix seconds with millisecond resolution, trailing zeros dropped.
std::string FormatTimestamp(int64_t unix_ms);

class OpenMetricsText {
 public:
  // Simulated time 0 is `start_unix_s` seconds after the Unix epoch.
  explicit OpenMetricsText(int64_t start_unix_s);

  // `unit` may be empty; otherwise `name` must end in "_" + unit.
  void BeginFamily(std::string_view name, MetricType type,
                   std::string_view unit, std::string_view help);
  // `labels` from FormatLabels(); `time_s` in simulated seconds (>= 0).
  void Sample(const std::string& labels, double value, double time_s);
  std::string Finish();

 private:
  int64_t start_ms_;
  std::string text_;
  std::string family_;    // the sample name of the current family
  std::set<std::string, std::less<>> used_;
  bool finished_ = false;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_OPENMETRICS_TEXT_H_
