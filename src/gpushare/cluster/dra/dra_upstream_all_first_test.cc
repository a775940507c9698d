// Upstream's structured-allocator table, part 2: allocationMode All and
// firstAvailable (prioritized lists). Same source and rules as
// dra_upstream_basic_test.cc: upstream's case names and facts, our code.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/test_dra_upstream.h"

namespace gpushare {
namespace upstream_table {
namespace {

std::vector<DeviceClass> UpAfClasses() {
  return {UpClass(kClassA, kDriverA), UpClass(kClassB, kDriverB)};
}

ResourceSlice UpAfOne(const std::string& slice, const std::string& pool,
                      const std::string& driver) {
  return UpSlice(slice, kNode1, pool, driver, {UpDevice("device-1", driver)});
}

ResourceSlice UpAfTwo() {
  return UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                 {UpDevice("device-1"), UpDevice("device-2")});
}

std::string UpAf(const std::vector<ResourceSlice>& slices,
                 const std::vector<ResourceClaim>& claims,
                 const AllocatedDevices& held = {},
                 std::vector<DeviceClass> classes = UpAfClasses()) {
  return UpResults(UpRun(slices, classes, claims, held));
}

TEST(DraUpstreamAllTest, AllDevicesSingle) {
  EXPECT_EQ(UpAf({UpAfOne("slice-1", "pool-1", kDriverA)},
                 {UpClaim("claim-0", {UpAll("req-0", kClassA)})}),
            "req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamAllTest, AllDevicesMany) {
  EXPECT_EQ(UpAf({UpAfOne("slice-1", "pool-1", kDriverA),
                  UpAfOne("slice-1", "pool-2", kDriverA)},
                 {UpClaim("claim-0", {UpAll("req-0", kClassA)})}),
            "req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1");
}

TEST(DraUpstreamAllTest, AllDevicesOfTheIncompletePool) {
  ResourceSlice s = UpAfOne("slice-1", "pool-1", kDriverA);
  s.resource_slice_count = 2;
  EXPECT_EQ(UpAf({s}, {UpClaim("claim-0", {UpAll("req-0", kClassA)})}),
            "Error: claim claim-0, request req-0: asks for all devices, but "
            "resource pool driver-a/pool-1 is currently being updated");
}

ResourceClaim UpAfAllA(const std::string& name) {
  return UpClaim(name, {UpAll("req-0", kClassA)});
}
ResourceClaim UpAfOneB(const std::string& name) {
  return UpClaim(name, {UpReq("req-0", kClassB)});
}

TEST(DraUpstreamAllTest, AllDevicesPlusAnother) {
  const std::vector<ResourceSlice> slices = {
      UpAfOne("slice-1", "pool-1", kDriverA),
      UpAfOne("slice-1", "pool-1", kDriverB)};
  EXPECT_EQ(UpAf(slices, {UpAfAllA("claim-0"), UpAfOneB("claim-1")}),
            "req-0=driver-a/pool-1/device-1 | req-0=driver-b/pool-1/device-1");
  // all-devices-plus-another-reversed
  EXPECT_EQ(UpAf(slices, {UpAfOneB("claim-1"), UpAfAllA("claim-0")}),
            "req-0=driver-b/pool-1/device-1 | req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamAllTest, AllDevicesManyPlusAnother) {
  const std::vector<ResourceSlice> slices = {
      UpAfTwo(), UpAfOne("slice-1", "pool-1", kDriverB)};
  EXPECT_EQ(UpAf(slices, {UpAfAllA("claim-0"), UpAfOneB("claim-1")}),
            "req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-1/device-2 | "
            "req-0=driver-b/pool-1/device-1");
  // all-devices-many-plus-another-reversed
  EXPECT_EQ(UpAf(slices, {UpAfOneB("claim-1"), UpAfAllA("claim-0")}),
            "req-0=driver-b/pool-1/device-1 | req-0=driver-a/pool-1/device-1 "
            "req-0=driver-a/pool-1/device-2");
}

TEST(DraUpstreamAllTest, AllDevicesNoSolution) {
  const std::vector<ResourceSlice> slices = {
      UpAfOne("slice-1", "pool-1", kDriverA)};
  const ResourceClaim one = UpClaim("claim-1", {UpReq("req-0", kClassA)});
  EXPECT_EQ(UpAf(slices, {one, UpAfAllA("claim-0")}), kUpNoFit);
  // all-devices-no-solution-reversed
  EXPECT_EQ(UpAf(slices, {UpAfAllA("claim-0"), one}), kUpNoFit);
}

TEST(DraUpstreamAllTest, AllDevicesSliceWithoutDevicesOrNoSlices) {
  EXPECT_EQ(UpAf({UpSlice("slice-1", kNode1, "pool-1", kDriverA, {})},
                 {UpAfAllA("claim-0")}),
            kUpNoFit);
  // all-devices-no-slices
  EXPECT_EQ(UpAf({}, {UpAfAllA("claim-0")}), kUpNoFit);
}

TEST(DraUpstreamAllTest, AllDevicesSomeAllocated) {
  EXPECT_EQ(UpAf({UpAfTwo()}, {UpAfAllA("claim-0")},
                 UpHeld({"driver-a/pool-1/device-1"})),
            kUpNoFit);
}

// firstAvailable: All of class-a, else one of class-b.
ResourceClaim UpAfAllElseB() {
  return UpClaim("claim-0", {UpFirst("req-0", {UpSubAll("subreq-0", kClassA),
                                               UpSub("subreq-1", kClassB)})});
}

TEST(DraUpstreamAllTest, AllDevicesSliceWithoutDevicesPrioritizedList) {
  EXPECT_EQ(UpAf({UpSlice("slice-1", kNode1, "pool-1", kDriverA, {}),
                  UpAfOne("slice-2", "pool-2", kDriverB)},
                 {UpAfAllElseB()}),
            "req-0/subreq-1=driver-b/pool-2/device-1");
}

TEST(DraUpstreamAllTest, AllDevicesNoSlicesPrioritizedList) {
  EXPECT_EQ(UpAf({UpAfOne("slice-2", "pool-2", kDriverB)}, {UpAfAllElseB()}),
            "req-0/subreq-1=driver-b/pool-2/device-1");
}

TEST(DraUpstreamAllTest, AllDevicesSomeAllocatedPrioritizedList) {
  EXPECT_EQ(UpAf({UpAfTwo(), UpAfOne("slice-2", "pool-2", kDriverB)},
                 {UpAfAllElseB()}, UpHeld({"driver-a/pool-1/device-1"})),
            "req-0/subreq-1=driver-b/pool-2/device-1");
}

TEST(DraUpstreamFirstAvailableTest, FirstUnavailable) {
  EXPECT_EQ(UpAf({UpAfOne("slice-1", "pool-1", kDriverA)},
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSub("subreq-0", kClassB),
                                             UpSub("subreq-1", kClassA)})})}),
            "req-0/subreq-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest, NonAvailable) {
  EXPECT_EQ(UpAf({UpAfOne("slice-1", "pool-1", kDriverA),
                  UpAfOne("slice-2", "pool-2", kDriverB)},
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSub("subreq-0", kClassB, 2),
                                             UpSub("subreq-1", kClassA, 2)})})}),
            kUpNoFit);
}

