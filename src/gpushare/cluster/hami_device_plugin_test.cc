// HamiDevicePlugin and HamiRequestOf against Project-HAMi/HAMi: resources
// and webhook rules (pkg/device/nvidia/device.go MutateAdmission,
// GenerateResourceRequests), registration (Count, Devmem, Devcore in the
// node annotation hami.io/node-nvidia-register), Fit rejection order
// (NvidiaGPUDevices.Fit) and device and node scores
// (pkg/scheduler/policy/gpu_policy.go, node_policy.go).
// All nodes here have A100-40GB GPUs: 40960 MiB each.

#include "gpushare/cluster/hami_device_plugin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {
namespace {

class HamiTest : public ::testing::Test {
 protected:
  HamiTest() {
    // The names HamiRequestOf reads, as a HAMi node would intern them.
    for (std::string_view name :
         {kNvidiaGpu, kHamiGpuMem, kHamiGpuMemPercentage, kHamiGpuCores}) {
      registry_.Intern(name);
    }
  }

  std::unique_ptr<HamiDevicePlugin> Make(int gpus, HamiSettings settings = {}) {
    return std::make_unique<HamiDevicePlugin>(catalog_.Get("A100-40GB"), gpus,
                                              settings, registry_);
  }

  ResourceList Req(
      std::initializer_list<std::pair<std::string_view, int64_t>> items) {
    ResourceList r;
    for (const auto& [name, quantity] : items) {
      r.Set(registry_.Intern(name), quantity);
    }
    return r;
  }

  HamiRequest Of(
      std::initializer_list<std::pair<std::string_view, int64_t>> items,
      const HamiSettings& settings = {}) {
    return HamiRequestOf(Req(items), registry_, settings);
  }

  int64_t Cap(const HamiDevicePlugin& p, std::string_view name) {
    return p.Capacity().Get(registry_.Find(name));
  }

  // The GPU a one-vGPU request lands on.
  static int GpuOf(const DeviceAllocation& a) {
    return a.grants.size() == 1 ? a.grants[0].gpu : -1;
  }

