#include "gpushare/emit/node_setup_script.h"

#include <gtest/gtest.h>

#include "gpushare/emit/emit_test_scenarios.h"

namespace gpushare {
namespace node_setup_script_test {
namespace {

using emit_test::TestCatalog;

Scenario Read(const std::string& name, const std::string& pools) {
  return emit_test::PoolsScenario(name, pools);
}

const NodeChange& ChangeOf(const std::vector<NodeChange>& changes,
                           const std::string& pool) {
  for (const NodeChange& c : changes) {
    if (c.nodes.pool == pool) return c;
  }
  ADD_FAILURE() << "no change for pool " << pool;
  return changes.front();
}

// Today: `infer` on all-1g.10gb; `train` exclusive. The plan writes infer's
// layout out (infer-custom, the same 7 x 1g.10gb) and puts train on
// all-balanced.
const char* kToday =
    "    - {name: infer, gpu: A100-80GB, nodes: 1,\n"
    "       sharing: {scheme: mig, mig_strategy: mixed,\n"
    "                 mig_config: all-1g.10gb}}\n"
    "    - {name: train, gpu: A100-80GB, nodes: 2}\n";
const char* kPlan =
    "    - {name: infer, gpu: A100-80GB, nodes: 1,\n"
    "       sharing: {scheme: mig, mig_strategy: mixed,\n"
    "                 mig_layouts: [\"1g.10gb:7\"]}}\n"
    "    - {name: train, gpu: A100-80GB, nodes: 2,\n"
    "       sharing: {scheme: mig, mig_strategy: mixed,\n"
    "                 mig_config: all-balanced}}\n";

TEST(NodeSetupScriptTest, MigConfigsOfTheSameLayoutBothWays) {
  const Scenario today = Read("today", kToday);
  const Scenario plan = Read("plan", kPlan);
  const std::vector<NodeChange> changes =
      NodeChanges(plan, TestCatalog(), &today);
  const NodeChange& infer = ChangeOf(changes, "infer");
  EXPECT_EQ(infer.target.mig_config, "infer-custom");
  EXPECT_EQ(infer.mig_alike, std::vector<std::string>{"all-1g.10gb"});
  EXPECT_EQ(ChangeOf(changes, "train").target.mig_config, "all-balanced");
  EXPECT_TRUE(ChangeOf(changes, "train").mig_alike.empty());
  // Without today, the catalog's names still count.
  EXPECT_EQ(ChangeOf(NodeChanges(plan, TestCatalog(), nullptr), "infer")
                .mig_alike,
            std::vector<std::string>{"all-1g.10gb"});

  const auto back = RollbackChanges(plan, TestCatalog(), &today);
  ASSERT_TRUE(back.has_value());
  const NodeChange& infer_back = ChangeOf(*back, "infer");
  EXPECT_EQ(infer_back.target.mig_config, "all-1g.10gb");
  EXPECT_EQ(infer_back.mig_alike, std::vector<std::string>{"infer-custom"});
  EXPECT_TRUE(ChangeOf(*back, "train").mig_alike.empty());
  EXPECT_TRUE(ChangeOf(*back, "train").target.disable_mig);

  const std::string script = NodeSetupScript(plan, TestCatalog(), &today);
  EXPECT_NE(script.find("  ensure_mig \"$1\" infer-custom all-1g.10gb\n"),
            std::string::npos)
      << script;
  EXPECT_NE(script.find("  ensure_mig \"$1\" all-balanced\n"),
            std::string::npos);
}

// A config name that today's pool gives another layout is renamed (its
// nodes carry the name: the MIG manager would not act), and is not taken for
// the planned layout.
TEST(NodeSetupScriptTest, ANameTodayGivesAnotherLayoutIsRenamed) {
  const Scenario today =
      Read("today",
           "    - {name: infer, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: mig, mig_strategy: mixed,\n"
           "                 mig_layouts: [\"3g.40gb:2\"]}}\n"
           "    - {name: spare, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: mig, mig_strategy: mixed,\n"
           "                 mig_layouts: [\"1g.10gb:7\"]}}\n");
  const Scenario plan =
      Read("plan",
           "    - {name: infer, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: mig, mig_strategy: mixed,\n"
           "                 mig_layouts: [\"1g.10gb:7\"]}}\n"
           "    - {name: spare, gpu: A100-80GB, nodes: 1,\n"
           "       sharing: {scheme: mig, mig_strategy: mixed,\n"
           "                 mig_layouts: [\"1g.10gb:7\"]}}\n");
  const std::vector<NodeChange> changes =
      NodeChanges(plan, TestCatalog(), &today);
  EXPECT_EQ(ChangeOf(changes, "infer").target.mig_config, "infer-custom-2");
  EXPECT_EQ(ChangeOf(changes, "infer").mig_alike,
            (std::vector<std::string>{"all-1g.10gb", "spare-custom"}));
  EXPECT_EQ(ChangeOf(changes, "spare").target.mig_config, "spare-custom");
  EXPECT_EQ(ChangeOf(changes, "spare").mig_alike,
            (std::vector<std::string>{"all-1g.10gb", "infer-custom-2"}));
  const auto back = RollbackChanges(plan, TestCatalog(), &today);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(ChangeOf(*back, "infer").target.mig_config, "infer-custom");
  EXPECT_EQ(ChangeOf(*back, "infer").mig_alike,
            std::vector<std::string>{"all-3g.40gb"});
}

}  // namespace
}  // namespace node_setup_script_test
}  // namespace gpushare
