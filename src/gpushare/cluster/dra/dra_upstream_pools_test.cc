// Upstream's structured-allocator table, part 3: partitionable devices
// (KEP-4815 counters), invalid and incomplete pools, and pools whose slices
// span nodes. Same source and rules as dra_upstream_basic_test.cc:
// upstream's case names and facts, our code.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/test_dra_upstream.h"

namespace gpushare {
namespace upstream_table {
namespace {

std::vector<DeviceClass> UpPoolClasses() {
  return {UpClass(kClassA, kDriverA), UpClass(kClassB, kDriverB)};
}

std::string UpPools(const std::vector<ResourceSlice>& slices,
                    const std::vector<ResourceClaim>& claims,
                    const AllocatedDevices& held = {},
                    const std::string& node = kNode1) {
  return UpResults(UpRun(slices, UpPoolClasses(), claims, held, node));
}

bool UpIsInvalidPoolError(const std::string& out) {
  return out.rfind("Error: invalid resource pools were encountered", 0) == 0;
}

ResourceClaim UpOne(int count = 1) {
  return UpClaim("claim-0", {UpReq("req-0", kClassA, count)});
}

// A device consuming `memory` Gi of counter-set-1, with that memory as its
// capacity.
UpDevice UpMem(const std::string& name, int64_t gi) {
  UpDevice d(name);
  d.Consumes("counter-set-1", {{"memory", gi * kGi}}, true);
  return d;
}

CounterSet UpSet(const std::string& name, std::vector<DeviceCounter> c) {
  return {name, std::move(c)};
}

TEST(DraUpstreamCountersTest, AllDevicesWithConsumedCounters) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                             {UpMem("device-1", 4)}, 2),
                     UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                                    {UpSet("counter-set-1",
                                           {{"memory", 8 * kGi}})})},
                    {UpClaim("claim-0", {UpAll("req-0", kClassA)})}),
            "req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamCountersTest, SingleDevice) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                             {UpMem("device-1", 4)}, 2),
                     UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                                    {UpSet("counter-set-1",
                                           {{"memory", 8 * kGi}})})},
                    {UpOne()}),
            "req-0=driver-a/pool-1/device-1");
}

// Each driver's pool-1 has its own counter-set-1 (or counter-set-2 for
// driver-b when `other_set`), with device consumptions as given.
std::vector<ResourceSlice> UpTwoDriverPools(int64_t b_consumes,
                                            int64_t b_has, bool other_set) {
  const std::string b_set = other_set ? "counter-set-2" : "counter-set-1";
  const std::string b_counter = other_set ? "d" : "c";
  return {
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpDevice("device-1").Consumes("counter-set-1", {{"c", 1}})}, 2),
      UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                     {UpSet("counter-set-1", {{"c", 1}})}),
      UpSlice("slice-3", kNode1, "pool-1", kDriverB,
              {UpDevice("device-2", kDriverB)
                   .Consumes(b_set, {{b_counter, b_consumes}})},
              2),
      UpCounterSlice("slice-4", kNode1, "pool-1", kDriverB,
                     {UpSet(b_set, {{b_counter, b_has}})})};
}

const std::vector<ResourceClaim> kUpTwoClaims = {
    UpClaim("claim-0", {UpReq("req-0", kClassA)}),
    UpClaim("claim-1", {UpReq("req-1", kClassB)})};

TEST(DraUpstreamCountersTest, CounterCacheScopedByPoolId) {
  EXPECT_EQ(UpPools(UpTwoDriverPools(2, 2, false), kUpTwoClaims),
            "req-0=driver-a/pool-1/device-1 | req-1=driver-b/pool-1/device-2");
}

TEST(DraUpstreamCountersTest, CounterCacheNotCrossedBetweenDriverSchemas) {
  EXPECT_EQ(UpPools(UpTwoDriverPools(2, 1, true), kUpTwoClaims), kUpNoFit);
}