  // Fits' reason for `requests`, or "fits".
  std::string Reason(const HamiDevicePlugin& p, const ResourceList& requests) {
    std::string_view reason;
    if (p.Fits(requests, &reason)) return "fits";
    return std::string(reason);
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

// --- Webhook rules (MutateAdmission) -----------------------------------------

TEST_F(HamiTest, NoHamiResourceIsNoRequest) {
  EXPECT_FALSE(Of({}).any());
  EXPECT_FALSE(Of({{"cpu", 1000}, {"memory", 512}}).any());
}

// "if a container sets gpumem ... but not nvidia.com/gpu, it adds
// nvidia.com/gpu: defaultGPUNum (1)"; a memory request means no exclusive
// cores, so cores = defaultCores (0).
TEST_F(HamiTest, GpumemWithoutGpuIsOneVgpu) {
  const HamiRequest r = Of({{"nvidia.com/gpumem", 3000}});
  EXPECT_EQ(r.nums, 1);
  EXPECT_EQ(r.memory_mib, 3000);
  EXPECT_EQ(r.memory_percentage, 0);
  EXPECT_EQ(r.cores, 0);
}

TEST_F(HamiTest, GpucoresWithoutGpuIsOneVgpuWithAllMemory) {
  const HamiRequest r = Of({{"nvidia.com/gpucores", 30}});
  EXPECT_EQ(r.nums, 1);
  EXPECT_EQ(r.memory_percentage, 100);
  EXPECT_EQ(r.cores, 30);
}

// defaultExclusiveCoreIfNeeded: gpu set, no cores, no memory request →
// gpucores 100; and no memory request → 100 % (defaultMemory 0).
TEST_F(HamiTest, GpuAloneIsAnExclusiveCard) {
  const HamiRequest r = Of({{"nvidia.com/gpu", 1}});
  EXPECT_EQ(r.nums, 1);
  EXPECT_EQ(r.memory_mib, 0);
  EXPECT_EQ(r.memory_percentage, 100);
  EXPECT_EQ(r.cores, 100);
  EXPECT_EQ(Of({{"nvidia.com/gpu", 3}}).nums, 3);
}

TEST_F(HamiTest, GpuWithFullPercentageGetsAllCores) {
  const HamiRequest r =
      Of({{"nvidia.com/gpu", 2}, {"nvidia.com/gpumem-percentage", 100}});
  EXPECT_EQ(r.nums, 2);
  EXPECT_EQ(r.memory_percentage, 100);
  EXPECT_EQ(r.cores, 100);
  // A lower percentage is not exclusive: defaultCores.
  const HamiRequest half =
      Of({{"nvidia.com/gpu", 1}, {"nvidia.com/gpumem-percentage", 50}});
  EXPECT_EQ(half.memory_percentage, 50);
  EXPECT_EQ(half.cores, 0);
}

TEST_F(HamiTest, GpuWithGpumemGetsDefaultCores) {
  const HamiRequest r =
      Of({{"nvidia.com/gpu", 1}, {"nvidia.com/gpumem", 4096}});
  EXPECT_EQ(r.memory_mib, 4096);
  EXPECT_EQ(r.memory_percentage, 0);
  EXPECT_EQ(r.cores, 0);  // defaultCores
  HamiSettings s;
  s.default_cores = 20;
  EXPECT_EQ(Of({{"nvidia.com/gpu", 1}, {"nvidia.com/gpumem", 4096}}, s).cores,
            20);
  // Explicit cores win over the default.
  EXPECT_EQ(Of({{"nvidia.com/gpu", 1},
                {"nvidia.com/gpumem", 4096},
                {"nvidia.com/gpucores", 35}},
               s)
                .cores,
            35);
}

// "If neither gpumem nor percentage: use defaultMemory MB if non-zero".
TEST_F(HamiTest, DefaultMemoryUsedWhenSet) {
  HamiSettings s;
  s.default_memory_mib = 2048;
  const HamiRequest r =
      Of({{"nvidia.com/gpu", 1}, {"nvidia.com/gpucores", 30}}, s);
  EXPECT_EQ(r.memory_mib, 2048);
  EXPECT_EQ(r.memory_percentage, 0);
  EXPECT_EQ(r.cores, 30);
  // gpu alone still gets exclusive cores: the webhook sees no memory request.
  const HamiRequest alone = Of({{"nvidia.com/gpu", 1}}, s);
  EXPECT_EQ(alone.memory_mib, 2048);
  EXPECT_EQ(alone.cores, 100);
  // An explicit gpumem wins over defaultMemory.
  EXPECT_EQ(Of({{"nvidia.com/gpumem", 1000}}, s).memory_mib, 1000);
}

// "nvidia.com/gpucores ... >100 clamped to 100"; "gpumem-percentage ...
// >100 clamped".
TEST_F(HamiTest, OverHundredIsClamped) {
  EXPECT_EQ(Of({{"nvidia.com/gpu", 1},
                {"nvidia.com/gpumem", 1000},
                {"nvidia.com/gpucores", 150}})
                .cores,
            100);
  const HamiRequest r = Of({{"nvidia.com/gpu", 1},
                            {"nvidia.com/gpumem-percentage", 150},
                            {"nvidia.com/gpucores", 10}});
  EXPECT_EQ(r.memory_percentage, 100);
  EXPECT_EQ(r.cores, 10);
}

// HAMi's MutateAdmission first adds nvidia.com/gpu (mutateContainerResource)
// and then runs defaultExclusiveCoreIfNeeded, which sees the count, no cores,
// and gpumem-percentage == 100, so it injects gpucores 100 (both webhook rules
// in that order).
TEST_F(HamiTest, PercentageHundredWithoutGpuIsExclusive) {
  const HamiRequest r = Of({{"nvidia.com/gpumem-percentage", 100}});
  EXPECT_EQ(r.nums, 1);
  EXPECT_EQ(r.memory_percentage, 100);
  EXPECT_EQ(r.cores, 100);
}

// --- Registration (hami.io/node-nvidia-register) -----------------------------

TEST_F(HamiTest, CapacityIsCountMemoryAndCoresPerGpu) {
  auto p = Make(4);
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu"), 40);         // 4 x split 10
  EXPECT_EQ(Cap(*p, "nvidia.com/gpumem"), 163840);  // 4 x 40960
  EXPECT_EQ(Cap(*p, "nvidia.com/gpucores"), 400);   // 4 x 100
  EXPECT_EQ(p->Capacity().items().size(), 3u);
  for (const auto& g : p->gpus()) {
    EXPECT_EQ(g.count, 10);
    EXPECT_EQ(g.total_memory_mib, 40960);
    EXPECT_EQ(g.total_cores, 100);
  }

  HamiSettings s;
  s.split_count = 5;
  s.memory_scaling = 2;
  s.core_scaling = 1.5;
  auto scaled = Make(4, s);
  EXPECT_EQ(Cap(*scaled, "nvidia.com/gpu"), 20);         // 4 x 5
  EXPECT_EQ(Cap(*scaled, "nvidia.com/gpumem"), 327680);  // 4 x 40960 x 2
  EXPECT_EQ(Cap(*scaled, "nvidia.com/gpucores"), 600);   // 4 x 100 x 1.5
}

// deviceMemoryScaling 2: Totalmem doubles, so a 50000 MiB vGPU fits on a
// 40960 MiB card and a 50 % request is 40960 MiB.
TEST_F(HamiTest, MemoryScalingDoublesTotalmem) {
  HamiSettings s;
  s.memory_scaling = 2;
  auto p = Make(1, s);
  EXPECT_EQ(p->gpus()[0].total_memory_mib, 81920);
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 50000}})), "fits");
  EXPECT_EQ(Reason(*Make(1), Req({{"nvidia.com/gpumem", 50000}})),
            "CardInsufficientMemory");
  const DeviceAllocation a = p->Allocate(
      Req({{"nvidia.com/gpu", 1}, {"nvidia.com/gpumem-percentage", 50}}));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].memory_mib, 40960);  // 81920 x 50 / 100
}

