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
  ClassSelection c;
  c.tenant_class = "svc";
  c.profile = "custom";
  c.weights = w;
  spec.classes = {c};
  return spec;
}

TEST(SelectionTest, DimensionScoresByHand) {
  // 10 pods, 2 killed, 1 cannot run, performance 0.8, $2 per pod against
  // a cheapest $1; rated isolation 4, compatibility 5; the rating weighs
  // 0.3 against the measured harm.
  const DimensionScores s = ScoreDimensions(
      Metrics(10, 9, 2, 1, 0.8, 2.0), {4, 5}, /*lowest=*/1.0, /*prior=*/0.3,
      /*compatibility_prior=*/0.3);
  EXPECT_DOUBLE_EQ(s.isolation, 0.3 * 0.4 + 0.7 * (1 - 0.2));
  EXPECT_DOUBLE_EQ(s.overhead, 0.8);
  EXPECT_DOUBLE_EQ(s.compatibility, 0.3 * 0.5 + 0.7 * (1 - 0.1));
  EXPECT_DOUBLE_EQ(s.cost, 0.5);
}

TEST(SelectionTest, CostScoreEdges) {
  // Serving nothing scores 0 on cost however cheap; free serving scores 1.
  EXPECT_EQ(
      ScoreDimensions(Metrics(5, 0, 0, 5, 0, 0), {10, 10}, 1, 0.3, 1).cost, 0);
  EXPECT_EQ(
      ScoreDimensions(Metrics(5, 5, 0, 0, 1, 0), {10, 10}, 0, 0.3, 1).cost, 1);
}

TEST(SelectionTest, IsolationIsMeasuredHarmWithTheRatingAsPrior) {
  ClassMetrics m = Metrics(10, 10, 1, 0, 1, 1);
  m.neighbour_miss_share = 0.25;  // a quarter of its samples lost to others
  // Measured: (1 - 1/10) x (1 - 0.25) = 0.675.
  EXPECT_DOUBLE_EQ(ScoreDimensions(m, {2, 10}, 1, 0.3, 1).isolation,
                   0.3 * 0.2 + 0.7 * 0.675);
  // Prior weight 1: the rating alone; 0: the measurement alone.
  EXPECT_DOUBLE_EQ(ScoreDimensions(m, {2, 10}, 1, 1, 1).isolation, 0.2);
  EXPECT_DOUBLE_EQ(ScoreDimensions(m, {2, 10}, 1, 0, 1).isolation, 0.675);
  // No latency samples (-1): no neighbour term.
  m.neighbour_miss_share = -1;
  EXPECT_DOUBLE_EQ(ScoreDimensions(m, {2, 10}, 1, 0, 1).isolation, 0.9);
}

TEST(SelectionTest, HarmlessSchemeAtAThirdOfTheCostCanWinAProductionClass) {
  // sla-production weights (0.40/0.35/0.10/0.15). Exclusive (rated 10/10)
  // and vGPU (HAMi) (rated 6/8 by default) both meet the SLO with the same
  // performance; HAMi costs a third and harmed nobody. With the ratings
  // alone exclusive would win: 0.4 + 0.3325 + 0.1 + 0.05 = 8.8 against
  // HAMi's 0.24 + 0.3325 + 0.08 + 0.15 = 8.0. Measured: HAMi's isolation is
  // 0.3 x 0.6 + 0.7 = 0.88 and its compatibility 0.3 x 0.8 + 0.7 = 0.94:
  // 0.352 + 0.3325 + 0.094 + 0.15 = 9.285.
  const Comparison c = OneClass(
      {Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 0.95, 3.0)),
       Variant(SharingScheme::kHami, Metrics(10, 10, 0, 0, 0.95, 1.0))});
  SelectionSpec spec = WithWeights({0.40, 0.35, 0.10, 0.15});
  const Selection measured = Select(c, spec);
  EXPECT_EQ(measured.classes[0].ranking[0].variant, "hami");
  EXPECT_NEAR(measured.classes[0].ranking[0].total, 9.285, 1e-9);
  spec.isolation_prior_weight = 1;
  const Selection rated = Select(c, spec);
  EXPECT_EQ(rated.classes[0].ranking[0].variant, "exclusive");
  // Harm measured under HAMi takes the win back: 3 of 10 pods OOM-killed.
  const Comparison harmed = OneClass(
      {Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 0.95, 3.0)),
       Variant(SharingScheme::kHami, Metrics(10, 10, 3, 0, 0.95, 1.0))});
  EXPECT_EQ(Select(harmed, WithWeights({0.40, 0.35, 0.10, 0.15}))
                .classes[0]
                .ranking[0]
                .variant,
            "exclusive");
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
  // time-slicing = (0.5·(0.3·0.1 + 0.7·1) + 0.5·0.9)·10 = 8.15 (no harm
  // measured, the rating a prior of weight 0.3).
  const Selection iso = Select(c, WithWeights({1, 1, 0, 0}));
  ASSERT_EQ(iso.classes.size(), 1u);
  ASSERT_EQ(iso.classes[0].ranking.size(), 2u);
  EXPECT_EQ(iso.classes[0].ranking[0].variant, "mig");
  EXPECT_DOUBLE_EQ(iso.classes[0].ranking[0].total, 9.0);
  EXPECT_DOUBLE_EQ(iso.classes[0].ranking[1].total, 8.15);
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

