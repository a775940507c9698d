// Node selector requirements, terms and tolerations with Kubernetes v1
// semantics (k8s.io/api core/v1 NodeSelectorRequirement, NodeSelectorTerm,
// Toleration), and the workload class names.

#include "gpushare/workload/pod.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace gpushare {
namespace pod_test {
namespace {

using Op = NodeSelectorRequirement::Operator;

NodeSelectorRequirement Req(std::string key, Op op,
                            std::vector<std::string> values = {}) {
  NodeSelectorRequirement r;
  r.key = std::move(key);
  r.op = op;
  r.values = std::move(values);
  return r;
}

Labels NodeLabels() {
  return {{"gpu", "a100"},
          {"gpus", "8"},
          {"zone", "eu-1"},
          {"neg", "-3"},
          {"empty", ""}};
}

TEST(MatchesTest, In) {
  const Labels l = NodeLabels();
  EXPECT_TRUE(Matches(Req("gpu", Op::kIn, {"h100", "a100"}), l));
  EXPECT_FALSE(Matches(Req("gpu", Op::kIn, {"h100"}), l));
  EXPECT_FALSE(Matches(Req("missing", Op::kIn, {"a100"}), l));
  EXPECT_FALSE(Matches(Req("gpu", Op::kIn, {}), l));
  // Values compare exactly (case-sensitive).
  EXPECT_FALSE(Matches(Req("gpu", Op::kIn, {"A100"}), l));
  EXPECT_TRUE(Matches(Req("empty", Op::kIn, {""}), l));
}

TEST(MatchesTest, NotIn) {
  const Labels l = NodeLabels();
  EXPECT_FALSE(Matches(Req("gpu", Op::kNotIn, {"h100", "a100"}), l));
  EXPECT_TRUE(Matches(Req("gpu", Op::kNotIn, {"h100"}), l));
  // A missing key satisfies NotIn.
  EXPECT_TRUE(Matches(Req("missing", Op::kNotIn, {"a100"}), l));
}

TEST(MatchesTest, ExistsAndDoesNotExist) {
  const Labels l = NodeLabels();
  EXPECT_TRUE(Matches(Req("zone", Op::kExists), l));
  EXPECT_TRUE(Matches(Req("empty", Op::kExists), l));
  EXPECT_FALSE(Matches(Req("missing", Op::kExists), l));
  EXPECT_FALSE(Matches(Req("zone", Op::kDoesNotExist), l));
  EXPECT_TRUE(Matches(Req("missing", Op::kDoesNotExist), l));
}

// Gt and Lt compare the label and the single value as integers.
TEST(MatchesTest, GtAndLt) {
  const Labels l = NodeLabels();
  EXPECT_TRUE(Matches(Req("gpus", Op::kGt, {"4"}), l));
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"8"}), l));  // strict
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"16"}), l));
  EXPECT_TRUE(Matches(Req("gpus", Op::kLt, {"16"}), l));
  EXPECT_FALSE(Matches(Req("gpus", Op::kLt, {"8"}), l));
  // Integers, not strings: "8" > "10" as text but not as numbers.
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"10"}), l));
  EXPECT_TRUE(Matches(Req("neg", Op::kLt, {"0"}), l));
  EXPECT_TRUE(Matches(Req("neg", Op::kGt, {"-4"}), l));
}

TEST(MatchesTest, GtAndLtNeedIntegers) {
  const Labels l = NodeLabels();
  // A non-integer label never matches.
  EXPECT_FALSE(Matches(Req("gpu", Op::kGt, {"1"}), l));
  EXPECT_FALSE(Matches(Req("gpu", Op::kLt, {"1"}), l));
  EXPECT_FALSE(Matches(Req("empty", Op::kGt, {"-1"}), l));
  EXPECT_FALSE(Matches(Req("empty", Op::kLt, {"1"}), l));
  // Nor a non-integer bound, or a missing key, or not exactly one value.
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"four"}), l));
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"4.5"}), l));
  EXPECT_FALSE(Matches(Req("missing", Op::kGt, {"1"}), l));
  EXPECT_FALSE(Matches(Req("missing", Op::kLt, {"1"}), l));
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {}), l));
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"1", "2"}), l));
  Labels partial = l;
  partial["gpus"] = "8x";
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"1"}), partial));
  partial["gpus"] = " 8";
  EXPECT_FALSE(Matches(Req("gpus", Op::kGt, {"1"}), partial));
}

// Requirements of a term are ANDed; an empty term matches no objects.
TEST(MatchesTest, Terms) {
  const Labels l = NodeLabels();
  NodeSelectorTerm empty;
  EXPECT_FALSE(Matches(empty, l));
  EXPECT_FALSE(Matches(empty, Labels{}));

  NodeSelectorTerm both;
  both.match_expressions = {Req("gpu", Op::kIn, {"a100"}),
                            Req("gpus", Op::kGt, {"4"})};
  EXPECT_TRUE(Matches(both, l));
  both.match_expressions.push_back(Req("zone", Op::kDoesNotExist));
  EXPECT_FALSE(Matches(both, l));
}

Taint MakeTaint(std::string key, std::string value, TaintEffect effect) {
  return Taint{std::move(key), std::move(value), effect};
}

Toleration MakeToleration(std::string key, Toleration::Operator op,
                          std::string value = "") {
  Toleration t;
  t.key = std::move(key);
  t.op = op;
  t.value = std::move(value);
  return t;
}

