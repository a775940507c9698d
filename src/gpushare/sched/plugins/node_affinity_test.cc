#include "gpushare/sched/plugins/node_affinity.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gpushare {
namespace node_affinity_test {
namespace {

using ::testing::ElementsAre;
using Op = NodeSelectorRequirement::Operator;

Node MakeNode(std::string name, Labels labels) {
  return Node(std::move(name), 0, std::move(labels), {}, nullptr, 0, 4000, 8192,
              kDefaultMaxPods, nullptr);
}

NodeSelectorRequirement Req(std::string key, Op op,
                            std::vector<std::string> values = {}) {
  NodeSelectorRequirement r;
  r.key = std::move(key);
  r.op = op;
  r.values = std::move(values);
  return r;
}

NodeSelectorTerm Term(std::vector<NodeSelectorRequirement> expressions) {
  NodeSelectorTerm t;
  t.match_expressions = std::move(expressions);
  return t;
}

Pod RequiredPod(std::vector<NodeSelectorTerm> terms) {
  Pod pod;
  pod.required_affinity = std::move(terms);
  return pod;
}

class NodeAffinityTest : public ::testing::Test {
 protected:
  bool Fits(const Pod& pod) const {
    return plugin_.Filter(pod, node_, nullptr);
  }
  bool FitsExpr(NodeSelectorRequirement r) const {
    return Fits(RequiredPod({Term({std::move(r)})}));
  }

