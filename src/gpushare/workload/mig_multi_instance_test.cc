// A pod given several MIG instances (issue 54, point 3b): a CUDA process
// enumerates one MIG device and instances have no peer path (NVIDIA MIG
// User Guide, "CUDA Device Enumeration", "Application Considerations"), so
// TranslateRequests says it cannot run — under the mixed and single
// strategies, with explicit nvidia.com/mig-* requests, and for a dynamic-MIG
// DRA claim — unless its class runs one process per instance
// (Pod::multi_process) or the cluster already runs it (an imported running
// pod). One instance, or several whole GPUs, stay runnable.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {
namespace mig_multi_instance_test {
namespace {

class MigMultiInstanceTest : public ::testing::Test {
 protected:
  // A one-node pool of `gpus` H100-80GB (7g.80gb: 81408 MiB; 3g.40gb:
  // 40320 MiB; 1g.10gb: 9856 MiB).
  // Returns its name (pools may move as more are added: look them up).
  std::string AddPool(const std::string& name, SharingConfig sharing,
                      int gpus = 4, bool dra = false) {
    NodePoolSpec spec;
    spec.name = name;
    spec.gpu_model = "H100-80GB";
    spec.nodes = 1;
    spec.gpus_per_node = gpus;
    spec.sharing = std::move(sharing);
    if (dra) spec.devices = PoolDevices::kDra;
    cluster_.AddPool(spec);
    return name;
  }

  static Pod GpuPod(double gpus, int64_t footprint_mib) {
    Pod pod;
    pod.name = "ddp";
    pod.cpu_milli = 2000;
    pod.memory_mib = 8192;
    pod.needs.gpus = gpus;
    pod.needs.gpu_memory_mib = footprint_mib;
    pod.needs.sm_demand = 1;
    return pod;
  }

  std::string Translate(Pod& pod, const std::string& pool) {
    for (const NodePool& p : cluster_.pools()) {
      if (p.spec.name == pool) {
        return TranslateRequests(pod, p, cluster_.resources(), {});
      }
    }
    ADD_FAILURE() << "no pool " << pool;
    return "";
  }

  int64_t Get(const Pod& pod, std::string_view name) const {
    const ResourceId id = cluster_.resources().Find(name);
    return id < 0 ? 0 : pod.requests.Get(id);
  }

  Cluster cluster_{Catalog::Builtin()};
};

constexpr char kFourSevenG[] =
    "it asks for 4 MIG instances (nvidia.com/mig-7g.80gb) in one pod: a CUDA "
    "process sees only one MIG instance and instances have no peer-to-peer "
    "path, so its ranks cannot run together (a class whose pods run one "
    "process per instance says multi_process: true)";

// A 4-GPU DDP pod of 70 GB per rank on an all-7g.80gb pool asks four
// 7g.80gb instances: it cannot run; the same class saying it runs one
// process per instance can (the requests are the same either way).
TEST_F(MigMultiInstanceTest, SeveralInstancesCannotRunUnlessMultiProcess) {
  const std::string pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-7g.80gb"));
  Pod ddp = GpuPod(4, 70000);
  EXPECT_EQ(Translate(ddp, pool), kFourSevenG);
  EXPECT_EQ(Get(ddp, "nvidia.com/mig-7g.80gb"), 4);

  Pod ranks = GpuPod(4, 70000);
  ranks.multi_process = true;
  EXPECT_EQ(Translate(ranks, pool), "");
  EXPECT_EQ(Get(ranks, "nvidia.com/mig-7g.80gb"), 4);

  // One instance is one device: runnable.
  Pod one = GpuPod(1, 70000);
  EXPECT_EQ(Translate(one, pool), "");
  EXPECT_EQ(Get(one, "nvidia.com/mig-7g.80gb"), 1);
}

// Under the single strategy the instances are nvidia.com/gpu; two of them
// are still two MIG devices.
TEST_F(MigMultiInstanceTest, SingleStrategyCountsNvidiaGpuAsInstances) {
  const std::string pool =
      AddPool("single", MigSharing(MigStrategy::kSingle, "all-3g.40gb"));
  Pod two = GpuPod(2, 30000);
  EXPECT_EQ(Translate(two, pool),
            "it asks for 2 MIG instances (nvidia.com/gpu) in one pod: a CUDA "
            "process sees only one MIG instance and instances have no "
            "peer-to-peer path, so its ranks cannot run together (a class "
            "whose pods run one process per instance says multi_process: "
            "true)");
  EXPECT_EQ(Get(two, "nvidia.com/gpu"), 2);
  // Whole GPUs of an exclusive pool: two devices with a peer path.
  const std::string whole = AddPool("whole", ExclusiveSharing());
  Pod onto_whole = GpuPod(2, 30000);
  EXPECT_EQ(Translate(onto_whole, whole), "");
}

// Requests written by hand (`nvidia.com/mig-7g.80gb: 4`) are kept and
// counted; a pod running in an imported dump is taken to run.
TEST_F(MigMultiInstanceTest, ExplicitMigRequestsAreCounted) {
  const std::string pool =
      AddPool("mig", MigSharing(MigStrategy::kMixed, "all-7g.80gb"));
  Pod explicit_four = GpuPod(4, 70000);
  explicit_four.explicit_requests = {{"nvidia.com/mig-7g.80gb", 4}};
  EXPECT_EQ(Translate(explicit_four, pool), kFourSevenG);
  EXPECT_EQ(Get(explicit_four, "nvidia.com/mig-7g.80gb"), 4);

  // Two profiles, one each: two instances.
  const std::string mixed =
      AddPool("balanced", MigSharing(MigStrategy::kMixed, "all-balanced"));
  Pod two_kinds = GpuPod(2, 9000);
  two_kinds.explicit_requests = {{"nvidia.com/mig-1g.10gb", 1},
                                 {"nvidia.com/mig-2g.20gb", 1}};
  EXPECT_NE(Translate(two_kinds, mixed)
                .find("it asks for 2 MIG instances (nvidia.com/mig-1g.10gb, "
                      "nvidia.com/mig-2g.20gb)"),
            std::string::npos);

  Pod running = explicit_four;
  running.running_in_dump = true;
  EXPECT_EQ(Translate(running, pool), "");
  EXPECT_EQ(Get(running, "nvidia.com/mig-7g.80gb"), 4);

  // On a pool without MIG the same names are not instances.
  const std::string whole = AddPool("whole", ExclusiveSharing());
  Pod four_gpus = GpuPod(4, 70000);
  four_gpus.explicit_requests = {{"nvidia.com/gpu", 4}};
  EXPECT_EQ(Translate(four_gpus, whole), "");
}

// A dynamic-MIG DRA claim of 4 devices: the driver makes four instances,
// the same four CUDA devices without a peer path.
TEST_F(MigMultiInstanceTest, DynamicMigClaimOfFour) {
  SharingConfig dynamic = MigSharing(MigStrategy::kMixed, "");
  dynamic.mig.dynamic = true;
  const std::string pool = AddPool("dyn", dynamic, 4, /*dra=*/true);
  Pod ddp = GpuPod(4, 70000);
  const std::string why = Translate(ddp, pool);
  EXPECT_NE(why.find("it asks for 4 MIG instances (deviceclass.resource."
                     "kubernetes.io/mig-7g-80gb.gpu.nvidia.com) in one pod"),
            std::string::npos)
      << why;
  Pod ranks = GpuPod(4, 70000);
  ranks.multi_process = true;
  EXPECT_EQ(Translate(ranks, pool), "");
}

}  // namespace
}  // namespace mig_multi_instance_test
}  // namespace gpushare
