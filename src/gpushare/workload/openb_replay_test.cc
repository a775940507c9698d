#include "gpushare/workload/openb_replay.h"

#include <gtest/gtest.h>

#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace openb_replay_test {
namespace {

const std::string kNodes = GS_TESTDATA_DIR "/replay/openb_nodes.csv";
const std::string kPods = GS_TESTDATA_DIR "/replay/openb_pods.csv";

TEST(OpenbReplayTest, NodesKeepNamesAndTheTraceModelLabel) {
  const Catalog catalog = Catalog::Builtin();
  const GpuModelMap map = GpuModelMap::Default();
  const std::vector<ImportedNode> nodes =
      OpenbReplayNodes(ReadOpenbNodeList(kNodes, map), map, catalog);
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0].name, "openb-node-0000");
  EXPECT_EQ(nodes[0].gpu_model, "A100-40GB");
  EXPECT_EQ(nodes[0].gpus, 2);
  EXPECT_EQ(nodes[0].labels.at(std::string(kOpenGpuShareCardModelLabel)), "G2");
  EXPECT_EQ(nodes[3].gpus, 0);
  const std::vector<NodePoolSpec> pools = GroupNodePools(nodes, "openb-");
  ASSERT_EQ(pools.size(), 3u);
  EXPECT_EQ(pools[0].name, "openb-a100-40gb-x2");
  EXPECT_EQ(pools[0].nodes, 2);
  EXPECT_EQ(pools[1].name, "openb-t4-x1");
  EXPECT_EQ(pools[2].name, "openb-cpu");
}

TEST(OpenbReplayTest, PodsArriveAtCreationAndLiveUntilDeletion) {
  TraceDefaults defaults;
  const std::vector<Pod> pods =
      OpenbReplayPods(kPods, ReadOpenbPodList(kPods, GpuModelMap::Default()),
                      defaults, OpenbTenantClass::kShape);
  ASSERT_EQ(pods.size(), 12u);
  const Pod& full = pods[0];
  EXPECT_EQ(full.arrival_s, 0);
  EXPECT_EQ(full.needs.gpus, 1);
  EXPECT_EQ(full.needs.work_s, 0);
  EXPECT_EQ(full.needs.lifetime_s, 3600);
  EXPECT_EQ(full.needs.gpu_memory_mib, 8192);
  EXPECT_EQ(full.tenant_class, "gpu-1");
  EXPECT_EQ(full.workload_class, WorkloadClass::kInference);  // LS
  const Pod& share = pods[1];
  EXPECT_DOUBLE_EQ(share.needs.gpus, 0.46);
  EXPECT_DOUBLE_EQ(share.needs.sm_demand, 0.46);
  EXPECT_EQ(share.needs.gpu_memory_mib, 3768);  // 0.46 x 8192, rounded
  EXPECT_EQ(share.needs.lifetime_s, 1800);
  EXPECT_EQ(share.tenant_class, "gpu-share");
  EXPECT_EQ(pods[2].workload_class, WorkloadClass::kBatch);  // BE
  EXPECT_EQ(pods[4].tenant_class, "gpu-multi");
  EXPECT_EQ(pods[4].needs.gpus, 2);
  EXPECT_EQ(pods[5].tenant_class, "cpu-only");
  EXPECT_EQ(pods[5].needs.gpus, 0);
  EXPECT_EQ(pods[7].needs.lifetime_s, 125);  // a Pending row is replayed
  const Pod& spec = pods[11];
  ASSERT_EQ(spec.required_affinity.size(), 1u);
  EXPECT_EQ(spec.required_affinity[0].match_expressions[0].values,
            (std::vector<std::string>{"G2", "T4"}));

  const std::vector<Pod> by_qos =
      OpenbReplayPods(kPods, ReadOpenbPodList(kPods, GpuModelMap::Default()),
                      defaults, OpenbTenantClass::kQos);
  EXPECT_EQ(by_qos[0].tenant_class, "ls");
  EXPECT_EQ(by_qos[5].tenant_class, "burstable");
}

TEST(OpenbReplayTest, TheFiveColumnFormCannotBeReplayed) {
  const std::string text =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli\np0,1000,1024,1,1000\n";
  try {
    OpenbReplayPods("m.csv",
                    ParseOpenbPodList("m.csv", text, GpuModelMap::Default()),
                    TraceDefaults(), OpenbTenantClass::kShape);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "m.csv:2:1: replay needs creation_time: give the full form of "
              "the pod list (the five-column form has no times)");
  }
}

}  // namespace
}  // namespace openb_replay_test
}  // namespace gpushare
