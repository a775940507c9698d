// Upstream's structured-allocator table, part 1: exact counts, several
// requests, claims and drivers, backtracking, matchAttribute, pool
// generations and the claim's device limit. Each TEST is one case of
// kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/
// structured/internal/allocatortesting/allocator_testing.go (read at commit
// 3c6bdf290c3a54b55bbea253cce51b99af339d83, omeryahud/kubernetes mirror of
// master) under its upstream name; the facts (objects and the expected
// allocation or error) are upstream's, the test code is ours
// (test_dra_upstream.h). docs/dra.md lists the cases left out and why.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/test_dra_upstream.h"

namespace gpushare {
namespace upstream_table {
namespace {

std::vector<DeviceClass> UpBasicClasses() {
  return {UpClass(kClassA, kDriverA), UpClass(kClassB, kDriverB)};
}

ResourceSlice UpBasicOne(const std::string& slice, const std::string& node,
                         const std::string& pool, const std::string& driver) {
  return UpSlice(slice, node, pool, driver, {UpDevice("device-1", driver)});
}

// device-0 .. device-(n-1).
ResourceSlice UpBasicMany(int n) {
  std::vector<Device> devices;
  for (int i = 0; i < n; ++i) {
    devices.push_back(UpDevice("device-" + std::to_string(i)));
  }
  return UpSlice("slice-1", kNode1, "pool-1", kDriverA, devices);
}

std::string UpBasic(const std::vector<ResourceSlice>& slices,
                    const std::vector<ResourceClaim>& claims,
                    const AllocatedDevices& held = {},
                    const std::string& node = kNode1) {
  return UpResults(UpRun(slices, UpBasicClasses(), claims, held, node));
}

TEST(DraUpstreamBasicTest, Simple) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)})}),
            "req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamBasicTest, OtherNode) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverB),
                     UpBasicOne("slice-2", kNode2, "pool-2", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)})}, {},
                    kNode2),
            "req-0=driver-a/pool-2/device-1");
}

ResourceClaim UpSmallAndLarge() {
  return UpClaim("claim-0", {UpReq("req-0", kClassA, 1, UpMemoryAtLeast("1Gi")),
                             UpReq("req-1", kClassA, 1, UpMemoryAtLeast("2Gi"))});
}

TEST(DraUpstreamBasicTest, SmallAndLarge) {
  const ResourceSlice s = UpSlice(
      "slice-1", kNode1, "pool-1", kDriverA,
      {UpDevice("device-1").Cap("memory", kGi),
       UpDevice("device-2").Cap("memory", 2 * kGi)});
  EXPECT_EQ(UpBasic({s}, {UpSmallAndLarge()}),
            "req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamBasicTest, SmallAndLargeBacktrackRequests) {
  const ResourceSlice s = UpSlice(
      "slice-1", kNode1, "pool-1", kDriverA,
      {UpDevice("device-2").Cap("memory", 2 * kGi),
       UpDevice("device-1").Cap("memory", kGi)});
  EXPECT_EQ(UpBasic({s}, {UpSmallAndLarge()}),
            "req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamBasicTest, SmallAndLargeBacktrackClaims) {
  const ResourceSlice s = UpSlice(
      "slice-1", kNode1, "pool-1", kDriverA,
      {UpDevice("device-2").Cap("memory", 2 * kGi),
       UpDevice("device-1").Cap("memory", kGi)});
  EXPECT_EQ(
      UpBasic({s},
              {UpClaim("claim-0",
                       {UpReq("req-0", kClassA, 1, UpMemoryAtLeast("1Gi"))}),
               UpClaim("claim-1",
                       {UpReq("req-1", kClassA, 1, UpMemoryAtLeast("2Gi"))})}),
      "req-0=driver-a/pool-1/device-1 | req-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamBasicTest, DevicesSplitAcrossDifferentSlices) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA),
                     UpBasicOne("slice-2", kNode1, "pool-2", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA, 2)})}),
            "req-0=driver-a/pool-1/device-1 req-0=driver-a/pool-2/device-1");
}

TEST(DraUpstreamBasicTest, ObsoleteSlice) {
  // Generation 2 has one of its two slices: the pool is incomplete.
  EXPECT_EQ(
      UpBasic({UpSlice("slice-1-obsolete", kNode1, "pool-1", kDriverA,
                       {UpDevice("device-1")}, 2, 1),
               UpSlice("slice-1-obsolete", kNode1, "pool-1", kDriverA,
                       {UpDevice("device-2")}, 2, 2)},
              {UpClaim("claim-0", {UpReq("req-0", kClassA)})}),
      kUpNoFit);
}

TEST(DraUpstreamBasicTest, DuplicateSlice) {
  // Two copies of one slice under two names: device-1 is listed twice.
  const std::string out = UpBasic(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA, {UpDevice("device-1")},
               2),
       UpSlice("slice-1-2", kNode1, "pool-1", kDriverA,
               {UpDevice("device-1")}, 2)},
      {UpClaim("claim-0", {UpReq("req-0", kClassA)})});
  EXPECT_EQ(out.rfind("Error: invalid resource pools were encountered", 0), 0u)
      << out;
}

