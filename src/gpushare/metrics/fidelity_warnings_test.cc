#include "gpushare/metrics/fidelity_warnings.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace fidelity_warnings_test {
namespace {

FidelityError Error(double recorded, double simulated, double mean_abs) {
  FidelityError e;
  e.points = 10;
  e.recorded_mean = recorded;
  e.simulated_mean = simulated;
  e.mean_abs_error = mean_abs;
  e.p95_abs_error = mean_abs;
  return e;
}

FidelityRow Pool(const std::string& name, FidelityError util,
                 FidelityError sm, FidelityError fb) {
  FidelityRow r;
  r.pool = name;
  r.devices = 4;
  r.gpu_util = util;
  r.sm_active = sm;
  r.fb_used_mib = fb;
  return r;
}

// Issue 52: a time-sliced L40S pool simulated at 91.8 % against 11.2 %
// recorded is flagged; a pool within every limit is not.
TEST(FidelityWarningsTest, FlagsPoolsOffTheirRecording) {
  MetricsFidelity f;
  f.pools = {Pool("l40s-ts", Error(11.2, 91.8, 80.6), Error(0.08, 0.70, 0.62),
                  Error(8000, 9000, 1000)),
             Pool("h100-mig", Error(40, 45, 5), Error(0.30, 0.33, 0.03),
                  Error(30000, 31000, 1000))};
  FlagFidelity(20, &f);
  ASSERT_EQ(f.warnings.size(), 1u);
  const std::string& w = f.warnings[0];
  EXPECT_EQ(w.rfind("pool l40s-ts: the replay is off its recorded series: "
                    "GPU util by 80.6 points (simulated 91.8%, recorded "
                    "11.2%); SM active by 0.620 (simulated 0.700, recorded "
                    "0.080) (limits: 20 points",
                    0),
            0u)
      << w;
  // FB used within 20 % of 9000 MiB: not named.
  EXPECT_EQ(w.find("FB used by"), std::string::npos) << w;
}

TEST(FidelityWarningsTest, LimitsByHand) {
  MetricsFidelity f;
  // FB off by 1.5 GiB of 4 GiB (above 20 %, above 1 GiB): flagged.
  // FB off by 900 MiB of 2 GiB (above 20 %, below 1 GiB): not.
  // SM active off by exactly 0.2: not (the limit is exclusive).
  f.pools = {Pool("a", Error(10, 10, 0), Error(0.1, 0.1, 0),
                  Error(2500, 4000, 1500)),
             Pool("b", Error(10, 10, 0), Error(0.1, 0.3, 0.2),
                  Error(1148, 2048, 900))};
  FlagFidelity(20, &f);
  ASSERT_EQ(f.warnings.size(), 1u);
  EXPECT_NE(f.warnings[0].find("pool a: "), std::string::npos);
  EXPECT_NE(f.warnings[0].find("FB used by 1500 MiB"), std::string::npos);
  // A looser limit flags nothing; rows without points say nothing.
  FlagFidelity(50, &f);
  EXPECT_TRUE(f.warnings.empty());
  MetricsFidelity empty;
  empty.pools = {FidelityRow()};
  FlagFidelity(1, &empty);
  EXPECT_TRUE(empty.warnings.empty());
}

}  // namespace
}  // namespace fidelity_warnings_test
}  // namespace gpushare
