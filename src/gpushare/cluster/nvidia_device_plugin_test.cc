// NvidiaDevicePlugin against NVIDIA/k8s-device-plugin: MIG strategies
// (README, internal/lm/mig-strategy.go), GFD labels
// (docs/gpu-feature-discovery/README.md) and time-slicing and MPS (README
// "Shared Access to GPUs", api/config/v1: replicas,
// sharedDevicesAllocationPolicy, failRequestsGreaterThanOne).
// Expected values are computed by hand from the catalog's A100-40GB entry
// (40960 MiB, 108 SMs; MIG 1g.5gb 4864 MiB / 14 SMs, 2g.10gb 9856 MiB / 28
// SMs, 3g.20gb 19968 MiB / 42 SMs).

#include "gpushare/cluster/nvidia_device_plugin.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/cluster/sharing_config.h"

namespace gpushare {
namespace {

class NvidiaDevicePluginTest : public ::testing::Test {
 protected:
  const GpuModel& Model(const char* name) { return catalog_.Get(name); }

  std::unique_ptr<NvidiaDevicePlugin> Make(const char* gpu, int gpus,
                                           const SharingConfig& config) {
    const GpuModel& model = Model(gpu);
    return std::make_unique<NvidiaDevicePlugin>(
        model, gpus, config, config.Validate(model, gpus), registry_);
  }

  ResourceList Req(
      std::initializer_list<std::pair<std::string_view, int64_t>> items) {
    ResourceList r;
    for (const auto& [name, quantity] : items) {
      r.Set(registry_.Intern(name), quantity);
    }
    return r;
  }

  int64_t Cap(const NvidiaDevicePlugin& p, std::string_view name) {
    const ResourceId id = registry_.Find(name);
    return id < 0 ? 0 : p.Capacity().Get(id);
  }

  static std::vector<int> Gpus(const DeviceAllocation& a) {
    std::vector<int> gpus;
    for (const DeviceGrant& g : a.grants) gpus.push_back(g.gpu);
    return gpus;
  }
  static std::vector<int> Replicas(const DeviceAllocation& a) {
    std::vector<int> replicas;
    for (const DeviceGrant& g : a.grants) replicas.push_back(g.replica);
    return replicas;
  }

  Labels LabelsOf(const NvidiaDevicePlugin& p) {
    Labels labels;
    p.AddNodeLabels(&labels);
    return labels;
  }

