#include "gpushare/decide/selection.h"

#include <gtest/gtest.h>

namespace gpushare {
namespace selection_test {
namespace {

// A class metric with the fields the selection reads.
ClassMetrics Metrics(int64_t pods, int64_t served, int64_t killed,
                     int64_t cannot_run, double performance,
                     double cost_per_served_pod) {
  ClassMetrics m;
  m.pods = pods;
  m.served = served;
  m.killed = killed;
  m.cannot_run = cannot_run;
  m.performance = performance;
  m.cost_per_served_pod = cost_per_served_pod;
  return m;
}

VariantOutcome Variant(SharingScheme scheme, ClassMetrics m) {
  VariantOutcome v;
  v.name = std::string(SharingSchemeName(scheme));
  v.scheme = scheme;
  v.classes = {m};
  return v;
}

Comparison OneClass(std::vector<VariantOutcome> variants) {
  Comparison c;
  c.tenant_classes = {"svc"};
  c.workload_classes = {"inference"};
  c.variants = std::move(variants);
  return c;
}

SelectionSpec WithWeights(SelectionWeights w) {
  SelectionSpec spec;
  spec.classes = {{"svc", "custom", w}};
  return spec;
}

TEST(SelectionTest, DimensionScoresByHand) {
  // 10 pods, 2 killed, 1 cannot run, performance 0.8, $2 per pod against
  // a cheapest $1; MIG rated isolation 10, compatibility 5.
  const DimensionScores s =
      ScoreDimensions(Metrics(10, 9, 2, 1, 0.8, 2.0), {10, 5}, /*lowest=*/1.0);
  EXPECT_DOUBLE_EQ(s.isolation, 1.0 * (1 - 0.2));
  EXPECT_DOUBLE_EQ(s.overhead, 0.8);
  EXPECT_DOUBLE_EQ(s.compatibility, 0.5 * (1 - 0.1));
  EXPECT_DOUBLE_EQ(s.cost, 0.5);
}

TEST(SelectionTest, CostScoreEdges) {
  // Serving nothing scores 0 on cost however cheap; free serving scores 1.
  EXPECT_EQ(ScoreDimensions(Metrics(5, 0, 0, 5, 0, 0), {10, 10}, 1).cost, 0);
  EXPECT_EQ(ScoreDimensions(Metrics(5, 5, 0, 0, 1, 0), {10, 10}, 0).cost, 1);
}

TEST(SelectionTest, WeightedTotalByHand) {
  const DimensionScores s{0.8, 0.8, 0.45, 0.5};
  // (1·0.8 + 2·0.8 + 1·0.45 + 0·0.5) / 4 · 10 = 7.125
  EXPECT_DOUBLE_EQ(WeightedTotal(s, {1, 2, 1, 0}), 7.125);
  // Only ratios matter.
  EXPECT_DOUBLE_EQ(WeightedTotal(s, {10, 20, 10, 0}), 7.125);
}

TEST(SelectionTest, RanksWithRatingsAndMeasuredNumbers) {
  // Time-slicing is cheap and fast but rated 1 for isolation; MIG is rated
  // 10 and a little slower and dearer.
  const Comparison c = OneClass(
      {Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 0.8, 1.25))});
  // Isolation-heavy weights: MIG = (0.5·1 + 0.5·0.8)·10 = 9.0 and
  // time-slicing = (0.5·0.1 + 0.5·0.9)·10 = 5.0.
  const Selection iso = Select(c, WithWeights({1, 1, 0, 0}));
  ASSERT_EQ(iso.classes.size(), 1u);
  ASSERT_EQ(iso.classes[0].ranking.size(), 2u);
  EXPECT_EQ(iso.classes[0].ranking[0].variant, "mig");
  EXPECT_DOUBLE_EQ(iso.classes[0].ranking[0].total, 9.0);
  EXPECT_DOUBLE_EQ(iso.classes[0].ranking[1].total, 5.0);
  // Cost-only weights: time-slicing 10, MIG 1/1.25 = 8.
  const Selection cost = Select(c, WithWeights({0, 0, 0, 1}));
  EXPECT_EQ(cost.classes[0].ranking[0].variant, "time-slicing");
  EXPECT_DOUBLE_EQ(cost.classes[0].ranking[1].total, 8.0);
  // The weights changed the winner; the explanation names the dimension
  // and both schemes' numbers.
  EXPECT_NE(iso.classes[0].explanation.find("MIG wins"), std::string::npos)
      << iso.classes[0].explanation;
  EXPECT_NE(iso.classes[0].explanation.find("isolation"), std::string::npos)
      << iso.classes[0].explanation;
  EXPECT_NE(cost.classes[0].explanation.find("$1.00 vs $1.25"),
            std::string::npos)
      << cost.classes[0].explanation;
}

TEST(SelectionTest, ExplanationSaysWhatTheWinnerGivesUpAndCosts) {
  const Comparison c = OneClass(
      {Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 0.8, 1.25))});
  const std::string text =
      Select(c, WithWeights({1, 1, 0, 0})).classes[0].explanation;
  EXPECT_NE(text.find("gives up performance (0.80 vs 0.90"), std::string::npos)
      << text;
  EXPECT_NE(text.find("it costs $1.25 per served pod (cheapest: "
                      "time-slicing at $1.00)"),
            std::string::npos)
      << text;
}

