#include "gpushare/scenario/scenario_overrides.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace scenario_overrides_test {
namespace {

using ::testing::HasSubstr;

constexpr char kScenario[] = R"(name: s
cluster:
  pools:
    - name: l4
      nodes: 3
      sharing: {scheme: time-slicing, replicas: 4}
    - name: a10
      nodes: 2
      labels: {gpushare.io/team: dev}
workload:
  classes: [{name: notebooks, arrival_rate_per_s: 0.02}]
)";

YAML::Node Set(const std::string& key, const std::string& value) {
  YAML::Node root = YAML::Load(kScenario);
  SetScenarioValue(root, ParseScenarioKey(key), YAML::Load(value));
  return root;
}

std::string SetError(const std::string& key, const std::string& value) {
  try {
    Set(key, value);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ScenarioKeyTest, ParsesKeysAndSelectors) {
  const ScenarioKey key =
      ParseScenarioKey("cluster.pools[l4].labels[\"gpushare.io/team\"]");
  ASSERT_EQ(key.steps.size(), 5u);
  EXPECT_EQ(key.steps[0].text, "cluster");
  EXPECT_EQ(key.steps[2].kind, ScenarioKeyStep::Kind::kSelector);
  EXPECT_EQ(key.steps[2].text, "l4");
  EXPECT_FALSE(key.steps[2].quoted);
  EXPECT_EQ(key.steps[4].text, "gpushare.io/team");
  EXPECT_TRUE(key.steps[4].quoted);
  EXPECT_EQ(ParseScenarioKey("seed").steps.size(), 1u);
  EXPECT_EQ(ParseScenarioKey("a[0][1].b").steps.size(), 4u);
}

TEST(ScenarioKeyTest, RejectsMalformedKeys) {
  for (const char* bad :
       {"", ".seed", "seed.", "a..b", "[0]", "a.[0]", "a[", "a[]", "a[\"x]",
        "a[0]b", "a b", "a[x y]", "a[\"x\"", "a=1"}) {
    EXPECT_THROW(ParseScenarioKey(bad), InputError) << bad;
  }
  try {
    ParseScenarioKey("cluster..pools");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("an empty key at character 9"));
  }
}

TEST(ScenarioKeyTest, Within) {
  const ScenarioKey model = ParseScenarioKey("model");
  EXPECT_TRUE(
      ScenarioKeyWithin(ParseScenarioKey("model.time_slice_ms"), model));
  EXPECT_TRUE(ScenarioKeyWithin(model, model));
  EXPECT_FALSE(ScenarioKeyWithin(model, ParseScenarioKey("model.x")));
  EXPECT_FALSE(ScenarioKeyWithin(ParseScenarioKey("models"), model));
  // A key reads the same bare or in brackets.
  EXPECT_TRUE(
      ScenarioKeyWithin(ParseScenarioKey("a[b].c"), ParseScenarioKey("a.b")));
}

TEST(SetScenarioValueTest, ReplacesAndAdds) {
  YAML::Node r = Set("cluster.pools[l4].sharing.replicas", "8");
  EXPECT_EQ(r["cluster"]["pools"][0]["sharing"]["replicas"].as<int>(), 8);
  EXPECT_EQ(r["cluster"]["pools"][0]["sharing"]["scheme"].as<std::string>(),
            "time-slicing");
  r = Set("cluster.pools[1].nodes", "5");
  EXPECT_EQ(r["cluster"]["pools"][1]["nodes"].as<int>(), 5);
  EXPECT_EQ(r["cluster"]["pools"][0]["nodes"].as<int>(), 3);
  EXPECT_EQ(Set("seed", "3")["seed"].as<int>(), 3);
  // Missing mappings on the way are added.
  EXPECT_EQ(Set("model.time_slice_ms", "4")["model"]["time_slice_ms"].as<int>(),
            4);
  r = Set("cluster.pools[a10].labels[\"gpushare.io/team\"]", "ml");
  EXPECT_EQ(
      r["cluster"]["pools"][1]["labels"]["gpushare.io/team"].as<std::string>(),
      "ml");
  EXPECT_EQ(r["cluster"]["pools"][1]["labels"].size(), 1u);
  r = Set("cluster.pools[a10].sharing", "{scheme: mps, replicas: 2}");
  EXPECT_EQ(r["cluster"]["pools"][1]["sharing"]["scheme"].as<std::string>(),
            "mps");
  // A whole list item.
  r = Set("workload.classes[0]", "{name: x, count: 1}");
  ASSERT_EQ(r["workload"]["classes"].size(), 1u);
  EXPECT_EQ(r["workload"]["classes"][0]["name"].as<std::string>(), "x");
  // Nothing else moved.
  r = Set("cluster.pools[l4].nodes", "9");
  EXPECT_EQ(r["cluster"]["pools"][0]["nodes"].as<int>(), 9);
  EXPECT_EQ(r["cluster"]["pools"][1]["nodes"].as<int>(), 2);
  EXPECT_EQ(r["cluster"]["pools"].size(), 2u);
}

TEST(SetScenarioValueTest, SaysWhatIsMissing) {
  EXPECT_THAT(SetError("cluster.pools[v100].nodes", "1"),
              HasSubstr("no item named 'v100' in 'cluster.pools' (names: "
                        "l4, a10)"));
  EXPECT_THAT(SetError("cluster.pools[7].nodes", "1"),
              HasSubstr("'cluster.pools' has 2 items, no index 7"));
  EXPECT_THAT(SetError("cluster.pools.nodes", "1"),
              HasSubstr("'cluster.pools' is a list; name an item"));
  EXPECT_THAT(SetError("name.x", "1"),
              HasSubstr("'name' is 's', not a mapping or a list"));
  EXPECT_THAT(SetError("faults[0].rate", "1"),
              HasSubstr("the scenario has no 'faults', so 'faults[0]' cannot "
                        "be selected"));
}

TEST(SetScenarioValueTest, LeavesTheValueNodeAlone) {
  YAML::Node root = YAML::Load(kScenario);
  const YAML::Node grid = YAML::Load("v: 8");
  SetScenarioValue(root, ParseScenarioKey("cluster.pools[l4].nodes"),
                   grid["v"]);
  SetScenarioValue(root, ParseScenarioKey("cluster.pools[a10].nodes"),
                   grid["v"]);
  EXPECT_EQ(grid.size(), 1u);
  EXPECT_EQ(grid["v"].as<int>(), 8);
  EXPECT_EQ(root["cluster"]["pools"][0]["nodes"].as<int>(), 8);
  EXPECT_EQ(root["cluster"]["pools"][1]["nodes"].as<int>(), 8);
}

}  // namespace
}  // namespace scenario_overrides_test
}  // namespace gpushare