// Issue 52: an answer drawn from 3 pods, or from jobs most of which were
// still running at the horizon, says so; enough finished pods say nothing.
TEST(SelectionTest, ThinEvidenceGetsCaveats) {
  ClassMetrics few = Metrics(3, 3, 0, 0, 0.9, 1.0);
  const Comparison c3 =
      OneClass({Variant(SharingScheme::kTimeSlicing, few),
                Variant(SharingScheme::kMig, Metrics(3, 3, 0, 0, 0.8, 1.0))});
  const ClassChoice a = Select(c3, WithWeights({1, 1, 0, 0})).classes[0];
  ASSERT_EQ(a.caveats.size(), 1u);
  EXPECT_EQ(a.caveats[0].rfind("3 pods: too few to decide", 0), 0u)
      << a.caveats[0];

  ClassMetrics long_jobs = Metrics(40, 40, 0, 0, 0.9, 1.0);
  long_jobs.jobs = 40;
  long_jobs.jobs_unfinished = 21;  // more than half
  const ClassChoice b =
      Select(OneClass({Variant(SharingScheme::kTimeSlicing, long_jobs)}),
             WithWeights({1, 1, 0, 0}))
          .classes[0];
  ASSERT_EQ(b.caveats.size(), 1u);
  EXPECT_EQ(b.caveats[0].rfind("21 of its 40 jobs were still running", 0), 0u)
      << b.caveats[0];

  long_jobs.jobs_unfinished = 20;  // exactly half: no caveat
  SelectionSpec spec = WithWeights({1, 1, 0, 0});
  EXPECT_TRUE(Select(OneClass({Variant(SharingScheme::kTimeSlicing,
                                       long_jobs)}),
                     spec)
                  .classes[0]
                  .caveats.empty());
  spec.min_pods_to_decide = 41;  // the threshold is the spec's
  EXPECT_EQ(Select(OneClass({Variant(SharingScheme::kTimeSlicing,
                                     long_jobs)}),
                   spec)
                .classes[0]
                .caveats.size(),
            1u);
}

TEST(SelectionTest, TiesKeepCompareOrder) {
  const ClassMetrics same = Metrics(4, 4, 0, 0, 1, 1);
  SelectionSpec spec = WithWeights({0, 1, 0, 0});
  const Selection s = Select(OneClass({Variant(SharingScheme::kHami, same),
                                       Variant(SharingScheme::kMps, same)}),
                             spec);
  EXPECT_EQ(s.classes[0].ranking[0].variant, "hami");
  EXPECT_EQ(s.classes[0].ranking[1].variant, "mps");
  // A tie is no win: too close to call, the runner-up its contender.
  EXPECT_FALSE(s.classes[0].decisive);
  EXPECT_EQ(s.classes[0].contender, "mps");
  EXPECT_EQ(s.classes[0].Recommendation(),
            "vGPU (HAMi) or MPS (too close to call)");
  EXPECT_NE(s.classes[0].explanation.find("too close to call between"),
            std::string::npos)
      << s.classes[0].explanation;
}

