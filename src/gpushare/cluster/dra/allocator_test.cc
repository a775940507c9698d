// The structured allocator on hand-built slices: walk order, counts, All,
// firstAvailable with its score, matchAttribute, first-fit stranding,
// consumable capacity, the step cap and the error words. Every expectation
// is worked out by hand from the walk order pools -> slices -> devices.

#include "gpushare/cluster/dra/allocator.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/dra/prioritized_list_score.h"

namespace gpushare {
namespace {

constexpr int64_t kAllocTestGi = int64_t{1} << 30;
constexpr const char* kAllocTestDriver = "gpu.nvidia.com";

Device AllocTestGpu(const std::string& name, const std::string& product) {
  Device d;
  d.name = name;
  d.SetAttribute(kAllocTestDriver, "type", DeviceAttribute::String("gpu"));
  d.SetAttribute(kAllocTestDriver, "productName",
                 DeviceAttribute::String(product));
  d.SetCapacity(kAllocTestDriver, "memory", 80 * kAllocTestGi);
  return d;
}

Device AllocTestMig(const std::string& name, const std::string& profile) {
  Device d;
  d.name = name;
  d.SetAttribute(kAllocTestDriver, "type", DeviceAttribute::String("mig"));
  d.SetAttribute(kAllocTestDriver, "profile", DeviceAttribute::String(profile));
  d.SetCapacity(kAllocTestDriver, "memory", 10 * kAllocTestGi);
  return d;
}

ResourceSlice AllocTestSlice(const std::string& name, const std::string& pool,
                             std::vector<Device> devices, int64_t count = 1) {
  ResourceSlice s;
  s.name = name;
  s.driver = kAllocTestDriver;
  s.node_name = "node-a";
  s.pool_name = pool;
  s.resource_slice_count = count;
  s.devices = std::move(devices);
  return s;
}

CelSelector AllocTestCel(const std::string& expression) {
  CelCompileError error;
  std::optional<CelSelector> s = CelSelector::Compile(expression, &error);
  EXPECT_TRUE(s.has_value()) << expression;
  return std::move(*s);
}

DeviceSelection AllocTestSelection(const std::string& device_class,
                                   int64_t count = 1,
                                   const std::string& selector = "") {
  DeviceSelection s;
  s.device_class_name = device_class;
  s.count = count;
  if (!selector.empty()) s.selectors.push_back(AllocTestCel(selector));
  return s;
}

DraDeviceRequest AllocTestExactly(const std::string& name,
                                  DeviceSelection selection) {
  DraDeviceRequest r;
  r.name = name;
  r.has_exactly = true;
  r.exactly = std::move(selection);
  return r;
}

ResourceClaim AllocTestClaim(const std::string& name,
                             std::vector<DraDeviceRequest> requests) {
  ResourceClaim c;
  c.name = name;
  c.spec.requests = std::move(requests);
  return c;
}

// "pool/device,pool/device" of a claim's result.
std::string AllocTestDevices(const AllocationResult& r) {
  std::string out;
  for (const DeviceRequestAllocationResult& d : r.devices) {
    out += (out.empty() ? "" : ",") + d.pool + "/" + d.device;
  }
  return out;
}

class DraAllocatorTest : public ::testing::Test {
 protected:
  DraAllocatorTest() {
    classes_.push_back(NvidiaGpuDeviceClass());
    classes_.push_back(NvidiaMigDeviceClass());
  }

  AllocationOutcome Run(const std::vector<ResourceSlice>& slices,
                        const std::vector<const ResourceClaim*>& claims,
                        const AllocatedDevices& allocated = {},
                        int64_t max_steps = kDefaultMaxAllocationSteps) {
    std::vector<const ResourceSlice*> pointers;
    for (const ResourceSlice& s : slices) pointers.push_back(&s);
    for (const ResourceClaim* c : claims) {
      ValidateResourceClaimSpec(c->name, c->spec, classes_);
    }
    DraAllocator allocator(pointers, &classes_, allocated, max_steps);
    return allocator.Allocate("node-a", claims);
  }

