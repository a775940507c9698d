// TranslateRequests per sharing scheme (docs/model.md §3 and the table in
// request_translator.h) and TargetPool (node selector, required affinity,
// taints). GPU facts from the catalog: A100-40GB 40960 MiB, 108 SMs; MIG
// profiles (NVIDIA MIG User Guide, "Supported MIG Profiles") 1g.5gb
// 4864 MiB / 14 SMs, 2g.10gb 9856 / 28, 3g.20gb 19968 / 42, 4g.20gb
// 19968 / 56, 7g.40gb 40192 / 98.

#include "gpushare/workload/request_translator.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/pod.h"

namespace gpushare {
namespace request_translator_test {
namespace {

class TranslatorTest : public ::testing::Test {
 protected:
  // Adds a one-node pool of one A100-40GB; returns its name.
  std::string AddPool(const std::string& name, SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = name;
    spec.gpu_model = "A100-40GB";
    spec.nodes = 1;
    spec.gpus_per_node = 1;
    spec.sharing = std::move(sharing);
    cluster_.AddPool(spec);
    return name;
  }

  // Adds a one-node pool without GPUs; returns its name.
  std::string AddCpuPool(const std::string& name) {
    NodePoolSpec spec;
    spec.name = name;
    spec.gpus_per_node = 0;
    cluster_.AddPool(spec);
    return name;
  }

  // The pool called `name` (looked up each time: AddPool may move pools).
  const NodePool& Pool(const std::string& name) const {
    for (const NodePool& pool : cluster_.pools()) {
      if (pool.spec.name == name) return pool;
    }
    ADD_FAILURE() << "no pool " << name;
    return cluster_.pools().front();
  }

  static Pod GpuPod(double gpus, int64_t footprint_mib, double sm_demand = 1) {
    Pod pod;
    pod.name = "p";
    pod.cpu_milli = 2000;
    pod.memory_mib = 8192;
    pod.needs.gpus = gpus;
    pod.needs.gpu_memory_mib = footprint_mib;
    pod.needs.sm_demand = sm_demand;
    return pod;
  }

  std::string Translate(Pod& pod, const std::string& pool,
                        bool match_sm = false) {
    TranslationOptions options;
    options.mig_match_sm_demand = match_sm;
    return TranslateRequests(pod, Pool(pool), cluster_.resources(), options);
  }

  // The pod's request for `name`, 0 when absent.
  int64_t Get(const Pod& pod, std::string_view name) const {
    const ResourceId id = cluster_.resources().Find(name);
    return id < 0 ? 0 : pod.requests.Get(id);
  }

  // Extended (non cpu/memory) resources the pod requests.
  size_t ExtendedCount(const Pod& pod) const {
    size_t n = 0;
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (id != ResourceRegistry::kCpuId && id != ResourceRegistry::kMemoryId) {
        ++n;
      }
    }
    return n;
  }