TEST(SelectionTest, TiesKeepCompareOrder) {
  const ClassMetrics same = Metrics(4, 4, 0, 0, 1, 1);
  SelectionSpec spec = WithWeights({0, 1, 0, 0});
  const Selection s = Select(OneClass({Variant(SharingScheme::kHami, same),
                                       Variant(SharingScheme::kMps, same)}),
                             spec);
  EXPECT_EQ(s.classes[0].ranking[0].variant, "hami");
  EXPECT_EQ(s.classes[0].ranking[1].variant, "mps");
}

TEST(SelectionTest, PlanIsScoredWithItsClassSchemeButNotRanked) {
  VariantOutcome plan =
      Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 1.0, 1.0));
  plan.name = "plan";
  plan.plan = true;
  plan.class_schemes = {"time-slicing"};
  const Selection s = Select(
      OneClass(
          {Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 1, 1)), plan}),
      WithWeights({1, 0, 0, 0}));
  ASSERT_EQ(s.classes[0].ranking.size(), 1u);
  ASSERT_TRUE(s.classes[0].has_plan);
  EXPECT_EQ(s.classes[0].plan.scheme, "time-slicing");
  // Rated as time-slicing: isolation 1/10.
  EXPECT_DOUBLE_EQ(s.classes[0].plan.total, 1.0);
}

TEST(SelectionTest, RatingsCanBeOverridden) {
  SelectionSpec spec = WithWeights({1, 0, 0, 0});
  spec.ratings[SharingScheme::kTimeSlicing] = {7, 10};
  const Selection s = Select(OneClass({Variant(SharingScheme::kTimeSlicing,
                                               Metrics(1, 1, 0, 0, 1, 1))}),
                             spec);
  EXPECT_DOUBLE_EQ(s.classes[0].ranking[0].total, 7.0);
}

TEST(SelectionTest, ClassWithoutEntryGetsItsKindsProfile) {
  SelectionSpec spec;  // no classes: inference → sla-production
  const Selection s = Select(
      OneClass({Variant(SharingScheme::kMig, Metrics(1, 1, 0, 0, 1, 1))}),
      spec);
  EXPECT_EQ(s.classes[0].profile, "sla-production");
}

ClassMetrics WithSlo(ClassMetrics m, double attainment) {
  m.slo_attainment = attainment;
  return m;
}

