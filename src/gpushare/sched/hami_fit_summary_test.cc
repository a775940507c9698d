// HamiFitSummary against the filters it stands for: on randomized node
// states, a rejected node fails NodeResourcesFit or GpuDeviceFit, and an
// exact summary admits exactly the nodes that pass both.

#include "gpushare/sched/hami_fit_summary.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gpushare/base/rng.h"
#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/sharing_config.h"
#include "gpushare/sched/framework.h"
#include "gpushare/sched/plugin_registry.h"
#include "gpushare/sched/profile.h"

namespace gpushare {
namespace {

class HamiFitSummaryTest : public ::testing::Test {
 protected:
  HamiFitSummaryTest() : cluster_(Catalog::Builtin()) {
    // HAMi nodes of 1, 4 and 8 GPUs (exact summaries) and of 10 (not), one
    // with scaled memory and cores and webhook defaults, a time-slicing
    // node and a node without GPUs.
    AddPool("h1", "A100-40GB", 1, HamiSharing());
    AddPool("h4", "A100-80GB", 4, HamiSharing());
    AddPool("h8", "A100-80GB", 8, HamiSharing());
    AddPool("h10", "A30-24GB", 10, HamiSharing());
    SharingConfig scaled = HamiSharing();
    scaled.hami.split_count = 3;
    scaled.hami.memory_scaling = 1.5;
    scaled.hami.core_scaling = 2;
    scaled.hami.default_memory_mib = 6000;
    scaled.hami.default_cores = 20;
    AddPool("scaled", "A100-40GB", 8, scaled);
    AddPool("ts", "A100-80GB", 8, TimeSlicingSharing(4));
    NodePoolSpec cpu;
    cpu.name = "cpu";
    cpu.gpus_per_node = 0;
    cpu.cpu_milli = 16000;
    cpu.memory_mib = 65536;
    cluster_.AddPool(cpu);
    SchedulerProfile profile;
    fit_ = MakePlugin("NodeResourcesFit", profile, cluster_.resources());
    device_fit_ = MakePlugin("GpuDeviceFit", profile, cluster_.resources());
  }

  void AddPool(std::string name, const char* model, int gpus,
               SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = std::move(name);
    spec.gpu_model = model;
    spec.nodes = 3;
    spec.gpus_per_node = gpus;
    spec.cpu_milli = 16000;
    spec.memory_mib = 65536;
    spec.max_pods = 12;
    spec.sharing = std::move(sharing);
    cluster_.AddPool(spec);
  }

  // A pod asking HAMi for vGPUs in one of many forms, or not.
  Pod RandomPod(Rng& rng) {
    ResourceRegistry& r = cluster_.resources();
    Pod pod;
    pod.requests.Set(ResourceRegistry::kCpuId,
                     static_cast<int64_t>(rng.Below(4)) * 1000);
    pod.requests.Set(ResourceRegistry::kMemoryId,
                     static_cast<int64_t>(rng.Below(3)) * 8192);
    if (rng.Below(6) != 0) {
      pod.requests.Set(r.Intern("nvidia.com/gpu"),
                       static_cast<int64_t>(rng.Below(4)));
    }
    switch (rng.Below(5)) {
      case 0:
        break;
      case 1:
        pod.requests.Set(r.Intern("nvidia.com/gpumem-percentage"),
                         1 + static_cast<int64_t>(rng.Below(100)));
        break;
      default:
        pod.requests.Set(r.Intern("nvidia.com/gpumem"),
                         1 + static_cast<int64_t>(rng.Below(60000)));
        break;
    }
    if (rng.Below(5) != 0) {
      pod.requests.Set(r.Intern("nvidia.com/gpucores"),
                       static_cast<int64_t>(rng.Below(102)));
    }
    if (rng.Below(40) == 0) pod.requests.Set(r.Intern("example.com/fpga"), 1);
    return pod;
  }

  bool Filters(const Pod& pod, const Node& node) {
    auto* fit = dynamic_cast<FilterPlugin*>(fit_.get());
    auto* device_fit = dynamic_cast<FilterPlugin*>(device_fit_.get());
    fit->PreFilter(pod);
    device_fit->PreFilter(pod);
    return fit->Filter(pod, node, nullptr) &&
           device_fit->Filter(pod, node, nullptr);
  }