// A variant run on several seeds: performance per seed, cost 1.
VariantOutcome Seeded(SharingScheme scheme, std::vector<double> performance) {
  VariantOutcome v = Variant(scheme, Metrics(10, 10, 0, 0, 0, 1));
  std::vector<ClassMetrics> runs;
  for (double p : performance) {
    runs.push_back(Metrics(10, 10, 0, 0, p, 1));
    v.classes_by_seed.push_back({runs.back()});
  }
  v.classes = {MeanClassMetrics(runs)};
  return v;
}

TEST(SelectionTest, AWinMustHoldOnEverySeed) {
  SelectionSpec spec = WithWeights({0, 1, 0, 0});  // performance only
  // HAMi leads on the mean (0.8 vs 0.7) but MPS is ahead on the third seed.
  const Selection close =
      Select(OneClass({Seeded(SharingScheme::kHami, {0.9, 0.9, 0.6}),
                       Seeded(SharingScheme::kMps, {0.7, 0.7, 0.7})}),
             spec);
  const ClassChoice& c = close.classes[0];
  EXPECT_EQ(c.seeds, 3);
  EXPECT_EQ(c.ranking[0].variant, "hami");
  EXPECT_DOUBLE_EQ(c.ranking[0].total, 8.0);
  EXPECT_DOUBLE_EQ(c.ranking[0].total_min, 6.0);
  EXPECT_DOUBLE_EQ(c.ranking[0].total_max, 9.0);
  EXPECT_EQ(c.ranking[0].totals_by_seed.size(), 3u);
  EXPECT_TRUE(c.has_winner());
  EXPECT_FALSE(c.decisive);
  EXPECT_EQ(c.contender, "mps");
  EXPECT_EQ(c.contender_seeds, 1);
  EXPECT_NE(c.explanation.find("too close to call between vGPU (HAMi) 8.0 "
                               "(6.0-9.0) and MPS 7.0 (7.0-7.0) over 3 seeds"),
            std::string::npos)
      << c.explanation;
  // Ahead on every seed: decisive, the sentence gives the range.
  const Selection clear =
      Select(OneClass({Seeded(SharingScheme::kHami, {0.9, 0.9, 0.8}),
                       Seeded(SharingScheme::kMps, {0.7, 0.7, 0.7})}),
             spec);
  EXPECT_TRUE(clear.classes[0].decisive);
  EXPECT_EQ(clear.classes[0].Recommendation(), "vGPU (HAMi)");
  EXPECT_NE(clear.classes[0].explanation.find(
                "vGPU (HAMi) wins (8.7/10, 8.0-9.0 over 3 seeds) over MPS "
                "(7.0, 7.0-7.0)"),
            std::string::npos)
      << clear.classes[0].explanation;
  // Within the margin on one seed is not a clear win either.
  spec.decisive_margin = 1.5;
  EXPECT_FALSE(Select(OneClass({Seeded(SharingScheme::kHami, {0.9, 0.9, 0.8}),
                                Seeded(SharingScheme::kMps, {0.7, 0.7, 0.7})}),
                      spec)
                   .classes[0]
                   .decisive);
}

TEST(SelectionTest, SchemesThatMissTheSloAreNoContenders) {
  // MPS beats HAMi on one seed but misses the SLO: HAMi's win stands.
  VariantOutcome hami = Seeded(SharingScheme::kHami, {0.9, 0.6});
  VariantOutcome mps = Seeded(SharingScheme::kMps, {0.7, 0.7});
  for (auto& seed : mps.classes_by_seed) seed[0].slo_attainment = 0.5;
  mps.classes[0].slo_attainment = 0.5;
  const Selection s = Select(OneClass({hami, mps}), WithWeights({0, 1, 0, 0}));
  EXPECT_EQ(s.classes[0].ranking[0].variant, "hami");
  EXPECT_TRUE(s.classes[0].decisive);
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
  // Rated as time-slicing: isolation 0.3 x 1/10 + 0.7 x 1 (no harm).
  EXPECT_DOUBLE_EQ(s.classes[0].plan.total, 7.3);
}