  Catalog catalog_ = Catalog::Builtin();
  ResourceRegistry registry_;
};

// --- Capacity (README) -------------------------------------------------------

TEST_F(NvidiaDevicePluginTest, ExclusiveAdvertisesOneGpuEach) {
  auto p = Make("A100-40GB", 8, ExclusiveSharing());
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu"), 8);
  EXPECT_EQ(p->Capacity().items().size(), 1u);
  EXPECT_EQ(p->devices().size(), 8u);
}

// README "Shared Access to GPUs": capacity = physical GPUs x replicas.
TEST_F(NvidiaDevicePluginTest, TimeSlicingMultipliesByReplicas) {
  auto p = Make("A100-40GB", 8, TimeSlicingSharing(4));
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu"), 32);  // 8 x 4
  EXPECT_EQ(p->Capacity().items().size(), 1u);
  auto mps = Make("A100-40GB", 2, MpsSharing(4));
  EXPECT_EQ(Cap(*mps, "nvidia.com/gpu"), 8);  // 2 x 4
}

// api/config/v1: renameByDefault advertises <name>.shared instead.
TEST_F(NvidiaDevicePluginTest, RenameAdvertisesSharedResource) {
  SharingConfig c = TimeSlicingSharing(4);
  c.replicas.rename_by_default = true;
  auto p = Make("A100-40GB", 8, c);
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu.shared"), 32);
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu"), 0);
  EXPECT_EQ(p->Capacity().items().size(), 1u);
}

// Rename does nothing without replicas (nothing is shared).
TEST_F(NvidiaDevicePluginTest, RenameWithoutSharingKeepsTheName) {
  SharingConfig c = ExclusiveSharing();
  c.replicas.rename_by_default = true;
  auto p = Make("A100-40GB", 2, c);
  EXPECT_EQ(Cap(*p, "nvidia.com/gpu"), 2);
}

// Mixed strategy: one resource per profile; the GPU Operator's all-balanced
// on A100-40GB is 2 x 1g.5gb + 1 x 2g.10gb + 1 x 3g.20gb per GPU.
TEST_F(NvidiaDevicePluginTest, MigMixedAdvertisesEachProfile) {
  auto one =
      Make("A100-40GB", 1, MigSharing(MigStrategy::kMixed, "all-balanced"));
  EXPECT_EQ(Cap(*one, "nvidia.com/mig-1g.5gb"), 2);
  EXPECT_EQ(Cap(*one, "nvidia.com/mig-2g.10gb"), 1);
  EXPECT_EQ(Cap(*one, "nvidia.com/mig-3g.20gb"), 1);
  EXPECT_EQ(Cap(*one, "nvidia.com/gpu"), 0);
  EXPECT_EQ(one->Capacity().items().size(), 3u);

  auto eight =
      Make("A100-40GB", 8, MigSharing(MigStrategy::kMixed, "all-balanced"));
  EXPECT_EQ(Cap(*eight, "nvidia.com/mig-1g.5gb"), 16);
  EXPECT_EQ(Cap(*eight, "nvidia.com/mig-2g.10gb"), 8);
  EXPECT_EQ(Cap(*eight, "nvidia.com/mig-3g.20gb"), 8);
  EXPECT_EQ(eight->devices().size(), 32u);  // 4 instances x 8 GPUs
}

// Mixed strategy: '+' becomes '.' in the resource name.
TEST_F(NvidiaDevicePluginTest, MigMixedMediaExtensionResourceName) {
  auto p =
      Make("A100-40GB", 1, MigSharing(MigStrategy::kMixed, "all-1g.5gb.me"));
  EXPECT_EQ(Cap(*p, "nvidia.com/mig-1g.5gb.me"), 1);
}

// Single strategy: nvidia.com/gpu counts MIG devices; all-3g.20gb is 2 per GPU.
TEST_F(NvidiaDevicePluginTest, MigSingleAdvertisesInstancesAsGpus) {
  auto one =
      Make("A100-40GB", 1, MigSharing(MigStrategy::kSingle, "all-3g.20gb"));
  EXPECT_EQ(Cap(*one, "nvidia.com/gpu"), 2);
  auto eight =
      Make("A100-40GB", 8, MigSharing(MigStrategy::kSingle, "all-3g.20gb"));
  EXPECT_EQ(Cap(*eight, "nvidia.com/gpu"), 16);
  EXPECT_EQ(eight->Capacity().items().size(), 1u);
}

// README: time-slicing replicates every nvidia.com/mig-* resource.
TEST_F(NvidiaDevicePluginTest, MigWithTimeSlicingMultipliesEachProfile) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = 2;
  auto p = Make("A100-40GB", 1, c);
  EXPECT_EQ(Cap(*p, "nvidia.com/mig-1g.5gb"), 4);   // 2 x 2
  EXPECT_EQ(Cap(*p, "nvidia.com/mig-2g.10gb"), 2);  // 1 x 2
  EXPECT_EQ(Cap(*p, "nvidia.com/mig-3g.20gb"), 2);  // 1 x 2

