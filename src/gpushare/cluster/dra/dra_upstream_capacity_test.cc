// Upstream's structured-allocator table, part 4: consumable capacity
// (KEP-5075, the experimental allocator's semantics) and shareable devices
// with counters. Same source and rules as dra_upstream_basic_test.cc:
// upstream's case names and facts, our code. capacity-0 values are the
// table's small integers (one .. four).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/test_dra_upstream.h"

namespace gpushare {
namespace upstream_table {
namespace {

std::vector<DeviceClass> UpCapPlain() { return {UpClass(kClassA, kDriverA)}; }
std::vector<DeviceClass> UpCapMulti(bool multi = true) {
  std::vector<DeviceClass> c;
  c.push_back(UpClassMulti(kClassA, kDriverA, multi));
  return c;
}

std::string UpCap(const std::vector<Device>& devices,
                  const std::vector<ResourceClaim>& claims,
                  const std::vector<DeviceClass>& classes,
                  const AllocatedDevices& held = {}) {
  return UpResults(UpRun(
      {UpSlice("slice-1", kNode1, "pool-1", kDriverA, devices)}, classes,
      claims, held));
}

ResourceClaim UpAsking(const std::string& claim, int64_t value) {
  return UpClaim(claim, {UpAsk(UpReq("req-0", kClassA), value)});
}
ResourceClaim UpPlain(const std::string& claim) {
  return UpClaim(claim, {UpReq("req-0", kClassA)});
}

TEST(DraUpstreamCapacityTest, MissingCapacityRequest) {
  const Device d = UpDevice("device-1").Cap("capacity-1", 1).Multi();
  EXPECT_EQ(UpCap({d}, {UpAsking("claim-0", 1)}, UpCapPlain()), kUpNoFit);
  // ...-allocation-mode-all-with-missing-capacity-request
  EXPECT_EQ(UpCap({d},
                  {UpClaim("claim-0", {UpAsk(UpAll("req-0", kClassA), 1)})},
                  UpCapMulti()),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, WithoutCapacityWithoutCapacityRequest) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi()},
                  {UpPlain("claim-0"), UpPlain("claim-1")}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1 | req-0=driver-a/pool-1/device-1");
}

TEST(DraUpstreamCapacityTest, WithoutPolicyWithoutCapacityRequest) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 1).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpPlain("claim-0"), UpPlain("claim-1")}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=1} | "
            "req-0=driver-a/pool-1/device-2{capacity-0=1}");
  // ...-block: one device of 2, each claim takes it whole.
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi()},
                  {UpPlain("claim-0"), UpPlain("claim-1")}, UpCapMulti()),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, WithoutPolicyWithCapacityRequest) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi()},
                  {UpAsking("claim-0", 1), UpAsking("claim-1", 1)},
                  UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=1} | "
            "req-0=driver-a/pool-1/device-1{capacity-0=1}");
}

TEST(DraUpstreamCapacityTest, WithPolicyWithoutCapacityRequest) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 4)},
                  {UpPlain("claim-0"), UpPlain("claim-1")}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=2} | "
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
}

TEST(DraUpstreamCapacityTest, ZeroRequestPolicy) {
  const Device d =
      UpDevice("device-1").Multi().ValidValues("capacity-0", 1, 0);
  EXPECT_EQ(UpCap({d}, {UpPlain("claim-0"), UpPlain("claim-1")},
                  UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=0} | "
            "req-0=driver-a/pool-1/device-1{capacity-0=0}");
  // ...-violates-zero-request-policy
  EXPECT_EQ(UpCap({d}, {UpAsking("claim-0", 1)}, UpCapMulti()), kUpNoFit);
}

TEST(DraUpstreamCapacityTest, RangePolicy) {
  const Device d = UpDevice("device-1").Multi().RangePolicy("capacity-0", 4);
  // ...-with-range-policy-with-capacity-request: 1 rounds up to min 2.
  EXPECT_EQ(UpCap({d}, {UpAsking("claim-0", 1), UpAsking("claim-1", 1)},
                  UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=2} | "
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
  // ...-with-range-policy-step: 3 rounds up to 2 + 2.
  EXPECT_EQ(UpCap({d}, {UpAsking("claim-0", 3)}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=4}");
}

TEST(DraUpstreamCapacityTest, ValidValuesPolicy) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().ValidValues("capacity-0", 4,
                                                            1, {2})},
                  {UpAsking("claim-0", 2)}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
  // ...-round-up
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().ValidValues("capacity-0", 3,
                                                            1, {3})},
                  {UpAsking("claim-0", 2)}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=3}");
}

