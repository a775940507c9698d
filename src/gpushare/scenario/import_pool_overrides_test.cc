// `cluster.import.pools`: per imported pool, its node count, sharing and
// licence overridden (docs/scenario.md "cluster.import"), and bad entries
// refused at their line and column.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace import_pool_overrides_test {
namespace {

using ::testing::HasSubstr;

// A scenario beside tests/data/kubectl/nodes.json (pools a100-80gb-x2-mig,
// l4-x4-time-slicing of 2 nodes, a10-x2-hami, cpu) with `pools` under
// `cluster.import`.
Scenario Read(const std::string& pools) {
  static const Catalog catalog = Catalog::Builtin();
  const std::string text =
      "cluster:\n"
      "  import:\n"
      "    format: kubectl\n"
      "    file: nodes.json\n" +
      pools +
      "workload:\n"
      "  classes:\n"
      "    - {name: jobs, class: batch, count: 1}\n";
  return ReadScenarioYaml(text, GS_TESTDATA_DIR "/kubectl/s.yaml", catalog);
}

std::string Error(const std::string& pools) {
  try {
    Read(pools);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const NodePoolSpec& Pool(const Scenario& s GS_LIFETIMEBOUND, const std::string& name) {
  for (const NodePoolSpec& p : s.pools) {
    if (p.name == name) return p;
  }
  throw std::runtime_error("no pool " + name);
}

TEST(ImportPoolOverridesTest, ResizeAndSetAnImportedPool) {
  const Scenario s = Read(
      "    pools:\n"
      "      l4-x4-time-slicing:\n"
      "        nodes: 4\n"
      "        sharing: {scheme: mps, replicas: 2}\n"
      "        licence_per_gpu_hour: 0.5\n"
      "      a10-x2-hami: {nodes: 1}\n");
  const NodePoolSpec& l4 = Pool(s, "l4-x4-time-slicing");
  EXPECT_EQ(l4.nodes, 4);
  ASSERT_EQ(l4.members.size(), 2u);  // 2 real nodes, 2 new
  EXPECT_EQ(l4.sharing.scheme(), SharingScheme::kMps);
  EXPECT_EQ(l4.sharing.replicas.replicas, 2);
  EXPECT_DOUBLE_EQ(l4.licence_per_gpu_hour, 0.5);
  // The other imported pools keep what their nodes show.
  EXPECT_EQ(Pool(s, "a10-x2-hami").sharing.scheme(), SharingScheme::kHami);
  EXPECT_EQ(Pool(s, "a100-80gb-x2-mig").nodes, 1);

  Cluster cluster(Catalog::Builtin());
  for (const NodePoolSpec& p : s.pools) cluster.AddPool(p);
  std::vector<std::string> names;
  for (const Node& n : cluster.nodes()) {
    if (n.labels().at(kNodePoolLabel) == "l4-x4-time-slicing") {
      names.push_back(n.name());
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"gpu-l4-0", "gpu-l4-1",
                                             "l4-x4-time-slicing-new-0",
                                             "l4-x4-time-slicing-new-1"}));
}

TEST(ImportPoolOverridesTest, ShrinkingDropsTheLastNodes) {
  const Scenario s = Read(
      "    pools:\n"
      "      l4-x4-time-slicing: {nodes: 1}\n");
  const NodePoolSpec& l4 = Pool(s, "l4-x4-time-slicing");
  EXPECT_EQ(l4.nodes, 1);
  ASSERT_EQ(l4.members.size(), 1u);
  EXPECT_EQ(l4.members[0].name, "gpu-l4-0");
}

TEST(ImportPoolOverridesTest, BadEntriesAreLocated) {
  const std::string file = GS_TESTDATA_DIR "/kubectl/s.yaml";
  EXPECT_THAT(Error("    pools:\n"
                    "      l4-x4-timeslicing: {nodes: 3}\n"),
              HasSubstr(file + ":6:7: cluster import pools: no imported pool "
                               "is named 'l4-x4-timeslicing'; did you mean "
                               "l4-x4-time-slicing? (the imported pools"));
  EXPECT_THAT(Error("    pools:\n"
                    "      nope: {nodes: 3}\n"),
              HasSubstr("(the imported pools: a100-80gb-x2-mig, "
                        "l4-x4-time-slicing, a10-x2-hami, cpu)"));
  EXPECT_THAT(Error("    pools:\n"
                    "      cpu: {nodes: 0}\n"),
              HasSubstr(file + ":6:20: cluster import pools.cpu nodes: 0 is "
                               "out of range (expected 1..1000000)"));
  EXPECT_THAT(Error("    pools:\n"
                    "      cpu: {nodes: -2}\n"),
              HasSubstr(file + ":6:20:"));
  EXPECT_THAT(Error("    pools:\n"
                    "      cpu: {nodes: 1000001}\n"),
              HasSubstr(file + ":6:20:"));
  EXPECT_THAT(Error("    pools:\n"
                    "      cpu: {sharing: {scheme: time-slicing, replicas: "
                    "2}}\n"),
              HasSubstr("a pool without GPUs cannot share GPUs"));
  EXPECT_THAT(Error("    pools:\n"
                    "      l4-x4-time-slicing: {sharing: {scheme: mig}}\n"),
              HasSubstr(file + ":6:28: cluster import "
                               "pools.l4-x4-time-slicing sharing: L4 does "
                               "not support MIG"));
  EXPECT_THAT(Error("    pools:\n"
                    "      cpu: {gpus: 3}\n"),
              HasSubstr(file + ":6:13:"));
  EXPECT_THAT(Error("    pools: [cpu]\n"), HasSubstr(file + ":5:12:"));
}

}  // namespace
}  // namespace import_pool_overrides_test
}  // namespace gpushare