  c.replicas.rename_by_default = true;
  auto renamed = Make("A100-40GB", 1, c);
  EXPECT_EQ(Cap(*renamed, "nvidia.com/mig-3g.20gb.shared"), 2);
}

// --- GFD labels (docs/gpu-feature-discovery/README.md) -----------------------

TEST_F(NvidiaDevicePluginTest, ExclusiveLabels) {
  const Labels l = LabelsOf(*Make("A100-40GB", 8, ExclusiveSharing()));
  // Product: sanitized model name, the catalog's first NVIDIA- alias.
  EXPECT_EQ(l.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(l.at("nvidia.com/gpu.count"), "8");
  EXPECT_EQ(l.at("nvidia.com/gpu.memory"), "40960");
  EXPECT_EQ(l.at("nvidia.com/gpu.replicas"), "1");
  EXPECT_EQ(l.at("nvidia.com/gpu.sharing-strategy"), "none");
  EXPECT_EQ(l.at("nvidia.com/gpu.family"), "ampere");
  EXPECT_EQ(l.at("nvidia.com/gpu.compute.major"), "8");
  EXPECT_EQ(l.at("nvidia.com/gpu.compute.minor"), "0");
  EXPECT_EQ(l.at("nvidia.com/gpu.present"), "true");
  EXPECT_EQ(l.at("nvidia.com/mig.capable"), "true");
  EXPECT_EQ(l.at("nvidia.com/mig.strategy"), "single");
  EXPECT_EQ(l.at("nvidia.com/mig.config"), "all-disabled");
}

TEST_F(NvidiaDevicePluginTest, NonMigGpuHasNoMigStrategyLabel) {
  const Labels l = LabelsOf(*Make("L4", 1, ExclusiveSharing()));
  EXPECT_EQ(l.at("nvidia.com/gpu.product"), "NVIDIA-L4");
  EXPECT_EQ(l.at("nvidia.com/gpu.count"), "1");
  EXPECT_EQ(l.at("nvidia.com/mig.capable"), "false");
  EXPECT_EQ(l.count("nvidia.com/mig.strategy"), 0u);
  EXPECT_EQ(l.count("nvidia.com/mig.config"), 0u);
}

// README "Shared Access to GPUs": replicas, sharing-strategy and -SHARED unless
// renamed.
TEST_F(NvidiaDevicePluginTest, TimeSlicingLabels) {
  const Labels l = LabelsOf(*Make("A100-40GB", 8, TimeSlicingSharing(4)));
  EXPECT_EQ(l.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB-SHARED");
  EXPECT_EQ(l.at("nvidia.com/gpu.replicas"), "4");
  EXPECT_EQ(l.at("nvidia.com/gpu.sharing-strategy"), "time-slicing");
  EXPECT_EQ(l.at("nvidia.com/gpu.count"), "8");  // physical GPUs

  SharingConfig renamed = TimeSlicingSharing(4);
  renamed.replicas.rename_by_default = true;
  const Labels r = LabelsOf(*Make("A100-40GB", 8, renamed));
  EXPECT_EQ(r.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(r.at("nvidia.com/gpu.replicas"), "4");
}

TEST_F(NvidiaDevicePluginTest, MpsLabels) {
  const Labels l = LabelsOf(*Make("A100-40GB", 2, MpsSharing(8)));
  EXPECT_EQ(l.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB-SHARED");
  EXPECT_EQ(l.at("nvidia.com/gpu.replicas"), "8");
  EXPECT_EQ(l.at("nvidia.com/gpu.sharing-strategy"), "mps");
}

// GFD, single strategy: product <model>-MIG-<profile>, count = MIG devices,
// memory and multiprocessors of the instance.
TEST_F(NvidiaDevicePluginTest, MigSingleLabels) {
  const Labels l = LabelsOf(
      *Make("A100-40GB", 8, MigSharing(MigStrategy::kSingle, "all-3g.20gb")));
  EXPECT_EQ(l.at("nvidia.com/gpu.product"),
            "NVIDIA-A100-SXM4-40GB-MIG-3g.20gb");
  EXPECT_EQ(l.at("nvidia.com/gpu.count"), "16");  // 2 x 8 GPUs
  EXPECT_EQ(l.at("nvidia.com/gpu.memory"), "19968");
  EXPECT_EQ(l.at("nvidia.com/gpu.multiprocessors"), "42");
  EXPECT_EQ(l.at("nvidia.com/gpu.slices.gi"), "3");
  EXPECT_EQ(l.at("nvidia.com/mig.strategy"), "single");
  EXPECT_EQ(l.at("nvidia.com/mig.config"), "all-3g.20gb");
}

// GFD, mixed strategy: per profile
// nvidia.com/mig-<p>.count/.memory/.multiprocessors.
TEST_F(NvidiaDevicePluginTest, MigMixedLabels) {
  const Labels l = LabelsOf(
      *Make("A100-40GB", 8, MigSharing(MigStrategy::kMixed, "all-balanced")));
  EXPECT_EQ(l.at("nvidia.com/mig.strategy"), "mixed");
  EXPECT_EQ(l.at("nvidia.com/mig.config"), "all-balanced");
  EXPECT_EQ(l.at("nvidia.com/gpu.product"), "NVIDIA-A100-SXM4-40GB");
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.count"), "16");  // 2 x 8
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.memory"), "4864");
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.multiprocessors"), "14");
  EXPECT_EQ(l.at("nvidia.com/mig-2g.10gb.count"), "8");
  EXPECT_EQ(l.at("nvidia.com/mig-2g.10gb.memory"), "9856");
  EXPECT_EQ(l.at("nvidia.com/mig-2g.10gb.multiprocessors"), "28");
  EXPECT_EQ(l.at("nvidia.com/mig-3g.20gb.count"), "8");
  EXPECT_EQ(l.at("nvidia.com/mig-3g.20gb.memory"), "19968");
  EXPECT_EQ(l.at("nvidia.com/mig-3g.20gb.multiprocessors"), "42");
  EXPECT_EQ(l.at("nvidia.com/mig-3g.20gb.replicas"), "1");
  EXPECT_EQ(l.at("nvidia.com/mig-3g.20gb.sharing-strategy"), "none");
  EXPECT_EQ(l.count("nvidia.com/mig-7g.40gb.count"), 0u);
}

TEST_F(NvidiaDevicePluginTest, MigMixedWithTimeSlicingLabels) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = 2;
  const Labels l = LabelsOf(*Make("A100-40GB", 1, c));
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.count"), "2");
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.replicas"), "2");
  EXPECT_EQ(l.at("nvidia.com/mig-1g.5gb.sharing-strategy"), "time-slicing");
  EXPECT_EQ(l.at("nvidia.com/gpu.sharing-strategy"), "time-slicing");
}

TEST_F(NvidiaDevicePluginTest, ExplicitMigLayoutsAreLabelledCustom) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  c.mig.layouts = {{"7g.40gb"}};
  const Labels l = LabelsOf(*Make("A100-40GB", 2, c));
  EXPECT_EQ(l.at("nvidia.com/mig.config"), "custom");
  EXPECT_EQ(l.at("nvidia.com/mig-7g.40gb.count"), "2");
}

// --- Allocation (internal/rm/allocate.go; docs/model.md §2) ------------------

TEST_F(NvidiaDevicePluginTest, ExclusiveTakesTheLowestFreeIndex) {
  auto p = Make("A100-40GB", 4, ExclusiveSharing());
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_EQ(Gpus(a), (std::vector<int>{0}));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].instance, -1);
  EXPECT_EQ(a.grants[0].replica, -1);
  EXPECT_EQ(a.grants[0].memory_mib, 40960);
  EXPECT_EQ(a.grants[0].cores_percent, 100);
  EXPECT_EQ(a.grants[0].resource, registry_.Find("nvidia.com/gpu"));

  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/gpu", 2}}));
  EXPECT_EQ(Gpus(b), (std::vector<int>{1, 2}));
  p->Release(a);
  const DeviceAllocation c = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_EQ(Gpus(c), (std::vector<int>{0}));
  p->CheckInvariants();
}

// The preemption dry run: Release then Reacquire leaves exactly the state
// before, replica slots included.
TEST_F(NvidiaDevicePluginTest, ReacquireUndoesRelease) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(4));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 3}}));
  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  const ResourceId gpu = registry_.Find("nvidia.com/gpu");
  p->Release(a);
  p->CheckInvariants();
  p->Reacquire(a);
  p->CheckInvariants();
  // 8 replicas, 4 held: the next 4 fit, a fifth does not.
  const DeviceAllocation c = p->Allocate(Req({{"nvidia.com/gpu", 4}}));
  EXPECT_EQ(c.grants.size(), 4u);
  std::string_view reason;
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 1}}), &reason));
  EXPECT_GT(p->Allocatable().Get(gpu), 0);
  p->Release(b);
  p->Reacquire(b);
  p->CheckInvariants();
}