TEST(SelectionTest, RatingsCanBeOverridden) {
  SelectionSpec spec = WithWeights({1, 0, 0, 0});
  spec.ratings[SharingScheme::kTimeSlicing] = {7, 10};
  const Selection s = Select(OneClass({Variant(SharingScheme::kTimeSlicing,
                                               Metrics(1, 1, 0, 0, 1, 1))}),
                             spec);
  // 0.3 x 7/10 + 0.7 x 1 (no harm measured).
  EXPECT_DOUBLE_EQ(s.classes[0].ranking[0].total, 9.1);
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
  // samples; time-slicing scores 8.15 and meets it in 100 %.
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
  EXPECT_DOUBLE_EQ(k.ranking[0].total, 8.15);
  EXPECT_EQ(k.ranking[1].variant, "mig");
  EXPECT_FALSE(k.ranking[1].meets_slo);
  EXPECT_DOUBLE_EQ(k.ranking[1].slo_attainment, 0.84);
  EXPECT_DOUBLE_EQ(k.ranking[1].total, 9.0);  // the score is kept
  EXPECT_NE(k.explanation.find("time-slicing wins"), std::string::npos)
      << k.explanation;
  EXPECT_NE(k.explanation.find("Not served well, so it cannot win: MIG: SLO "
                               "met in 84.0% of latency samples (target 99%)"),
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

TEST(SelectionTest, ClassOfferedNoSchemeIsNotScored) {
  // Two classes; the second asks for no GPU (an imported cluster's system
  // pods): every scheme "serves" it, none is ranked for it.
  VariantOutcome ts =
      Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.9, 1.0));
  VariantOutcome mig =
      Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 0.8, 1.25));
  ts.classes.push_back(Metrics(3, 3, 0, 0, 1, 0));
  mig.classes.push_back(Metrics(3, 3, 0, 0, 1, 0));
  Comparison c = OneClass({ts, mig});
  c.tenant_classes.push_back("system");
  c.workload_classes.push_back("inference");
  c.class_no_scheme = {"", "its pods run in system namespaces"};
  SelectionSpec spec = WithWeights({1, 1, 0, 0});
  const Selection s = Select(c, spec);
  ASSERT_EQ(s.classes.size(), 2u);
  EXPECT_EQ(s.classes[0].ranking.size(), 2u);
  EXPECT_TRUE(s.classes[0].has_winner());
  const ClassChoice& k = s.classes[1];
  EXPECT_EQ(k.tenant_class, "system");
  EXPECT_TRUE(k.ranking.empty());
  EXPECT_FALSE(k.has_winner());
  EXPECT_FALSE(k.has_plan);
  EXPECT_EQ(k.no_scheme, "its pods run in system namespaces");
  EXPECT_EQ(k.Recommendation(), "no GPU (no scheme)");
  EXPECT_EQ(k.explanation,
            "system: no scheme is ranked: its pods run in system namespaces.");
  // Without the mark it would be ranked like any class.
  c.class_no_scheme.clear();
  EXPECT_EQ(Select(c, spec).classes[1].ranking.size(), 2u);
}

