#include "gpushare/emit/prometheus_queries.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

TEST(PrometheusQueriesTest, OneSelectorOfTheFourSeries) {
  EXPECT_EQ(DcgmImportQuery(""),
            "{__name__=~\"DCGM_FI_PROF_GR_ENGINE_ACTIVE|DCGM_FI_PROF_SM_ACTIVE"
            "|DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED\"}");
  const std::string q = DcgmImportQuery("Hostname=~\"gpu-.*\"");
  EXPECT_EQ(q.substr(q.size() - 20), ",Hostname=~\"gpu-.*\"}");
}

TEST(PrometheusQueriesTest, CurlAndPromtoolCommands) {
  PrometheusQueryOptions o;
  o.start = "1704067200";
  o.end = "2024-01-01T01:00:00Z";
  o.step = "60s";
  const std::string text = PrometheusQueriesText(o);
  EXPECT_NE(text.find("curl -fsG 'http://localhost:9090/api/v1/query_range'"),
            std::string::npos);
  EXPECT_NE(text.find("--data-urlencode 'start=1704067200' --data-urlencode "
                      "'end=2024-01-01T01:00:00Z'"),
            std::string::npos);
  EXPECT_NE(text.find("promtool query range --start='1704067200' "
                      "--end='2024-01-01T01:00:00Z' --step='60s' -o json"),
            std::string::npos);
  EXPECT_NE(text.find("query: '" + DcgmImportQuery("") + "'\n"),
            std::string::npos);
}

TEST(PrometheusQueriesTest, RefusesWhatAShellWouldSplit) {
  PrometheusQueryOptions o;
  o.start = "1";
  o.end = "2";
  o.selector = "pod='x'";
  EXPECT_THROW(PrometheusQueriesText(o), InputError);
  o.selector = "";
  o.end = "";
  EXPECT_THROW(PrometheusQueriesText(o), InputError);
  o.end = "2 3";
  EXPECT_THROW(PrometheusQueriesText(o), InputError);
}

// A URL that curl or promtool would read as an option is refused.
TEST(PrometheusQueriesTest, UrlMustBeAnHttpAddress) {
  PrometheusQueryOptions o;
  o.start = "1";
  o.end = "2";
  o.url = "-o/etc/cron.d/x";
  EXPECT_THROW(PrometheusQueriesText(o), InputError);
  o.url = "https://prometheus.example:9090";
  EXPECT_NO_THROW(PrometheusQueriesText(o));
}

}  // namespace
}  // namespace gpushare