TEST(DraUpstreamBasicTest, NoSlices) {
  EXPECT_EQ(UpBasic({}, {UpClaim("claim-0", {UpReq("req-0", kClassA)})}),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, NotEnoughSuitableDevices) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)}),
                     UpClaim("claim-0", {UpReq("req-1", kClassA)})}),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, UnknownClass) {
  // Upstream's allocator errors ("could not retrieve device class"); the
  // plugin's PreFilter answers first, Unschedulable, as here.
  const ResourceClaim claim =
      UpClaim("claim-0", {UpReq("req-0", "unknown-class")});
  const AllocationOutcome out =
      UpRun({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
            UpBasicClasses(), {claim}, {}, kNode1, /*validate=*/false);
  EXPECT_EQ(UpResults(out),
            "Unschedulable: request req-0: device class unknown-class does "
            "not exist");
}

TEST(DraUpstreamBasicTest, NoClaimsToAllocate) {
  const AllocationOutcome out =
      UpRun({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
            UpBasicClasses(), {});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_TRUE(out.results.empty());
}

TEST(DraUpstreamBasicTest, AlreadyAllocatedDevices) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)})},
                    UpHeld({"driver-a/pool-1/device-1",
                            "driver-a/pool-1/device-2"})),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, SeveralDifferentDrivers) {
  const ResourceSlice a =
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpDevice("device-1"), UpDevice("device-2")});
  EXPECT_EQ(UpBasic({a, UpBasicOne("slice-1", kNode1, "pool-1", kDriverB)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)}),
                     UpClaim("claim-0", {UpReq("req-0", kClassB)})}),
            "req-0=driver-a/pool-1/device-1 | req-0=driver-b/pool-1/device-1");
}

// Two devices with the four attributes of the with-constraint cases.
UpDevice UpConstrained(const std::string& name) {
  UpDevice d(name);
  d.Version("driverVersion", 1, 0, 0)
      .Int("numa", 1)
      .Str("stringAttribute", "stringAttributeValue")
      .Bool("boolAttribute", true);
  return d;
}

TEST(DraUpstreamBasicTest, WithConstraint) {
  const ResourceSlice s =
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpConstrained("device-1"), UpConstrained("device-2")});
  EXPECT_EQ(
      UpBasic({s}, {UpClaim("claim-0",
                            {UpReq("req-0", kClassA), UpReq("req-1", kClassA)},
                            {UpMatch("numa"), UpMatch("driverVersion"),
                             UpMatch("stringAttribute"),
                             UpMatch("boolAttribute")})}),
      "req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamBasicTest, WithConstraintNonExistentAttribute) {
  EXPECT_EQ(UpBasic({UpBasicOne("slice-1", kNode1, "pool-1", kDriverA)},
                    {UpClaim("claim-0", {UpReq("req-0", kClassA)},
                             {UpMatch("NonExistentAttribute")})}),
            kUpNoFit);
}

// Two devices differing in one attribute, a claim of two devices that must
// match it.
std::string UpMismatch(UpDevice one, UpDevice two,
                       const std::string& attribute) {
  return UpBasic({UpSlice("slice-1", kNode1, "pool-1", kDriverA, {one, two})},
                 {UpClaim("claim-0", {UpReq("req-0", kClassA, 2)},
                          {UpMatch(attribute)})});
}

