#include "gpushare/emit/prometheus_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace gpushare {
namespace {

using ::testing::HasSubstr;

// promtool check/test rules runs in tests/emit_cli_test.py; here the shape.
TEST(PrometheusRulesTest, OneGroupWithThePatrolAlerts) {
  const std::string text = PrometheusRulesYaml();
  EXPECT_EQ(text, PrometheusRulesYaml());
  EXPECT_THAT(text, HasSubstr("\ngroups:\n  - name: gpushare-patrol\n"));
  EXPECT_THAT(text, HasSubstr("- alert: GpuNoisyNeighbour\n"));
  EXPECT_THAT(text, HasSubstr("- alert: MigConfigDrift\n"));
  EXPECT_THAT(text, HasSubstr("- alert: DevicePluginStalled\n"));
  EXPECT_EQ(text.find('\t'), std::string::npos);  // YAML indents with spaces
  EXPECT_EQ(text.back(), '\n');
  // The defaults: held 5 minutes, "most of the time" above half.
  EXPECT_THAT(text, HasSubstr("for: 5m\n"));
  EXPECT_THAT(text, HasSubstr("(gpushare_pod_gpu_time_ratio) > 0.5\n"));
}

TEST(PrometheusRulesTest, ThresholdsFromThePatrolRules) {
  PatrolRules rules;
  rules.for_s = 150;
  rules.noisy_neighbour_share = 0.65;
  const std::string text = PrometheusRulesYaml(rules);
  EXPECT_THAT(text, HasSubstr("for: 150s\n"));
  EXPECT_EQ(text.find("for: 5m"), std::string::npos);
  EXPECT_THAT(text, HasSubstr("(gpushare_pod_gpu_time_ratio) > 0.65\n"));
  EXPECT_THAT(text, HasSubstr("gpushare_pod_gpu_time_ratio <= 0.65\n"));
  rules.for_s = 0.25;
  EXPECT_THAT(PrometheusRulesYaml(rules), HasSubstr("for: 250ms\n"));
  rules.for_s = 600;
  EXPECT_THAT(PrometheusRulesYaml(rules), HasSubstr("for: 10m\n"));
}

}  // namespace
}  // namespace gpushare