TEST(DraUpstreamCountersTest, ConstraintReleasesCounter) {
  const auto dev = [](const std::string& name, const std::string& color) {
    return UpDevice(name).Str("stringAttribute", color).Consumes(
        "counter-set-1", {{"c", 1}});
  };
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {dev("device-1", "red"), dev("device-2", "blue"),
                        dev("device-3", "blue")},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"c", 2}})})},
              {UpClaim("claim-0", {UpReq("req-0", kClassA, 2)},
                       {UpMatch("stringAttribute")})}),
      "req-0=driver-a/pool-1/device-2 req-0=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, AllModeConstraintMustErrorWithReservedCounter) {
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {UpDevice("device-1").Int("numa", 1),
                        UpDevice("device-2").Int("numa", 2).Consumes(
                            "counter-set-1", {{"c", 1}})},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"c", 1}})})},
              {UpClaim("claim-0", {UpAll("req-0", kClassA)},
                       {UpMatch("numa")})}),
      "Error: claim claim-0, request req-0: cannot add device "
      "driver-a/pool-1/device-2 because a claim constraint would not be "
      "satisfied");
}

// device-1 4Gi, device-2 6Gi, device-3 4Gi of an 8Gi counter-set-1.
std::vector<ResourceSlice> UpFourSixFour() {
  return {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                  {UpMem("device-1", 4), UpMem("device-2", 6),
                   UpMem("device-3", 4)},
                  2),
          UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                         {UpSet("counter-set-1", {{"memory", 8 * kGi}})})};
}

ResourceClaim UpOnePlusSixElseFour() {
  return UpClaim(
      "claim-0",
      {UpReq("req-0", kClassA),
       UpFirst("req-1",
               {UpSub("subreq-0", kClassA, 1, UpMemoryAtLeast("6Gi")),
                UpSub("subreq-1", kClassA, 1, UpMemoryAtLeast("4Gi"))})});
}

TEST(DraUpstreamCountersTest, PrioritizedList) {
  EXPECT_EQ(UpPools(UpFourSixFour(), {UpOnePlusSixElseFour()}),
            "req-0=driver-a/pool-1/device-1 "
            "req-1/subreq-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, MultipleDevices) {
  EXPECT_EQ(UpPools(UpFourSixFour(),
                    {UpClaim("claim-0", {UpReq("req-0", kClassA),
                                         UpReq("req-1", kClassA)})}),
            "req-0=driver-a/pool-1/device-1 req-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, MultipleCapacityPools) {
  const auto dev = [](const std::string& name, int64_t gi, int64_t cpus) {
    return UpDevice(name)
        .Consumes("counter-set-1", {{"memory", gi * kGi}}, true)
        .Consumes("counter-set-2", {{"cpus", cpus}}, true);
  };
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {dev("device-1", 4, 4), dev("device-2", 6, 6),
                        dev("device-3", 4, 4)},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"memory", 18 * kGi}}),
                               UpSet("counter-set-2", {{"cpus", 8}})})},
              {UpOnePlusSixElseFour()}),
      "req-0=driver-a/pool-1/device-1 "
      "req-1/subreq-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, MultipleCounters) {
  // Capacities come from both sets: the later set's value of a name wins,
  // as upstream's map assignment does.
  const auto dev = [](const std::string& name, int64_t m1, int64_t c1,
                      int64_t c2, int64_t m2) {
    return UpDevice(name)
        .Consumes("counter-set-1", {{"memory", m1 * kGi}, {"cpus", c1}})
        .Consumes("counter-set-2", {{"cpus", c2}, {"memory", m2 * kGi}}, true);
  };
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {dev("device-1", 4, 6, 4, 2), dev("device-2", 6, 4, 6, 6),
                        dev("device-3", 4, 4, 4, 4)},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1",
                                     {{"cpus", 8}, {"memory", 18 * kGi}}),
                               UpSet("counter-set-2",
                                     {{"cpus", 12}, {"memory", 18 * kGi}})})},
              {UpClaim("claim-0", {UpReq("req-0", kClassA),
                                   UpReq("req-1", kClassA)})}),
      "req-0=driver-a/pool-1/device-2 req-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, MultiplePools) {
  const auto dev = [](const std::string& name, int64_t cpus, int64_t gi) {
    return UpDevice(name).Consumes(
        "counter-set-1", {{"cpus", cpus}, {"memory", gi * kGi}}, true);
  };
  const std::vector<CounterSet> sets = {
      UpSet("counter-set-1", {{"cpus", 8}, {"memory", 18 * kGi}})};
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {dev("device-1", 6, 4), dev("device-2", 4, 6),
                        dev("device-3", 4, 4)},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA, sets),
               UpSlice("slice-3", kNode1, "pool-2", kDriverA,
                       {dev("device-1", 6, 4), dev("device-2", 1, 7),
                        dev("device-3", 1, 7)},
                       2),
               UpCounterSlice("slice-4", kNode1, "pool-2", kDriverA, sets)},
              {UpClaim("claim-0", {UpReq("req-0", kClassA),
                                   UpReq("req-1", kClassA)})},
              UpHeld({"driver-a/pool-1/device-2", "driver-a/pool-1/device-3",
                      "driver-a/pool-2/device-1"})),
      "req-0=driver-a/pool-2/device-2 req-1=driver-a/pool-2/device-3");
}

