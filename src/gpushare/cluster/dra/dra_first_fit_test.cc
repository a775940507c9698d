// DraGpuDevices's Reserve without the allocator, checked against it: after
// random claims, releases and health changes, the grants of the contract's
// first-fit rule (FirstFitGrants, what Allocate takes) equal those of
// DraAllocator's first full solution on the node's slice (AllocatorGrants),
// device for device and pick for pick, under every consumable-shares mode
// and on MIG nodes whose GPUs have different layouts.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/catalog/mig_layout_spec.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"

namespace gpushare {
namespace {

DraPoolSettings FirstFitShares(DraConsumableShares mode, int n = 0) {
  DraPoolSettings s;
  s.consumable_shares = mode;
  s.shares = n;
  return s;
}

class DraFirstFitTest : public ::testing::Test {
 protected:
  // Runs `steps` random claims (one to `max_count` devices of one or two of
  // `classes`; with consumable shares with or without a memory ask),
  // releases and
  // health changes on `d`, comparing both grants at each claim that fits.
  // Returns how many claims were allocated.
  int RandomRun(DraGpuDevices& d, const std::vector<std::string>& classes,
                int max_count, bool memory_mode, int gpus, uint32_t seed,
                int steps) {
    std::mt19937 rng(seed);
    std::vector<DeviceAllocation> held;
    int allocated = 0;
    for (int step = 0; step < steps; ++step) {
      const uint32_t what = rng() % 10;
      if (what < 3 && !held.empty()) {
        const size_t k = rng() % held.size();
        d.Release(held[k]);
        held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
        continue;
      }
      if (what == 3) {
        // A GPU (or, on MIG nodes, sometimes one of its devices) fails or
        // comes back.
        const int gpu = static_cast<int>(rng() % static_cast<uint32_t>(gpus));
        const int instance = classes.size() > 1 && rng() % 2 == 0
                                 ? static_cast<int>(rng() % 3)
                                 : -1;
        d.SetHealthy(gpu, instance, rng() % 3 == 0);
        continue;
      }
      ResourceList ask;
      ask.Set(ResourceRegistry::kCpuId, 1000);
      const size_t first = rng() % classes.size();
      const size_t kinds = classes.size() > 1 && rng() % 3 == 0 ? 2 : 1;
      int64_t devices = 0;
      for (size_t k = 0; k < kinds; ++k) {
        const int64_t count =
            1 + static_cast<int64_t>(rng() % static_cast<uint32_t>(max_count));
        ask.Set(registry_.Intern(DraClassResourceName(
                    classes[(first + k) % classes.size()])),
                count);
        devices += count;
      }
      if (memory_mode && rng() % 4 != 0) {
        ask.Set(registry_.Intern(kDraMemoryResource),
                devices * 10240 * (1 + static_cast<int64_t>(rng() % 4)));
      }
      if (!d.Fits(ask, nullptr)) continue;
      const DeviceAllocation expected = d.AllocatorGrants(ask);
      const DeviceAllocation first_fit = d.FirstFitGrants(ask);
      EXPECT_EQ(first_fit.grants, expected.grants) << "seed " << seed
                                                   << " step " << step;
      if (first_fit.grants != expected.grants) return allocated;
      held.push_back(d.Allocate(ask));
      EXPECT_EQ(held.back().grants, expected.grants);
      d.CheckInvariants();
      ++allocated;
    }
    return allocated;
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

TEST_F(DraFirstFitTest, WholeGpusUnderEverySharesMode) {
  const GpuModel& a100 = *catalog_.Find("A100-80GB");
  for (const DraPoolSettings& mode :
       {FirstFitShares(DraConsumableShares::kDisabled),
        FirstFitShares(DraConsumableShares::kCount, 3),
        FirstFitShares(DraConsumableShares::kMemoryShares),
        FirstFitShares(DraConsumableShares::kUnlimited)}) {
    for (uint32_t seed = 1; seed <= 8; ++seed) {
      DraGpuDevices d("n", a100, 4, {}, registry_, mode);
      // Claims ask memory under every consumable-shares mode (KEP-5075:
      // N and unlimited consume it too).
      const bool memory =
          mode.consumable_shares != DraConsumableShares::kDisabled;
      EXPECT_GT(RandomRun(d, {"gpu.nvidia.com"}, 3, memory, 4, seed, 150), 20)
          << "mode " << static_cast<int>(mode.consumable_shares);
    }
  }
}

TEST_F(DraFirstFitTest, MigDevicesOfDifferentLayouts) {
  const GpuModel& h100 = *catalog_.Find("H100-80GB");
  const std::vector<MigLayout> layouts = {
      ResolveMigLayout(h100, {"3g.40gb@4", "2g.20gb@0", "1g.10gb@2",
                              "1g.10gb@3"}),
      ResolveMigLayout(h100, {"1g.10gb:7"}),
      ResolveMigLayout(h100, {"3g.40gb:2"}),
      ResolveMigLayout(h100, {"2g.20gb:3"}),
  };
  for (uint32_t seed = 1; seed <= 8; ++seed) {
    DraGpuDevices d("node-m", h100, 4, layouts, registry_);
    EXPECT_GT(RandomRun(d,
                        {"mig-1g-10gb.gpu.nvidia.com",
                         "mig-2g-20gb.gpu.nvidia.com",
                         "mig-3g-40gb.gpu.nvidia.com"},
                        3, false, 4, seed, 200),
              20);
  }
}

}  // namespace
}  // namespace gpushare
