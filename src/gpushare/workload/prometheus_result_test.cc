#include "gpushare/workload/prometheus_result.h"

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string PromErrorOf(const std::string& text) {
  try {
    ParsePrometheusResult("q.json", text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PrometheusResultTest, ReadsTheHttpApiMatrix) {
  const auto series = ParsePrometheusResult("q.json", R"({
  "status": "success",
  "data": {"resultType": "matrix", "result": [
    {"metric": {"__name__": "DCGM_FI_DEV_FB_USED", "gpu": "0", "pod": "a"},
     "values": [[1704067200, "6000"], [1704067260.5, "NaN"],
                [1704067320, "6100.5"]]}]}})");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].name, "DCGM_FI_DEV_FB_USED");
  EXPECT_EQ(series[0].labels.at("pod"), "a");
  EXPECT_EQ(series[0].labels.count("__name__"), 0u);
  ASSERT_EQ(series[0].points.size(), 2u);  // NaN is no sample
  EXPECT_EQ(series[0].non_finite, 1);      // but counted
  EXPECT_DOUBLE_EQ(series[0].points[1].time_s, 1704067320);
  EXPECT_DOUBLE_EQ(series[0].points[1].value, 6100.5);
  EXPECT_EQ(series[0].line, 4);
}

TEST(PrometheusResultTest, ReadsPromtoolsBareVector) {
  const auto series = ParsePrometheusResult(
      "q.json",
      R"([{"metric": {"__name__": "DCGM_FI_DEV_GPU_UTIL"},)"
      R"( "value": [1704067500, "42"]}])");
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_DOUBLE_EQ(series[0].points[0].value, 42);
}

TEST(PrometheusResultTest, LocatedErrors) {
  EXPECT_EQ(PromErrorOf("{\"status\": \"success\""),
            "q.json:1:21: invalid JSON: syntax error while parsing object - "
            "unexpected end of input; expected '}'");
  EXPECT_NE(PromErrorOf(R"({"status": "error", "error": "bad query"})")
                .find("q.json:1:12: status: expected status \"success\", got "
                      "\"error\" (error: bad query)"),
            std::string::npos);
  EXPECT_NE(PromErrorOf(R"({"status": "success", "data": {"resultType":
      "scalar", "result": [1, "2"]}})")
                .find("expected resultType matrix"),
            std::string::npos);
  EXPECT_NE(PromErrorOf(R"([{"metric": {"gpu": "0"}, "value": [1, "2"]}])")
                .find("q.json:1:13: [0].metric: expected __name__"),
            std::string::npos);
  EXPECT_NE(
      PromErrorOf(R"([{"metric": {"__name__": "x"}, "values": [[2, "1"],
      [1, "1"]]}])")
          .find("q.json:2:7: [0].values[1]: expected times in increasing "
                "order"),
      std::string::npos);
  EXPECT_NE(PromErrorOf(R"([{"metric": {"__name__": "x"}, "value": [1]}])")
                .find("expected a [time, \"value\"] pair"),
            std::string::npos);
  EXPECT_NE(PromErrorOf(R"([{"metric": {"__name__": "x"}, "value": [1, "x"]}])")
                .find("expected a number, got 'x'"),
            std::string::npos);
  EXPECT_NE(PromErrorOf(R"([{"metric": {"__name__": "x"}, "value": [1, "1"]},
      {"metric": {"__name__": "x"}, "value": [2, "1"]}])")
                .find("listed twice"),
            std::string::npos);
  EXPECT_NE(PromErrorOf("42").find("expected a Prometheus query result"),
            std::string::npos);
}

}  // namespace
}  // namespace gpushare