// allocate.go: distributed (default) prefers the least-allocated GPU.
TEST_F(NvidiaDevicePluginTest, DistributedSpreadsReplicas) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(4));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 2}}));
  EXPECT_EQ(Gpus(a), (std::vector<int>{0, 1}));
  EXPECT_EQ(Replicas(a), (std::vector<int>{0, 0}));
  // Time-slicing: each replica sees the whole GPU (README, no isolation).
  EXPECT_EQ(a.grants[0].memory_mib, 40960);
  EXPECT_EQ(a.grants[0].cores_percent, 100);
  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/gpu", 3}}));
  // Both at 1: GPU 0; then GPU 1 (1 < 2); then both at 2: GPU 0 was already
  // picked once in this request and GPU 1 once too, so the lower index.
  EXPECT_EQ(Gpus(b), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(Replicas(b), (std::vector<int>{1, 1, 2}));
  p->CheckInvariants();
}

// allocate.go: packed prefers the most-allocated GPU.
TEST_F(NvidiaDevicePluginTest, PackedFillsOneGpuFirst) {
  SharingConfig c = TimeSlicingSharing(4);
  c.replicas.policy = ReplicaPolicy::kPacked;
  auto p = Make("A100-40GB", 2, c);
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 2}}));
  EXPECT_EQ(Gpus(a), (std::vector<int>{0, 0}));
  EXPECT_EQ(Replicas(a), (std::vector<int>{0, 1}));
  // GPU 0 has 2 of 4 left: it takes both of the next 3, then GPU 1.
  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/gpu", 3}}));
  EXPECT_EQ(Gpus(b), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(Replicas(b), (std::vector<int>{2, 3, 0}));
  // A freed replica slot is reused, lowest slot first.
  p->Release(a);
  const DeviceAllocation c2 = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_EQ(Gpus(c2), (std::vector<int>{0}));  // 2 used > 1 used on GPU 1
  EXPECT_EQ(Replicas(c2), (std::vector<int>{0}));
  p->CheckInvariants();
}