TEST_F(HamiTest, Labels) {
  Labels l;
  Make(4)->AddNodeLabels(&l);
  EXPECT_EQ(l.at("gpu"), "on");
  EXPECT_EQ(l.at("nvidia.com/gpu.count"), "4");
  EXPECT_EQ(l.at("nvidia.com/gpu.memory"), "40960");
}

// --- Fit rejection reasons in HAMi's order (NvidiaGPUDevices.Fit) ------------

TEST_F(HamiTest, SplitCountExhausted) {
  HamiSettings s;
  s.split_count = 2;
  auto p = Make(1, s);
  const ResourceList small = Req({{"nvidia.com/gpumem", 1000}});
  p->Allocate(small);
  p->Allocate(small);
  EXPECT_EQ(Reason(*p, small), "CardTimeSlicingExhausted");
  // Slots are checked before memory: a request too big as well still says so.
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 40000}})),
            "CardTimeSlicingExhausted");
}

TEST_F(HamiTest, InsufficientMemory) {
  auto p = Make(1);
  p->Allocate(Req({{"nvidia.com/gpumem", 30000}}));
  // 40960 - 30000 = 10960 MiB free.
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 10960}})), "fits");
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 10961}})),
            "CardInsufficientMemory");
  // gpu alone asks 100 % of the memory: memory fails before the exclusive
  // conflict is looked at.
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpu", 1}})), "CardInsufficientMemory");
}