TEST(DraUpstreamCapacityTest, ExceededAndOverMax) {
  // ...-with-exceeded-consumable-capacity-request
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 1), UpAsking("claim-1", 2)},
                  UpCapMulti()),
            kUpNoFit);
  // ...-with-request-over-max-sharing-policy: 6 is over the policy's max 4.
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 10)},
                  {UpAsking("claim-0", 6)}, UpCapMulti()),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, AllocatedCapacity) {
  AllocatedDevices held;
  UpShared(&held, "pool-1", "device-1", 2);
  // ...-use-remaining
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 4)},
                  {UpAsking("claim-0", 2)}, UpCapMulti(), held),
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
  // ...-next-device
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 2),
                   UpDevice("device-2").Multi().RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 2)}, UpCapMulti(), held),
            "req-0=driver-a/pool-1/device-2{capacity-0=2}");
  // ...-with-no-available-consumable-capacity
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 2)}, UpCapMulti(), held),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, WithMultiAllocatableDeviceBacktrack) {
  const ResourceClaim both = UpClaim(
      "claim-0",
      {UpAsk(UpReq("req-0", kClassA), 2), UpAsk(UpReq("req-1", kClassA), 2)},
      {UpMatch("stringAttribute")});
  EXPECT_EQ(
      UpCap({UpDevice("device-2")
                 .Str("stringAttribute", "stringAttributeValue1")
                 .Multi()
                 .RangePolicy("capacity-0", 2),
             UpDevice("device-1")
                 .Str("stringAttribute", "stringAttributeValue2")
                 .Multi()
                 .RangePolicy("capacity-0", 4)},
            {both, UpAsking("claim-1", 2)}, UpCapPlain()),
      "req-0=driver-a/pool-1/device-1{capacity-0=2} "
      "req-1=driver-a/pool-1/device-1{capacity-0=2} | "
      "req-0=driver-a/pool-1/device-2{capacity-0=2}");
}

TEST(DraUpstreamCapacityTest, WithSubrequest) {
  // Upstream's third subrequest repeats the name subreq-1 (API validation
  // refuses that; it is never reached) and is left out.
  DeviceSubRequest four = UpSub("subreq-0", kClassA);
  UpAsk(four.selection, 4);
  DeviceSubRequest two = UpSub("subreq-1", kClassA);
  UpAsk(two.selection, 2);
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 2)},
                  {UpClaim("claim-0", {UpFirst("req-0", {four, two})})},
                  UpCapMulti()),
            "req-0/subreq-1=driver-a/pool-1/device-1{capacity-0=2}");
}

// --- allocationMode All with capacity requests (known difference 1). ---

ResourceClaim UpAllAsking(int64_t value) {
  return UpClaim("claim-0", {UpAsk(UpAll("req-0", kClassA), value)});
}

TEST(DraUpstreamCapacityTest, AllocationModeAllFilterOutNoCapacity) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi(),
                   UpDevice("device-2").Multi()},
                  {UpAllAsking(2)}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
}

TEST(DraUpstreamCapacityTest, AllocationModeAllFilterOutInsufficientCapacity) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpAllAsking(2)}, UpCapMulti()),
            "req-0=driver-a/pool-1/device-1{capacity-0=2}");
}

ResourceClaim UpOneThenAll() {
  return UpClaim("claim-0", {UpAsk(UpReq("req-0", kClassA), 1),
                             UpAsk(UpAll("req-1", kClassA), 1)});
}

TEST(DraUpstreamCapacityTest, AllocationModeAllAllocating) {
  // ...-allocating-sufficient
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpOneThenAll()}, UpCapPlain()),
            "req-0=driver-a/pool-1/device-1{capacity-0=1} "
            "req-1=driver-a/pool-1/device-1{capacity-0=1} "
            "req-1=driver-a/pool-1/device-2{capacity-0=1}");
  // ...-allocating-insufficient
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 1).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpOneThenAll()}, UpCapPlain()),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, AllocationModeAllInUse) {
  AllocatedDevices held;
  UpShared(&held, "pool-1", "device-1", 1);
  // ...-in-use-sufficient
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 2).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpAllAsking(1)}, UpCapPlain(), held),
            "req-0=driver-a/pool-1/device-1{capacity-0=1} "
            "req-0=driver-a/pool-1/device-2{capacity-0=1}");
  // ...-in-use-insufficient: device-1 is exhausted but still one of "all".
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 1).Multi(),
                   UpDevice("device-2").Cap("capacity-0", 1).Multi()},
                  {UpAllAsking(1)}, UpCapPlain(), held),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, DedicatedDevice) {
  // ...-dedicated-device-with-consumable-capacity-request
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 1)},
                  {UpAsking("claim-0", 1)}, UpCapMulti(false)),
            "req-0=driver-a/pool-1/device-1");
  // ...-dedicated-device-with-multiple-consumable-capacity-request
  EXPECT_EQ(UpCap({UpDevice("device-1").RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 1), UpAsking("claim-1", 1)},
                  UpCapMulti(false)),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, ExcludeMultiAllocatableDeviceByClassSelector) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Cap("capacity-0", 1).Multi()},
                  {UpAsking("claim-0", 1)}, UpCapMulti(false)),
            kUpNoFit);
}