// allocate.go: ties on allocated replicas are broken by how many replicas of
// that GPU were already picked in this request. GPU 0 has 0 allocated, GPU 1
// has 1: the first pick is GPU 0 (0 < 1); then both have 1 allocated, GPU 0 was
// picked once in this request and GPU 1 not at all, so GPU 1 — not the lower
// index.
TEST_F(NvidiaDevicePluginTest, DistributedTieBreaksOnPickedInThisRequest) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(4));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  ASSERT_EQ(Gpus(a), (std::vector<int>{0}));
  ASSERT_EQ(Gpus(b), (std::vector<int>{1}));
  p->Release(a);  // GPU 0: 0 allocated, GPU 1: 1 allocated
  const DeviceAllocation c = p->Allocate(Req({{"nvidia.com/gpu", 2}}));
  EXPECT_EQ(Gpus(c), (std::vector<int>{0, 1}));
  EXPECT_EQ(Replicas(c), (std::vector<int>{0, 1}));
  p->CheckInvariants();
}

// mps/daemon.go: MPS gives each replica memory / R and 100 / R % active
// threads.
TEST_F(NvidiaDevicePluginTest, MpsGrantsMemoryAndThreadShares) {
  auto p = Make("A100-40GB", 1, MpsSharing(4));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].memory_mib, 10240);  // 40960 / 4
  EXPECT_EQ(a.grants[0].cores_percent, 25);  // 100 / 4
  EXPECT_EQ(a.grants[0].replica, 0);

  auto three = Make("A100-40GB", 1, MpsSharing(3));
  const DeviceAllocation b = three->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_EQ(b.grants[0].memory_mib, 13653);  // floor(40960 / 3)
  EXPECT_EQ(b.grants[0].cores_percent, 33);  // floor(100 / 3)
}

