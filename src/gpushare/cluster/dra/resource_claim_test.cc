// ResourceClaim validation: each rule of resource.k8s.io/v1 that the
// simulator enforces, with the words of its error.

#include "gpushare/cluster/dra/resource_claim.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

DraDeviceRequest ClaimTestRequest(
    const std::string& name,
    const std::string& device_class = "gpu.nvidia.com") {
  DraDeviceRequest r;
  r.name = name;
  r.has_exactly = true;
  r.exactly.device_class_name = device_class;
  return r;
}

class DraResourceClaimTest : public ::testing::Test {
 protected:
  DraResourceClaimTest() {
    classes_.push_back(NvidiaGpuDeviceClass());
    classes_.push_back(NvidiaMigDeviceClass());
    spec_.requests.push_back(ClaimTestRequest("gpu"));
  }

  // The error validating spec_, or "" when it is valid.
  std::string Error() {
    try {
      ValidateResourceClaimSpec("c", spec_, classes_);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  std::vector<DeviceClass> classes_;
  ResourceClaimSpec spec_;
};

TEST_F(DraResourceClaimTest, AcceptsAValidSpec) {
  DraDeviceRequest fa;
  fa.name = "fallback";
  fa.first_available.push_back({"whole", {}});
  fa.first_available[0].selection.device_class_name = "gpu.nvidia.com";
  fa.first_available.push_back({"mig", {}});
  fa.first_available[1].selection.device_class_name = "mig.nvidia.com";
  spec_.requests.push_back(fa);
  spec_.constraints.push_back(
      {{"gpu", "fallback/whole"}, "gpu.nvidia.com/productName"});
  EXPECT_EQ(Error(), "");
}

TEST_F(DraResourceClaimTest, RefusesBadRequests) {
  spec_.requests[0].name = "GPU";
  EXPECT_EQ(Error(),
            "claim c: request name 'GPU' is not a DNS label (lowercase "
            "letters, digits and '-', at most 63)");
  spec_.requests[0].name = "gpu";

  spec_.requests.push_back(ClaimTestRequest("gpu"));
  EXPECT_EQ(Error(), "claim c: request name 'gpu' is used twice");
  spec_.requests.pop_back();

  spec_.requests[0].exactly.count = 0;
  EXPECT_EQ(Error(),
            "claim c: request gpu: count must be >= 1 with allocationMode "
            "ExactCount, got 0");
  spec_.requests[0].exactly.allocation_mode = DeviceAllocationMode::kAll;
  EXPECT_EQ(Error(), "");
  spec_.requests[0].exactly.count = 1;

  spec_.requests[0].exactly.device_class_name = "tpu.example.com";
  EXPECT_EQ(Error(),
            "claim c: request gpu: unknown DeviceClass 'tpu.example.com'");
  spec_.requests[0].exactly.device_class_name = "gpu.nvidia.com";

  spec_.requests[0].admin_access = true;
  EXPECT_EQ(Error(), "claim c: request gpu: adminAccess is not modelled");
  spec_.requests[0].admin_access = false;

  spec_.requests[0].first_available.push_back({"x", {}});
  EXPECT_EQ(Error(),
            "claim c: request gpu: expected exactly one of 'exactly' and "
            "'firstAvailable'");
  spec_.requests[0].has_exactly = false;
  for (int i = 1; i < 9; ++i) {
    spec_.requests[0].first_available.push_back({"x" + std::to_string(i), {}});
  }
  for (DeviceSubRequest& s : spec_.requests[0].first_available) {
    s.selection.device_class_name = "gpu.nvidia.com";
  }
  EXPECT_EQ(Error(),
            "claim c: request gpu: firstAvailable has 9 subrequests (at most "
            "8)");
  spec_.requests[0].first_available.resize(8);
  EXPECT_EQ(Error(), "");
  spec_.requests[0].first_available[1].name = "x";
  EXPECT_EQ(Error(), "claim c: request gpu: subrequest name 'x' is used twice");

  spec_.requests.clear();
  EXPECT_EQ(Error(),
            "claim c: devices.requests must have 1 to 32 entries, got 0");
  for (int i = 0; i < 33; ++i) {
    spec_.requests.push_back(ClaimTestRequest("r" + std::to_string(i)));
  }
  EXPECT_EQ(Error(),
            "claim c: devices.requests must have 1 to 32 entries, got 33");
}

TEST_F(DraResourceClaimTest, RefusesBadConstraints) {
  spec_.constraints.push_back({{}, "productName"});
  EXPECT_EQ(Error(),
            "claim c: constraint #0: matchAttribute 'productName' is not a "
            "fully qualified name (DOMAIN/NAME, e.g. "
            "gpu.nvidia.com/productName)");
  spec_.constraints[0].match_attribute = "gpu.nvidia.com/productName";
  spec_.constraints[0].requests = {"gpu/big"};
  EXPECT_EQ(Error(),
            "claim c: constraint #0: requests names 'gpu/big', which is no "
            "request or subrequest of the claim");
}

TEST_F(DraResourceClaimTest, TemplateYieldsOneClaimPerPod) {
  ResourceClaimTemplate t;
  t.name = "one-gpu";
  t.spec = spec_;
  const ResourceClaim a = t.ClaimFor("pod-a", "gpu");
  const ResourceClaim b = t.ClaimFor("pod-b", "gpu");
  EXPECT_EQ(a.name, "pod-a-gpu");
  EXPECT_EQ(b.name, "pod-b-gpu");
  EXPECT_EQ(b.spec.requests[0].name, "gpu");
  EXPECT_TRUE(IsDraDnsLabel("a-1"));
  EXPECT_FALSE(IsDraDnsLabel("-a"));
  EXPECT_FALSE(IsDraDnsLabel(std::string(64, 'a')));
}

}  // namespace
}  // namespace gpushare
