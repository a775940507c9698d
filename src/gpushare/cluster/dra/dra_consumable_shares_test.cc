// NVIDIA's DRA driver with consumable shares, by hand: what
// --consumable-shares publishes (kubernetes-sigs/dra-driver-nvidia-gpu
// cmd/gpu-kubelet-plugin/consumable_shares.go and its test) and how a DRA
// node then hands one GPU to several claims (DraGpuDevices: first fit in
// device-name order, a device picked again while it has room, as the
// experimental allocator does).

#include <gtest/gtest.h>

#include <random>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/dra/allocator.h"
#include "gpushare/cluster/dra/capacity_request_policy.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/cluster/dra/nvidia_gpu_slice.h"

namespace gpushare {
namespace {

constexpr int64_t kCsMi = int64_t{1} << 20;
constexpr int64_t kCsGi = int64_t{1} << 30;

DraPoolSettings Shares(DraConsumableShares mode, int n = 0) {
  DraPoolSettings s;
  s.consumable_shares = mode;
  s.shares = n;
  return s;
}

Device GpuWithMemory(int64_t bytes) {
  Device d;
  d.name = "gpu-0";
  d.SetCapacity(kNvidiaGpuDriver, "memory", bytes);
  return d;
}

TEST(DraConsumableSharesSliceTest, DisabledLeavesTheDeviceAlone) {
  Device d = GpuWithMemory(16 * kCsGi);
  ApplyNvidiaConsumableShares(Shares(DraConsumableShares::kDisabled), &d);
  EXPECT_FALSE(d.allow_multiple_allocations);
  EXPECT_FALSE(d.FindCapacity(kNvidiaGpuDriver, "memory")->request_policy);
  EXPECT_EQ(d.FindCapacity(kNvidiaGpuDriver, "shares"), nullptr);
}

TEST(DraConsumableSharesSliceTest, UnlimitedRoundsMemoryDownToAMebibyte) {
  // consumable_shares_test.go "unlimited option with unaligned memory
  // rounds down max": 10 MiB + 500 bytes -> 10 MiB, default 0, min 0.
  Device d = GpuWithMemory(10 * kCsMi + 500);
  ApplyNvidiaConsumableShares(Shares(DraConsumableShares::kUnlimited), &d);
  EXPECT_TRUE(d.allow_multiple_allocations);
  const DeviceCapacity* memory = d.FindCapacity(kNvidiaGpuDriver, "memory");
  ASSERT_NE(memory, nullptr);
  EXPECT_EQ(memory->value, 10 * kCsMi);
  ASSERT_TRUE(memory->request_policy.has_value());
  EXPECT_EQ(memory->request_policy->default_value, 0);
  ASSERT_TRUE(memory->request_policy->valid_range.has_value());
  EXPECT_EQ(memory->request_policy->valid_range->min, 0);
  EXPECT_EQ(memory->request_policy->valid_range->max, 10 * kCsMi);
  EXPECT_EQ(memory->request_policy->valid_range->step, kCsMi);
  EXPECT_EQ(d.FindCapacity(kNvidiaGpuDriver, "shares"), nullptr);
  EXPECT_EQ(FindCapacityRequestPolicyProblem(*memory->request_policy,
                                             memory->value),
            "");
}

TEST(DraConsumableSharesSliceTest, MemoryDefaultsToTheWholeDevice) {
  Device d = GpuWithMemory(16 * kCsGi);
  ApplyNvidiaConsumableShares(Shares(DraConsumableShares::kMemoryShares), &d);
  const DeviceCapacity* memory = d.FindCapacity(kNvidiaGpuDriver, "memory");
  EXPECT_EQ(memory->value, 16 * kCsGi);
  EXPECT_EQ(memory->request_policy->default_value, 16 * kCsGi);
  EXPECT_EQ(memory->request_policy->valid_range->min, kCsMi);
  EXPECT_EQ(memory->request_policy->valid_range->max, 16 * kCsGi);
  EXPECT_EQ(memory->request_policy->valid_range->step, kCsMi);
  // A claim asking 1.5 MiB consumes 2 MiB (rounded up to the 1Mi step); one
  // asking nothing takes the whole GPU.
  EXPECT_EQ(ConsumedCapacity(3 * kCsMi / 2, memory->value,
                             &*memory->request_policy),
            2 * kCsMi);
  EXPECT_EQ(ConsumedCapacity(std::nullopt, memory->value,
                             &*memory->request_policy),
            16 * kCsGi);
}

TEST(DraConsumableSharesSliceTest, IntegerAddsASharesCapacity) {
  // consumable_shares_test.go "integer shares option (e.g. 4)".
  Device d = GpuWithMemory(16 * kCsGi);
  ApplyNvidiaConsumableShares(Shares(DraConsumableShares::kCount, 4), &d);
  const DeviceCapacity* memory = d.FindCapacity(kNvidiaGpuDriver, "memory");
  EXPECT_EQ(memory->request_policy->default_value, 0);
  EXPECT_EQ(memory->request_policy->valid_range->min, 0);
  const DeviceCapacity* shares = d.FindCapacity(kNvidiaGpuDriver, "shares");
  ASSERT_NE(shares, nullptr);
  EXPECT_EQ(shares->value, 4);
  EXPECT_EQ(shares->request_policy->default_value, 1);
  EXPECT_EQ(shares->request_policy->valid_range->min, 1);
  EXPECT_EQ(shares->request_policy->valid_range->max, 4);
  EXPECT_EQ(shares->request_policy->valid_range->step, 1);
}

TEST(DraConsumableSharesSliceTest, EveryDeviceOfTheNodeAllowsSharing) {
  const Catalog catalog = Catalog::Builtin();
  NvidiaGpuNode node;
  node.node_name = "n";
  node.model = catalog.Find("A100-80GB");
  node.gpu_count = 2;
  node.consumable = Shares(DraConsumableShares::kCount, 3);
  const ResourceSlice slice = NvidiaGpuResourceSlice(node);
  ASSERT_EQ(slice.devices.size(), 2u);
  for (const Device& d : slice.devices) {
    EXPECT_TRUE(d.allow_multiple_allocations) << d.name;
    EXPECT_EQ(d.FindCapacity(kNvidiaGpuDriver, "memory")->value, 81920 * kCsMi);
    EXPECT_EQ(d.FindCapacity(kNvidiaGpuDriver, "shares")->value, 3);
  }
}

class DraSharedGpusTest : public ::testing::Test {
 protected:
  const GpuModel& A100() { return *catalog_.Find("A100-80GB"); }
  ResourceId GpuClass() {
    return registry_.Intern(DraClassResourceName("gpu.nvidia.com"));
  }
  ResourceList Ask(int64_t count, int64_t memory_mib = 0) {
    ResourceList r;
    r.Set(ResourceRegistry::kCpuId, 1000);
    r.Set(GpuClass(), count);
    if (memory_mib > 0) {
      r.Set(registry_.Intern(kDraMemoryResource), memory_mib * count);
    }
    return r;
  }
  static std::vector<int> Gpus(const DeviceAllocation& a) {
    std::vector<int> out;
    for (const DeviceGrant& g : a.grants) out.push_back(g.gpu);
    return out;
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

TEST_F(DraSharedGpusTest, NSharesFillTheFirstGpuFirst) {
  DraGpuDevices d("n", A100(), 2, {}, registry_,
                  Shares(DraConsumableShares::kCount, 4));
  // Bookkeeping: 4 picks per GPU.
  EXPECT_EQ(d.Capacity().Get(GpuClass()), 8);
  ResourceClaim claim;
  ASSERT_TRUE(d.DraClaimFor(Ask(1), &claim));
  EXPECT_TRUE(claim.spec.requests[0].exactly.capacity_requests.empty());
  std::vector<DeviceAllocation> held;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(d.Fits(Ask(1), nullptr)) << i;
    held.push_back(d.Allocate(Ask(1)));
    EXPECT_EQ(Gpus(held.back()), std::vector<int>{0}) << i;
    // No isolation: the grant is the whole GPU's memory.
    EXPECT_EQ(held.back().grants[0].memory_mib, 81920);
  }
  held.push_back(d.Allocate(Ask(1)));
  EXPECT_EQ(Gpus(held.back()), std::vector<int>{1});
  const std::vector<DraDeviceUse> use = d.DeviceUse();
  EXPECT_EQ(use[0].shares, 4);
  EXPECT_EQ(use[0].picks, 4);
  EXPECT_EQ(use[1].shares, 1);
  d.CheckInvariants();
  // Three shares left: a claim of three GPUs takes gpu-1 three times
  // (upstream's experimental allocator may pick a shareable device again).
  EXPECT_TRUE(d.Fits(Ask(3), nullptr));
  EXPECT_FALSE(d.Fits(Ask(4), nullptr));
  const DeviceAllocation three = d.Allocate(Ask(3));
  EXPECT_EQ(Gpus(three), (std::vector<int>{1, 1, 1}));
  std::string_view reason;
  EXPECT_FALSE(d.Fits(Ask(1), &reason));
  EXPECT_EQ(reason, kDraCannotAllocateAllClaims);
  // Release frees one share of gpu-0, which the next claim takes.
  d.Release(held[2]);
  EXPECT_EQ(d.DeviceUse()[0].shares, 3);
  EXPECT_EQ(Gpus(d.Allocate(Ask(1))), std::vector<int>{0});
  d.Release(three);
  d.Reacquire(three);
  EXPECT_EQ(d.DeviceUse()[1].shares, 4);
  d.CheckInvariants();
}

TEST_F(DraSharedGpusTest, TheNPlusFirstClaimOnAOneGpuNodeDoesNotFit) {
  DraGpuDevices d("n", A100(), 1, {}, registry_,
                  Shares(DraConsumableShares::kCount, 2));
  d.Allocate(Ask(1));
  d.Allocate(Ask(1));
  EXPECT_FALSE(d.Fits(Ask(1), nullptr));
  d.CheckInvariants();
}

TEST_F(DraSharedGpusTest, MemorySharesByWhatEachClaimAsks) {
  DraGpuDevices d("n", A100(), 2, {}, registry_,
                  Shares(DraConsumableShares::kMemoryShares));
  const ResourceId memory = registry_.Intern(kDraMemoryResource);
  EXPECT_EQ(d.Allocatable().Get(memory), 2 * 81920);
  ResourceClaim claim;
  ASSERT_TRUE(d.DraClaimFor(Ask(1, 30720), &claim));
  ASSERT_EQ(claim.spec.requests[0].exactly.capacity_requests.size(), 1u);
  EXPECT_EQ(claim.spec.requests[0].exactly.capacity_requests[0].name,
            "memory");
  EXPECT_EQ(claim.spec.requests[0].exactly.capacity_requests[0].value,
            30 * kCsGi);
  // 30 GiB, 30 GiB, 30 GiB on two 80 GiB GPUs: the third does not fit in
  // the 20 GiB left on gpu-0 and goes to gpu-1.
  const DeviceAllocation a = d.Allocate(Ask(1, 30720));
  const DeviceAllocation b = d.Allocate(Ask(1, 30720));
  ASSERT_TRUE(d.Fits(Ask(1, 30720), nullptr));
  const DeviceAllocation c = d.Allocate(Ask(1, 30720));
  EXPECT_EQ(Gpus(a), std::vector<int>{0});
  EXPECT_EQ(Gpus(b), std::vector<int>{0});
  EXPECT_EQ(Gpus(c), std::vector<int>{1});
  EXPECT_EQ(c.grants[0].claim_memory_mib, 30720);
  EXPECT_EQ(c.grants[0].memory_mib, 81920);  // no isolation
  EXPECT_EQ(d.DeviceUse()[0].memory_mib, 61440);
  // Left: 20480 on gpu-0, 51200 on gpu-1. A 20 GiB claim fits gpu-0; a
  // 2 x 25 GiB claim takes gpu-1 twice; 2 x 30 GiB does not fit although
  // 71680 MiB are free in all.
  EXPECT_EQ(Gpus(d.Allocate(Ask(1, 20480))), std::vector<int>{0});
  EXPECT_FALSE(d.Fits(Ask(2, 30720), nullptr));
  EXPECT_TRUE(d.Fits(Ask(2, 25600), nullptr));
  EXPECT_EQ(Gpus(d.Allocate(Ask(2, 25600))), (std::vector<int>{1, 1}));
  EXPECT_FALSE(d.Fits(Ask(1, 1), nullptr));
  d.CheckInvariants();
  d.Release(b);
  EXPECT_EQ(d.DeviceUse()[0].memory_mib, 51200);
  EXPECT_TRUE(d.Fits(Ask(1, 30720), nullptr));
  EXPECT_FALSE(d.Fits(Ask(1, 30721), nullptr));
  d.CheckInvariants();
}

TEST_F(DraSharedGpusTest, MemoryClaimOverTheGpuNeverFits) {
  DraGpuDevices d("n", A100(), 1, {}, registry_,
                  Shares(DraConsumableShares::kMemoryShares));
  EXPECT_FALSE(d.Fits(Ask(1, 81921), nullptr));
  EXPECT_TRUE(d.Fits(Ask(1, 81920), nullptr));
}

TEST_F(DraSharedGpusTest, UnlimitedSharesWithoutLimitButNotUnhealthyGpus) {
  DraGpuDevices d("n", A100(), 2, {}, registry_,
                  Shares(DraConsumableShares::kUnlimited));
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(Gpus(d.Allocate(Ask(1))), std::vector<int>{0});
  }
  d.SetHealthy(0, -1, false);
  EXPECT_EQ(d.Allocatable().Get(GpuClass()), kDraUnlimitedPicksPerDevice);
  EXPECT_EQ(Gpus(d.Allocate(Ask(1))), std::vector<int>{1});
  d.SetHealthy(1, -1, false);
  EXPECT_FALSE(d.Fits(Ask(1), nullptr));
  d.CheckInvariants();
}

// issue 52: an L4 (23034 MiB) with 4 shares. Each notebook claim asks
// capacity.requests.memory 6Gi and takes one share and 6144 MiB (KEP-5075:
// experimental allocator, consumable_capacity.go: every capacity the request
// names is consumed, others their policy default). Three fit gpu-0 (18432
// MiB); the fourth would need 24576 > 23034 and goes to gpu-1 although
// gpu-0 still has a share.
TEST_F(DraSharedGpusTest, NSharesAlsoConsumeTheMemoryAClaimAsks) {
  const GpuModel& l4 = *catalog_.Find("L4");
  DraGpuDevices d("n", l4, 2, {}, registry_,
                  Shares(DraConsumableShares::kCount, 4));
  const ResourceId memory = registry_.Intern(kDraMemoryResource);
  EXPECT_EQ(d.Allocatable().Get(memory), 2 * 23034);
  ResourceClaim claim;
  ASSERT_TRUE(d.DraClaimFor(Ask(1, 6144), &claim));
  ASSERT_EQ(claim.spec.requests[0].exactly.capacity_requests.size(), 1u);
  EXPECT_EQ(claim.spec.requests[0].exactly.capacity_requests[0].value,
            6 * kCsGi);
  std::vector<DeviceAllocation> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(d.Allocate(Ask(1, 6144)));
    EXPECT_EQ(Gpus(held.back()), std::vector<int>{0}) << i;
    EXPECT_EQ(held.back().grants[0].claim_memory_mib, 6144);
  }
  EXPECT_EQ(d.DeviceUse()[0].shares, 3);
  EXPECT_EQ(d.DeviceUse()[0].memory_mib, 18432);
  ASSERT_TRUE(d.Fits(Ask(1, 6144), nullptr));
  EXPECT_EQ(Gpus(d.Allocate(Ask(1, 6144))), std::vector<int>{1});
  // gpu-0's fourth share still serves a claim asking no memory (default 0)
  // or one asking what is left (4602 MiB), not one asking 4603.
  EXPECT_TRUE(d.Fits(Ask(1, 4602), nullptr));
  EXPECT_EQ(Gpus(d.FirstFitGrants(Ask(1, 4602))), std::vector<int>{0});
  EXPECT_EQ(Gpus(d.FirstFitGrants(Ask(1, 4603))), std::vector<int>{1});
  EXPECT_EQ(Gpus(d.Allocate(Ask(1))), std::vector<int>{0});
  EXPECT_EQ(d.DeviceUse()[0].memory_mib, 18432);
  // gpu-0 is out of shares; gpu-1 holds 16890 MiB: two more 6 GiB claims
  // fit there, a third does not (shares would allow it).
  EXPECT_EQ(Gpus(d.Allocate(Ask(2, 6144))), (std::vector<int>{1, 1}));
  std::string_view reason;
  EXPECT_FALSE(d.Fits(Ask(1, 6144), &reason));
  EXPECT_EQ(reason, kDraCannotAllocateAllClaims);
  EXPECT_TRUE(d.Fits(Ask(1, 4602), nullptr));
  d.CheckInvariants();
  d.Release(held[0]);
  EXPECT_EQ(d.DeviceUse()[0].memory_mib, 12288);
  EXPECT_EQ(Gpus(d.Allocate(Ask(1, 6144))), std::vector<int>{0});
  d.CheckInvariants();
}

TEST_F(DraSharedGpusTest, UnlimitedSharesStopAtTheMemoryClaimsAsk) {
  DraGpuDevices d("n", A100(), 1, {}, registry_,
                  Shares(DraConsumableShares::kUnlimited));
  // 81920 MiB: four claims of 20 GiB, then no fifth; claims asking nothing
  // still fit (default 0).
  for (int i = 0; i < 4; ++i) d.Allocate(Ask(1, 20480));
  EXPECT_FALSE(d.Fits(Ask(1, 1), nullptr));
  EXPECT_TRUE(d.Fits(Ask(1), nullptr));
  EXPECT_FALSE(d.Fits(Ask(1, 81921), nullptr));
  d.CheckInvariants();
}

// The contract's proof, checked: after random claims and releases, Fits()
// answers what DraAllocator answers for the same claim on the same slice
// with what the node's devices hold.
TEST_F(DraSharedGpusTest, FitsAgreesWithTheAllocator) {
  for (const DraPoolSettings& mode :
       {Shares(DraConsumableShares::kCount, 3),
        Shares(DraConsumableShares::kMemoryShares),
        Shares(DraConsumableShares::kUnlimited)}) {
    DraGpuDevices d("n", A100(), 3, {}, registry_, mode);
    std::mt19937 rng(39);
    std::vector<DeviceAllocation> held;
    int fits = 0;
    int misses = 0;
    for (int step = 0; step < 300; ++step) {
      if (!held.empty() && rng() % 3 == 0) {
        const size_t k = rng() % held.size();
        d.Release(held[k]);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
        continue;
      }
      const int64_t count = 1 + static_cast<int64_t>(rng() % 3);
      // Every mode consumes the memory a claim asks (a third of them ask
      // none outside memory mode).
      const int64_t memory =
          mode.consumable_shares == DraConsumableShares::kMemoryShares ||
                  rng() % 3 != 0
              ? 10240 * (1 + static_cast<int64_t>(rng() % 5))
              : 0;
      const ResourceList ask = Ask(count, memory);
      AllocatedDevices in_use;
      for (const DraDeviceUse& u : d.DeviceUse()) {
        if (u.picks == 0) continue;
        DeviceConsumedCapacity c;
        c.device = {"gpu.nvidia.com", "n", u.device};
        c.consumed.push_back(
            {kNvidiaGpuDriver, "memory", u.memory_mib * kCsMi, std::nullopt});
        c.consumed.push_back({kNvidiaGpuDriver, "shares", u.shares,
                              std::nullopt});
        in_use.shared.push_back(c);
      }
      ResourceClaim claim;
      ASSERT_TRUE(d.DraClaimFor(ask, &claim));
      const DraAllocator allocator({&d.slice()}, &d.classes(), in_use);
      const bool allocated =
          allocator.Allocate("n", {&claim}).status ==
          AllocationOutcome::Status::kAllocated;
      ASSERT_EQ(d.Fits(ask, nullptr), allocated) << step;
      if (allocated) {
        held.push_back(d.Allocate(ask));
        ++fits;
      } else {
        ++misses;
      }
      d.CheckInvariants();
    }
    // Both answers were exercised.
    EXPECT_GT(fits, 20);
    EXPECT_GT(misses, 20);
  }
}

}  // namespace
}  // namespace gpushare
