#include "gpushare/emit/prometheus_range.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PrometheusRangeTest, UnixSecondsAndRfc3339) {
  EXPECT_EQ(ParsePrometheusTime("--start", "1704067200"), 1704067200000);
  EXPECT_EQ(ParsePrometheusTime("--start", "1704067200.5"), 1704067200500);
  EXPECT_EQ(ParsePrometheusTime("--start", "1.7e9"), 1700000000000);
  EXPECT_EQ(ParsePrometheusTime("--start", "0"), 0);
  EXPECT_EQ(ParsePrometheusTime("--start", "2024-01-01T00:00:00Z"),
            1704067200000);
  EXPECT_EQ(ParsePrometheusTime("--start", "2024-01-01T02:00:00.25+02:00"),
            1704067200250);
  EXPECT_EQ(ParsePrometheusTime("--start", "2023-12-31T23:30:00-00:30"),
            1704067200000);
  EXPECT_EQ(ParsePrometheusTime("--start", "2024-02-29T00:00:00Z"),
            1709164800000);
  EXPECT_EQ(ParsePrometheusTime("--end", "9999-12-31T23:59:59.999999Z"),
            kMaxPrometheusTimeMs);
  EXPECT_EQ(ParsePrometheusTime("--end", "253402300799"),
            kMaxPrometheusTimeMs - 999);
}

TEST(PrometheusRangeTest, RefusesTimesOutOfRangeOrMalformed) {
  for (const char* bad :
       {"1e18", "253402300800", "-1", "inf", "nan", "0x10", "", "1704067200s",
        "2023-02-29T00:00:00Z", "2024-01-01 00:00:00Z", "2024-01-01T24:00:00Z",
        "2024-01-01T00:00:60Z", "2024-01-01T00:00:00",
        "9999-12-31T23:59:59-01:00", "1970-01-01T00:00:00+00:01"}) {
    const std::string e = ErrorOf([&] { ParsePrometheusTime("--start", bad); });
    EXPECT_TRUE(e.starts_with("--start '")) << bad << ": " << e;
  }
  EXPECT_NE(ErrorOf([] {
              ParsePrometheusTime("--start", "1e18");
            }).find("out of range"),
            std::string::npos);
}

TEST(PrometheusRangeTest, StepsBothPrometheusAndPromtoolRead) {
  EXPECT_EQ(ParsePrometheusStep("--step", "30s"), 30000);
  EXPECT_EQ(ParsePrometheusStep("--step", "1m30s"), 90000);
  EXPECT_EQ(ParsePrometheusStep("--step", "1h2m3s4ms"), 3723004);
  EXPECT_EQ(ParsePrometheusStep("--step", "500ms"), 500);
  for (const char* bad : {"0", "0s", "0h0m", "30", "1d", "1.5s", "-30s", "s",
                          "30s1m", "1s1s", "30sec", ""}) {
    const std::string e = ErrorOf([&] { ParsePrometheusStep("--step", bad); });
    EXPECT_TRUE(e.starts_with("--step '")) << bad << ": " << e;
  }
  EXPECT_NE(
      ErrorOf([] { ParsePrometheusStep("--step", "0s"); }).find("above zero"),
      std::string::npos);
}

TEST(PrometheusRangeTest, StartBeforeEndAndAtMost11000Steps) {
  EXPECT_NO_THROW(CheckPrometheusRange("0", "1", "30s"));
  EXPECT_NE(ErrorOf([] {
              CheckPrometheusRange("2", "1", "30s");
            }).find("--start '2': must be before --end ('1')"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { CheckPrometheusRange("1", "1", "30s"); }), "");
  // 11,000 steps of a second pass, 11,001 do not (Prometheus refuses
  // (end - start) / step > 11000).
  EXPECT_NO_THROW(CheckPrometheusRange("0", "11000", "1s"));
  const std::string e =
      ErrorOf([] { CheckPrometheusRange("0", "11001", "1s"); });
  EXPECT_NE(e.find("--step '1s': 11001 steps"), std::string::npos) << e;
  EXPECT_NE(e.find("use --step 2s or more"), std::string::npos) << e;
  EXPECT_NO_THROW(CheckPrometheusRange("0", "11001", "2s"));
  // A day every 30 s is 2,880 steps.
  EXPECT_NO_THROW(CheckPrometheusRange("2024-01-01T00:00:00Z",
                                       "2024-01-02T00:00:00Z", "30s"));
}

}  // namespace
}  // namespace gpushare