TEST(DraUpstreamFirstAvailableTest, SubrequestsWithExpressions) {
  const ResourceSlice s = UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                                  {UpDevice("device-1").Cap("memory", 2 * kGi),
                                   UpDevice("device-2").Cap("memory", 2 * kGi),
                                   UpDevice("device-3").Cap("memory", kGi)});
  const ResourceClaim claim = UpClaim(
      "claim-0",
      {UpReq("req-0", kClassA, 1, UpMemoryAtLeast("1Gi")),
       UpFirst("req-1",
               {UpSub("subreq-0", kClassA, 1, UpMemoryAtLeast("4Gi")),
                UpSub("subreq-1", kClassA, 2, UpMemoryAtLeast("2Gi"))})});
  EXPECT_EQ(UpAf({s}, {claim}),
            "req-0=driver-a/pool-1/device-3 "
            "req-1/subreq-1=driver-a/pool-1/device-1 "
            "req-1/subreq-1=driver-a/pool-1/device-2");
}

// The slices of the two constraint cases: an 8Gi device in pool-1, a 2Gi
// version-2 device (and, with `with_third`, a 1Gi version-1 one) in pool-2.
std::vector<ResourceSlice> UpAfVersioned(bool with_third) {
  std::vector<Device> pool2 = {
      UpDevice("device-2").Cap("memory", 2 * kGi).Version("driverVersion", 2,
                                                          0, 0)};
  if (with_third) {
    pool2.push_back(UpDevice("device-3").Cap("memory", kGi).Version(
        "driverVersion", 1, 0, 0));
  }
  return {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                  {UpDevice("device-1").Cap("memory", 8 * kGi).Version(
                      "driverVersion", 1, 0, 0)}),
          UpSlice("slice-2", kNode1, "pool-2", kDriverA, pool2)};
}

