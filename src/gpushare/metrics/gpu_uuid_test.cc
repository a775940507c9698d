#include "gpushare/metrics/gpu_uuid.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace gpushare {
namespace {

TEST(GpuUuidTest, HasNvmlForm) {
  const std::regex form(
      "GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(FakeGpuUuid("node-0", 0), form));
  EXPECT_TRUE(std::regex_match(FakeGpuUuid("", 7), form));
}

TEST(GpuUuidTest, IsStableAndDistinct) {
  EXPECT_EQ(FakeGpuUuid("prod-3", 5), FakeGpuUuid("prod-3", 5));
  std::set<std::string> seen;
  for (int n = 0; n < 200; ++n) {
    for (int g = 0; g < 8; ++g) {
      seen.insert(FakeGpuUuid("node-" + std::to_string(n), g));
    }
  }
  EXPECT_EQ(seen.size(), 1600u);
  // "node-1"/GPU 10 and "node-11"/GPU 0 must not meet.
  EXPECT_NE(FakeGpuUuid("node-1", 10), FakeGpuUuid("node-11", 0));
}

}  // namespace
}  // namespace gpushare