TEST(TolerationTest, Equal) {
  const Taint taint =
      MakeTaint("nvidia.com/gpu", "present", TaintEffect::kNoSchedule);
  EXPECT_TRUE(
      MakeToleration("nvidia.com/gpu", Toleration::Operator::kEqual, "present")
          .Tolerates(taint));
  EXPECT_FALSE(
      MakeToleration("nvidia.com/gpu", Toleration::Operator::kEqual, "absent")
          .Tolerates(taint));
  EXPECT_FALSE(MakeToleration("other", Toleration::Operator::kEqual, "present")
                   .Tolerates(taint));
  // Equal with an empty value matches a taint with an empty value.
  EXPECT_TRUE(
      MakeToleration("dedicated", Toleration::Operator::kEqual)
          .Tolerates(MakeTaint("dedicated", "", TaintEffect::kNoExecute)));
}

TEST(TolerationTest, ExistsIgnoresTheValue) {
  const Toleration t =
      MakeToleration("nvidia.com/gpu", Toleration::Operator::kExists);
  EXPECT_TRUE(
      t.Tolerates(MakeTaint("nvidia.com/gpu", "x", TaintEffect::kNoSchedule)));
  EXPECT_TRUE(
      t.Tolerates(MakeTaint("nvidia.com/gpu", "", TaintEffect::kNoExecute)));
  EXPECT_FALSE(t.Tolerates(MakeTaint("other", "x", TaintEffect::kNoSchedule)));
}

// An empty key with operator Exists matches all keys, values and effects.
TEST(TolerationTest, EmptyKeyExistsToleratesEverything) {
  const Toleration all = MakeToleration("", Toleration::Operator::kExists);
  for (TaintEffect e :
       {TaintEffect::kNoSchedule, TaintEffect::kPreferNoSchedule,
        TaintEffect::kNoExecute}) {
    EXPECT_TRUE(all.Tolerates(MakeTaint("any", "thing", e)));
    EXPECT_TRUE(all.Tolerates(MakeTaint("", "", e)));
  }
}

// An empty effect matches every effect; a set one only its own.
TEST(TolerationTest, EffectFiltering) {
  Toleration t = MakeToleration("k", Toleration::Operator::kExists);
  ASSERT_TRUE(t.any_effect);  // the default: empty effect
  EXPECT_TRUE(t.Tolerates(MakeTaint("k", "v", TaintEffect::kNoExecute)));
  t.any_effect = false;
  t.effect = TaintEffect::kNoSchedule;
  EXPECT_TRUE(t.Tolerates(MakeTaint("k", "v", TaintEffect::kNoSchedule)));
  EXPECT_FALSE(t.Tolerates(MakeTaint("k", "v", TaintEffect::kNoExecute)));
  EXPECT_FALSE(
      t.Tolerates(MakeTaint("k", "v", TaintEffect::kPreferNoSchedule)));
  // Effect filtering applies to the wildcard too.
  Toleration wildcard = MakeToleration("", Toleration::Operator::kExists);
  wildcard.any_effect = false;
  wildcard.effect = TaintEffect::kNoExecute;
  EXPECT_TRUE(wildcard.Tolerates(MakeTaint("a", "b", TaintEffect::kNoExecute)));
  EXPECT_FALSE(
      wildcard.Tolerates(MakeTaint("a", "b", TaintEffect::kNoSchedule)));
}

TEST(WorkloadClassTest, ParseAndName) {
  WorkloadClass c = WorkloadClass::kBatch;
  ASSERT_TRUE(ParseWorkloadClass("training", &c));
  EXPECT_EQ(c, WorkloadClass::kTraining);
  ASSERT_TRUE(ParseWorkloadClass("inference", &c));
  EXPECT_EQ(c, WorkloadClass::kInference);
  ASSERT_TRUE(ParseWorkloadClass("dev", &c));
  EXPECT_EQ(c, WorkloadClass::kDev);
  ASSERT_TRUE(ParseWorkloadClass("batch", &c));
  EXPECT_EQ(c, WorkloadClass::kBatch);

  c = WorkloadClass::kDev;
  EXPECT_FALSE(ParseWorkloadClass("", &c));
  EXPECT_FALSE(ParseWorkloadClass("Training", &c));
  EXPECT_FALSE(ParseWorkloadClass("serving", &c));
  EXPECT_EQ(c, WorkloadClass::kDev);  // untouched on failure

  for (WorkloadClass k : {WorkloadClass::kTraining, WorkloadClass::kInference,
                          WorkloadClass::kBatch, WorkloadClass::kDev}) {
    WorkloadClass parsed = WorkloadClass::kBatch;
    ASSERT_TRUE(ParseWorkloadClass(WorkloadClassName(k), &parsed));
    EXPECT_EQ(parsed, k);
  }
}

TEST(PodTest, Defaults) {
  const Pod pod;
  EXPECT_EQ(pod.namespace_name, "default");
  EXPECT_EQ(pod.workload_class, WorkloadClass::kBatch);
  EXPECT_EQ(pod.needs.gpus, 0);
  EXPECT_EQ(pod.needs.sm_demand, 1.0);
  EXPECT_EQ(pod.needs.duty, 1.0);
  EXPECT_TRUE(pod.requests.empty());
}

}  // namespace
}  // namespace pod_test
}  // namespace gpushare