TEST(DraUpstreamCountersTest, UnusedCountersInCounterSet) {
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {UpDevice("device-1").Consumes("counter-set-1",
                                                      {{"memory", 5 * kGi}}),
                        UpDevice("device-2").Consumes("counter-set-1",
                                                      {{"memory", 4 * kGi}}),
                        UpDevice("device-3").Consumes("counter-set-1",
                                                      {{"memory", 4 * kGi}})},
                       2),
               UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"memory", 8 * kGi},
                                                       {"unused", kGi}})})},
              {UpOne(2)}),
      "req-0=driver-a/pool-1/device-2 req-0=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCountersTest, NoCapacityAvailableAndOverallocated) {
  // Both slices say resourceSliceCount 1: no allocation either way.
  for (int64_t second : {16, 20}) {
    EXPECT_EQ(
        UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                         {UpMem("device-1", 4), UpMem("device-2", second)}),
                 UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                                {UpSet("counter-set-1",
                                       {{"memory", 18 * kGi}})},
                                1)},
                {UpOne()}, UpHeld({"driver-a/pool-1/device-2"})),
        kUpNoFit);
  }
}

TEST(DraUpstreamCountersTest, WithAttributeSelector) {
  const auto dev = [](const std::string& name, bool special,
                      const std::string& cpu) {
    return UpDevice(name)
        .Bool("special", special)
        .Consumes("counter-set-1", {{cpu, 1}})
        .Consumes("counter-set-2", {{"mem", 10 * kGi}});
  };
  EXPECT_EQ(
      UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                       {dev("device-1", true, "cpu1"),
                        dev("device-2", false, "cpu2"),
                        dev("device-3", false, "cpu3")},
                       2),
               UpCounterSlice(
                   "slice-2", kNode1, "pool-1", kDriverA,
                   {UpSet("counter-set-1", {{"cpu1", 1}, {"cpu2", 1},
                                            {"cpu3", 1}}),
                    UpSet("counter-set-2", {{"mem", 30 * kGi}})})},
              {UpClaim("claim-0",
                       {UpReq("req-0", kClassA, 2),
                        UpReq("req-1", kClassA, 1,
                              "device.attributes[\"driver-a\"].special")})}),
      "req-0=driver-a/pool-1/device-2 req-0=driver-a/pool-1/device-3 "
      "req-1=driver-a/pool-1/device-1");
}

// --- Invalid pools (known difference 3: they were allocated from). ---

TEST(DraUpstreamPoolsTest, SameCounterSetNameInDifferentResourceSlices) {
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA, {UpDevice("device-1")},
               4),
       UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                      {UpSet("counter-set-1", {})}, 4),
       UpSlice("slice-3", kNode1, "pool-1", kDriverA, {UpDevice("device-2")},
               4),
       UpCounterSlice("slice-4", kNode1, "pool-1", kDriverA,
                      {UpSet("counter-set-1", {})}, 4)},
      {UpOne()})));
}