TEST_F(HamiTest, InsufficientCore) {
  auto p = Make(1);
  p->Allocate(Req({{"nvidia.com/gpumem", 1000}, {"nvidia.com/gpucores", 60}}));
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 1000},
                            {"nvidia.com/gpucores", 40}})),
            "fits");
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 1000},
                            {"nvidia.com/gpucores", 50}})),
            "CardInsufficientCore");
  // Memory is checked before cores.
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 40000},
                            {"nvidia.com/gpucores", 50}})),
            "CardInsufficientMemory");
}

// "coresreq == 100 && Totalcore == 100 && Used > 0" (exclusive conflict).
TEST_F(HamiTest, ExclusiveRequestOnAUsedGpu) {
  auto p = Make(1);
  p->Allocate(Req({{"nvidia.com/gpumem", 1000}}));  // 0 cores
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 1000},
                            {"nvidia.com/gpucores", 100}})),
            "ExclusiveDeviceAllocateConflict");
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 1000},
                            {"nvidia.com/gpucores", 99}})),
            "fits");
  // With deviceCoreScaling 2 (Totalcore 200) the rule does not apply.
  HamiSettings s;
  s.core_scaling = 2;
  auto scaled = Make(1, s);
  scaled->Allocate(Req({{"nvidia.com/gpumem", 1000}}));
  EXPECT_EQ(Reason(*scaled, Req({{"nvidia.com/gpumem", 1000},
                                 {"nvidia.com/gpucores", 100}})),
            "fits");
}

// "Usedcores == Totalcore && coresreq == 0" (no 0-core job on a full GPU).
TEST_F(HamiTest, ZeroCoreRequestOnAFullCoreGpu) {
  auto p = Make(1);
  p->Allocate(Req({{"nvidia.com/gpumem", 1000}, {"nvidia.com/gpucores", 100}}));
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpumem", 1000}})),
            "CardComputeUnitsExhausted");
}

// HAMi's rule is "Totalcore != 0 && Usedcores == Totalcore && coresreq == 0"
// (NvidiaGPUDevices.Fit guards Totalcore != 0): deviceCoreScaling 0.005
// registers Totalcore = floor(100 x 0.005) = 0, and a 0-core request still
// fits.
TEST_F(HamiTest, ZeroCoreRequestOnAGpuWithoutCores) {
  HamiSettings s;
  s.core_scaling = 0.005;
  auto p = Make(1, s);
  ASSERT_EQ(p->gpus()[0].total_cores, 0);
  const std::string reason = Reason(*p, Req({{"nvidia.com/gpumem", 1000}}));
  EXPECT_EQ(reason, "fits");
}

TEST_F(HamiTest, MoreVgpusThanGpus) {
  auto p = Make(2);
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpu", 3}, {"nvidia.com/gpumem", 10}})),
            "AllocatedCardsInsufficientRequest");
}

TEST_F(HamiTest, ForeignExtendedResourceDoesNotFit) {
  auto p = Make(1);
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/mig-1g.5gb", 1}})),
            "node(s) did not have enough free GPU devices");
  // cpu and memory are not the device plugin's business.
  EXPECT_EQ(Reason(*p, Req({{"cpu", 1000000}, {"memory", 1}})), "fits");
}

// --- GPU choice (gpu_policy.go ComputeScore) ---------------------------------
//
// deviceScore = 10 x ((1 + Used)/Count + (cores + Usedcores)/Totalcore +
//                     (mem + Usedmem)/Totalmem); Fit walks the sorted list
// backwards: binpack takes the highest score, spread the lowest, and equal
// scores the higher index.

TEST_F(HamiTest, EqualScoresTakeTheHigherIndex) {
  for (HamiPolicy policy : {HamiPolicy::kBinpack, HamiPolicy::kSpread}) {
    HamiSettings s;
    s.gpu_policy = policy;
    auto p = Make(2, s);
    EXPECT_EQ(GpuOf(p->Allocate(Req({{"nvidia.com/gpumem", 10240},
                                     {"nvidia.com/gpucores", 20}}))),
              1);
  }
}