ResourceClaim UpAfConstrained(std::vector<std::string> constrained) {
  return UpClaim(
      "claim-0",
      {UpReq("req-0", kClassA, 1, UpMemoryAtLeast("8Gi")),
       UpFirst("req-1",
               {UpSub("subreq-0", kClassA, 1, UpMemoryAtLeast("2Gi")),
                UpSub("subreq-1", kClassA, 1, UpMemoryAtLeast("1Gi"))})},
      {UpMatch("driverVersion", std::move(constrained))});
}

TEST(DraUpstreamFirstAvailableTest, SubrequestsWithConstraintsRefParentRequest) {
  EXPECT_EQ(UpAf(UpAfVersioned(true), {UpAfConstrained({"req-0", "req-1"})}),
            "req-0=driver-a/pool-1/device-1 "
            "req-1/subreq-1=driver-a/pool-2/device-3");
}

TEST(DraUpstreamFirstAvailableTest, SubrequestsWithConstraintsRefSubRequest) {
  EXPECT_EQ(UpAf(UpAfVersioned(false),
                 {UpAfConstrained({"req-0", "req-1/subreq-0"})}),
            "req-0=driver-a/pool-1/device-1 "
            "req-1/subreq-1=driver-a/pool-2/device-2");
}

TEST(DraUpstreamFirstAvailableTest, SubrequestsWithAllocationModeAll) {
  EXPECT_EQ(UpAf({UpAfTwo()},
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSubAll("subreq-0", kClassA),
                                             UpSub("subreq-1", kClassA)})})},
                 UpHeld({"driver-a/pool-1/device-1"})),
            "req-0/subreq-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamFirstAvailableTest, AllocationModeAllMultipleRequests) {
  EXPECT_EQ(UpAf({UpAfTwo()},
                 {UpClaim("claim-0",
                          {UpReq("req-0", kClassA),
                           UpFirst("req-1", {UpSubAll("subreq-0", kClassA),
                                             UpSub("subreq-1", kClassA)})})}),
            "req-0=driver-a/pool-1/device-1 "
            "req-1/subreq-1=driver-a/pool-1/device-2");
}

// device-1 with 8Gi in pool-1, device-2 with 4Gi in pool-2.
std::vector<ResourceSlice> UpAfEightAndFour() {
  return {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                  {UpDevice("device-1").Cap("memory", 8 * kGi)}),
          UpSlice("slice-2", kNode1, "pool-2", kDriverA,
                  {UpDevice("device-2").Cap("memory", 4 * kGi)})};
}

DraDeviceRequest UpAfEightElseFour(const std::string& name) {
  return UpFirst(name,
                 {UpSub("subreq-0", kClassA, 1, UpMemoryAtLeast("8Gi")),
                  UpSub("subreq-1", kClassA, 1, UpMemoryAtLeast("4Gi"))});
}

TEST(DraUpstreamFirstAvailableTest, MultiRequest) {
  EXPECT_EQ(UpAf(UpAfEightAndFour(),
                 {UpClaim("claim-0",
                          {UpReq("req-1", kClassA, 1, UpMemoryAtLeast("8Gi")),
                           UpAfEightElseFour("req-0")})}),
            "req-0/subreq-1=driver-a/pool-2/device-2 "
            "req-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest, WithBacktracking) {
  EXPECT_EQ(UpAf(UpAfEightAndFour(),
                 {UpClaim("claim-0",
                          {UpAfEightElseFour("req-0"),
                           UpReq("req-1", kClassA, 1, UpMemoryAtLeast("8Gi"))})}),
            "req-0/subreq-1=driver-a/pool-2/device-2 "
            "req-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest, TooManyInFirstSubrequest) {
  EXPECT_EQ(UpAf({UpAfOne("slice-1", "pool-1", kDriverA)},
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSub("subreq-0", kClassB, 500),
                                             UpSub("subreq-1", kClassA)})})}),
            "req-0/subreq-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest, AllocationModeAll) {
  EXPECT_EQ(UpAf({UpAfTwo()},
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSubAll("subreq-0", kClassA),
                                             UpSub("subreq-1", kClassA)})})},
                 UpHeld({"driver-a/pool-1/device-2"})),
            "req-0/subreq-1=driver-a/pool-1/device-1");
}

// All of generation v6, else all of generation v5.
ResourceClaim UpAfGenerations() {
  const std::string v6 = "device.attributes[\"driver-a\"].generation == \"v6\"";
  const std::string v5 = "device.attributes[\"driver-a\"].generation == \"v5\"";
  return UpClaim("claim-0", {UpFirst("req-0", {UpSubAll("subreq-0", kClassA, v6),
                                               UpSubAll("subreq-1", kClassA, v5)})});
}