  const Node node_ =
      MakeNode("n0", {{"zone", "a"}, {"gen", "3"}, {"tier", "gold"}});
  NodeAffinity plugin_;
};

// NodeAffinity: nodeSelector — every key=value must be a node label.
TEST_F(NodeAffinityTest, NodeSelector) {
  Pod pod;
  EXPECT_TRUE(Fits(pod));  // no constraint
  pod.node_selector = {{"zone", "a"}, {"tier", "gold"}};
  EXPECT_TRUE(Fits(pod));
  pod.node_selector = {{"zone", "a"}, {"tier", "silver"}};
  EXPECT_FALSE(Fits(pod));
  pod.node_selector = {{"rack", "1"}};  // missing key
  EXPECT_FALSE(Fits(pod));
}

// NodeAffinity (v1.NodeSelectorRequirement): In and NotIn.
TEST_F(NodeAffinityTest, InAndNotIn) {
  EXPECT_TRUE(FitsExpr(Req("zone", Op::kIn, {"b", "a"})));
  EXPECT_FALSE(FitsExpr(Req("zone", Op::kIn, {"c"})));
  EXPECT_FALSE(FitsExpr(Req("rack", Op::kIn, {"1"})));  // missing key
  EXPECT_TRUE(FitsExpr(Req("zone", Op::kNotIn, {"c"})));
  EXPECT_FALSE(FitsExpr(Req("zone", Op::kNotIn, {"a"})));
  EXPECT_TRUE(FitsExpr(Req("rack", Op::kNotIn, {"1"})));  // missing key
}

// NodeAffinity: Exists and DoesNotExist.
TEST_F(NodeAffinityTest, ExistsAndDoesNotExist) {
  EXPECT_TRUE(FitsExpr(Req("gen", Op::kExists)));
  EXPECT_FALSE(FitsExpr(Req("rack", Op::kExists)));
  EXPECT_TRUE(FitsExpr(Req("rack", Op::kDoesNotExist)));
  EXPECT_FALSE(FitsExpr(Req("gen", Op::kDoesNotExist)));
}

// NodeAffinity: Gt and Lt compare integers; a missing key or a
// non-integer label fails.
TEST_F(NodeAffinityTest, GtAndLt) {
  EXPECT_TRUE(FitsExpr(Req("gen", Op::kGt, {"2"})));   // 3 > 2
  EXPECT_FALSE(FitsExpr(Req("gen", Op::kGt, {"3"})));  // 3 > 3 is false
  EXPECT_TRUE(FitsExpr(Req("gen", Op::kLt, {"4"})));   // 3 < 4
  EXPECT_FALSE(FitsExpr(Req("gen", Op::kLt, {"3"})));
  EXPECT_FALSE(FitsExpr(Req("zone", Op::kGt, {"1"})));  // "a" not an integer
  EXPECT_FALSE(FitsExpr(Req("rack", Op::kLt, {"9"})));  // missing key
}

// NodeAffinity: terms are ORed, expressions within a term ANDed, and an
// empty term matches nothing.
TEST_F(NodeAffinityTest, TermsOredExpressionsAnded) {
  const NodeSelectorTerm wrong_zone = Term({Req("zone", Op::kIn, {"b"})});
  const NodeSelectorTerm zone_and_gold =
      Term({Req("zone", Op::kIn, {"a"}), Req("tier", Op::kIn, {"gold"})});
  const NodeSelectorTerm zone_and_silver =
      Term({Req("zone", Op::kIn, {"a"}), Req("tier", Op::kIn, {"silver"})});
  EXPECT_TRUE(Fits(RequiredPod({wrong_zone, zone_and_gold})));
  EXPECT_FALSE(Fits(RequiredPod({wrong_zone, zone_and_silver})));
  EXPECT_FALSE(Fits(RequiredPod({NodeSelectorTerm()})));
  EXPECT_TRUE(Fits(RequiredPod({NodeSelectorTerm(), zone_and_gold})));
}

// NodeAffinity: nodeSelector AND required affinity, with kube's reason.
TEST_F(NodeAffinityTest, SelectorAndAffinityBothApply) {
  Pod pod = RequiredPod({Term({Req("gen", Op::kGt, {"2"})})});
  pod.node_selector = {{"zone", "b"}};
  std::vector<std::string_view> reasons;
  EXPECT_FALSE(plugin_.Filter(pod, node_, &reasons));
  EXPECT_THAT(reasons,
              ElementsAre("node(s) didn't match Pod's node affinity/selector"));
  pod.node_selector = {{"zone", "a"}};
  EXPECT_TRUE(plugin_.Filter(pod, node_, nullptr));
  EXPECT_TRUE(plugin_.Static());
}

// NodeAffinity Score: Σ weights of matching preferred terms, then
// DefaultNormalizeScore(100, reverse = false).
TEST_F(NodeAffinityTest, ScoresPreferredTerms) {
  Pod pod;
  EXPECT_FALSE(plugin_.PreScore(pod));  // no preferred terms: skipped
  pod.preferred_affinity = {
      {10, Term({Req("zone", Op::kIn, {"a"})})},
      {5, Term({Req("tier", Op::kIn, {"silver"})})},
      {20, NodeSelectorTerm()},  // matches nothing
  };
  EXPECT_TRUE(plugin_.PreScore(pod));
  const Node silver_b = MakeNode("n1", {{"zone", "b"}, {"tier", "silver"}});
  const Node silver_a = MakeNode("n2", {{"zone", "a"}, {"tier", "silver"}});
  const Node other = MakeNode("n3", {{"zone", "c"}});
  std::vector<int64_t> scores = {
      plugin_.Score(pod, node_), plugin_.Score(pod, silver_b),
      plugin_.Score(pod, silver_a), plugin_.Score(pod, other)};
  EXPECT_THAT(scores, ElementsAre(10, 5, 15, 0));
  // Highest (15) → 100: 10×100/15 = 66, 5×100/15 = 33.
  plugin_.Normalize(scores);
  EXPECT_THAT(scores, ElementsAre(66, 33, 100, 0));
}

// framework.h DefaultNormalizeScore (kube helper.DefaultNormalizeScore):
// scaling, integer truncation, reverse, all zeros.
TEST(DefaultNormalizeScoreTest, ScalesHighestToMax) {
  std::vector<int64_t> scores = {3, 1, 0};
  DefaultNormalizeScore(kMaxNodeScore, false, scores);
  EXPECT_THAT(scores, ElementsAre(100, 33, 0));  // 100×1/3 = 33
}

TEST(DefaultNormalizeScoreTest, Reverse) {
  std::vector<int64_t> scores = {3, 1, 0};
  DefaultNormalizeScore(kMaxNodeScore, true, scores);
  EXPECT_THAT(scores, ElementsAre(0, 67, 100));  // 100 − 33 = 67
}

TEST(DefaultNormalizeScoreTest, AllZero) {
  std::vector<int64_t> scores = {0, 0, 0};
  DefaultNormalizeScore(kMaxNodeScore, false, scores);
  EXPECT_THAT(scores, ElementsAre(0, 0, 0));
  DefaultNormalizeScore(kMaxNodeScore, true, scores);
  EXPECT_THAT(scores, ElementsAre(100, 100, 100));
  std::vector<int64_t> empty;
  DefaultNormalizeScore(kMaxNodeScore, true, empty);
  EXPECT_TRUE(empty.empty());
}

}  // namespace
}  // namespace node_affinity_test
}  // namespace gpushare