// Known difference 2: a shareable device held whole.
TEST(DraUpstreamCapacityTest, NotAllocateMultiAllocatableDeviceAlreadyDedicated) {
  EXPECT_EQ(UpCap({UpDevice("device-1").Multi().RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 1)}, UpCapMulti(),
                  UpHeld({"driver-a/pool-1/device-1"})),
            kUpNoFit);
}

TEST(DraUpstreamCapacityTest, NotAllocateDedicatedDeviceChangedFromMulti) {
  AllocatedDevices held;
  UpShared(&held, "pool-1", "device-1", 1);
  EXPECT_EQ(UpCap({UpDevice("device-1").RangePolicy("capacity-0", 2)},
                  {UpAsking("claim-0", 1)}, UpCapMulti(), held),
            kUpNoFit);
}

// --- Shareable devices with counters. ---

TEST(DraUpstreamCapacityTest, AllowMultipleAllocationsWithPartitionableDevice) {
  const auto dev = [](const std::string& name, int64_t gi) {
    return UpDevice(name)
        .Consumes("counter-set-1", {{"memory", gi * kGi}}, true)
        .Multi();
  };
  const std::vector<ResourceSlice> slices = {
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {dev("device-1", 4), dev("device-2", 6), dev("device-3", 4)}, 2),
      UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                     {{"counter-set-1", {{"memory", 8 * kGi}}}})};
  const ResourceClaim claim = UpClaim(
      "claim-0",
      {UpReq("req-0", kClassA),
       UpFirst("req-1",
               {UpSub("subreq-0", kClassA, 1, UpMemoryAtLeast("6Gi")),
                UpSub("subreq-1", kClassA, 1, UpMemoryAtLeast("4Gi"))})});
  EXPECT_EQ(UpResults(UpRun(slices, UpCapMulti(), {claim})),
            "req-0=driver-a/pool-1/device-1{memory=4294967296} "
            "req-1/subreq-1=driver-a/pool-1/device-3{memory=4294967296}");
}

// device-1 (shareable, `kind` shared) consumes the pool's only counter.
std::vector<ResourceSlice> UpSharedCounter(std::vector<Device> more) {
  std::vector<Device> devices = {UpDevice("device-1")
                                     .Str("kind", "shared")
                                     .Str("stringAttribute", "red")
                                     .Multi()
                                     .Consumes("counter-set-1", {{"c", 1}})};
  for (Device& d : more) devices.push_back(std::move(d));
  return {UpSlice("slice-1", kNode1, "pool-1", kDriverA, devices, 2),
          UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                         {{"counter-set-1", {{"c", 1}}}})};
}

std::string UpKind(const std::string& kind) {
  return "device.attributes[\"driver-a\"].kind == \"" + kind + "\"";
}

TEST(DraUpstreamCapacityTest, PartitionableConsumableCapacityBacktrackReleasesCounter) {
  const std::vector<ResourceSlice> slices = UpSharedCounter(
      {UpDevice("device-2").Str("kind", "shared"),
       UpDevice("device-3").Str("kind", "counteronly").Consumes(
           "counter-set-1", {{"c", 1}})});
  EXPECT_EQ(UpResults(UpRun(
                slices, UpCapPlain(),
                {UpClaim("claim-0",
                         {UpReq("req-0", kClassA, 1, UpKind("shared")),
                          UpReq("req-1", kClassA, 1, UpKind("counteronly"))})})),
            "req-0=driver-a/pool-1/device-2 req-1=driver-a/pool-1/device-3");
}

TEST(DraUpstreamCapacityTest, EmptyCapacityMultipleShareBacktrackKeepsCounterOwnership) {
  const std::vector<ResourceSlice> slices = UpSharedCounter(
      {UpDevice("device-2").Str("kind", "fallback").Str("stringAttribute",
                                                        "blue"),
       UpDevice("device-3").Str("kind", "gate").Str("stringAttribute",
                                                    "blue")});
  const ResourceClaim first =
      UpClaim("claim-0", {UpReq("req-0", kClassA, 1, UpKind("shared"))});
  const ResourceClaim second = UpClaim(
      "claim-1",
      {UpReq("req-1", kClassA, 1,
             UpKind("shared") + " || " + UpKind("fallback")),
       UpReq("req-2", kClassA, 1, UpKind("gate")),
       UpReq("req-3", kClassA, 1, UpKind("shared"))},
      {UpMatch("stringAttribute", {"req-1", "req-2"})});
  EXPECT_EQ(UpResults(UpRun(slices, UpCapPlain(), {first, second})),
            "req-0=driver-a/pool-1/device-1 | "
            "req-1=driver-a/pool-1/device-2 req-2=driver-a/pool-1/device-3 "
            "req-3=driver-a/pool-1/device-1");
}

