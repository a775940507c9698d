#include "gpushare/sched/plugin_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

using ::testing::ElementsAre;

std::string MakeError(const std::string& name) {
  ResourceRegistry registry;
  try {
    MakePlugin(name, SchedulerProfile(), registry);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// default_plugins.go: the plugin names are kube-scheduler's (plus GpuDeviceFit
// and HAMiNodePolicy); MakePlugin creates each under its own name.
TEST(PluginRegistryTest, CreatesEveryPluginByName) {
  ResourceRegistry registry;
  const SchedulerProfile profile;
  for (const std::string name :
       {"NodeResourcesFit", "NodeResourcesBalancedAllocation", "NodeAffinity",
        "TaintToleration", "GpuDeviceFit", "HAMiNodePolicy"}) {
    std::unique_ptr<Plugin> plugin = MakePlugin(name, profile, registry);
    ASSERT_NE(plugin, nullptr) << name;
    EXPECT_EQ(plugin->Name(), name);
  }
}

// default_plugins.go: the filter and score lists, each name implementing
// its extension point.
TEST(PluginRegistryTest, FilterAndScoreNames) {
  EXPECT_THAT(FilterPluginNames(),
              ElementsAre("TaintToleration", "NodeAffinity", "NodeResourcesFit",
                          "GpuDeviceFit"));
  EXPECT_THAT(ScorePluginNames(),
              ElementsAre("TaintToleration", "NodeAffinity", "NodeResourcesFit",
                          "NodeResourcesBalancedAllocation", "HAMiNodePolicy"));
  ResourceRegistry registry;
  const SchedulerProfile profile;
  for (const std::string& name : FilterPluginNames()) {
    auto plugin = MakePlugin(name, profile, registry);
    EXPECT_NE(dynamic_cast<FilterPlugin*>(plugin.get()), nullptr) << name;
  }
  for (const std::string& name : ScorePluginNames()) {
    auto plugin = MakePlugin(name, profile, registry);
    EXPECT_NE(dynamic_cast<ScorePlugin*>(plugin.get()), nullptr) << name;
  }
  auto fit = MakePlugin("GpuDeviceFit", profile, registry);
  EXPECT_EQ(dynamic_cast<ScorePlugin*>(fit.get()), nullptr);
  auto balanced =
      MakePlugin("NodeResourcesBalancedAllocation", profile, registry);
  EXPECT_EQ(dynamic_cast<FilterPlugin*>(balanced.get()), nullptr);
  // The default profile names only registered plugins.
  EXPECT_NO_THROW(profile.Validate());
}

// Unknown names are InputErrors naming the closest plugin.
TEST(PluginRegistryTest, UnknownNameSuggestsClosest) {
  EXPECT_EQ(MakeError("NodeResourceFit"),
            "unknown scheduler plugin 'NodeResourceFit'; did you mean "
            "NodeResourcesFit?");
  EXPECT_EQ(MakeError("hamiNodePolicy"),
            "unknown scheduler plugin 'hamiNodePolicy'; did you mean "
            "HAMiNodePolicy?");
  EXPECT_EQ(MakeError("TaintTolerations"),
            "unknown scheduler plugin 'TaintTolerations'; did you mean "
            "TaintToleration?");
}

// NodeResourcesFitArgs: the NodeResourcesFit plugin takes the profile's scoring
// strategy.
TEST(PluginRegistryTest, NodeResourcesFitUsesProfileStrategy) {
  Cluster cluster(Catalog::Builtin());
  NodePoolSpec spec;
  spec.name = "cpu";
  spec.gpus_per_node = 0;
  spec.cpu_milli = 4000;
  spec.memory_mib = 8192;
  cluster.AddPool(spec);
  SchedulerProfile profile;
  profile.scoring_strategy.type = ScoringStrategy::Type::kMostAllocated;
  auto plugin = MakePlugin("NodeResourcesFit", profile, cluster.resources());
  auto* score = dynamic_cast<ScorePlugin*>(plugin.get());
  ASSERT_NE(score, nullptr);
  Pod pod;
  pod.requests.Set(ResourceRegistry::kCpuId, 2000);
  pod.requests.Set(ResourceRegistry::kMemoryId, 2048);
  // MostAllocated: cpu 2000×100/4000 = 50, memory 2048×100/8192 = 25
  // → 75/2 = 37 (LeastAllocated would give (50+75)/2 = 62).
  EXPECT_EQ(score->Score(pod, cluster.nodes()[0]), 37);
}

}  // namespace
}  // namespace gpushare
