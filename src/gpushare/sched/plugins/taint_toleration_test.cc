#include "gpushare/sched/plugins/taint_toleration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpushare {
namespace taint_toleration_test {
namespace {

using ::testing::ElementsAre;
using TolOp = Toleration::Operator;

Node MakeNode(std::vector<Taint> taints, std::string name = "n0") {
  return Node(std::move(name), 0, Labels(), std::move(taints), nullptr, 0, 4000,
              8192, kDefaultMaxPods, nullptr);
}

Toleration Tol(std::string key, TolOp op, std::string value = "") {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  return t;  // any effect
}

Toleration TolFor(std::string key, TolOp op, std::string value,
                  TaintEffect effect) {
  Toleration t = Tol(std::move(key), op, std::move(value));
  t.any_effect = false;
  t.effect = effect;
  return t;
}

Pod PodTolerating(std::vector<Toleration> tolerations) {
  Pod pod;
  pod.tolerations = std::move(tolerations);
  return pod;
}

std::vector<Taint> ThreeTaints() {
  return {{"gpu", "true", TaintEffect::kNoSchedule},
          {"maintenance", "soon", TaintEffect::kNoExecute},
          {"spot", "yes", TaintEffect::kPreferNoSchedule}};
}

std::vector<std::string> Reasons(const TaintToleration& plugin, const Pod& pod,
                                 const Node& node) {
  std::vector<std::string_view> reasons;
  EXPECT_FALSE(plugin.Filter(pod, node, &reasons));
  return std::vector<std::string>(reasons.begin(), reasons.end());
}

// TaintToleration Filter: the first untolerated NoSchedule/NoExecute
// taint fails the node with kube's "{key: value}" reason.
TEST(TaintTolerationTest, FirstUntoleratedTaintFails) {
  TaintToleration plugin;
  const Node node = MakeNode(ThreeTaints());
  EXPECT_THAT(Reasons(plugin, Pod(), node),
              ElementsAre("node(s) had untolerated taint {gpu: true}"));
  // Equal toleration with the matching value, for any effect.
  const Pod gpu_ok = PodTolerating({Tol("gpu", TolOp::kEqual, "true")});
  EXPECT_THAT(Reasons(plugin, gpu_ok, node),
              ElementsAre("node(s) had untolerated taint {maintenance: soon}"));
  EXPECT_FALSE(plugin.Filter(gpu_ok, node, nullptr));
  EXPECT_TRUE(plugin.Static());
}

// TaintToleration (v1 Toleration semantics): Equal needs the value,
// Exists does not, an effect must match unless empty, and an empty key with
// Exists tolerates everything.
TEST(TaintTolerationTest, TolerationOperators) {
  TaintToleration plugin;
  const Node node = MakeNode(ThreeTaints());
  // Wrong value: not tolerated.
  EXPECT_FALSE(
      plugin.Filter(PodTolerating({Tol("gpu", TolOp::kEqual, "false"),
                                   Tol("maintenance", TolOp::kExists)}),
                    node, nullptr));
  // Exists for gpu and a NoExecute toleration for maintenance.
  EXPECT_TRUE(plugin.Filter(
      PodTolerating(
          {Tol("gpu", TolOp::kExists),
           TolFor("maintenance", TolOp::kExists, "", TaintEffect::kNoExecute)}),
      node, nullptr));
  // A NoSchedule toleration does not tolerate the NoExecute taint.
  EXPECT_THAT(Reasons(plugin,
                      PodTolerating({Tol("gpu", TolOp::kExists),
                                     TolFor("maintenance", TolOp::kExists, "",
                                            TaintEffect::kNoSchedule)}),
                      node),
              ElementsAre("node(s) had untolerated taint {maintenance: soon}"));
  // Empty key + Exists tolerates every taint.
  EXPECT_TRUE(
      plugin.Filter(PodTolerating({Tol("", TolOp::kExists)}), node, nullptr));
}

// TaintToleration: PreferNoSchedule taints never fail Filter.
TEST(TaintTolerationTest, PreferNoScheduleDoesNotFilter) {
  TaintToleration plugin;
  const Node node = MakeNode({{"spot", "yes", TaintEffect::kPreferNoSchedule}});
  EXPECT_TRUE(plugin.Filter(Pod(), node, nullptr));
  EXPECT_TRUE(plugin.Filter(Pod(), MakeNode({}), nullptr));
}

// framework.h: reasons outlive the cycle; the plugin keeps one string per
// distinct taint, in place while the cache grows.
TEST(TaintTolerationTest, ReasonStringsStayValid) {
  TaintToleration plugin;
  const Node node = MakeNode(ThreeTaints());
  std::vector<std::string_view> first;
  EXPECT_FALSE(plugin.Filter(Pod(), node, &first));
  ASSERT_EQ(first.size(), 1u);
  for (int i = 0; i < 100; ++i) {
    const Node other = MakeNode(
        {{"k" + std::to_string(i), "v", TaintEffect::kNoSchedule}}, "x");
    std::vector<std::string_view> reasons;
    EXPECT_FALSE(plugin.Filter(Pod(), other, &reasons));
  }
  std::vector<std::string_view> again;
  EXPECT_FALSE(plugin.Filter(Pod(), node, &again));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(first[0], "node(s) had untolerated taint {gpu: true}");
  EXPECT_EQ(again[0].data(), first[0].data());
}

// TaintToleration Score: untolerated PreferNoSchedule taints; only
// tolerations for PreferNoSchedule or for every effect count.
TEST(TaintTolerationTest, ScoresIntolerablePreferNoScheduleTaints) {
  TaintToleration plugin;
  const Node node = MakeNode({{"spot", "yes", TaintEffect::kPreferNoSchedule},
                              {"old", "gen", TaintEffect::kPreferNoSchedule},
                              {"gpu", "true", TaintEffect::kNoSchedule}});
  EXPECT_EQ(plugin.Score(Pod(), node), 2);  // NoSchedule taints don't count
  EXPECT_EQ(
      plugin.Score(PodTolerating({TolFor("spot", TolOp::kEqual, "yes",
                                         TaintEffect::kPreferNoSchedule)}),
                   node),
      1);
  // A NoSchedule toleration does not help with PreferNoSchedule.
  EXPECT_EQ(plugin.Score(PodTolerating({TolFor("spot", TolOp::kEqual, "yes",
                                               TaintEffect::kNoSchedule)}),
                         node),
            2);
  EXPECT_EQ(plugin.Score(PodTolerating({Tol("old", TolOp::kExists)}), node), 1);
  EXPECT_EQ(plugin.Score(PodTolerating({Tol("", TolOp::kExists)}), node), 0);
}

// TaintToleration NormalizeScore: DefaultNormalizeScore reversed.
TEST(TaintTolerationTest, NormalizeReverses) {
  TaintToleration plugin;
  std::vector<int64_t> scores = {2, 1, 0};
  plugin.Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(0, 50, 100));
  std::vector<int64_t> zeros = {0, 0};
  plugin.Normalize(zeros);
  EXPECT_THAT(zeros, ElementsAre(100, 100));  // no taints anywhere
}

// Without a PreferNoSchedule taint on any node every node scores the same:
// PreScore skips the pod; one such taint anywhere brings scoring back.
TEST(TaintTolerationTest, SkipsScoringWhenNoNodePrefersNoSchedule) {
  TaintToleration plugin;
  const Pod pod;
  EXPECT_TRUE(plugin.PreScore(pod));  // nothing known yet
  std::vector<Node> nodes;
  nodes.push_back(MakeNode({{"gpu", "true", TaintEffect::kNoSchedule}}));
  nodes.push_back(MakeNode({}, "n1"));
  plugin.NodesChanged(nodes);
  EXPECT_FALSE(plugin.PreScore(pod));
  nodes.push_back(MakeNode(ThreeTaints(), "n2"));
  plugin.NodesChanged(nodes);
  EXPECT_TRUE(plugin.PreScore(pod));
}

}  // namespace
}  // namespace taint_toleration_test
}  // namespace gpushare