TEST(DraUpstreamCapacityTest, SharedDeviceCounterCrossCycleAndNotRecharged) {
  AllocatedDevices held;
  UpShared(&held, "pool-1", "device-1", std::nullopt);
  // ...-shared-device-counter-not-recharged: device-1 already shared.
  EXPECT_EQ(UpResults(UpRun(UpSharedCounter({}), UpCapPlain(),
                            {UpPlain("claim-0")}, held)),
            "req-0=driver-a/pool-1/device-1");
  // allow-multiple-allocations-with-shared-device-counter-cross-cycle:
  // device-1's earlier share holds the counter device-2 needs.
  const std::vector<ResourceSlice> slices = {
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {UpDevice("device-1").Str("mode", "a").Multi().Consumes(
                   "counter-set-1", {{"capacity-0", 1}}, true),
               UpDevice("device-2").Str("mode", "b").Multi().Consumes(
                   "counter-set-1", {{"capacity-0", 1}}, true)},
              2),
      UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                     {{"counter-set-1", {{"capacity-0", 1}}}})};
  AllocatedDevices one;
  UpShared(&one, "pool-1", "device-1", 1);
  EXPECT_EQ(
      UpResults(UpRun(
          slices, UpCapMulti(),
          {UpClaim("claim-0",
                   {UpAsk(UpReq("req-0", kClassA, 1,
                                "device.attributes[\"driver-a\"].mode == \"b\""),
                          1)})},
          one)),
      kUpNoFit);
}

TEST(DraUpstreamCapacityTest, RejectionRollsBackConstraints) {
  const std::string cap = "device.attributes[\"driver-a\"].stringAttribute == \"cap\"";
  const std::string fb = "device.attributes[\"driver-a\"].stringAttribute == \"fb\"";
  DeviceSubRequest all = UpSubAll("subreq-0", kClassA, cap);
  UpAsk(all.selection, 2);
  EXPECT_EQ(
      UpCap({UpDevice("device-1").Cap("capacity-0", 2).Str("stringAttribute",
                                                           "cap").Multi(),
             UpDevice("device-2").Str("stringAttribute", "fb")},
            {UpClaim("claim-0", {UpAsk(UpReq("req-0", kClassA, 1, cap), 2)}),
             UpClaim("claim-1",
                     {UpFirst("req-0", {all, UpSub("subreq-1", kClassA, 1, fb)})},
                     {UpMatch("stringAttribute")})},
            UpCapPlain()),
      "req-0=driver-a/pool-1/device-1{capacity-0=2} | "
      "req-0/subreq-1=driver-a/pool-1/device-2");
}

TEST(DraUpstreamCapacityTest, WithPartitionableDeviceMultipleCapacityPools) {
  const auto dev = [](const std::string& name, int64_t c0) {
    return UpDevice(name)
        .Consumes("counter-set-1", {{"capacity-0", c0}}, true)
        .Consumes("counter-set-2", {{"capacity-1", 4}})
        .Multi()
        .RangePolicy("capacity-1", 4);
  };
  const std::vector<ResourceSlice> slices = {
      UpSlice("slice-1", kNode1, "pool-1", kDriverA,
              {dev("device-1", 2), dev("device-2", 4), dev("device-3", 2)}, 2),
      UpCounterSlice("slice-2", kNode1, "pool-1", kDriverA,
                     {{"counter-set-1", {{"capacity-0", 4}}},
                      {"counter-set-2", {{"capacity-1", 8}}}})};
  DeviceSubRequest four = UpSub(
      "subreq-0", kClassA, 1,
      "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"4\")) >= 0");
  UpAsk(four.selection, 1);
  DeviceSubRequest two = UpSub(
      "subreq-1", kClassA, 1,
      "device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"2\")) >= 0");
  UpAsk(two.selection, 1);
  const ResourceClaim claim =
      UpClaim("claim-0", {UpAsk(UpReq("req-0", kClassA), 1),
                          UpAsk(UpReq("req-2", kClassA), 2),
                          UpFirst("req-1", {four, two})});
  EXPECT_EQ(UpResults(UpRun(slices, UpCapPlain(), {claim})),
            "req-0=driver-a/pool-1/device-1{capacity-0=1,capacity-1=2} "
            "req-1/subreq-1=driver-a/pool-1/device-1{capacity-0=1,capacity-1=2} "
            "req-2=driver-a/pool-1/device-3{capacity-0=2,capacity-1=2}");
}

}  // namespace
}  // namespace upstream_table
}  // namespace gpushare