  Cluster cluster_{Catalog::Builtin()};
};

// --- Exclusive, time-slicing, MPS: nvidia.com/gpu = ceil(gpus) --------------

TEST_F(TranslatorTest, ExclusiveRoundsUpToWholeGpus) {
  const std::string pool = AddPool("whole", ExclusiveSharing());
  Pod half = GpuPod(0.5, 4000);
  EXPECT_EQ(Translate(half, pool), "");
  EXPECT_EQ(Get(half, "nvidia.com/gpu"), 1);
  EXPECT_EQ(half.requests.Get(ResourceRegistry::kCpuId), 2000);
  EXPECT_EQ(half.requests.Get(ResourceRegistry::kMemoryId), 8192);
  EXPECT_EQ(ExtendedCount(half), 1u);

  Pod two = GpuPod(2, 30000);
  EXPECT_EQ(Translate(two, pool), "");
  EXPECT_EQ(Get(two, "nvidia.com/gpu"), 2);
  Pod one_and_half = GpuPod(1.5, 30000);
  Translate(one_and_half, pool);
  EXPECT_EQ(Get(one_and_half, "nvidia.com/gpu"), 2);
}

TEST_F(TranslatorTest, TimeSlicingAndMpsAskForReplicas) {
  const std::string ts = AddPool("ts", TimeSlicingSharing(4));
  const std::string mps = AddPool("mps", MpsSharing(4));
  Pod a = GpuPod(0.25, 4000);
  EXPECT_EQ(Translate(a, ts), "");
  EXPECT_EQ(Get(a, "nvidia.com/gpu"), 1);
  Pod b = GpuPod(0.25, 4000);
  EXPECT_EQ(Translate(b, mps), "");
  EXPECT_EQ(Get(b, "nvidia.com/gpu"), 1);
  EXPECT_EQ(ExtendedCount(b), 1u);
}

// Device plugin renameByDefault: the shared resource is
// nvidia.com/gpu.shared.
TEST_F(TranslatorTest, RenamedTimeSlicingAsksForSharedResource) {
  SharingConfig c = TimeSlicingSharing(4);
  c.replicas.rename_by_default = true;
  const std::string pool = AddPool("ts", c);
  Pod pod = GpuPod(0.5, 4000);
  EXPECT_EQ(Translate(pod, pool), "");
  EXPECT_EQ(Get(pod, "nvidia.com/gpu.shared"), 1);
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 0);
  EXPECT_EQ(ExtendedCount(pod), 1u);
}

// --- MIG mixed: the smallest offered profile that holds the footprint -------

// The GPU Operator's all-balanced on A100-40GB offers 1g.5gb, 2g.10gb and
// 3g.20gb.
TEST_F(TranslatorTest, MigMixedPicksTheSmallestProfileThatHolds) {
  const std::string pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  struct Case {
    int64_t footprint;
    const char* resource;
  };
  for (const Case& c : {Case{4000, "nvidia.com/mig-1g.5gb"},   // <= 4864
                        Case{4864, "nvidia.com/mig-1g.5gb"},   // exactly
                        Case{4865, "nvidia.com/mig-2g.10gb"},  // <= 9856
                        Case{9000, "nvidia.com/mig-2g.10gb"},
                        Case{15000, "nvidia.com/mig-3g.20gb"}}) {  // <= 19968
    Pod pod = GpuPod(0.5, c.footprint);
    EXPECT_EQ(Translate(pod, pool), "") << c.footprint;
    EXPECT_EQ(Get(pod, c.resource), 1) << c.footprint;
    EXPECT_EQ(ExtendedCount(pod), 1u) << c.footprint;
  }
  Pod two = GpuPod(2, 4000);
  Translate(two, pool);
  EXPECT_EQ(Get(two, "nvidia.com/mig-1g.5gb"), 2);
}

TEST_F(TranslatorTest, MigMixedTooBigNamesTheLargestProfile) {
  const std::string pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  Pod pod = GpuPod(0.5, 30000);
  EXPECT_EQ(Translate(pod, pool),
            "no MIG profile of node pool 'mig' holds 30000 MiB (largest: "
            "3g.20gb, 19968 MiB, 42 SMs)");
  // Best effort: the largest profile.
  EXPECT_EQ(Get(pod, "nvidia.com/mig-3g.20gb"), 1);
}

// With mig_match_sm_demand, SM demand 0.4 needs 0.4 x 108 = 43.2 SMs:
// 3g.20gb has 42, too few; all-balanced offers nothing larger.
TEST_F(TranslatorTest, MigMatchSmDemandRejectsTooFewSms) {
  const std::string pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  Pod pod = GpuPod(0.5, 4000, 0.4);
  EXPECT_EQ(Translate(pod, pool, /*match_sm=*/true),
            "no MIG profile of node pool 'mig' holds 4000 MiB with 44 SMs "
            "(largest: 3g.20gb, 19968 MiB, 42 SMs)");
  // Without the option, memory alone decides: 1g.5gb.
  Pod plain = GpuPod(0.5, 4000, 0.4);
  EXPECT_EQ(Translate(plain, pool), "");
  EXPECT_EQ(Get(plain, "nvidia.com/mig-1g.5gb"), 1);
  // 0.38 x 108 = 41.04 SMs: 3g.20gb (42) is the first with enough.
  Pod smaller = GpuPod(0.5, 4000, 0.38);
  EXPECT_EQ(Translate(smaller, pool, true), "");
  EXPECT_EQ(Get(smaller, "nvidia.com/mig-3g.20gb"), 1);
}

// A layout of 4g.20gb@0 + 3g.20gb@4: both 19968 MiB, 3g first (fewer compute
// slices); SM demand 0.4 (43.2 SMs) moves up to 4g.20gb (56 SMs).
TEST_F(TranslatorTest, MigMatchSmDemandMovesUpToALargerProfile) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "");
  c.mig.layouts = {{"4g.20gb", "3g.20gb"}};
  const std::string pool = AddPool("mig", c);
  Pod pod = GpuPod(0.5, 4000, 0.4);
  EXPECT_EQ(Translate(pod, pool, true), "");
  EXPECT_EQ(Get(pod, "nvidia.com/mig-4g.20gb"), 1);
  EXPECT_EQ(ExtendedCount(pod), 1u);
  Pod plain = GpuPod(0.5, 4000, 0.4);
  Translate(plain, pool);
  EXPECT_EQ(Get(plain, "nvidia.com/mig-3g.20gb"), 1);
  // 0.6 x 108 = 64.8 SMs: more than 4g.20gb's 56.
  Pod hungry = GpuPod(0.5, 4000, 0.6);
  EXPECT_EQ(Translate(hungry, pool, true),
            "no MIG profile of node pool 'mig' holds 4000 MiB with 65 SMs "
            "(largest: 4g.20gb, 19968 MiB, 56 SMs)");
}