TEST(DraUpstreamPoolsTest, DeviceCounterConsumptionReferencesUnknownCounterSet) {
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
               {UpDevice("device-1").Consumes("counter-set-2", {})}, 2),
       UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                      {UpSet("counter-set-1", {})})},
      {UpOne()})));
}

TEST(DraUpstreamPoolsTest, DeviceCounterConsumptionReferencesUnknownCounter) {
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
               {UpDevice("device-1").Consumes("counter-set-1",
                                              {{"memory", 8 * kGi}})},
               2),
       UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                      {UpSet("counter-set-1", {{"other-memory", 8 * kGi}})})},
      {UpOne()})));
}

TEST(DraUpstreamPoolsTest, DeviceCounterConsumptionReferencesCounterSetInOtherPool) {
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
               {UpDevice("device-1").Consumes("counter-set-1",
                                              {{"memory", 8 * kGi}})}),
       UpCounterSlice("slice-2", kNode1, "pool-2", kDriverA,
                      {UpSet("counter-set-1", {{"memory", 8 * kGi}})}, 1)},
      {UpOne()})));
}

TEST(DraUpstreamPoolsTest, ValidationErrorOnNonTargetingSlice) {
  // The bad consumption is in node-2's slice of the pool.
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      {UpCounterSlice("slice-1", kNode1, "pool-1", kDriverA,
                      {UpSet("counter-set-1", {{"memory", 8 * kGi}})}, 3),
       UpSlice("slice-2", kNode1, "pool-1", kDriverA, {UpMem("device-1", 6)},
               3),
       UpSlice("slice-3", kNode2, "pool-1", kDriverA,
               {UpDevice("device-3").Consumes("counter-set-2",
                                              {{"memory", 6 * kGi}})},
               3)},
      {UpOne()})));
}

// pool-1 lists device-1 twice; pool-2 has device-2.
std::vector<ResourceSlice> UpInvalidAndValid() {
  return {UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                  {UpDevice("device-1")}, 2),
          UpSlice("slice-2", kNode1, "pool-1", kDriverA,
                  {UpDevice("device-1")}, 2),
          UpSlice("slice-3", kNode1, "pool-2", kDriverA,
                  {UpDevice("device-2")})};
}

TEST(DraUpstreamPoolsTest, InvalidPoolIsOkIfDevicesCanBeAllocatedFromOther) {
  EXPECT_EQ(UpPools(UpInvalidAndValid(), {UpOne()}),
            "req-0=driver-a/pool-2/device-2");
}

TEST(DraUpstreamPoolsTest, InvalidPoolIsErrorIfNoOtherDeviceCanBeAllocated) {
  EXPECT_TRUE(UpIsInvalidPoolError(UpPools(
      UpInvalidAndValid(), {UpOne()}, UpHeld({"driver-a/pool-2/device-2"}))));
}

TEST(DraUpstreamPoolsTest, NoAllocationFromIncompletePools) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                             {UpDevice("device-1")}, 2)},
                    {UpOne()}),
            kUpNoFit);
}

// --- Pools whose slices span nodes (known difference 4). ---