TEST(DraUpstreamBasicTest, WithConstraintNotMatchingIntAttribute) {
  EXPECT_EQ(UpMismatch(UpDevice("device-1").Int("numa", 1),
                       UpDevice("device-2").Int("numa", 2), "numa"),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, WithConstraintNotMatchingStringAttribute) {
  EXPECT_EQ(UpMismatch(
                UpDevice("device-1").Str("stringAttribute", "stringAttributeValue"),
                UpDevice("device-2").Str("stringAttribute",
                                         "stringAttributeValue2"),
                "stringAttribute"),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, WithConstraintNotMatchingBoolAttribute) {
  EXPECT_EQ(UpMismatch(UpDevice("device-1").Bool("boolAttribute", true),
                       UpDevice("device-2").Bool("boolAttribute", false),
                       "boolAttribute"),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, WithConstraintNotMatchingVersionAttribute) {
  EXPECT_EQ(UpMismatch(UpDevice("device-1").Version("driverVersion", 1, 0, 0),
                       UpDevice("device-2").Version("driverVersion", 2, 0, 0),
                       "driverVersion"),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, WithConstraintNotMatchingIntAttributeAllDevices) {
  const ResourceSlice s = UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                                  {UpDevice("device-1").Int("numa", 1),
                                   UpDevice("device-2").Int("numa", 2)});
  EXPECT_EQ(UpBasic({s}, {UpClaim("claim-0", {UpAll("req-0", kClassA)},
                                  {UpMatch("numa")})}),
            "Error: claim claim-0, request req-0: cannot add device "
            "driver-a/pool-1/device-2 because a claim constraint would not "
            "be satisfied");
}

TEST(DraUpstreamBasicTest, WithConstraintForRequest) {
  const ResourceSlice s =
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpDevice("device-1").Version("driverVersion", 1, 0, 0),
               UpDevice("device-2").Version("driverVersion", 2, 0, 0)});
  EXPECT_EQ(
      UpBasic({s}, {UpClaim("claim-0",
                            {UpReq("req-0", kClassA), UpReq("req-1", kClassA)},
                            {UpMatch("driverVersion", {"req-0"})})}),
      "req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamBasicTest, WithConstraintForRequestRetry) {
  const ResourceSlice s = UpSlice(
      "slice-1", kNode1, "pool-1", kDriverA,
      {UpDevice("device-1").Version("driverVersion", 1, 0, 0).Str(
           "stringAttribute", "a"),
       UpDevice("device-2").Version("driverVersion", 2, 0, 0).Str(
           "stringAttribute", "b"),
       UpDevice("device-3").Version("driverVersion", 3, 0, 0).Str(
           "stringAttribute", "b")});
  EXPECT_EQ(
      UpBasic({s}, {UpClaim("claim-0",
                            {UpReq("req-0", kClassA), UpReq("req-1", kClassA)},
                            {UpMatch("driverVersion", {"req-0"}),
                             UpMatch("stringAttribute")})}),
      "req-0=driver-a/pool-1/device-2 req-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamBasicTest, TooManyDevicesSingleRequest) {
  const std::string out =
      UpBasic({}, {UpClaim("claim-0", {UpReq("req-0", kClassA, 500)})});
  EXPECT_NE(out.find("Error: "), std::string::npos) << out;
  EXPECT_NE(out.find("exceeds the claim limit"), std::string::npos) << out;
}

TEST(DraUpstreamBasicTest, ManyDevicesOkay) {
  // 32 devices asked, none published: no error, no allocation.
  EXPECT_EQ(UpBasic({}, {UpClaim("claim-0", {UpReq("req-0", kClassA, 32)})}),
            kUpNoFit);
}

TEST(DraUpstreamBasicTest, TooManyDevicesTotal) {
  const std::string out = UpBasic(
      {UpBasicMany(33)}, {UpClaim("claim-0", {UpReq("req-0", kClassA, 32),
                                              UpReq("req-1", kClassA, 1)})});
  EXPECT_NE(out.find("exceeds the claim limit"), std::string::npos) << out;
}

TEST(DraUpstreamBasicTest, MaxNumberDevices) {
  const AllocationOutcome out =
      UpRun({UpBasicMany(32)}, UpBasicClasses(),
            {UpClaim("claim-0", {UpReq("req-0", kClassA, 32)})});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  ASSERT_EQ(out.results[0].devices.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(out.results[0].devices[i].device, "device-" + std::to_string(i));
  }
}

// The check-combinations cases count calls of the search; ours counts as
// upstream's stable allocator does (its numbers are the table's "Stable"
// overrides).
TEST(DraUpstreamBasicTest, CheckCombinationsWithinSingleRequestSinglePoolSingleSlice) {
  const ResourceSlice s =
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpDevice("device-1"), UpDevice("device-2"),
               UpDevice("device-3"), UpDevice("device-4")});
  const AllocationOutcome out =
      UpRun({s}, UpBasicClasses(),
            {UpClaim("claim-0", {UpReq("req-0", kClassA, 5)})});
  EXPECT_EQ(UpResults(out), kUpNoFit);
  EXPECT_EQ(out.steps, 65);
}

TEST(DraUpstreamBasicTest, CheckCombinationsWithinSingleRequestManyPools) {
  std::vector<ResourceSlice> slices;
  for (int i = 1; i <= 4; ++i) {
    const std::string n = std::to_string(i);
    slices.push_back(UpSlice("slice-" + n, kNode1, "pool-" + n, kDriverA,
                             {UpDevice("device-" + n)}));
  }
  const AllocationOutcome out =
      UpRun(slices, UpBasicClasses(),
            {UpClaim("claim-0", {UpReq("req-0", kClassA, 5)})});
  EXPECT_EQ(UpResults(out), kUpNoFit);
  EXPECT_EQ(out.steps, 65);
}

TEST(DraUpstreamBasicTest, CheckCombinationsWithBacktracking) {
  const ResourceSlice s = UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                                  {UpDevice("device-1").Str("type", "X"),
                                   UpDevice("device-2").Str("type", "Y"),
                                   UpDevice("device-3").Str("type", "Y")});
  const AllocationOutcome out = UpRun(
      {s}, UpBasicClasses(),
      {UpClaim("claim-0",
               {UpReq("req-1", kClassA, 2),
                UpReq("req-2", kClassA, 1,
                      "device.attributes[\"driver-a\"].type == \"X\"")})});
  EXPECT_EQ(UpResults(out),
            "req-1=driver-a/pool-1/device-2 req-1=driver-a/pool-1/device-3 "
            "req-2=driver-a/pool-1/device-1");
  EXPECT_EQ(out.steps, 14);
}

}  // namespace
}  // namespace upstream_table
}  // namespace gpushare