TEST_F(TranslatorTest, MigWithoutInstances) {
  const std::string pool =
      AddPool("empty", MigSharing(MigStrategy::kMixed, "all-enabled"));
  Pod pod = GpuPod(0.5, 4000);
  EXPECT_EQ(Translate(pod, pool), "node pool 'empty' offers no MIG instances");
  EXPECT_EQ(ExtendedCount(pod), 0u);
}

// MIG time-sliced and renamed: nvidia.com/mig-<p>.shared.
TEST_F(TranslatorTest, MigWithRenamedTimeSlicing) {
  SharingConfig c = MigSharing(MigStrategy::kMixed, "all-balanced");
  c.sharing = DeviceSharing::kTimeSlicing;
  c.replicas.replicas = 2;
  c.replicas.rename_by_default = true;
  const std::string pool = AddPool("mig", c);
  Pod pod = GpuPod(0.5, 9000);
  EXPECT_EQ(Translate(pod, pool), "");
  EXPECT_EQ(Get(pod, "nvidia.com/mig-2g.10gb.shared"), 1);
}

// --- MIG single: nvidia.com/gpu if the pool's profile fits ------------------

TEST_F(TranslatorTest, MigSingle) {
  const std::string pool =
      AddPool("single", MigSharing(MigStrategy::kSingle, "all-3g.20gb"));
  Pod fits = GpuPod(0.5, 15000);
  EXPECT_EQ(Translate(fits, pool), "");
  EXPECT_EQ(Get(fits, "nvidia.com/gpu"), 1);
  EXPECT_EQ(ExtendedCount(fits), 1u);
  Pod two = GpuPod(2, 15000);
  Translate(two, pool);
  EXPECT_EQ(Get(two, "nvidia.com/gpu"), 2);
  Pod big = GpuPod(0.5, 30000);
  EXPECT_EQ(Translate(big, pool),
            "no MIG profile of node pool 'single' holds 30000 MiB (largest: "
            "3g.20gb, 19968 MiB, 42 SMs)");
  EXPECT_EQ(Get(big, "nvidia.com/gpu"), 1);
}

// --- HAMi (pkg/device/nvidia/device.go) --------------------------------------

// A pod of a generated class asks its class's size (Pod::template_request),
// not its own footprint: HAMi's gpumem and gpucores, MIG's profile; a size
// no GPU or profile holds makes the pod unrunnable there.
TEST_F(TranslatorTest, TheClassRequestSizesHamiAndMig) {
  const std::string hami = AddPool("hami", HamiSharing());
  const std::string mig =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  Pod pod = GpuPod(0.5, 12000, 0.7);
  pod.template_request.gpu_memory_mib = 9000;
  pod.template_request.sm_demand = 0.25;
  EXPECT_EQ(Translate(pod, hami), "");
  EXPECT_EQ(Get(pod, "nvidia.com/gpumem"), 9000);
  EXPECT_EQ(Get(pod, "nvidia.com/gpucores"), 25);
  EXPECT_EQ(Translate(pod, mig), "");
  EXPECT_EQ(Get(pod, "nvidia.com/mig-2g.10gb"), 1);  // 9000 <= 9856
  pod.template_request.gpu_memory_mib = 50000;
  EXPECT_EQ(Translate(pod, hami),
            "its class's request of 50000 MiB exceeds the 40960 MiB of "
            "A100-40GB");
  EXPECT_NE(Translate(pod, mig).find("holds 50000 MiB (its class's "
                                     "request_percentile of footprints)"),
            std::string::npos);
  // Trace pods (no template request) keep their own size.
  Pod own = GpuPod(0.5, 12000, 0.7);
  EXPECT_EQ(Translate(own, hami), "");
  EXPECT_EQ(Get(own, "nvidia.com/gpumem"), 12000);
  EXPECT_EQ(Get(own, "nvidia.com/gpucores"), 70);
}

TEST_F(TranslatorTest, HamiFractionAsksForMemoryAndCores) {
  const std::string pool = AddPool("hami", HamiSharing());
  Pod pod = GpuPod(0.25, 8000, 0.3);
  EXPECT_EQ(Translate(pod, pool), "");
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 1);
  EXPECT_EQ(Get(pod, "nvidia.com/gpumem"), 8000);
  EXPECT_EQ(Get(pod, "nvidia.com/gpucores"), 30);  // ceil(100 x 0.3)
  EXPECT_EQ(ExtendedCount(pod), 3u);

  struct Case {
    double sm_demand;
    int64_t cores;
  };
  for (const Case& c : {Case{0.301, 31},                  // ceil(30.1)
                        Case{0.5, 50}, Case{0.001, 1},    // ceil(0.1)
                        Case{0, 1},                       // at least 1 %
                        Case{1, 100}, Case{1.5, 100}}) {  // at most 100 %
    Pod p = GpuPod(0.5, 8000, c.sm_demand);
    Translate(p, pool);
    EXPECT_EQ(Get(p, "nvidia.com/gpucores"), c.cores) << c.sm_demand;
  }

  // No footprint: no gpumem (the webhook's defaultMemory applies).
  Pod no_memory = GpuPod(0.5, 0, 0.5);
  Translate(no_memory, pool);
  EXPECT_EQ(Get(no_memory, "nvidia.com/gpumem"), 0);
  EXPECT_EQ(Get(no_memory, "nvidia.com/gpucores"), 50);
}

