#include "gpushare/workload/prometheus_result.h"

#include <set>
#include <utility>

#include "gpushare/io/json_syntax.h"
#include "gpushare/io/json_value.h"
#include "gpushare/io/utf8.h"
#include "gpushare/io/yaml_input.h"

namespace gpushare {
namespace {

// Latest Unix time accepted (year 5138): far beyond any recording, small
// enough that milliseconds stay exact in a double.
constexpr double kPromMaxUnixS = 1e11;

// One [time, "value"] pair; false for a NaN or infinite value (no sample).
bool PromReadPoint(const JsonValue& pair, PrometheusPoint* point) {
  if (!pair.IsArray()) pair.Fail("expected a [time, \"value\"] pair");
  const std::vector<JsonValue> parts = pair.Items();
  if (parts.size() != 2) pair.Fail("expected a [time, \"value\"] pair");
  point->time_s = parts[0].Double(0, kPromMaxUnixS);
  if (parts[1].IsArray() || parts[1].IsObject()) {
    parts[1].Fail("expected a sample value such as \"42.5\"");
  }
  const std::string text = parts[1].String();
  if (text == "NaN" || text == "+Inf" || text == "-Inf" || text == "Inf") {
    return false;
  }
  point->value = parts[1].Double(-1e300, 1e300);
  return true;
}

PrometheusSeries PromReadSeries(const JsonValue& item) {
  if (!item.IsObject()) {
    item.Fail("expected a series object with metric and values (or value)");
  }
  PrometheusSeries series;
  series.file = item.file();
  series.line = item.Line();
  series.column = item.Column();
  const JsonValue metric = item.Get("metric");
  if (!metric.IsObject()) {
    metric.Fail("expected the series' labels as an object");
  }
  for (const auto& [key, value] : metric.Members()) {
    if (value.IsArray() || value.IsObject()) {
      value.Fail("expected a label value (a string)");
    }
    if (key == "__name__") {
      series.name = value.String();
    } else {
      series.labels[key] = value.String();
    }
  }
  if (series.name.empty()) {
    metric.Fail(
        "expected __name__ (the metric name): query the series themselves, "
        "not an aggregation that drops the name (gpushare-sim emit "
        "prometheus-queries)");
  }
  const JsonValue values = item.Get("values");
  const JsonValue value = item.Get("value");
  if (!values.Missing() && !value.Missing()) {
    value.Fail("expected values (a range query) or value (an instant "
               "query), not both");
  }
  if (!value.Missing()) {
    PrometheusPoint point;
    if (PromReadPoint(value, &point)) {
      series.points.push_back(point);
    } else {
      ++series.non_finite;
    }
    return series;
  }
  if (!values.IsArray()) {
    values.Fail("expected values, an array of [time, \"value\"] pairs");
  }
  for (const JsonValue& pair : values.Items()) {
    PrometheusPoint point;
    if (!PromReadPoint(pair, &point)) {
      ++series.non_finite;
      continue;
    }
    if (!series.points.empty() && point.time_s <= series.points.back().time_s) {
      pair.Fail("expected times in increasing order");
    }
    series.points.push_back(point);
  }
  return series;
}

}  // namespace

std::vector<PrometheusSeries> ParsePrometheusResult(const std::string& file,
                                                    const std::string& text) {
  CheckUtf8(file, text);
  CheckJsonSyntax(file, text);
  const YAML::Node root_node = ParseCheckedJson(text, file);
  CheckNoDuplicateKeys(file, root_node);
  const JsonValue root(file, root_node);
  JsonValue result = root;
  if (root.IsObject()) {
    const std::string status = root.Get("status").String();
    if (status != "success") {
      const std::string error = root.Get("error").String();
      root.Get("status").Fail(
          "expected status \"success\", got \"" + status + "\"" +
          (error.empty() ? std::string() : " (error: " + error + ")"));
    }
    const JsonValue data = root.Get("data");
    if (!data.IsObject()) data.Fail("expected the query's data object");
    const std::string type = data.Get("resultType").String();
    if (type != "matrix" && type != "vector") {
      data.Get("resultType").Fail(
          "expected resultType matrix (/api/v1/query_range) or vector "
          "(/api/v1/query), got \"" + type + "\"");
    }
    result = data.Get("result");
  }
  if (!result.IsArray()) {
    result.Fail(
        "expected a Prometheus query result: the HTTP API's JSON "
        "({\"status\": \"success\", \"data\": {...}}) or promtool's -o json "
        "array of series");
  }
  std::vector<PrometheusSeries> out;
  std::set<std::pair<std::string, Labels>> seen;
  for (const JsonValue& item : result.Items()) {
    PrometheusSeries series = PromReadSeries(item);
    if (!seen.emplace(series.name, series.labels).second) {
      item.Get("metric").Fail("the same series (name and labels) is listed "
                              "twice");
    }
    out.push_back(std::move(series));
  }
  return out;
}

std::vector<PrometheusSeries> ReadPrometheusResult(const std::string& path) {
  return ParsePrometheusResult(path, ReadInputFile(path));
}

}  // namespace gpushare