// A MIG grant carries the instance's memory (MIG User Guide profile tables);
// devices go lowest (GPU, start) first. all-balanced places 2g.10gb@0 1g.5gb@2
// 1g.5gb@3 3g.20gb@4.
TEST_F(NvidiaDevicePluginTest, MigGrantsTheInstanceMemory) {
  auto p =
      Make("A100-40GB", 2, MigSharing(MigStrategy::kMixed, "all-balanced"));
  const GpuModel& a100 = Model("A100-40GB");
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/mig-3g.20gb", 1}}));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_EQ(a.grants[0].gpu, 0);
  EXPECT_EQ(a.grants[0].memory_mib, 19968);
  EXPECT_EQ(a.grants[0].replica, -1);
  ASSERT_GE(a.grants[0].instance, 0);
  const MigInstance& in = p->layouts()[0][a.grants[0].instance];
  EXPECT_EQ(a100.mig->profiles[in.profile].name, "3g.20gb");
  EXPECT_EQ(in.start, 4);

  const DeviceAllocation b = p->Allocate(Req({{"nvidia.com/mig-1g.5gb", 3}}));
  ASSERT_EQ(b.grants.size(), 3u);
  EXPECT_EQ(Gpus(b), (std::vector<int>{0, 0, 1}));
  std::vector<int> starts;
  for (const DeviceGrant& g : b.grants) {
    EXPECT_EQ(g.memory_mib, 4864);
    starts.push_back(p->layouts()[g.gpu][g.instance].start);
  }
  EXPECT_EQ(starts, (std::vector<int>{2, 3, 2}));
  p->CheckInvariants();
}

TEST_F(NvidiaDevicePluginTest, MigSingleGrantsInstancesOfNvidiaGpu) {
  auto p =
      Make("A100-40GB", 2, MigSharing(MigStrategy::kSingle, "all-3g.20gb"));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/gpu", 3}}));
  EXPECT_EQ(Gpus(a), (std::vector<int>{0, 0, 1}));
  for (const DeviceGrant& g : a.grants) EXPECT_EQ(g.memory_mib, 19968);
  std::string_view reason;
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 1}}), &reason));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 2}}), &reason));
}

// Time-slicing of MIG instances: distributed over the instances of a
// profile; a grant is a replica of the instance, with its memory.
TEST_F(NvidiaDevicePluginTest, MigWithTimeSlicingDistributesReplicas) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = 2;
  auto p = Make("A100-40GB", 2, c);
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/mig-3g.20gb", 3}}));
  EXPECT_EQ(Gpus(a), (std::vector<int>{0, 1, 0}));
  EXPECT_EQ(Replicas(a), (std::vector<int>{0, 0, 1}));
  for (const DeviceGrant& g : a.grants) EXPECT_EQ(g.memory_mib, 19968);
  std::string_view reason;
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/mig-3g.20gb", 1}}), &reason));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/mig-3g.20gb", 2}}), &reason));
  p->CheckInvariants();
}

// --- Fits and Release
// ---------------------------------------------------------

TEST_F(NvidiaDevicePluginTest, FitsCountsFreeDevices) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(2));
  std::string_view reason;
  // cpu and memory are not the device plugin's business.
  EXPECT_TRUE(p->Fits(Req({{"cpu", 100000}, {"memory", 1}}), &reason));
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 4}}), &reason));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 5}}), &reason));
  EXPECT_EQ(reason, "node(s) did not have enough free GPU devices");
  // A resource the node does not advertise.
  reason = "";
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/mig-1g.5gb", 1}}), &reason));
  EXPECT_EQ(reason, "node(s) did not have enough free GPU devices");
  // HAMi resources are served by HAMi nodes only.
  reason = "";
  EXPECT_FALSE(p->Fits(
      Req({{"nvidia.com/gpu", 1}, {"nvidia.com/gpumem", 1000}}), &reason));
  EXPECT_EQ(reason, "node(s) had no HAMi vGPU devices");
  // A null reason is allowed.
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 5}}), nullptr));
}