// Whole GPUs are right-sized as fractions are (the same needs as MIG's
// profile and the replicas' share): each vGPU asks for the footprint and
// the SM demand; a pod that needs the whole SMs asks for all cores.
TEST_F(TranslatorTest, HamiWholeGpusAskForMemoryAndCoresPerGpu) {
  const std::string pool = AddPool("hami", HamiSharing());
  Pod pod = GpuPod(2, 30000, 0.3);
  EXPECT_EQ(Translate(pod, pool), "");
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 2);
  EXPECT_EQ(Get(pod, "nvidia.com/gpumem"), 30000);
  EXPECT_EQ(Get(pod, "nvidia.com/gpucores"), 30);
  EXPECT_EQ(ExtendedCount(pod), 3u);
  Pod full = GpuPod(1, 8000, 1.0);
  Translate(full, pool);
  EXPECT_EQ(Get(full, "nvidia.com/gpumem"), 8000);
  EXPECT_EQ(Get(full, "nvidia.com/gpucores"), 100);
}

// --- Explicit requests, CPU-only pods, impossible pods -----------------------

TEST_F(TranslatorTest, ExplicitRequestsAreKept) {
  const std::string pool = AddPool("whole", ExclusiveSharing());
  Pod pod = GpuPod(2, 99999);
  pod.explicit_requests = {{"nvidia.com/mig-1g.5gb", 1},
                           {"example.com/fpga", 2}};
  EXPECT_EQ(Translate(pod, pool), "");
  EXPECT_EQ(Get(pod, "nvidia.com/mig-1g.5gb"), 1);
  EXPECT_EQ(Get(pod, "example.com/fpga"), 2);
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 0);
  EXPECT_EQ(pod.requests.Get(ResourceRegistry::kCpuId), 2000);
  EXPECT_EQ(ExtendedCount(pod), 2u);
}

TEST_F(TranslatorTest, CpuOnlyPod) {
  const std::string gpu_pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  const std::string cpu_pool = AddCpuPool("cpu");
  for (const std::string& pool : {gpu_pool, cpu_pool}) {
    Pod pod = GpuPod(0, 0);
    EXPECT_EQ(Translate(pod, pool), "") << pool;
    EXPECT_EQ(ExtendedCount(pod), 0u);
    EXPECT_EQ(pod.requests.Get(ResourceRegistry::kCpuId), 2000);
    EXPECT_EQ(pod.requests.Get(ResourceRegistry::kMemoryId), 8192);
  }
  // No cpu and memory either: nothing at all.
  Pod bare;
  EXPECT_EQ(Translate(bare, cpu_pool), "");
  EXPECT_TRUE(bare.requests.empty());
}

TEST_F(TranslatorTest, GpuPodOnACpuPool) {
  const std::string pool = AddCpuPool("cpu");
  Pod pod = GpuPod(1, 1000);
  EXPECT_EQ(Translate(pod, pool), "node pool 'cpu' has no GPUs");
  EXPECT_EQ(ExtendedCount(pod), 0u);
}

TEST_F(TranslatorTest, FootprintAboveGpuMemory) {
  const std::string whole = AddPool("whole", ExclusiveSharing());
  Pod pod = GpuPod(1, 50000);
  EXPECT_EQ(Translate(pod, whole),
            "its footprint of 50000 MiB exceeds the 40960 MiB of A100-40GB");
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 1);  // best effort
  Pod exact = GpuPod(1, 40960);
  EXPECT_EQ(Translate(exact, whole), "");

  const std::string hami = AddPool("hami", HamiSharing());
  Pod fraction = GpuPod(0.5, 50000, 0.5);
  EXPECT_EQ(Translate(fraction, hami),
            "its footprint of 50000 MiB exceeds the 40960 MiB of A100-40GB");
  EXPECT_EQ(Get(fraction, "nvidia.com/gpumem"), 50000);
}

// Translating again replaces what an earlier translation wrote.
TEST_F(TranslatorTest, RetranslationReplacesRequests) {
  const std::string mig =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-balanced"));
  const std::string hami = AddPool("hami", HamiSharing());
  Pod pod = GpuPod(0.5, 4000, 0.2);
  Translate(pod, hami);
  EXPECT_EQ(ExtendedCount(pod), 3u);
  Translate(pod, mig);
  EXPECT_EQ(ExtendedCount(pod), 1u);
  EXPECT_EQ(Get(pod, "nvidia.com/mig-1g.5gb"), 1);
  EXPECT_EQ(Get(pod, "nvidia.com/gpumem"), 0);
}

