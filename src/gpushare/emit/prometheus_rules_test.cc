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
}

}  // namespace
}  // namespace gpushare