// GPU 1 holds (10240 MiB, 20 cores); request (4096 MiB, 10 cores):
//   GPU 0: 10 x (1/10 + 10/100 + 4096/40960)           = 10 x 0.30 = 3.0
//   GPU 1: 10 x (2/10 + 30/100 + (4096+10240)/40960)   = 10 x 0.85 = 8.5
TEST_F(HamiTest, BinpackTakesTheFullestSpreadTheEmptiest) {
  for (HamiPolicy policy : {HamiPolicy::kBinpack, HamiPolicy::kSpread}) {
    HamiSettings s;
    s.gpu_policy = policy;
    auto p = Make(2, s);
    ASSERT_EQ(GpuOf(p->Allocate(Req({{"nvidia.com/gpumem", 10240},
                                     {"nvidia.com/gpucores", 20}}))),
              1);
    const int gpu = GpuOf(p->Allocate(
        Req({{"nvidia.com/gpumem", 4096}, {"nvidia.com/gpucores", 10}})));
    EXPECT_EQ(gpu, policy == HamiPolicy::kBinpack ? 1 : 0);
  }
}

// Binpack scores memory, not just slots. Three GPUs, binpack:
//   P1, P2 (1000 MiB each): ties → GPU 2; then GPU 2 scores
//     10 x (2/10 + 2000/40960) = 2.49 > 1.24 → GPU 2 again.
//   P3 (39000 MiB): GPU 2 has only 38960 free → rejected; GPUs 0 and 1 tie
//     → GPU 1.
//   Q (1000 MiB): GPU 0: 10 x (1/10 + 1000/40960)          = 1.244
//                 GPU 1: 10 x (2/10 + 40000/40960)         = 11.766
//                 GPU 2: 10 x (3/10 + 3000/40960)          = 3.732
//   → GPU 1, although GPU 2 has more vGPUs.
TEST_F(HamiTest, BinpackWeighsMemory) {
  HamiSettings s;
  s.gpu_policy = HamiPolicy::kBinpack;
  auto p = Make(3, s);
  const ResourceList small = Req({{"nvidia.com/gpumem", 1000}});
  EXPECT_EQ(GpuOf(p->Allocate(small)), 2);
  EXPECT_EQ(GpuOf(p->Allocate(small)), 2);
  EXPECT_EQ(GpuOf(p->Allocate(Req({{"nvidia.com/gpumem", 39000}}))), 1);
  EXPECT_EQ(GpuOf(p->Allocate(small)), 1);
  // Spread on the same state takes GPU 0 (1.244, the lowest).
  HamiSettings spread = s;
  spread.gpu_policy = HamiPolicy::kSpread;
  auto q = Make(3, spread);
  EXPECT_EQ(GpuOf(q->Allocate(small)), 2);
  EXPECT_EQ(GpuOf(q->Allocate(small)), 1);  // 1.244 (GPU 0, 1) < 2.49
  p->CheckInvariants();
  q->CheckInvariants();
}

// HAMi Fit (hami-core mode): each vGPU of a container lands on a different
// physical GPU.
TEST_F(HamiTest, MultiVgpuRequestUsesDistinctGpus) {
  auto p = Make(4);  // spread
  const DeviceAllocation a =
      p->Allocate(Req({{"nvidia.com/gpu", 2}, {"nvidia.com/gpumem", 1000}}));
  ASSERT_EQ(a.grants.size(), 2u);
  // All four tie: the reverse walk takes 3, then 2.
  EXPECT_EQ(a.grants[0].gpu, 3);
  EXPECT_EQ(a.grants[1].gpu, 2);
  for (const DeviceGrant& g : a.grants) {
    EXPECT_EQ(g.memory_mib, 1000);
    EXPECT_EQ(g.cores_percent, 0);
  }
  const DeviceAllocation all =
      p->Allocate(Req({{"nvidia.com/gpu", 4}, {"nvidia.com/gpumem", 1000}}));
  std::vector<int> gpus;
  for (const DeviceGrant& g : all.grants) gpus.push_back(g.gpu);
  std::sort(gpus.begin(), gpus.end());
  EXPECT_EQ(gpus, (std::vector<int>{0, 1, 2, 3}));
  p->CheckInvariants();
}