  std::vector<DeviceClass> classes_;
};

TEST_F(DraAllocatorTest, WalksPoolsAndSlicesInNameOrder) {
  // Given in reverse order: pool "b" first, and pool "a"'s slice s2 before
  // s1. The walk is a/s1 (gpu-9), a/s2 (gpu-5), b/s1 (gpu-0).
  const std::vector<ResourceSlice> slices = {
      AllocTestSlice("s1", "b", {AllocTestGpu("gpu-0", "NVIDIA H100")}),
      AllocTestSlice("s2", "a", {AllocTestGpu("gpu-5", "NVIDIA H100")}, 2),
      AllocTestSlice("s1", "a", {AllocTestGpu("gpu-9", "NVIDIA H100")}, 2)};
  const ResourceClaim one = AllocTestClaim(
      "one", {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com"))});
  AllocationOutcome out = Run(slices, {&one});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "a/gpu-9");
  EXPECT_EQ(out.results[0].devices[0].request, "gpu");
  EXPECT_EQ(out.results[0].devices[0].driver, "gpu.nvidia.com");
  EXPECT_EQ(out.results[0].node_name, "node-a");
  EXPECT_EQ(out.results[0].selected_subrequest, std::vector<int>{-1});
  // Steps: claim 0 request 0 device 0, device 1 (request done), request 1
  // (claim done), claim 1 (all done).
  EXPECT_EQ(out.steps, 4);

  const ResourceClaim three = AllocTestClaim(
      "three",
      {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com", 3))});
  out = Run(slices, {&three});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "a/gpu-9,a/gpu-5,b/gpu-0");

  // A pool missing one of its slices is skipped.
  const std::vector<ResourceSlice> incomplete = {
      AllocTestSlice("s1", "a", {AllocTestGpu("gpu-9", "NVIDIA H100")}, 2),
      AllocTestSlice("s1", "b", {AllocTestGpu("gpu-0", "NVIDIA H100")})};
  out = Run(incomplete, {&one});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "b/gpu-0");
}

TEST_F(DraAllocatorTest, CountTwoSkipsDevicesInUseAndOtherClasses) {
  const std::vector<ResourceSlice> slices = {AllocTestSlice(
      "node-a", "node-a",
      {AllocTestGpu("gpu-0", "NVIDIA A100"), AllocTestMig("gpu-1-mig", "1g"),
       AllocTestGpu("gpu-2", "NVIDIA A100"),
       AllocTestGpu("gpu-3", "NVIDIA A100")})};
  const ResourceClaim two = AllocTestClaim(
      "two",
      {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com", 2))});
  AllocatedDevices held;
  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-0"});
  AllocationOutcome out = Run(slices, {&two}, held);
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-2,node-a/gpu-3");

  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-3"});
  out = Run(slices, {&two}, held);
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message, "cannot allocate all claims");
}

TEST_F(DraAllocatorTest, AllocationModeAllTakesEveryMatchingDevice) {
  const std::vector<ResourceSlice> slices = {AllocTestSlice(
      "node-a", "node-a",
      {AllocTestGpu("gpu-0", "NVIDIA A100"), AllocTestMig("gpu-1-mig", "1g"),
       AllocTestGpu("gpu-2", "NVIDIA A100")})};
  DeviceSelection all = AllocTestSelection("gpu.nvidia.com");
  all.allocation_mode = DeviceAllocationMode::kAll;
  const ResourceClaim claim =
      AllocTestClaim("all", {AllocTestExactly("gpus", all)});
  AllocationOutcome out = Run(slices, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0,node-a/gpu-2");

  // One of them held by another claim: All cannot be met.
  AllocatedDevices held;
  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-2"});
  out = Run(slices, {&claim}, held);
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message, kDraCannotAllocateAllClaims);

  // No matching device at all: All needs at least one.
  const std::vector<ResourceSlice> migs = {
      AllocTestSlice("node-a", "node-a", {AllocTestMig("gpu-1-mig", "1g")})};
  out = Run(migs, {&claim});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
}

TEST_F(DraAllocatorTest, FirstAvailableFallsBackAndScoresTheChoice) {
  DraDeviceRequest request;
  request.name = "gpu";
  request.first_available.push_back(
      {"h100",
       AllocTestSelection("gpu.nvidia.com", 1,
                          "device.attributes['gpu.nvidia.com'].productName == "
                          "'NVIDIA H100'")});
  request.first_available.push_back(
      {"any-gpu", AllocTestSelection("gpu.nvidia.com")});
  request.first_available.push_back(
      {"mig", AllocTestSelection("mig.nvidia.com")});
  const ResourceClaim claim = AllocTestClaim("fa", {request});

  const std::vector<ResourceSlice> h100 = {
      AllocTestSlice("node-a", "node-a",
                     {AllocTestGpu("gpu-0", "NVIDIA A100"),
                      AllocTestGpu("gpu-1", "NVIDIA H100")})};
  const std::vector<ResourceSlice> a100 = {AllocTestSlice(
      "node-a", "node-a", {AllocTestGpu("gpu-0", "NVIDIA A100")})};
  const std::vector<ResourceSlice> mig = {
      AllocTestSlice("node-a", "node-a", {AllocTestMig("gpu-0-mig", "1g")})};

  std::vector<int64_t> scores;
  AllocationOutcome out = Run(h100, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-1");
  EXPECT_EQ(out.results[0].devices[0].request, "gpu/h100");
  EXPECT_EQ(out.results[0].selected_subrequest, std::vector<int>{0});
  scores.push_back(PrioritizedListScore({&claim}, out.results));

  out = Run(a100, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(out.results[0].devices[0].request, "gpu/any-gpu");
  EXPECT_EQ(out.results[0].selected_subrequest, std::vector<int>{1});
  scores.push_back(PrioritizedListScore({&claim}, out.results));

  out = Run(mig, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(out.results[0].devices[0].request, "gpu/mig");
  scores.push_back(PrioritizedListScore({&claim}, out.results));

  // 8 - index: 8, 7, 6; normalised s * 100 / max: 100, 87, 75.
  EXPECT_EQ(scores, (std::vector<int64_t>{8, 7, 6}));
  NormalizePrioritizedListScores(&scores);
  EXPECT_EQ(scores, (std::vector<int64_t>{100, 87, 75}));

  // With the H100 held, node h100 falls back to its A100.
  AllocatedDevices held;
  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-1"});
  out = Run(h100, {&claim}, held);
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0");
  EXPECT_EQ(out.results[0].selected_subrequest, std::vector<int>{1});

  // A second claim that fails on the first choice's device forces the
  // fallback: claim "fa" takes gpu-1 (h100), then "h" needs an H100 and
  // finds none, so the search backtracks into "fa"'s second subrequest.
  const ResourceClaim h = AllocTestClaim(
      "h", {AllocTestExactly(
               "gpu", AllocTestSelection(
                          "gpu.nvidia.com", 1,
                          "device.attributes['gpu.nvidia.com'].productName == "
                          "'NVIDIA H100'"))});
  out = Run(h100, {&claim, &h});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0");
  EXPECT_EQ(AllocTestDevices(out.results[1]), "node-a/gpu-1");
  EXPECT_EQ(PrioritizedListScore({&claim, &h}, out.results), 7);

  std::vector<int64_t> zeros = {0, 0};
  NormalizePrioritizedListScores(&zeros);
  EXPECT_EQ(zeros, (std::vector<int64_t>{0, 0}));
}

TEST_F(DraAllocatorTest, MatchAttributeForcesAnotherPair) {
  const std::vector<ResourceSlice> slices = {
      AllocTestSlice("node-a", "node-a",
                     {AllocTestGpu("gpu-0", "NVIDIA A100"),
                      AllocTestGpu("gpu-1", "NVIDIA H100"),
                      AllocTestGpu("gpu-2", "NVIDIA H100")})};
  ResourceClaim claim = AllocTestClaim(
      "pair",
      {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com", 2))});
  // Plain first fit: gpu-0 and gpu-1.
  AllocationOutcome out = Run(slices, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0,node-a/gpu-1");

  // Same product: gpu-0 has no partner, so gpu-1 and gpu-2.
  claim.spec.constraints.push_back({{}, "gpu.nvidia.com/productName"});
  out = Run(slices, {&claim});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-1,node-a/gpu-2");

  // Across two requests named by the constraint.
  ResourceClaim two = AllocTestClaim(
      "two", {AllocTestExactly("a", AllocTestSelection("gpu.nvidia.com")),
              AllocTestExactly("b", AllocTestSelection("gpu.nvidia.com"))});
  two.spec.constraints.push_back({{"a", "b"}, "gpu.nvidia.com/productName"});
  out = Run(slices, {&two});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-1,node-a/gpu-2");

  // A constraint on one subrequest binds it and not its siblings: "a/same"
  // must match "b"; "a/other" (tried only if "a/same" fails) is free.
  DraDeviceRequest a;
  a.name = "a";
  a.first_available.push_back({"same", AllocTestSelection("gpu.nvidia.com")});
  a.first_available.push_back({"other", AllocTestSelection("gpu.nvidia.com")});
  ResourceClaim scoped = AllocTestClaim(
      "scoped",
      {a, AllocTestExactly(
              "b", AllocTestSelection(
                       "gpu.nvidia.com", 1,
                       "device.attributes['gpu.nvidia.com'].productName == "
                       "'NVIDIA H100'"))});
  scoped.spec.constraints.push_back(
      {{"a/same", "b"}, "gpu.nvidia.com/productName"});
  // a/same takes gpu-0 (A100); b finds no A100 partner among the H100s;
  // a/same moves on to gpu-1 and b takes gpu-2.
  out = Run(slices, {&scoped});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-1,node-a/gpu-2");
  EXPECT_EQ(out.results[0].devices[0].request, "a/same");
  // Holding gpu-2 leaves one H100: a/same cannot pair with b whatever it
  // takes, so a/other (unconstrained) takes gpu-0 and b gpu-1.
  AllocatedDevices held;
  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-2"});
  out = Run(slices, {&scoped}, held);
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0,node-a/gpu-1");
  EXPECT_EQ(out.results[0].devices[0].request, "a/other");
  EXPECT_EQ(out.results[0].selected_subrequest, (std::vector<int>{1, -1}));

  // An attribute no device has fails the constraint.
  claim.spec.constraints[0].match_attribute = "gpu.nvidia.com/pcieRoot";
  out = Run(slices, {&claim});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message, kDraCannotAllocateAllClaims);

  // All whose devices disagree: an error, not "no fit".
  DeviceSelection all = AllocTestSelection("gpu.nvidia.com");
  all.allocation_mode = DeviceAllocationMode::kAll;
  ResourceClaim everything =
      AllocTestClaim("everything", {AllocTestExactly("gpus", all)});
  everything.spec.constraints.push_back({{}, "gpu.nvidia.com/productName"});
  out = Run(slices, {&everything});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kError);
  EXPECT_EQ(out.message,
            "claim everything, request gpus: cannot add device "
            "gpu.nvidia.com/node-a/gpu-1 because a claim constraint would not "
            "be satisfied");
}

TEST_F(DraAllocatorTest, FirstFitStrandsALaterPodAsUpstreamDoes) {
  // gpu-0 is the only H100. Pod 1 asks any GPU and, first fit, gets gpu-0;
  // pod 2 needs an H100 and no longer fits, though giving pod 1 the A100
  // (best fit) would have placed both. Upstream keeps the first solution
  // and does not score devices (allocator_stable.go).
  const std::vector<ResourceSlice> slices = {
      AllocTestSlice("node-a", "node-a",
                     {AllocTestGpu("gpu-0", "NVIDIA H100"),
                      AllocTestGpu("gpu-1", "NVIDIA A100")})};
  const ResourceClaim any = AllocTestClaim(
      "any", {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com"))});
  const ResourceClaim h100 = AllocTestClaim(
      "h100",
      {AllocTestExactly(
          "gpu", AllocTestSelection(
                     "gpu.nvidia.com", 1,
                     "device.attributes['gpu.nvidia.com'].productName == "
                     "'NVIDIA H100'"))});
  AllocationOutcome pod1 = Run(slices, {&any});
  ASSERT_EQ(pod1.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(pod1.results[0]), "node-a/gpu-0");
  AllocatedDevices held;
  held.exclusive.push_back({"gpu.nvidia.com", "node-a", "gpu-0"});
  const AllocationOutcome pod2 = Run(slices, {&h100}, held);
  EXPECT_EQ(pod2.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(pod2.message, "cannot allocate all claims");

  // The claims of one pod are searched together, exhaustively: both fit.
  const AllocationOutcome together = Run(slices, {&any, &h100});
  ASSERT_EQ(together.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(together.results[0]), "node-a/gpu-1");
  EXPECT_EQ(AllocTestDevices(together.results[1]), "node-a/gpu-0");
}

class DraConsumableCapacityTest : public DraAllocatorTest {
 protected:
  // One shareable GPU of 80Gi memory under `policy`.
  std::vector<ResourceSlice> SharedGpu(const CapacityRequestPolicy& policy) {
    Device d = AllocTestGpu("gpu-0", "NVIDIA H100");
    d.allow_multiple_allocations = true;
    d.capacities[0].request_policy = policy;
    return {AllocTestSlice("node-a", "node-a", {d})};
  }

  ResourceClaim Asking(const std::string& name, int64_t memory) {
    DeviceSelection s = AllocTestSelection("gpu.nvidia.com");
    s.capacity_requests.push_back({"", "memory", memory});
    return AllocTestClaim(name, {AllocTestExactly("gpu", s)});
  }

  int64_t Consumed(const AllocationOutcome& out, size_t claim) {
    const std::vector<DeviceCapacity>& c =
        out.results.at(claim).devices.at(0).consumed_capacity;
    EXPECT_EQ(c.size(), 1u);
    return c.empty() ? -1 : c[0].value;
  }
};

TEST_F(DraConsumableCapacityTest, RoundsUpByRangeStepAndValidValues) {
  CapacityRequestPolicy range;
  range.default_value = 8 * kAllocTestGi;
  range.valid_range = CapacityRequestPolicyRange{
      4 * kAllocTestGi, 40 * kAllocTestGi, 4 * kAllocTestGi};
  const std::vector<ResourceSlice> by_range = SharedGpu(range);
  // 5Gi: min 4Gi + ceil(1Gi / 4Gi) steps = 8Gi. 1Gi: under min, 4Gi.
  ResourceClaim c = Asking("c", 5 * kAllocTestGi);
  AllocationOutcome out = Run(by_range, {&c});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(Consumed(out, 0), 8 * kAllocTestGi);
  c = Asking("c", kAllocTestGi);
  out = Run(by_range, {&c});
  EXPECT_EQ(Consumed(out, 0), 4 * kAllocTestGi);
  // Over max: refused.
  c = Asking("c", 41 * kAllocTestGi);
  EXPECT_EQ(Run(by_range, {&c}).status,
            AllocationOutcome::Status::kUnschedulable);
  // Not named: the default.
  const ResourceClaim plain = AllocTestClaim(
      "plain", {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com"))});
  out = Run(by_range, {&plain});
  EXPECT_EQ(Consumed(out, 0), 8 * kAllocTestGi);

  CapacityRequestPolicy values;
  values.valid_values = {10 * kAllocTestGi, 20 * kAllocTestGi,
                         40 * kAllocTestGi};
  const std::vector<ResourceSlice> by_values = SharedGpu(values);
  c = Asking("c", 15 * kAllocTestGi);
  out = Run(by_values, {&c});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(Consumed(out, 0), 20 * kAllocTestGi);
  // Above every valid value: stays 50Gi, which is not valid.
  c = Asking("c", 50 * kAllocTestGi);
  EXPECT_EQ(Run(by_values, {&c}).status,
            AllocationOutcome::Status::kUnschedulable);
  // Without a default, a claim not naming memory would take all 80Gi, which
  // is no valid value: the device does not fit (violatesPolicy upstream).
  EXPECT_EQ(Run(by_values, {&plain}).status,
            AllocationOutcome::Status::kUnschedulable);
  values.default_value = 10 * kAllocTestGi;
  out = Run(SharedGpu(values), {&plain});
  EXPECT_EQ(Consumed(out, 0), 10 * kAllocTestGi);
}

TEST_F(DraConsumableCapacityTest, TwoClaimsShareOneDeviceUpToItsCapacity) {
  CapacityRequestPolicy policy;
  policy.valid_range = CapacityRequestPolicyRange{kAllocTestGi, {}, {}};
  const std::vector<ResourceSlice> slices = SharedGpu(policy);
  const ResourceClaim a = Asking("a", 40 * kAllocTestGi);
  const ResourceClaim b = Asking("b", 40 * kAllocTestGi);
  const ResourceClaim c = Asking("c", 1 * kAllocTestGi);
  // One pod with a and b: both on gpu-0, 80Gi in all.
  AllocationOutcome out = Run(slices, {&a, &b});
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(AllocTestDevices(out.results[0]), "node-a/gpu-0");
  EXPECT_EQ(AllocTestDevices(out.results[1]), "node-a/gpu-0");
  // a, b and c together need 81Gi.
  EXPECT_EQ(Run(slices, {&a, &b, &c}).status,
            AllocationOutcome::Status::kUnschedulable);

  // Later pods see what allocated claims consumed.
  AllocatedDevices held;
  held.shared.push_back(
      {{"gpu.nvidia.com", "node-a", "gpu-0"},
       {{"gpu.nvidia.com", "memory", 79 * kAllocTestGi, std::nullopt}}});
  out = Run(slices, {&c}, held);
  ASSERT_EQ(out.status, AllocationOutcome::Status::kAllocated);
  EXPECT_EQ(Consumed(out, 0), kAllocTestGi);
  held.shared[0].consumed[0].value = 80 * kAllocTestGi;
  EXPECT_EQ(Run(slices, {&c}, held).status,
            AllocationOutcome::Status::kUnschedulable);

  // An exclusive device: a request must fit its whole capacity, and a
  // capacity it lacks does not fit.
  const std::vector<ResourceSlice> exclusive = {AllocTestSlice(
      "node-a", "node-a", {AllocTestGpu("gpu-0", "NVIDIA H100")})};
  EXPECT_EQ(Run(exclusive, {&a}).status, AllocationOutcome::Status::kAllocated);
  const ResourceClaim huge = Asking("huge", 81 * kAllocTestGi);
  EXPECT_EQ(Run(exclusive, {&huge}).status,
            AllocationOutcome::Status::kUnschedulable);
  DeviceSelection odd = AllocTestSelection("gpu.nvidia.com");
  odd.capacity_requests.push_back({"", "bandwidth", 1});
  const ResourceClaim bandwidth =
      AllocTestClaim("bw", {AllocTestExactly("gpu", odd)});
  EXPECT_EQ(Run(exclusive, {&bandwidth}).status,
            AllocationOutcome::Status::kUnschedulable);
}

TEST_F(DraAllocatorTest, StepCapEndsAHopelessSearch) {
  // Eight GPUs of eight products and a claim for three of one product: no
  // solution, found only after trying every pair.
  std::vector<Device> devices;
  for (int i = 0; i < 8; ++i) {
    devices.push_back(
        AllocTestGpu("gpu-" + std::to_string(i), "P" + std::to_string(i)));
  }
  const std::vector<ResourceSlice> slices = {
      AllocTestSlice("node-a", "node-a", devices)};
  ResourceClaim claim = AllocTestClaim(
      "three",
      {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com", 3))});
  claim.spec.constraints.push_back({{}, "gpu.nvidia.com/productName"});
  AllocationOutcome out = Run(slices, {&claim});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message, kDraCannotAllocateAllClaims);
  // 1 (first device) + 8 (second device, once per first choice).
  EXPECT_EQ(out.steps, 9);

  out = Run(slices, {&claim}, {}, 5);
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message, "timed out trying to allocate devices");
  EXPECT_EQ(out.detail, "allocation search exceeded 5 steps");
}

TEST_F(DraAllocatorTest, ErrorsStopTheSearch) {
  const std::vector<ResourceSlice> slices = {AllocTestSlice(
      "node-a", "node-a", {AllocTestGpu("gpu-0", "NVIDIA H100")})};
  // A request selector reading an attribute GPUs lack: CEL runtime error.
  const ResourceClaim cel = AllocTestClaim(
      "cel", {AllocTestExactly(
                 "gpu", AllocTestSelection(
                            "gpu.nvidia.com", 1,
                            "device.attributes['gpu.nvidia.com'].profile == "
                            "'1g.10gb'"))});
  AllocationOutcome out = Run(slices, {&cel});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kError);
  EXPECT_EQ(out.message,
            "claim cel: selector #0 on device gpu.nvidia.com/node-a/gpu-0: "
            "CEL runtime error: no such key: profile");

  // A class selector erring.
  DeviceClass broken;
  broken.name = "broken";
  broken.selectors.push_back(
      AllocTestCel("device.attributes['gpu.nvidia.com'].profile == 'x'"));
  classes_.push_back(std::move(broken));
  const ResourceClaim b = AllocTestClaim(
      "b", {AllocTestExactly("gpu", AllocTestSelection("broken"))});
  out = Run(slices, {&b});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kError);
  EXPECT_EQ(out.message,
            "class broken: selector #0 on device gpu.nvidia.com/node-a/gpu-0: "
            "CEL runtime error: no such key: profile");

  // More than 32 devices in one claim.
  const ResourceClaim many = AllocTestClaim(
      "many",
      {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com", 33))});
  out = Run(slices, {&many});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kError);
  EXPECT_EQ(out.message,
            "claim many: number of requested devices 33 exceeds the claim "
            "limit of 32");

  // A class that went away after validation: unschedulable.
  const ResourceClaim gone = AllocTestClaim(
      "gone", {AllocTestExactly("gpu", AllocTestSelection("gpu.nvidia.com"))});
  std::vector<const ResourceSlice*> pointers = {&slices[0]};
  const std::vector<DeviceClass> none;
  out = DraAllocator(pointers, &none, {}).Allocate("node-a", {&gone});
  EXPECT_EQ(out.status, AllocationOutcome::Status::kUnschedulable);
  EXPECT_EQ(out.message,
            "request gpu: device class gpu.nvidia.com does not exist");
}

}  // namespace
}  // namespace gpushare