  Cluster cluster_;
  std::unique_ptr<Plugin> fit_;
  std::unique_ptr<Plugin> device_fit_;
};

TEST_F(HamiFitSummaryTest, AgreesWithTheFiltersOnRandomNodeStates) {
  const ResourceId gpu = cluster_.resources().Find("nvidia.com/gpu");
  std::vector<Node>& nodes = cluster_.nodes();
  Rng rng(23);
  struct Placed {
    int node;
    Pod pod;
    DeviceAllocation allocation;
  };
  std::vector<Placed> placed;
  int exact_admitted = 0, exact_rejected = 0, rejected = 0;
  for (int step = 0; step < 20000; ++step) {
    const Pod pod = RandomPod(rng);
    HamiFitNeed need;
    const bool hami = HamiFitNeed::Of(pod, cluster_.resources(),
                                      /*resources_fit=*/true,
                                      /*only_these_filters=*/true, &need);
    for (int n = 0; n < static_cast<int>(nodes.size()); ++n) {
      const HamiFitSummary summary = HamiFitSummary::Of(nodes[n], gpu);
      const bool passes = Filters(pod, nodes[n]);
      if (!hami) continue;
      const bool admits = summary.Admits(need);
      if (!admits) {
        ++rejected;
        ASSERT_FALSE(passes) << "step " << step << " node " << n;
      }
      if (need.exact && summary.exact()) {
        ASSERT_EQ(admits, passes) << "step " << step << " node " << n;
        ++(admits ? exact_admitted : exact_rejected);
      }
    }
    // Change the cluster: place the pod where it fits, release a pod,
    // or fail or recover a GPU.
    const int n = static_cast<int>(rng.Below(nodes.size()));
    Node& node = nodes[n];
    if (rng.Below(3) != 0 && Filters(pod, node)) {
      Placed p{n, pod, {}};
      if (node.devices() != nullptr) {
        p.allocation = node.devices()->Allocate(pod.requests);
      }
      node.Reserve(pod.requests);
      placed.push_back(std::move(p));
    } else if (rng.Below(2) == 0 && !placed.empty()) {
      const size_t k = rng.Below(placed.size());
      Node& from = nodes[placed[k].node];
      if (from.devices() != nullptr) {
        from.devices()->Release(placed[k].allocation);
      }
      from.Unreserve(placed[k].pod.requests);
      placed.erase(placed.begin() + static_cast<long>(k));
    } else if (rng.Below(4) == 0 && node.devices() != nullptr) {
      node.devices()->SetHealthy(static_cast<int>(rng.Below(node.gpus())), -1,
                                 rng.Below(3) == 0);
      node.SyncDeviceAllocatable();
    }
  }
  // The exact decisions went both ways, often.
  EXPECT_GT(exact_admitted, 10000);
  EXPECT_GT(exact_rejected, 10000);
  EXPECT_GT(rejected, 10000);
}

TEST_F(HamiFitSummaryTest, ExactOnlyForExplicitMemoryAndCoresBelow100) {
  ResourceRegistry& r = cluster_.resources();
  auto need_of = [&](std::vector<std::pair<std::string, int64_t>> requests,
                     bool only_these_filters = true) {
    Pod pod;
    pod.requests.Set(ResourceRegistry::kCpuId, 1000);
    for (const auto& [name, quantity] : requests) {
      pod.requests.Set(r.Intern(name), quantity);
    }
    HamiFitNeed need;
    EXPECT_TRUE(HamiFitNeed::Of(pod, r, true, only_these_filters, &need));
    return need;
  };
  EXPECT_TRUE(need_of({{"nvidia.com/gpu", 2},
                       {"nvidia.com/gpumem", 4000},
                       {"nvidia.com/gpucores", 99}})
                  .exact);
  EXPECT_FALSE(need_of({{"nvidia.com/gpu", 2},
                        {"nvidia.com/gpumem", 4000},
                        {"nvidia.com/gpucores", 30}},
                       /*only_these_filters=*/false)
                   .exact);
  // Exclusive cores, webhook defaults, memory in percent.
  EXPECT_FALSE(
      need_of({{"nvidia.com/gpumem", 4000}, {"nvidia.com/gpucores", 100}})
          .exact);
  EXPECT_FALSE(need_of({{"nvidia.com/gpumem", 4000}}).exact);
  EXPECT_FALSE(need_of({{"nvidia.com/gpu", 1}}).exact);
  EXPECT_FALSE(need_of({{"nvidia.com/gpumem-percentage", 50},
                        {"nvidia.com/gpucores", 30}})
                   .exact);
  const HamiFitNeed need = need_of({{"nvidia.com/gpumem", 4000}});
  EXPECT_EQ(need.vgpus, 1);  // the webhook's default
  EXPECT_EQ(need.cpu, 1000);
  EXPECT_EQ(need.pods, 1);

  // Not HAMi requests.
  Pod pod;
  pod.requests.Set(ResourceRegistry::kCpuId, 1000);
  HamiFitNeed unused;
  EXPECT_FALSE(HamiFitNeed::Of(pod, r, true, true, &unused));
  pod.requests.Set(r.Intern("nvidia.com/gpu"), 1);
  pod.requests.Set(r.Intern("nvidia.com/mig-1g.10gb"), 1);
  EXPECT_FALSE(HamiFitNeed::Of(pod, r, true, true, &unused));
}

TEST_F(HamiFitSummaryTest, NodesWithoutHamiAreNeverRejectedOnGpus) {
  const ResourceId gpu = cluster_.resources().Find("nvidia.com/gpu");
  HamiFitNeed need;
  need.vgpus = 8;
  need.gpu_memory_mib = 80000;
  need.gpu_cores = 100;
  for (const Node& node : cluster_.nodes()) {
    const HamiFitSummary s = HamiFitSummary::Of(node, gpu);
    const DevicePlugin* d = node.devices();
    const bool hami = d != nullptr && d->AsHami() != nullptr;
    EXPECT_EQ(s.exact(), hami && node.gpus() <= HamiFitSummary::kMaxGpus)
        << node.name();
    if (!hami) {
      EXPECT_TRUE(s.Admits(need)) << node.name();
    }
  }
}

}  // namespace
}  // namespace gpushare