TEST_F(HamiTest, MultiVgpuRequestSkipsAFullGpu) {
  auto p = Make(3);
  // An exclusive card (100 % memory, 100 cores) on GPU 2 (ties → highest).
  EXPECT_EQ(GpuOf(p->Allocate(Req({{"nvidia.com/gpu", 1}}))), 2);
  const DeviceAllocation a =
      p->Allocate(Req({{"nvidia.com/gpu", 2}, {"nvidia.com/gpumem", 1000}}));
  ASSERT_EQ(a.grants.size(), 2u);
  EXPECT_EQ(a.grants[0].gpu, 1);
  EXPECT_EQ(a.grants[1].gpu, 0);
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpu", 3}, {"nvidia.com/gpumem", 1}})),
            "CardInsufficientMemory");
}

// node_policy.go ComputeDefaultScore: 10 x (ΣUsed/ΣCount +
// ΣUsedcores/ΣTotalcore + ΣUsedmem/ΣTotalmem). One vGPU of
// (10240 MiB, 20 cores) on 2 GPUs:
// 10 x (1/20 + 20/200 + 10240/81920) = 10 x (0.05 + 0.1 + 0.125) = 2.75.
TEST_F(HamiTest, NodeScore) {
  auto p = Make(2);
  EXPECT_DOUBLE_EQ(p->NodeScore(), 0.0);
  p->Allocate(Req({{"nvidia.com/gpumem", 10240}, {"nvidia.com/gpucores", 20}}));
  EXPECT_DOUBLE_EQ(p->NodeScore(), 2.75);
  // An exclusive card on the other GPU adds 1/20, 100/200, 40960/81920:
  // 10 x (0.1 + 0.6 + 0.625) = 13.25.
  p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_DOUBLE_EQ(p->NodeScore(), 13.25);
}

TEST_F(HamiTest, ReacquireUndoesRelease) {
  auto p = Make(1);
  const ResourceList big =
      Req({{"nvidia.com/gpumem", 30000}, {"nvidia.com/gpucores", 70}});
  const DeviceAllocation a = p->Allocate(big);
  const double score = p->NodeScore();
  p->Release(a);
  p->Reacquire(a);
  p->CheckInvariants();
  EXPECT_EQ(p->gpus()[0].used, 1);
  EXPECT_EQ(p->gpus()[0].used_memory_mib, 30000);
  EXPECT_EQ(p->gpus()[0].used_cores, 70);
  EXPECT_DOUBLE_EQ(p->NodeScore(), score);
  EXPECT_EQ(Reason(*p, big), "CardInsufficientMemory");
}

TEST_F(HamiTest, ReleaseRestoresState) {
  auto p = Make(1);
  const ResourceList big =
      Req({{"nvidia.com/gpumem", 30000}, {"nvidia.com/gpucores", 70}});
  const DeviceAllocation a = p->Allocate(big);
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].memory_mib, 30000);
  EXPECT_EQ(a.grants[0].cores_percent, 70);
  EXPECT_EQ(a.grants[0].resource, registry_.Find("nvidia.com/gpu"));
  EXPECT_EQ(p->gpus()[0].used, 1);
  EXPECT_EQ(p->gpus()[0].used_memory_mib, 30000);
  EXPECT_EQ(p->gpus()[0].used_cores, 70);
  EXPECT_EQ(Reason(*p, big), "CardInsufficientMemory");
  p->Release(a);
  EXPECT_EQ(p->gpus()[0].used, 0);
  EXPECT_EQ(p->gpus()[0].used_memory_mib, 0);
  EXPECT_EQ(p->gpus()[0].used_cores, 0);
  EXPECT_DOUBLE_EQ(p->NodeScore(), 0.0);
  EXPECT_EQ(Reason(*p, big), "fits");
  p->CheckInvariants();
}