TEST(SelectionTest, SchemeUnderTheSloTargetCannotWin) {
  // MIG scores 9.0 on isolation-heavy weights but meets the SLO in 84 % of
  // samples; time-slicing scores 5.0 and meets it in 100 %.
  const Comparison c =
      OneClass({Variant(SharingScheme::kTimeSlicing,
                        WithSlo(Metrics(10, 10, 0, 0, 0.9, 1.0), 1.0)),
                Variant(SharingScheme::kMig,
                        WithSlo(Metrics(10, 10, 0, 0, 0.8, 1.25), 0.84))});
  const ClassChoice k = Select(c, WithWeights({1, 1, 0, 0})).classes[0];
  ASSERT_EQ(k.ranking.size(), 2u);
  EXPECT_TRUE(k.has_winner());
  EXPECT_EQ(k.ranking[0].variant, "time-slicing");
  EXPECT_TRUE(k.ranking[0].meets_slo);
  EXPECT_DOUBLE_EQ(k.ranking[0].total, 5.0);
  EXPECT_EQ(k.ranking[1].variant, "mig");
  EXPECT_FALSE(k.ranking[1].meets_slo);
  EXPECT_DOUBLE_EQ(k.ranking[1].slo_attainment, 0.84);
  EXPECT_DOUBLE_EQ(k.ranking[1].total, 9.0);  // the score is kept
  EXPECT_NE(k.explanation.find("time-slicing wins"), std::string::npos)
      << k.explanation;
  EXPECT_NE(k.explanation.find("MIG misses the SLO target (99% of latency "
                               "samples; MIG 84.0%) and cannot win"),
            std::string::npos)
      << k.explanation;
}

TEST(SelectionTest, TargetIsInclusiveAndOverriddenPerClass) {
  const Comparison c =
      OneClass({Variant(SharingScheme::kTimeSlicing,
                        WithSlo(Metrics(10, 10, 0, 0, 0.9, 1.0), 1.0)),
                Variant(SharingScheme::kMig,
                        WithSlo(Metrics(10, 10, 0, 0, 0.8, 1.25), 0.99))});
  // Exactly at the default target: MIG meets it and wins on isolation.
  EXPECT_EQ(Select(c, WithWeights({1, 1, 0, 0})).classes[0].ranking[0].variant,
            "mig");
  // A scenario-wide target of 0.995 or the class's own makes it lose.
  SelectionSpec wide = WithWeights({1, 1, 0, 0});
  wide.min_slo_attainment = 0.995;
  EXPECT_EQ(Select(c, wide).classes[0].ranking[0].variant, "time-slicing");
  SelectionSpec own = WithWeights({1, 1, 0, 0});
  own.classes[0].min_slo_attainment = 0.995;
  const ClassChoice k = Select(c, own).classes[0];
  EXPECT_DOUBLE_EQ(k.min_slo_attainment, 0.995);
  EXPECT_EQ(k.ranking[0].variant, "time-slicing");
  // A lax class target lets it win again whatever the scenario-wide one.
  own.min_slo_attainment = 0.999;
  own.classes[0].min_slo_attainment = 0.5;
  EXPECT_EQ(Select(c, own).classes[0].ranking[0].variant, "mig");
}

TEST(SelectionTest, NoSchemeMeetsTheSloNoWinner) {
  const Comparison c =
      OneClass({Variant(SharingScheme::kHami,
                        WithSlo(Metrics(10, 10, 0, 0, 0.9, 1.0), 0.972)),
                Variant(SharingScheme::kMig,
                        WithSlo(Metrics(10, 10, 0, 0, 0.8, 1.25), 0.84))});
  const ClassChoice k = Select(c, WithWeights({1, 1, 0, 0})).classes[0];
  EXPECT_FALSE(k.has_winner());
  // Still ranked by total (MIG 9.0 first), but nothing wins.
  EXPECT_EQ(k.ranking[0].variant, "mig");
  EXPECT_EQ(k.explanation.find("wins ("), std::string::npos) << k.explanation;
  EXPECT_NE(k.explanation.find("svc: no scheme wins: none meets its SLO "
                               "target"),
            std::string::npos)
      << k.explanation;
  EXPECT_NE(k.explanation.find("closest: vGPU (HAMi) at 97.2%"),
            std::string::npos)
      << k.explanation;
}

TEST(SelectionTest, SchemeThatServedNothingCannotWin) {
  // MIG would total more (isolation 10) but served none of the class's pods:
  // it ranks below time-slicing, which served them.
  const Comparison c = OneClass(
      {Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.5, 1.0)),
       Variant(SharingScheme::kMig, Metrics(10, 0, 0, 10, 0, 0))});
  const ClassChoice k = Select(c, WithWeights({1, 0, 0, 0})).classes[0];
  ASSERT_EQ(k.ranking.size(), 2u);
  EXPECT_EQ(k.ranking[0].variant, "time-slicing");
  EXPECT_FALSE(k.ranking[1].serves);
  EXPECT_TRUE(k.has_winner());
  EXPECT_EQ(k.NoWinnerReason(), "");
}