TEST(DraUpstreamPoolsTest, DevicesOnDifferentNodesConsumeSameCounterSet) {
  EXPECT_EQ(
      UpPools({UpCounterSlice("slice-1", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"memory", 8 * kGi}})},
                              3),
               UpSlice("slice-2", kNode1, "pool-1", kDriverA,
                       {UpMem("device-1", 6), UpMem("device-2", 2)}, 3),
               UpSlice("slice-3", kNode2, "pool-1", kDriverA,
                       {UpDevice("device-3").Consumes("counter-set-1",
                                                      {{"memory", 6 * kGi}})},
                       3)},
              {UpClaim("claim-0",
                       {UpFirst("req-0", {UpSub("subreq-0", kClassA, 1,
                                                UpMemoryAtLeast("6Gi")),
                                          UpSub("subreq-1", kClassA, 1,
                                                UpMemoryAtLeast("2Gi"))})})},
              UpHeld({"driver-a/pool-1/device-3"})),
      "req-0/subreq-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamPoolsTest, DevicesConsumeCounterSetInDifferentNodes) {
  EXPECT_EQ(
      UpPools({UpCounterSlice("slice-1", kNode1, "pool-1", kDriverA,
                              {UpSet("counter-set-1", {{"memory", 8 * kGi}})},
                              3),
               UpSlice("slice-2", kNode1, "pool-1", kDriverA,
                       {UpMem("device-1", 6)}, 3),
               UpSlice("slice-3", kNode2, "pool-1", kDriverA,
                       {UpMem("device-2", 6), UpMem("device-3", 2)}, 3)},
              {UpOne()}, UpHeld({"driver-a/pool-1/device-1"}), kNode2),
      "req-0=driver-a/pool-1/device-3");
}

TEST(DraUpstreamPoolsTest, DifferentResourceSlicesInPoolCanTargetDifferentNodes) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode2, "pool-1", kDriverA,
                             {UpDevice("device-1")}, 2),
                     UpSlice("slice-2", kNode1, "pool-1", kDriverA,
                             {UpDevice("device-2")}, 2)},
                    {UpOne()}),
            "req-0=driver-a/pool-1/device-2");
}

TEST(DraUpstreamPoolsTest, AllocationModeAllWithMultiHostResourcePool) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                             {UpDevice("device-1")}, 2),
                     UpSlice("slice-2", kNode2, "pool-1", kDriverA,
                             {UpDevice("device-2")}, 2)},
                    {UpClaim("claim-0", {UpAll("req-0", kClassA)})}),
            "req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamPoolsTest, MultiHostResourcePoolWithStaleSliceForCurrentNode) {
  EXPECT_EQ(UpPools({UpSlice("slice-1", kNode1, "pool-1", kDriverA,
                             {UpDevice("device-1")}, 2, 1),
                     UpSlice("slice-2", kNode2, "pool-1", kDriverA,
                             {UpDevice("device-2")}, 2, 2)},
                    {UpOne()}),
            kUpNoFit);
}

// Two slices of generation 1 on `first`, then `newer` slices (1 or 2) of
// generation 2 on `second`; the allocation is for node-1.
std::vector<ResourceSlice> UpMoved(const std::string& first,
                                   const std::string& second, int newer) {
  std::vector<ResourceSlice> slices = {
      UpSlice("slice-1", first, "pool-1", kDriverA, {UpDevice("device-1")}, 2,
              1),
      UpSlice("slice-1", first, "pool-1", kDriverA, {UpDevice("device-2")}, 2,
              1)};
  for (int i = 0; i < newer; ++i) {
    slices.push_back(UpSlice("slice-2", second, "pool-1", kDriverA,
                             {UpDevice(i == 0 ? "device-1" : "device-2")}, 2,
                             2));
  }
  return slices;
}

TEST(DraUpstreamPoolsTest, MultiHostResourcePoolUpdates) {
  const std::string device1 = "req-0=driver-a/pool-1/device-1";
  // ...-complete-update-from-node-1-to-node-2: node-1 still sees its own
  // (older) generation.
  EXPECT_EQ(UpPools(UpMoved(kNode1, kNode2, 2), {UpOne()}), device1);
  // ...-complete-update-from-node-2-to-node-1
  EXPECT_EQ(UpPools(UpMoved(kNode2, kNode1, 2), {UpOne()}), device1);
  // ...-incomplete-update-from-node-1-to-node-2
  EXPECT_EQ(UpPools(UpMoved(kNode1, kNode2, 1), {UpOne()}), device1);
  // ...-incomplete-update-from-node-2-to-node-1: node-1's generation 2 has
  // one of two slices.
  EXPECT_EQ(UpPools(UpMoved(kNode2, kNode1, 1), {UpOne()}), kUpNoFit);
}

}  // namespace
}  // namespace upstream_table
}  // namespace gpushare