TEST_F(NvidiaDevicePluginTest, ReleaseRestoresState) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(2));
  std::vector<DeviceAllocation> held;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 1}}), nullptr)) << i;
    held.push_back(p->Allocate(Req({{"nvidia.com/gpu", 1}})));
    p->CheckInvariants();
  }
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 1}}), nullptr));
  p->Release(held[1]);
  p->CheckInvariants();
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 1}}), nullptr));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 2}}), nullptr));
  // The freed replica (GPU 1, replica 0) is the one handed out again.
  const DeviceAllocation again = p->Allocate(Req({{"nvidia.com/gpu", 1}}));
  EXPECT_EQ(again.grants, held[1].grants);
  for (const DeviceAllocation& a : {held[0], held[2], held[3], again}) {
    p->Release(a);
  }
  p->CheckInvariants();
  for (const auto& d : p->devices()) EXPECT_EQ(d.used, 0);
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 4}}), nullptr));
}

TEST_F(NvidiaDevicePluginTest, InvariantsHoldAfterMixedSequences) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  auto p = Make("A100-40GB", 2, c);
  const ResourceList small = Req({{"nvidia.com/mig-1g.5gb", 1}});
  const ResourceList big = Req({{"nvidia.com/mig-3g.20gb", 2}});
  std::vector<DeviceAllocation> held;
  for (int i = 0; i < 4; ++i) held.push_back(p->Allocate(small));
  held.push_back(p->Allocate(big));
  p->CheckInvariants();
  EXPECT_FALSE(p->Fits(small, nullptr));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/mig-3g.20gb", 1}}), nullptr));
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/mig-2g.10gb", 2}}), nullptr));
  for (size_t i = 0; i < held.size(); i += 2) p->Release(held[i]);
  p->CheckInvariants();
  EXPECT_TRUE(p->Fits(small, nullptr));  // two 1g.5gb freed
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/mig-3g.20gb", 2}}), nullptr));
}

// --- kubelet admission (failRequestsGreaterThanOne, config.go) ---------------

TEST_F(NvidiaDevicePluginTest, AdmissionErrorForMoreThanOneSharedReplica) {
  // MPS: failRequestsGreaterThanOne defaults to true.
  auto mps = Make("A100-40GB", 2, MpsSharing(4));
  EXPECT_EQ(mps->AdmissionError(Req({{"nvidia.com/gpu", 1}})), "");
  EXPECT_EQ(mps->AdmissionError(Req({{"nvidia.com/gpu", 2}})),
            "UnexpectedAdmissionError: maximum request size for shared "
            "resources is 1; found nvidia.com/gpu=2");

  // Time-slicing: defaults to false.
  auto ts = Make("A100-40GB", 2, TimeSlicingSharing(4));
  EXPECT_EQ(ts->AdmissionError(Req({{"nvidia.com/gpu", 2}})), "");

  SharingConfig strict = TimeSlicingSharing(4);
  strict.replicas.fail_requests_greater_than_one = true;
  strict.replicas.rename_by_default = true;
  auto renamed = Make("A100-40GB", 2, strict);
  EXPECT_EQ(renamed->AdmissionError(Req({{"nvidia.com/gpu.shared", 3}})),
            "UnexpectedAdmissionError: maximum request size for shared "
            "resources is 1; found nvidia.com/gpu.shared=3");
  // cpu quantities are not shared replicas.
  EXPECT_EQ(renamed->AdmissionError(Req({{"cpu", 2000}})), "");

  // Nothing is shared without replicas.
  SharingConfig exclusive = ExclusiveSharing();
  exclusive.replicas.fail_requests_greater_than_one = true;
  auto whole = Make("A100-40GB", 2, exclusive);
  EXPECT_EQ(whole->AdmissionError(Req({{"nvidia.com/gpu", 2}})), "");
}