TEST(SelectionTest, NoSchemeServedTheClassNoWinner) {
  ClassMetrics none = Metrics(10, 0, 0, 6, 0, 0);
  none.pending = 4;
  const Comparison c =
      OneClass({Variant(SharingScheme::kExclusive, none),
                Variant(SharingScheme::kMig, Metrics(10, 0, 0, 10, 0, 0))});
  const ClassChoice k = Select(c, WithWeights({1, 1, 1, 1})).classes[0];
  EXPECT_FALSE(k.has_winner());
  EXPECT_EQ(k.NoWinnerReason(), "no scheme serves it");
  EXPECT_EQ(k.explanation.find("$"), std::string::npos) << k.explanation;
  EXPECT_NE(k.explanation.find("svc: no scheme wins: none served any of its "
                               "10 pods (under "),
            std::string::npos)
      << k.explanation;
  EXPECT_NE(k.explanation.find("6 cannot run, 4 never started by the horizon"),
            std::string::npos)
      << k.explanation;
}

TEST(SelectionTest, SchemeItsPoolsCouldNotApplyIsNotRanked) {
  // The MIG run's pools had no MIG: the class ran exclusive there.
  VariantOutcome mig =
      Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 1, 1));
  mig.class_schemes = {"exclusive"};
  VariantOutcome hami =
      Variant(SharingScheme::kHami, Metrics(10, 10, 0, 0, 0.9, 1));
  hami.class_schemes = {"hami"};
  const ClassChoice k =
      Select(OneClass({mig, hami}), WithWeights({1, 1, 1, 1})).classes[0];
  ASSERT_EQ(k.ranking.size(), 1u);
  EXPECT_EQ(k.ranking[0].variant, "hami");
  ASSERT_EQ(k.not_ranked.size(), 1u);
  EXPECT_EQ(k.not_ranked[0],
            "MIG: not ranked: its run put this class's pods under exclusive");
}

TEST(SelectionTest, ClassesWithoutSloSamplesAreNotConstrained) {
  // slo_attainment -1 (no latency samples) under both schemes.
  const Comparison c = OneClass(
      {Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 0.8, 1.25))});
  SelectionSpec spec = WithWeights({1, 1, 0, 0});
  spec.min_slo_attainment = 1.0;
  const ClassChoice k = Select(c, spec).classes[0];
  EXPECT_TRUE(k.has_winner());
  EXPECT_EQ(k.ranking[0].variant, "mig");
  EXPECT_TRUE(k.ranking[1].meets_slo);
  EXPECT_EQ(k.explanation.find("SLO target"), std::string::npos);
}

TEST(SelectionWeightsTest, Problems) {
  EXPECT_EQ(SelectionWeights({1, 0, 0, 0}).Problem(), "");
  EXPECT_EQ(SelectionWeights({0, 0, 0, 0}).Problem(),
            "weights must not all be 0");
  EXPECT_EQ(SelectionWeights({1, -1, 0, 0}).Problem(),
            "weights must not be negative");
}

TEST(SelectionWeightsTest, BuiltinProfilesAreValidAndDistinct) {
  const auto& profiles = BuiltinWeightProfiles();
  ASSERT_EQ(profiles.size(), 3u);
  for (const WeightProfile& p : profiles) {
    EXPECT_EQ(p.weights.Problem(), "") << p.name;
  }
  // SLA-bound production weighs isolation most, research-dev cost most.
  EXPECT_EQ(profiles[1].name, "sla-production");
  EXPECT_GT(profiles[1].weights.isolation, profiles[1].weights.cost);
  EXPECT_EQ(profiles[0].name, "research-dev");
  EXPECT_GT(profiles[0].weights.cost, profiles[0].weights.isolation);
}

}  // namespace
}  // namespace selection_test
}  // namespace gpushare