// --- TargetPool
// ---------------------------------------------------------------

class TargetPoolTest : public ::testing::Test {
 protected:
  TargetPoolTest() {
    NodePoolSpec cpu;
    cpu.name = "cpu";
    cpu.gpus_per_node = 0;
    cpu.labels = {{"node-type", "cpu"}};
    cluster_.AddPool(cpu);  // 0

    NodePoolSpec a100;
    a100.name = "a100";
    a100.gpu_model = "A100-40GB";
    a100.gpus_per_node = 1;
    a100.taints = {{"nvidia.com/gpu", "present", TaintEffect::kNoSchedule}};
    cluster_.AddPool(a100);  // 1

    NodePoolSpec h100;
    h100.name = "h100";
    h100.gpu_model = "H100-80GB";
    h100.gpus_per_node = 1;
    h100.labels = {{"gpu-tier", "3"}};
    h100.taints = {{"spot", "true", TaintEffect::kPreferNoSchedule}};
    cluster_.AddPool(h100);  // 2

    NodePoolSpec l4;
    l4.name = "l4";
    l4.gpu_model = "L4";
    l4.gpus_per_node = 1;
    l4.labels = {{"gpu-tier", "1"}};
    l4.taints = {{"dedicated", "inference", TaintEffect::kNoExecute}};
    cluster_.AddPool(l4);  // 3
  }

  static NodeSelectorTerm Term(std::string key,
                               NodeSelectorRequirement::Operator op,
                               std::vector<std::string> values = {}) {
    NodeSelectorTerm t;
    NodeSelectorRequirement r;
    r.key = std::move(key);
    r.op = op;
    r.values = std::move(values);
    t.match_expressions.push_back(std::move(r));
    return t;
  }

  static Toleration Tol(std::string key, Toleration::Operator op,
                        std::string value = "") {
    Toleration t;
    t.key = std::move(key);
    t.op = op;
    t.value = std::move(value);
    return t;
  }

  int Target(const Pod& pod) const { return TargetPool(pod, cluster_); }

  Cluster cluster_{Catalog::Builtin()};
};

using NsOp = NodeSelectorRequirement::Operator;
using TolOp = Toleration::Operator;

TEST_F(TargetPoolTest, FirstPoolInClusterOrder) {
  EXPECT_EQ(Target(Pod()), 0);
  Pod tolerant;
  tolerant.tolerations = {Tol("", TolOp::kExists)};
  EXPECT_EQ(Target(tolerant), 0);
}

TEST_F(TargetPoolTest, NodeSelector) {
  Pod pod;
  pod.node_selector = {{"gpushare.io/node-pool", "h100"}};
  EXPECT_EQ(Target(pod), 2);  // a PreferNoSchedule taint does not block
  pod.node_selector = {{"node-type", "cpu"}};
  EXPECT_EQ(Target(pod), 0);
  pod.node_selector = {{"node-type", "gpu"}};
  EXPECT_EQ(Target(pod), -1);
  pod.node_selector = {{"missing", "x"}};
  EXPECT_EQ(Target(pod), -1);
  // All entries must match.
  pod.node_selector = {{"gpushare.io/node-pool", "h100"}, {"gpu-tier", "1"}};
  EXPECT_EQ(Target(pod), -1);
}

TEST_F(TargetPoolTest, NoScheduleTaintNeedsAToleration) {
  Pod pod;
  pod.node_selector = {{"gpushare.io/node-pool", "a100"}};
  EXPECT_EQ(Target(pod), -1);
  pod.tolerations = {Tol("nvidia.com/gpu", TolOp::kEqual, "absent")};
  EXPECT_EQ(Target(pod), -1);
  pod.tolerations.push_back(Tol("nvidia.com/gpu", TolOp::kExists));
  EXPECT_EQ(Target(pod), 1);
}

TEST_F(TargetPoolTest, NoExecuteTaintNeedsAMatchingEffect) {
  Pod pod;
  pod.node_selector = {{"gpushare.io/node-pool", "l4"}};
  Toleration no_schedule_only = Tol("dedicated", TolOp::kEqual, "inference");
  no_schedule_only.any_effect = false;
  no_schedule_only.effect = TaintEffect::kNoSchedule;
  pod.tolerations = {no_schedule_only};
  EXPECT_EQ(Target(pod), -1);
  Toleration no_execute = no_schedule_only;
  no_execute.effect = TaintEffect::kNoExecute;
  pod.tolerations = {no_execute};
  EXPECT_EQ(Target(pod), 3);
}

