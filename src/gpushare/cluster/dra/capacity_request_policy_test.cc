// Consumed capacity under a request policy: rounding up by range and step,
// the default, and what the policy refuses, worked out by hand.

#include "gpushare/cluster/dra/capacity_request_policy.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

TEST(DraCapacityRequestPolicyTest, ConsumedAndViolations) {
  CapacityRequestPolicy p;
  p.valid_range = CapacityRequestPolicyRange{10, 100, 5};
  EXPECT_EQ(ConsumedCapacity(3, 200, &p), 10);
  EXPECT_EQ(ConsumedCapacity(11, 200, &p), 15);
  EXPECT_EQ(ConsumedCapacity(15, 200, &p), 15);
  EXPECT_EQ(ConsumedCapacity(std::nullopt, 200, &p), 200);
  EXPECT_EQ(ConsumedCapacity(7, 200, nullptr), 7);
  EXPECT_FALSE(ViolatesCapacityRequestPolicy(100, &p));
  EXPECT_TRUE(ViolatesCapacityRequestPolicy(105, &p));
  EXPECT_TRUE(ViolatesCapacityRequestPolicy(12, &p));
  p.default_value = 12;
  EXPECT_FALSE(ViolatesCapacityRequestPolicy(12, &p));
  EXPECT_EQ(FindCapacityRequestPolicyProblem(p, 200), "");
  p.valid_values = {1, 2};
  EXPECT_NE(FindCapacityRequestPolicyProblem(p, 200), "");
  CapacityRequestPolicy huge;
  huge.valid_range = CapacityRequestPolicyRange{1, {}, int64_t{1} << 62};
  EXPECT_EQ(ConsumedCapacity((int64_t{1} << 62) + 2, 0, &huge), std::nullopt);
}

}  // namespace
}  // namespace gpushare