TEST_F(NvidiaDevicePluginTest, DowncastsToItself) {
  auto p = Make("A100-40GB", 1, ExclusiveSharing());
  const DevicePlugin& base = *p;
  EXPECT_EQ(base.AsNvidia(), p.get());
  EXPECT_EQ(base.AsHami(), nullptr);
}

// Device health (ListAndWatch): an unhealthy GPU takes all its time-slicing
// replicas out of the allocatable count and out of Fits/Allocate; a replica
// held on it is still released; recovery brings everything back.
TEST_F(NvidiaDevicePluginTest, UnhealthyGpuLeavesAllocatableWithItsReplicas) {
  auto p = Make("A100-40GB", 2, TimeSlicingSharing(4));
  const ResourceId gpu = registry_.Find("nvidia.com/gpu");
  const ResourceList one = Req({{"nvidia.com/gpu", 1}});
  const DeviceAllocation held = p->Allocate(one);  // distributed: GPU 0
  ASSERT_EQ(Gpus(held), std::vector<int>({0}));
  p->SetHealthy(0, -1, false);
  EXPECT_EQ(p->Capacity().Get(gpu), 8);
  EXPECT_EQ(p->Allocatable().Get(gpu), 4);
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 4}}), nullptr));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/gpu", 5}}), nullptr));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Gpus(p->Allocate(one)), std::vector<int>({1}));
  std::string_view reason;
  EXPECT_FALSE(p->Fits(one, &reason));
  EXPECT_EQ(reason, "node(s) did not have enough free GPU devices");
  p->Release(held);
  p->CheckInvariants();
  EXPECT_FALSE(p->Fits(one, nullptr));  // the freed replica is on GPU 0
  p->SetHealthy(0, -1, true);
  EXPECT_EQ(p->Allocatable().Get(gpu), 8);
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/gpu", 4}}), nullptr));
  p->CheckInvariants();
}

// A fault contained to a MIG instance marks only that instance's device;
// without an instance every instance of the GPU goes.
TEST_F(NvidiaDevicePluginTest, UnhealthyMigInstanceLeavesOnlyItsDevice) {
  auto p = Make("A100-40GB", 1,
                MigSharing(MigStrategy::kMixed, "all-balanced"));
  const ResourceId one_g = registry_.Find("nvidia.com/mig-1g.5gb");
  const ResourceId three_g = registry_.Find("nvidia.com/mig-3g.20gb");
  ASSERT_EQ(p->Allocatable().Get(one_g), 2);
  int instance = -1;
  for (const auto& d : p->devices()) {
    if (d.resource == one_g) instance = d.instance;  // the last 1g.5gb
  }
  p->SetHealthy(0, instance, false);
  EXPECT_EQ(p->Allocatable().Get(one_g), 1);
  EXPECT_EQ(p->Allocatable().Get(three_g), 1);
  EXPECT_TRUE(p->Fits(Req({{"nvidia.com/mig-1g.5gb", 1}}), nullptr));
  EXPECT_FALSE(p->Fits(Req({{"nvidia.com/mig-1g.5gb", 2}}), nullptr));
  const DeviceAllocation a = p->Allocate(Req({{"nvidia.com/mig-1g.5gb", 1}}));
  ASSERT_EQ(a.grants.size(), 1u);
  EXPECT_NE(a.grants[0].instance, instance);
  p->SetHealthy(0, -1, false);
  EXPECT_EQ(p->Allocatable().Get(one_g), 0);
  EXPECT_EQ(p->Allocatable().Get(three_g), 0);
  p->CheckInvariants();
  p->SetHealthy(0, -1, true);
  EXPECT_EQ(p->Allocatable().Get(one_g), 2);
  EXPECT_EQ(p->Allocatable(), p->Capacity());
  p->CheckInvariants();
}

}  // namespace
}  // namespace gpushare