TEST_F(TargetPoolTest, RequiredAffinity) {
  Pod pod;
  // GFD's product label (NVIDIA/k8s-device-plugin
  // docs/gpu-feature-discovery/README.md) for H100-80GB.
  pod.required_affinity = {
      Term("nvidia.com/gpu.product", NsOp::kIn, {"NVIDIA-H100-80GB-HBM3"})};
  EXPECT_EQ(Target(pod), 2);
  pod.required_affinity = {Term("gpu-tier", NsOp::kGt, {"2"})};
  EXPECT_EQ(Target(pod), 2);
  pod.required_affinity = {Term("nvidia.com/gpu.present", NsOp::kDoesNotExist)};
  EXPECT_EQ(Target(pod), 0);
  // An empty term matches nothing.
  pod.required_affinity = {NodeSelectorTerm()};
  EXPECT_EQ(Target(pod), -1);
}

// Terms are ORed: the first pool satisfying any term wins.
TEST_F(TargetPoolTest, AffinityTermsAreOred) {
  Pod pod;
  pod.required_affinity = {Term("node-type", NsOp::kIn, {"gpu"}),
                           Term("gpu-tier", NsOp::kLt, {"2"})};
  EXPECT_EQ(Target(pod), -1);  // only the tainted l4 pool matches
  pod.tolerations = {Tol("dedicated", TolOp::kExists)};
  EXPECT_EQ(Target(pod), 3);
  pod.required_affinity.push_back(Term("gpu-tier", NsOp::kExists));
  EXPECT_EQ(Target(pod), 2);  // h100 comes before l4
}

// Selector and affinity must both hold.
TEST_F(TargetPoolTest, SelectorAndAffinityTogether) {
  Pod pod;
  pod.tolerations = {Tol("", TolOp::kExists)};
  pod.node_selector = {{"gpushare.io/node-pool", "a100"}};
  pod.required_affinity = {Term("gpu-tier", NsOp::kExists)};
  EXPECT_EQ(Target(pod), -1);
  pod.required_affinity = {
      Term("nvidia.com/gpu.product", NsOp::kIn, {"NVIDIA-A100-SXM4-40GB"})};
  EXPECT_EQ(Target(pod), 1);
}

}  // namespace
}  // namespace request_translator_test
}  // namespace gpushare

namespace gpushare {
namespace request_translator_test {
namespace {

// PinToTargetPool: a cluster that mixes schemes by node pool (docs/model.md
// §3). Pools: A100-80GB exclusive, L4 HAMi, L4 exclusive, A100-80GB
// time-slicing x4 renamed (nvidia.com/gpu.shared), H100-80GB exclusive, all
// without taints.
class PinTest : public ::testing::Test {
 protected:
  PinTest() {
    Add("a100-whole", "A100-80GB", ExclusiveSharing());  // 0
    Add("l4-hami", "L4", HamiSharing());                 // 1
    Add("l4-whole", "L4", ExclusiveSharing());           // 2
    SharingConfig renamed = TimeSlicingSharing(4);
    renamed.replicas.rename_by_default = true;
    Add("a100-shared", "A100-80GB", renamed);            // 3
    Add("h100-whole", "H100-80GB", ExclusiveSharing());  // 4
  }

  void Add(const std::string& name, const std::string& gpu,
           SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = name;
    spec.gpu_model = gpu;
    spec.nodes = 1;
    spec.gpus_per_node = 1;
    spec.sharing = std::move(sharing);
    cluster_.AddPool(spec);
  }

  // Translates `pod` for its target pool and pins it; returns the pools.
  std::vector<std::string> TranslateAndPin(Pod& pod) {
    const int target = TargetPool(pod, cluster_);
    EXPECT_EQ(TranslateRequests(pod, cluster_.pools()[target],
                                cluster_.resources(), {}),
              "");
    return PinToTargetPool(pod, target, cluster_, cluster_.resources(), {});
  }

  static Pod GpuPod(double gpus, int64_t footprint_mib) {
    Pod pod;
    pod.needs.gpus = gpus;
    pod.needs.gpu_memory_mib = footprint_mib;
    pod.needs.sm_demand = 0.5;
    return pod;
  }