TEST(DraUpstreamFirstAvailableTest, AllocationModeAllWithSelectors) {
  EXPECT_EQ(UpAf({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                          {UpDevice("device-1").Str("generation", "v5")})},
                 {UpAfGenerations()}),
            "req-0/subreq-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest, AllocationModeAllWithSelectorsMultiplePools) {
  EXPECT_EQ(UpAf({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                          {UpDevice("device-1").Str("generation", "v5")}),
                  UpSlice("slice-2", kNode1, "pool-2", kDriverA,
                          {UpDevice("device-1").Str("generation", "v5")})},
                 {UpAfGenerations()}),
            "req-0/subreq-1=driver-a/pool-1/device-1 "
            "req-0/subreq-1=driver-a/pool-2/device-1");
}

TEST(DraUpstreamFirstAvailableTest,
     AllocationModeAllWithSelectorsMultiplePoolsAcrossNodes) {
  EXPECT_EQ(UpAf({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                          {UpDevice("device-1").Str("generation", "v5")}),
                  UpSlice("slice-2", kNode2, "pool-2", kDriverA,
                          {UpDevice("device-1").Str("generation", "v5"),
                           UpDevice("device-2").Str("generation", "v6")})},
                 {UpAfGenerations()}),
            "req-0/subreq-1=driver-a/pool-1/device-1");
}

TEST(DraUpstreamFirstAvailableTest,
     AllocationModeAllWithSelectorsDeviceClassSubset) {
  DeviceClass selected;
  selected.name = kClassA;
  selected.selectors.push_back(
      UpCel("device.driver == \"driver-a\" && "
            "device.attributes[\"driver-a\"].selected"));
  const ResourceSlice s = UpSlice(
      "slice-1", kNode1, "pool-1", kDriverA,
      {UpDevice("device-1").Str("generation", "v6").Bool("selected", false),
       UpDevice("device-2").Str("generation", "v5").Bool("selected", false),
       UpDevice("device-3").Str("generation", "v5").Bool("selected", true)});
  std::vector<DeviceClass> classes;
  classes.push_back(std::move(selected));
  EXPECT_EQ(UpAf({s}, {UpAfGenerations()}, {}, std::move(classes)),
            "req-0/subreq-1=driver-a/pool-1/device-3");
}

std::vector<Device> UpAfNumbered(int n, const std::string& driver) {
  std::vector<Device> devices;
  for (int i = 0; i < n; ++i) {
    devices.push_back(UpDevice("device-" + std::to_string(i), driver));
  }
  return devices;
}

TEST(DraUpstreamFirstAvailableTest, MaxAllocationAllocationModeAll) {
  // All of class-a would be 31 devices, 33 with req-1's two: over the
  // claim's 32, so the second subrequest is chosen.
  const std::vector<ResourceSlice> slices = {
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              UpAfNumbered(31, kDriverA)),
      UpSlice("slice-2", kNode1, "pool-2", kDriverB,
              UpAfNumbered(2, kDriverB))};
  EXPECT_EQ(UpAf(slices,
                 {UpClaim("claim-0",
                          {UpFirst("req-0", {UpSubAll("subreq-0", kClassA),
                                             UpSub("subreq-1", kClassA, 2)}),
                           UpReq("req-1", kClassB, 2)})}),
            "req-0/subreq-1=driver-a/pool-1/device-0 "
            "req-0/subreq-1=driver-a/pool-1/device-1 "
            "req-1=driver-b/pool-2/device-0 req-1=driver-b/pool-2/device-1");
}

TEST(DraUpstreamFirstAvailableTest, CheckCombinationsWithPrioritizedList) {
  const std::string x = "device.attributes[\"driver-a\"].type == \"X\"";
  const std::string y = "device.attributes[\"driver-a\"].type == \"Y\"";
  const ResourceSlice s = UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                                  {UpDevice("device-1").Str("type", "X"),
                                   UpDevice("device-2").Str("type", "Y"),
                                   UpDevice("device-3").Str("type", "Y")});
  const AllocationOutcome out = UpRun(
      {s}, UpAfClasses(),
      {UpClaim("claim-0",
               {UpFirst("req-1", {UpSub("subreq-0", kClassA, 3, y),
                                  UpSub("subreq-1", kClassA, 2)}),
                UpFirst("req-2", {UpSub("subreq-0", kClassA, 2),
                                  UpSub("subreq-1", kClassA, 1, x)})})});
  EXPECT_EQ(UpResults(out),
            "req-1/subreq-1=driver-a/pool-1/device-2 "
            "req-1/subreq-1=driver-a/pool-1/device-3 "
            "req-2/subreq-1=driver-a/pool-1/device-1");
  EXPECT_EQ(out.steps, 32);  // the table's count for the stable allocator
}

}  // namespace
}  // namespace upstream_table
}  // namespace gpushare