TEST(SelectionTest, TrainingOomKilledUnderASchemeIsNotServedWell) {
  // The university pool, by hand: a training class of 69 pods. Time-slicing
  // totals more (cheaper, rated compatible) but OOM-kills 40 of them;
  // exclusive kills none. With no SLO, only the contract keeps time-slicing
  // from winning.
  ClassMetrics sliced = Metrics(69, 69, 40, 0, 0.6, 1.0);
  sliced.oom_kills = 40;
  ClassMetrics whole = Metrics(69, 69, 0, 0, 0.55, 3.0);
  Comparison c = OneClass({Variant(SharingScheme::kTimeSlicing, sliced),
                           Variant(SharingScheme::kExclusive, whole)});
  c.workload_classes = {"training"};
  SelectionSpec spec = WithWeights({0, 1, 1, 3});
  spec.classes[0].served_well = DefaultServedWell(WorkloadClass::kTraining);
  const ClassChoice k = Select(c, spec).classes[0];
  ASSERT_EQ(k.ranking.size(), 2u);
  EXPECT_EQ(k.ranking[0].variant, "exclusive");
  EXPECT_TRUE(k.ranking[0].served_well);
  EXPECT_FALSE(k.ranking[1].served_well);
  EXPECT_GT(k.ranking[1].total, k.ranking[0].total);  // the score is kept
  ASSERT_EQ(k.ranking[1].missed.size(), 1u);
  EXPECT_EQ(k.ranking[1].missed[0].constraint, "max_oom_kills");
  EXPECT_NE(k.explanation.find("Not served well, so it cannot win: "
                               "time-slicing: 40 OOM kills (limit 0)"),
            std::string::npos)
      << k.explanation;
  EXPECT_EQ(k.explanation.find("SLO"), std::string::npos) << k.explanation;
}

TEST(SelectionTest, WaitAndSlowdownBoundsAreLimitsOfTheContract) {
  // Training: exclusive waits 5,000 s (> 3,600); MIG runs them 2.3x slower
  // (<= 3x) after 100 s. MIG wins although exclusive totals more.
  ClassMetrics queued = Metrics(10, 10, 0, 0, 0.9, 1.0);
  queued.mean_wait_s = 5000;
  queued.mean_slowdown = 1.0;
  ClassMetrics sliced = Metrics(10, 10, 0, 0, 0.4, 1.5);
  sliced.mean_wait_s = 100;
  sliced.mean_slowdown = 2.3;
  Comparison c = OneClass({Variant(SharingScheme::kExclusive, queued),
                           Variant(SharingScheme::kMig, sliced)});
  c.workload_classes = {"training"};
  SelectionSpec spec = WithWeights({0, 1, 0, 1});
  spec.classes[0].served_well = DefaultServedWell(WorkloadClass::kTraining);
  ClassChoice k = Select(c, spec).classes[0];
  EXPECT_EQ(k.ranking[0].variant, "mig");
  EXPECT_EQ(k.ranking[1].missed[0].constraint, "max_mean_wait_s");
  // A slowdown over the class's own bound fails MIG too: nothing wins, and
  // the closest is the one that misses least relative to its limits.
  spec.classes[0].served_well.max_mean_slowdown = 2;
  k = Select(c, spec).classes[0];
  EXPECT_FALSE(k.has_winner());
  EXPECT_EQ(k.NoWinnerReason(), "none serves it well");
  EXPECT_NE(k.explanation.find("svc: no scheme wins: none serves it well; "
                               "closest: MIG, with slowdown 2.30x (limit "
                               "2x)."),
            std::string::npos)
      << k.explanation;
}

TEST(SelectionTest, LostWorkIsFurtherFromServedWellThanWaiting) {
  // Neither meets the contract: one OOM-kills a pod, the other waits ten
  // times too long. The closest is the one that loses no work.
  ClassMetrics killed = Metrics(10, 10, 1, 0, 0.9, 1.0);
  killed.oom_kills = 1;
  ClassMetrics waits = Metrics(10, 10, 0, 0, 0.5, 1.0);
  waits.mean_wait_s = 36000;
  Comparison c = OneClass({Variant(SharingScheme::kTimeSlicing, killed),
                           Variant(SharingScheme::kExclusive, waits)});
  c.workload_classes = {"training"};
  SelectionSpec spec = WithWeights({1, 1, 1, 1});
  spec.classes[0].served_well = DefaultServedWell(WorkloadClass::kTraining);
  const ClassChoice k = Select(c, spec).classes[0];
  EXPECT_FALSE(k.has_winner());
  EXPECT_NE(k.explanation.find("closest: exclusive, with mean wait 36000 s"),
            std::string::npos)
      << k.explanation;
}

