// Tests of the plain-words fidelity summary of the compare and plan pages.

#include "gpushare/report/fidelity_summary.h"

#include <gtest/gtest.h>

#include "gpushare/metrics/fidelity_warnings.h"

namespace gpushare {
namespace fidelity_summary_test {
namespace {

FidelityError Error(double recorded, double simulated) {
  FidelityError e;
  e.points = 61;
  e.recorded_mean = recorded;
  e.simulated_mean = simulated;
  e.mean_abs_error = simulated > recorded ? simulated - recorded
                                          : recorded - simulated;
  e.p95_abs_error = e.mean_abs_error;
  return e;
}

FidelityRow Pool(const std::string& name, double util_recorded,
                 double util_simulated) {
  FidelityRow r;
  r.pool = name;
  r.devices = 2;
  r.gpu_util = Error(util_recorded, util_simulated);
  r.sm_active = Error(0.07, 0.08);
  r.fb_used_mib = Error(2600, 3000);
  return r;
}

TEST(FidelitySummaryTest, NothingComparedSaysNothing) {
  MetricsFidelity f;
  EXPECT_EQ(FidelitySummaryHtml(f), "");
  f.pools.push_back(FidelityRow{});  // a pool without compared points
  f.pools.back().pool = "empty";
  EXPECT_EQ(FidelitySummaryHtml(f), "");
}

TEST(FidelitySummaryTest, ThePoolsOffTheLimitsAreNamed) {
  MetricsFidelity f;
  // GPU util 50% simulated against 4.4% recorded: 45.6 points, over 20;
  // the other pool is 2 points off.
  f.pools = {Pool("a10-hami", 4.4, 50), Pool("l4-ts", 10.5, 12.5)};
  FlagFidelity(20, &f);
  ASSERT_TRUE(f.pools[0].off_limits);
  ASSERT_FALSE(f.pools[1].off_limits);
  const std::string html = FidelitySummaryHtml(f);
  EXPECT_NE(html.find("is off what dcgm-exporter recorded on 1 of the 2 "
                      "pools compared (a10-hami)"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("Close means within 20 points of GPU busy time, 20 "
                      "points of compute units active and 20% of memory "
                      "used"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<li data-fidelity-pool=\"a10-hami\" "
                      "data-verdict=\"off\">a10-hami (off): its GPUs busy "
                      "50.0% of the time in the replay against 4.4% "
                      "recorded; 8.0% of their compute units active against "
                      "7.0%; 3000 MiB of memory used against 2600 MiB.</li>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("data-fidelity-pool=\"l4-ts\" data-verdict=\"close\">"
                      "l4-ts (close): its GPUs busy 12.5%"),
            std::string::npos);
}

TEST(FidelitySummaryTest, EveryPoolCloseSaysSo) {
  MetricsFidelity f;
  f.pools = {Pool("l4-ts", 10.5, 12.5)};
  FlagFidelity(20, &f);
  const std::string html = FidelitySummaryHtml(f);
  EXPECT_NE(html.find("matches what dcgm-exporter recorded on the one "
                      "pool compared"),
            std::string::npos)
      << html;
  // Not judged (no FlagFidelity): the numbers without a verdict.
  MetricsFidelity unjudged;
  unjudged.pools = f.pools;
  unjudged.pools[0].off_limits = false;
  const std::string plain = FidelitySummaryHtml(unjudged);
  EXPECT_EQ(plain.find("Close means"), std::string::npos);
  EXPECT_NE(plain.find("data-verdict=\"\">l4-ts: its GPUs busy"),
            std::string::npos)
      << plain;
}

}  // namespace
}  // namespace fidelity_summary_test
}  // namespace gpushare
