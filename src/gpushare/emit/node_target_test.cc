#include "gpushare/emit/node_target.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace {

NodePoolSpec Pool(const std::string& name, SharingConfig sharing) {
  NodePoolSpec p;
  p.name = name;
  p.gpu_model = "A100-80GB";
  p.sharing = std::move(sharing);
  return p;
}

TEST(NodeTargetTest, DevicePluginPoolLeavesHamiAndStaleLabels) {
  NodePoolSpec before = Pool("p", HamiSharing());
  before.labels = {{"team", "a"}, {"keep", "x"}};
  before.taints = {{"dedicated", "a", TaintEffect::kNoSchedule},
                   {"old", "x", TaintEffect::kNoExecute}};
  NodePoolSpec pool = Pool("p", TimeSlicingSharing(4));
  pool.labels = {{"keep", "y"}};
  pool.taints = {{"dedicated", "b", TaintEffect::kNoSchedule}};
  const NodeTarget t = PoolNodeTarget(pool, "", /*mig_capable=*/true, &before);
  EXPECT_EQ(t.set, (Labels{{"gpushare.io/node-pool", "p"},
                           {"keep", "y"},
                           {"nvidia.com/device-plugin.config", "p"},
                           {"nvidia.com/gpu.deploy.device-plugin", "true"}}));
  EXPECT_EQ(t.remove, (std::vector<LabelRemoval>{{"gpu", "on"}, {"team", ""}}));
  EXPECT_TRUE(t.disable_mig);
  EXPECT_TRUE(t.mig_config.empty());
  // dedicated=b replaces dedicated=a (one taint per key and effect).
  EXPECT_EQ(t.remove_taints,
            (std::vector<Taint>{{"old", "x", TaintEffect::kNoExecute}}));
}

TEST(NodeTargetTest, DraPoolOptsOutOfTheOperatorsPluginAndLeavesItsConfig) {
  NodePoolSpec pool = Pool("d", SharingConfig());
  pool.devices = PoolDevices::kDra;
  const NodeTarget t =
      PoolNodeTarget(pool, "all-balanced", /*mig_capable=*/true, nullptr);
  EXPECT_EQ(t.set, (Labels{{"gpushare.io/node-pool", "d"},
                           {"nvidia.com/gpu.deploy.device-plugin", "false"}}));
  EXPECT_EQ(t.remove,
            (std::vector<LabelRemoval>{{"gpu", "on"},
                                       {"nvidia.com/device-plugin.config", ""}}));
  EXPECT_EQ(t.mig_config, "all-balanced");
}

TEST(NodeTargetTest, HamiPoolOptsOutOfTheOperatorsPlugin) {
  const NodeTarget t =
      PoolNodeTarget(Pool("v", HamiSharing()), "", /*mig_capable=*/false,
                     nullptr);
  EXPECT_EQ(t.set.at("gpu"), "on");
  EXPECT_EQ(t.set.at("nvidia.com/gpu.deploy.device-plugin"), "false");
  EXPECT_EQ(t.remove,
            (std::vector<LabelRemoval>{{"nvidia.com/device-plugin.config", ""},
                                       {"nvidia.com/mig.config", ""}}));
  EXPECT_FALSE(t.disable_mig);
}

TEST(NodeTargetTest, RestoreGivesAnImportedNodeItsOwnLabelsBack) {
  NodeIdentity node;
  node.name = "ip-10-0-1-7";
  node.labels = {{"nvidia.com/device-plugin.config", "ts4"},
                 {"nvidia.com/gpu.deploy.device-plugin", "true"},
                 {"kubernetes.io/hostname", "ip-10-0-1-7"}};
  node.taints = {{"nvidia.com/gpu", "present", TaintEffect::kNoSchedule}};
  NodePoolSpec pool = Pool("m", MigSharing(MigStrategy::kMixed, "all-balanced"));
  pool.taints = {{"dedicated", "m", TaintEffect::kNoSchedule}};
  const NodeTarget applied =
      PoolNodeTarget(pool, "all-balanced", /*mig_capable=*/true, nullptr);
  const NodeTarget back = RestoreNodeTarget(node, applied);
  EXPECT_EQ(back.set,
            (Labels{{"nvidia.com/device-plugin.config", "ts4"},
                    {"nvidia.com/gpu.deploy.device-plugin", "true"}}));
  EXPECT_EQ(back.remove, (std::vector<LabelRemoval>{
                             {"gpushare.io/node-pool", ""}, {"gpu", ""}}));
  // It had no MIG layout: the one applied goes, the GPUs leave MIG.
  EXPECT_EQ(back.mig_config, "all-disabled");
  EXPECT_EQ(back.taints, node.taints);
  EXPECT_EQ(back.remove_taints,
            (std::vector<Taint>{{"dedicated", "m", TaintEffect::kNoSchedule}}));
  node.labels["nvidia.com/mig.config"] = "all-1g.10gb";
  EXPECT_EQ(RestoreNodeTarget(node, applied).mig_config, "all-1g.10gb");
}

TEST(NodeTargetTest, TaintTextIsWhatTheScriptsReadBack) {
  EXPECT_EQ(TaintText({"a", "", TaintEffect::kNoExecute}), "a=:NoExecute");
  EXPECT_EQ(TaintText({"a", "b", TaintEffect::kPreferNoSchedule}),
            "a=b:PreferNoSchedule");
}

}  // namespace
}  // namespace gpushare