  Cluster cluster_{Catalog::Builtin()};
};

// nvidia.com/gpu: 1 written for the exclusive A100 pool would be a
// whole-memory vGPU on the HAMi L4 pool (where a 40 GB footprint is OOM
// killed) and too small a GPU on the exclusive L4 pool; the exclusive H100
// pool reads it alike. The pod is pinned to the two 80 GB exclusive pools by
// required affinity, and stays admitted there.
TEST_F(PinTest, RequestThatMeansSomethingElseElsewhereIsPinned) {
  Pod pod = GpuPod(1, 40000);
  EXPECT_EQ(TranslateAndPin(pod),
            (std::vector<std::string>{"a100-whole", "h100-whole"}));
  EXPECT_TRUE(pod.node_selector.empty());
  ASSERT_EQ(pod.required_affinity.size(), 1u);
  ASSERT_EQ(pod.required_affinity[0].match_expressions.size(), 1u);
  const NodeSelectorRequirement& in =
      pod.required_affinity[0].match_expressions[0];
  EXPECT_EQ(in.key, "gpushare.io/node-pool");
  EXPECT_EQ(in.op, NodeSelectorRequirement::Operator::kIn);
  EXPECT_EQ(TargetPool(pod, cluster_), 0);
  for (int q : {1, 2, 3}) EXPECT_FALSE(PoolAdmits(pod, cluster_, q)) << q;
  EXPECT_TRUE(PoolAdmits(pod, cluster_, 4));
  // The requests are those written for the target, not the last probed.
  EXPECT_EQ(pod.requests.Get(cluster_.resources().Find("nvidia.com/gpu")), 1);
  EXPECT_EQ(
      cluster_.resources().Find("nvidia.com/gpumem") < 0
          ? 0
          : pod.requests.Get(cluster_.resources().Find("nvidia.com/gpumem")),
      0);
}

// The pod's own selector keeps it among pools where its request means the
// same (exclusive, and the L4 holds its footprint): no pin, so it may
// spill over between them.
TEST_F(PinTest, EquivalentPoolsLeaveThePodFree) {
  Pod pod = GpuPod(1, 8000);
  pod.required_affinity.push_back({{{"gpushare.io/node-pool",
                                     NodeSelectorRequirement::Operator::kIn,
                                     {"a100-whole", "l4-whole"}}}});
  EXPECT_TRUE(TranslateAndPin(pod).empty());
  EXPECT_TRUE(pod.node_selector.empty());
  EXPECT_EQ(pod.required_affinity[0].match_expressions.size(), 1u);
  // A footprint the L4 cannot hold: pinned to the A100 alone, by selector.
  Pod big = GpuPod(1, 40000);
  big.required_affinity = pod.required_affinity;
  EXPECT_EQ(TranslateAndPin(big), std::vector<std::string>{"a100-whole"});
  EXPECT_EQ(big.node_selector.at("gpushare.io/node-pool"), "a100-whole");
  EXPECT_EQ(big.required_affinity[0].match_expressions.size(), 1u);
}

// Terms are ORed: the pin is added to each, so that every way the pod may
// be placed is narrowed.
TEST_F(PinTest, AffinityPinJoinsEveryTerm) {
  Pod pod = GpuPod(1, 40000);
  pod.required_affinity = {{{{"gpushare.io/node-pool",
                              NodeSelectorRequirement::Operator::kIn,
                              {"a100-whole", "l4-hami"}}}},
                           {{{"gpushare.io/node-pool",
                              NodeSelectorRequirement::Operator::kIn,
                              {"h100-whole"}}}}};
  EXPECT_EQ(TranslateAndPin(pod),
            (std::vector<std::string>{"a100-whole", "h100-whole"}));
  for (const NodeSelectorTerm& term : pod.required_affinity) {
    EXPECT_EQ(term.match_expressions.size(), 2u);
  }
  EXPECT_FALSE(PoolAdmits(pod, cluster_, 1));
  EXPECT_TRUE(PoolAdmits(pod, cluster_, 0));
  EXPECT_TRUE(PoolAdmits(pod, cluster_, 4));
}

// A pool whose nodes do not advertise the resource (the renamed
// nvidia.com/gpu.shared) cannot take the pod: nothing to pin against.
TEST_F(PinTest, PoolsWithoutTheResourceDoNotCount) {
  Pod pod = GpuPod(0.25, 4000);
  pod.node_selector = {{"gpushare.io/node-pool", "a100-shared"}};
  EXPECT_EQ(TargetPool(pod, cluster_), 3);
  EXPECT_TRUE(TranslateAndPin(pod).empty());
  Pod free = GpuPod(0.25, 4000);
  free.required_affinity.push_back({{{"gpushare.io/node-pool",
                                      NodeSelectorRequirement::Operator::kIn,
                                      {"a100-whole", "a100-shared"}}}});
  EXPECT_TRUE(TranslateAndPin(free).empty());  // gpu.shared is elsewhere
}

// Explicit requests are what the user wrote; CPU-only pods ask for no GPU.
TEST_F(PinTest, ExplicitRequestsAndCpuPodsAreLeftAlone) {
  Pod pod = GpuPod(1, 40000);
  pod.explicit_requests = {{"nvidia.com/gpu", 1}};
  EXPECT_TRUE(TranslateAndPin(pod).empty());
  Pod cpu = GpuPod(0, 0);
  EXPECT_TRUE(TranslateAndPin(cpu).empty());
  EXPECT_TRUE(cpu.node_selector.empty());
}

// NVIDIA device plugin MPS (README "Shared Access to GPUs"): each MPS
// replica is limited to GPU memory / replicas, and MPS rejects requests for
// more than one replica by default.
TEST(TranslatorMpsTest, FootprintOverTheReplicaLimitAndMultiGpuPods) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec;
  spec.name = "mps";
  spec.gpu_model = "A100-40GB";
  spec.nodes = 1;
  spec.gpus_per_node = 2;
  spec.sharing = MpsSharing(4);
  cluster.AddPool(spec);
  const NodePool& pool = cluster.pools()[0];
  Pod pod;
  pod.needs.gpus = 0.25;
  pod.needs.gpu_memory_mib = 10240;  // 40960 / 4: exactly the limit
  EXPECT_EQ(TranslateRequests(pod, pool, cluster.resources(), {}), "");
  pod.needs.gpu_memory_mib = 10241;
  EXPECT_EQ(TranslateRequests(pod, pool, cluster.resources(), {}),
            "its footprint of 10241 MiB exceeds the MPS per-replica memory "
            "limit of 10240 MiB (40960 MiB / 4 replicas)");
  pod.needs.gpu_memory_mib = 1000;
  pod.needs.gpus = 2;
  EXPECT_EQ(TranslateRequests(pod, pool, cluster.resources(), {}),
            "it needs 2 GPUs and node pool 'mps' rejects requests for more "
            "than one MPS replica (failRequestsGreaterThanOne)");
  EXPECT_EQ(pod.requests.Get(cluster.resources().Find("nvidia.com/gpu")), 2);
}

// --- DRA pools: one claim per pod, accounted under the class's name ------

TEST_F(TranslatorTest, DraWholeGpusAskTheGpuClass) {
  NodePoolSpec spec;
  spec.name = "dra";
  spec.gpu_model = "A100-40GB";
  spec.gpus_per_node = 8;
  spec.devices = PoolDevices::kDra;
  cluster_.AddPool(spec);
  Pod pod = GpuPod(2, 30000);
  EXPECT_EQ(Translate(pod, "dra"), "");
  EXPECT_EQ(
      Get(pod, "deviceclass.resource.kubernetes.io/gpu.nvidia.com"), 2);
  EXPECT_EQ(Get(pod, "nvidia.com/gpu"), 0);
  EXPECT_EQ(ExtendedCount(pod), 1u);
}

// The same smallest-profile rule as the device plugin's MIG translation,
// as the per-profile DeviceClass.
TEST_F(TranslatorTest, DraMigAsksTheSmallestProfileClass) {
  NodePoolSpec spec;
  spec.name = "dra-mig";
  spec.gpu_model = "A100-40GB";
  spec.gpus_per_node = 1;
  spec.sharing = MigSharing(MigStrategy::kMixed, "all-balanced");
  spec.devices = PoolDevices::kDra;
  cluster_.AddPool(spec);
  Pod small = GpuPod(0.5, 4000);
  EXPECT_EQ(Translate(small, "dra-mig"), "");
  EXPECT_EQ(Get(small, "deviceclass.resource.kubernetes.io/"
                       "mig-1g-5gb.gpu.nvidia.com"),
            1);
  Pod mid = GpuPod(0.5, 9000);
  Translate(mid, "dra-mig");
  EXPECT_EQ(Get(mid, "deviceclass.resource.kubernetes.io/"
                     "mig-2g-10gb.gpu.nvidia.com"),
            1);
  EXPECT_EQ(ExtendedCount(mid), 1u);
}

// DRA time-slicing: the claim is the same (1 share each by the slice's
// default); in memory mode it also asks the pod's size of each GPU.
TEST_F(TranslatorTest, DraSharedGpusAskSharesOrMemory) {
  NodePoolSpec spec;
  spec.name = "dra-ts";
  spec.gpu_model = "A100-40GB";
  spec.gpus_per_node = 1;
  spec.sharing = TimeSlicingSharing(4);
  spec.devices = PoolDevices::kDra;
  cluster_.AddPool(spec);
  spec.name = "dra-mem";
  spec.dra.consumable_shares = DraConsumableShares::kMemoryShares;
  cluster_.AddPool(spec);
  Pod pod = GpuPod(2, 30000);
  EXPECT_EQ(Translate(pod, "dra-ts"), "");
  EXPECT_EQ(Get(pod, "deviceclass.resource.kubernetes.io/gpu.nvidia.com"), 2);
  EXPECT_EQ(ExtendedCount(pod), 1u);
  EXPECT_EQ(Translate(pod, "dra-mem"), "");
  EXPECT_EQ(Get(pod, "deviceclass.resource.kubernetes.io/gpu.nvidia.com"), 2);
  EXPECT_EQ(Get(pod, "gpu.nvidia.com/memory"), 60000);  // 2 x 30000 MiB
  Pod big = GpuPod(1, 40961);
  EXPECT_EQ(Translate(big, "dra-mem"),
            "its footprint of 40961 MiB exceeds the 40960 MiB of A100-40GB");
}

}  // namespace
}  // namespace request_translator_test
}  // namespace gpushare