// Ratings alone are not a win: with equal measurements exclusive leads on
// its isolation rating alone (10 x (0.3 + 0.7) = 10 against 10 x (0.3 x 0.1
// + 0.7) = 7.3), but both measure 7.0 with the priors left out: too close
// to call, the ratings named as what prefers exclusive.
TEST(SelectionTest, MeasuredTheSameIsTooCloseToCall) {
  const Comparison c = OneClass(
      {Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 0, 0, 0.9, 1.0))});
  const ClassChoice k = Select(c, WithWeights({1, 0, 0, 0})).classes[0];
  EXPECT_EQ(k.ranking[0].variant, "exclusive");
  EXPECT_DOUBLE_EQ(k.ranking[0].total, 10);
  EXPECT_NEAR(k.ranking[1].total, 7.3, 1e-9);
  ASSERT_EQ(k.ranking[0].measured_by_seed.size(), 1u);
  EXPECT_DOUBLE_EQ(k.ranking[0].measured_by_seed[0], 10);
  EXPECT_DOUBLE_EQ(k.ranking[1].measured_by_seed[0], 10);
  EXPECT_TRUE(MeasuredTheSame(k.ranking[0], k.ranking[1], 0.05));
  EXPECT_TRUE(k.has_winner());
  EXPECT_FALSE(k.decisive);
  EXPECT_TRUE(k.ratings_decide);
  EXPECT_EQ(k.contender, "time-slicing");
  EXPECT_EQ(k.Recommendation(),
            "exclusive or time-slicing (too close to call; ratings prefer "
            "exclusive)");
  EXPECT_NE(k.explanation.find(
                "svc: too close to call between exclusive 10.0 and "
                "time-slicing 7.3: measured the same (within 0.05 points on "
                "every seed with the ratings left out); only the ratings set "
                "them apart (ratings prefer exclusive)."),
            std::string::npos)
      << k.explanation;
  // One pod of ten killed under time-slicing: measured 10 vs 9, a win
  // measured in the run, the ratings named where they decided a dimension.
  const Comparison harmed = OneClass(
      {Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kTimeSlicing, Metrics(10, 10, 1, 0, 0.9, 1.0))});
  const ClassChoice h = Select(harmed, WithWeights({1, 0, 0, 0})).classes[0];
  EXPECT_TRUE(h.decisive);
  EXPECT_FALSE(h.ratings_decide);
  EXPECT_EQ(h.Recommendation(), "exclusive");
  EXPECT_NE(h.explanation.find("exclusive wins"), std::string::npos)
      << h.explanation;
  // Compatibility measured the same but cost measured apart by more than
  // the margin: the win is measured, and the sentence still says which
  // dimension the ratings decided.
  const Comparison cheaper = OneClass(
      {Variant(SharingScheme::kExclusive, Metrics(10, 10, 0, 0, 0.9, 1.0)),
       Variant(SharingScheme::kMig, Metrics(10, 10, 0, 0, 0.9, 1.1))});
  const ClassChoice d = Select(cheaper, WithWeights({0, 0, 1, 1})).classes[0];
  EXPECT_TRUE(d.decisive);
  EXPECT_NE(d.explanation.find("measured the same: the ratings decided it"),
            std::string::npos)
      << d.explanation;
}

TEST(SelectionTest, CompatibilityIsMeasuredReachWithTheRatingAsPrior) {
  // Rated 10 vs 5, but exclusive cannot run 3 of 10 pods and MIG runs all:
  // 0.3 x 1 + 0.7 x 0.7 = 0.79 against 0.3 x 0.5 + 0.7 x 1 = 0.85.
  const DimensionScores ex =
      ScoreDimensions(Metrics(10, 7, 0, 3, 1, 1), {10, 10}, 1, 0.3, 0.3);
  const DimensionScores mig =
      ScoreDimensions(Metrics(10, 10, 0, 0, 1, 1), {10, 5}, 1, 0.3, 0.3);
  EXPECT_DOUBLE_EQ(ex.compatibility, 0.3 + 0.7 * 0.7);
  EXPECT_DOUBLE_EQ(mig.compatibility, 0.15 + 0.7);
  EXPECT_GT(mig.compatibility, ex.compatibility);
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