TEST_F(HamiTest, NoHamiRequestAllocatesNothing) {
  auto p = Make(1);
  EXPECT_EQ(Reason(*p, Req({{"cpu", 500}})), "fits");
  EXPECT_TRUE(p->Allocate(Req({{"cpu", 500}})).grants.empty());
}

// An unhealthy GPU is rejected first ("CardNotHealth") and leaves the
// allocatable vGPU slots, memory and cores until it recovers.
TEST_F(HamiTest, UnhealthyGpuIsRejectedAndLeavesAllocatable) {
  auto p = Make(2);
  const ResourceList whole = Req({{"nvidia.com/gpu", 1}});
  p->SetHealthy(1, -1, false);
  EXPECT_EQ(p->Allocatable().Get(registry_.Find(kNvidiaGpu)), 10);
  EXPECT_EQ(p->Allocatable().Get(registry_.Find(kHamiGpuMem)), 40960);
  EXPECT_EQ(p->Allocatable().Get(registry_.Find(kHamiGpuCores)), 100);
  EXPECT_EQ(p->Capacity().Get(registry_.Find(kNvidiaGpu)), 20);
  // GPU 1 (tried first) is unhealthy, GPU 0 passes: one vGPU short.
  EXPECT_EQ(Reason(*p, Req({{"nvidia.com/gpu", 2}})), "CardNotHealth");
  const DeviceAllocation a = p->Allocate(whole);
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].gpu, 0);
  EXPECT_EQ(Reason(*p, whole), "CardInsufficientMemory");  // GPU 0's
  p->CheckInvariants();
  p->Release(a);
  p->SetHealthy(1, -1, true);
  EXPECT_EQ(p->Allocatable(), p->Capacity());
  EXPECT_EQ(Reason(*p, whole), "fits");
  p->CheckInvariants();
}

// Filter without a reason uses the node's free summary to reject early: it
// must answer exactly as the walk over the GPUs does.
TEST_F(HamiTest, EarlyRejectAgreesWithTheWalk) {
  auto p = Make(4);
  Rng rng(5);
  std::vector<DeviceAllocation> held;
  for (int i = 0; i < 3000; ++i) {
    ResourceList r;
    r.Set(registry_.Intern(kNvidiaGpu), 1 + static_cast<int64_t>(rng.Below(3)));
    if (rng.Below(4) != 0) {
      r.Set(registry_.Intern(kHamiGpuMem),
            1000 + static_cast<int64_t>(rng.Below(20000)));
    }
    if (rng.Below(4) != 0) {
      r.Set(registry_.Intern(kHamiGpuCores),
            static_cast<int64_t>(rng.Below(101)));
    }
    std::string_view reason;
    const bool fits = p->Fits(r, nullptr);
    ASSERT_EQ(fits, p->Fits(r, &reason)) << i;
    if (fits && rng.Below(2) == 0) held.push_back(p->Allocate(r));
    if (!held.empty() && rng.Below(3) == 0) {
      const size_t k = rng.Below(held.size());
      p->Release(held[k]);
      held.erase(held.begin() + static_cast<long>(k));
    }
    p->CheckInvariants();
  }
}

TEST_F(HamiTest, DowncastsToItself) {
  auto p = Make(1);
  const DevicePlugin& base = *p;
  EXPECT_EQ(base.AsHami(), p.get());
  EXPECT_EQ(base.AsNvidia(), nullptr);
}

}  // namespace
}  // namespace gpushare
