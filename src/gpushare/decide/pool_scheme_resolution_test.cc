#include "gpushare/decide/pool_scheme_resolution.h"

#include <gtest/gtest.h>

#include "gpushare/base/lifetimebound.h"

namespace gpushare {
namespace pool_scheme_resolution_test {
namespace {

// Pools "a" (MIG-capable, written MIG), "b" (no MIG, written
// time-slicing), "cpu" (no GPUs) and "idle" (GPUs, no pods routed).
// Classes: inf routes 30 pods to a, train 10 to a, dev 20 to b.
VariantOutcome Variant(SharingScheme scheme) {
  VariantOutcome v;
  v.name = std::string(SharingSchemeName(scheme));
  v.scheme = scheme;
  const std::string name(SharingSchemeName(scheme));
  // MIG on b's GPUs falls back to exclusive.
  const std::string on_b =
      scheme == SharingScheme::kMig ? std::string("exclusive") : name;
  for (const auto& [pool, run_as] :
       {std::pair<std::string, std::string>{"a", name},
        {"b", on_b},
        {"idle", name}}) {
    PoolSummary p;
    p.name = pool;
    p.scheme = run_as;
    p.gpus = 4;
    v.pool_summaries.push_back(p);
  }
  v.class_routed_pods = {{30, 0, 0, 0}, {10, 0, 0, 0}, {0, 20, 0, 0}};
  return v;
}

Comparison ThreePools() {
  Comparison c;
  c.tenant_classes = {"inf", "train", "dev"};
  c.workload_classes = {"inference", "training", "dev"};
  c.pools = {"a", "b", "cpu", "idle"};
  c.pool_schemes = {"mig", "time-slicing", "", "exclusive"};
  c.seeds = {1};
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kMig, SharingScheme::kHami}) {
    c.variants.push_back(Variant(s));
  }
  return c;
}

SchemeScore Score(const std::string& variant, double total,
                  bool meets_slo = true, bool serves = true) {
  SchemeScore s;
  s.variant = variant;
  s.scheme = variant;
  s.total = total;
  s.meets_slo = meets_slo;
  s.serves = serves;
  s.served_well = meets_slo;  // the SLO is part of the contract
  s.measured_by_seed = {total};  // no rating in it unless a test says so
  return s;
}

ClassChoice Choice(const std::string& name, std::vector<SchemeScore> ranking) {
  ClassChoice c;
  c.tenant_class = name;
  c.ranking = std::move(ranking);
  return c;
}

// The choice for pool `name`, a reference into `plan`: call it on a plan
// that outlives the reference (the rvalue overload is deleted for that).
const PoolSchemeChoice& Pool(const PoolSchemePlan& plan GS_LIFETIMEBOUND,
                             const std::string& name) {
  for (const PoolSchemeChoice& p : plan.pools) {
    if (p.pool == name) return p;
  }
  ADD_FAILURE() << "no pool " << name;
  return plan.pools.front();
}
const PoolSchemeChoice& Pool(PoolSchemePlan&& plan,
                             const std::string& name) = delete;

TEST(ResolvePoolSchemesTest, ConflictGoesToTheSchemeServingMostPodsWithinSlo) {
  // inf wins MIG and misses its SLO under exclusive and HAMi; train wins
  // exclusive but MIG serves it too. On pool a, MIG keeps all 40 pods
  // within SLO, exclusive only train's 10.
  Selection s;
  s.classes = {Choice("inf", {Score("mig", 8), Score("exclusive", 9, false),
                              Score("hami", 7, false)}),
               Choice("train", {Score("exclusive", 9), Score("mig", 5),
                                Score("hami", 4)}),
               Choice("dev", {Score("hami", 9), Score("exclusive", 6)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "mig");
  EXPECT_EQ(a.written, "mig");
  EXPECT_TRUE(a.conflict);
  EXPECT_EQ(a.pods, 40);
  EXPECT_EQ(a.pods_ok, 40);
  EXPECT_DOUBLE_EQ(a.score, (30 * 8 + 10 * 5) / 40.0);
  ASSERT_EQ(a.classes.size(), 2u);
  EXPECT_EQ(a.classes[0].tenant_class, "inf");
  EXPECT_EQ(a.classes[0].winner, "mig");
  EXPECT_EQ(a.classes[1].winner, "exclusive");
  EXPECT_TRUE(plan.conflict);
  // b: dev's winner; MIG is no candidate there (its run left b exclusive).
  const PoolSchemeChoice& b = Pool(plan, "b");
  EXPECT_EQ(b.variant, "hami");
  EXPECT_FALSE(b.conflict);
  // Pools without GPUs are left out; one without pods keeps its scheme.
  for (const PoolSchemeChoice& p : plan.pools) EXPECT_NE(p.pool, "cpu");
  const PoolSchemeChoice& idle = Pool(plan, "idle");
  EXPECT_EQ(idle.variant, "");
  EXPECT_EQ(idle.written, "exclusive");
  // Two schemes on pools with pods: a mix to run, one run per seed.
  EXPECT_EQ(plan.same_as, "");
  EXPECT_EQ(PoolSchemePlanRunCount(plan, ThreePools()), 1);
}

TEST(ResolvePoolSchemesTest, EqualPodsWithinSloGoToTheBestPodWeightedScore) {
  // Both classes on a are within SLO under exclusive and HAMi: 30 pods of
  // inf outweigh 10 of train.
  Selection s;
  s.classes = {Choice("inf", {Score("hami", 8), Score("exclusive", 6),
                              Score("mig", 5, false)}),
               Choice("train", {Score("exclusive", 9), Score("hami", 7),
                                Score("mig", 4)}),
               Choice("dev", {Score("hami", 9), Score("exclusive", 6)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "hami");  // (30x8 + 10x7)/40 = 7.75 > 6.75
  EXPECT_DOUBLE_EQ(a.score, 7.75);
  EXPECT_EQ(a.pods_ok, 40);
  EXPECT_TRUE(a.conflict);
  // Every pool with pods under HAMi: that uniform run is the plan's.
  EXPECT_EQ(plan.same_as, "hami");
  EXPECT_EQ(PoolSchemePlanRunCount(plan, ThreePools()), 0);
}

TEST(ResolvePoolSchemesTest, AgreeingClassesGetTheirWinnerWithoutConflict) {
  Selection s;
  s.classes = {Choice("inf", {Score("exclusive", 8), Score("hami", 7.9)}),
               Choice("train", {Score("exclusive", 9), Score("hami", 3)}),
               Choice("dev", {Score("exclusive", 9), Score("hami", 8)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  EXPECT_FALSE(plan.conflict);
  EXPECT_EQ(Pool(plan, "a").variant, "exclusive");
  EXPECT_EQ(Pool(plan, "b").variant, "exclusive");
  EXPECT_EQ(plan.same_as, "exclusive");
}

TEST(ResolvePoolSchemesTest, ClassesWithoutWinnerDoNotConflict) {
  // train is served by no scheme: it has no winner and no pods served
  // well, every scheme strands its 10 pods alike, and the pool follows inf.
  Selection s;
  s.classes = {Choice("inf", {Score("hami", 8), Score("exclusive", 6)}),
               Choice("train", {Score("exclusive", 0, true, false),
                                Score("hami", 0, true, false),
                                Score("mig", 0, true, false)}),
               Choice("dev", {Score("hami", 9)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "hami");
  EXPECT_FALSE(a.conflict);
  EXPECT_EQ(a.classes[1].winner, "");
  EXPECT_EQ(a.pods_ok, 30);
  EXPECT_EQ(a.pods_stranded, 10);
}

TEST(ResolvePoolSchemesTest, StrandingAClassLosesToServingItBadly) {
  // On pool a, HAMi serves inf's 30 pods well but cannot run train's 10 at
  // all; exclusive serves both, neither well. Stranded work weighs first.
  SchemeScore stranded = Score("hami", 0, true, false);
  SchemeScore slow = Score("exclusive", 5, false);
  Selection s;
  s.classes = {Choice("inf", {Score("hami", 8), Score("exclusive", 6, false)}),
               Choice("train", {slow, stranded}),
               Choice("dev", {Score("hami", 9)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "exclusive");
  EXPECT_EQ(a.pods_stranded, 0);
  EXPECT_EQ(a.pods_ok, 0);
}

TEST(ResolvePoolSchemesTest, LostWorkWeighsBeforePodsServedWell) {
  // Pool a: 30 inf pods and 10 train pods. HAMi serves inf well but
  // OOM-kills train's jobs; exclusive serves train well and inf poorly.
  // HAMi has more pods served well (30 vs 10), but it throws work away.
  SchemeScore oom = Score("hami", 9, true);
  oom.served_well = false;
  oom.missed = {{"train", "max_oom_kills", 40, 0, -40}};
  Selection s;
  s.classes = {
      Choice("inf", {Score("hami", 8), Score("exclusive", 6, false)}),
      Choice("train", {Score("exclusive", 7), oom}),
      Choice("dev", {Score("hami", 9)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "exclusive");
  EXPECT_EQ(a.pods_losing_work, 0);
  EXPECT_EQ(a.pods_ok, 10);
}

TEST(ResolvePoolSchemesTest, TooCloseToCallAcceptsEitherScheme) {
  // inf is too close to call between HAMi and exclusive; train wins
  // exclusive: no conflict, and the class line names both.
  ClassChoice inf = Choice("inf", {Score("hami", 8), Score("exclusive", 7.98)});
  inf.decisive = false;
  inf.contender = "exclusive";
  Selection s;
  s.classes = {inf, Choice("train", {Score("exclusive", 9), Score("hami", 3)}),
               Choice("dev", {Score("hami", 9)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(ThreePools(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_FALSE(a.conflict);
  EXPECT_EQ(a.classes[0].winner, "hami");
  EXPECT_EQ(a.classes[0].contender, "exclusive");
}

TEST(ResolvePoolSchemesTest, ClassesOfferedNoSchemeDoNotCount) {
  // System pods (no GPU requests) on pool a: not routed classes of the pool.
  Comparison c = ThreePools();
  c.tenant_classes.push_back("system");
  for (VariantOutcome& v : c.variants) {
    v.class_routed_pods.push_back({50, 0, 0, 0});
  }
  Selection s;
  s.classes = {Choice("inf", {Score("hami", 8), Score("exclusive", 6)}),
               Choice("train", {Score("hami", 7), Score("exclusive", 9)}),
               Choice("dev", {Score("hami", 9)}), Choice("system", {})};
  s.classes.back().no_scheme = "its pods run in system namespaces";
  const PoolSchemePlan plan = ResolvePoolSchemes(c, s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.pods, 40);
  ASSERT_EQ(a.classes.size(), 2u);
  EXPECT_EQ(a.classes[1].tenant_class, "train");
}

// Issue 54: an A30-like pool written MIG whose classes measure the same
// under MIG and time-slicing; time-slicing scores higher on its ratings
// alone. Ties keep the written scheme: the pool stays MIG and says so.
Comparison WithTimeSlicing() {
  Comparison c = ThreePools();
  c.variants.push_back(Variant(SharingScheme::kTimeSlicing));
  return c;
}

SchemeScore Measured(const std::string& variant, double total,
                     double measured) {
  SchemeScore s = Score(variant, total);
  s.measured_by_seed = {measured};
  return s;
}

TEST(ResolvePoolSchemesTest, IdenticalMeasurementsKeepTheWrittenScheme) {
  Selection s;
  s.decisive_margin = 0.05;
  s.classes = {
      Choice("inf", {Measured("time-slicing", 8.0, 7.0),
                     Measured("mig", 7.6, 7.0)}),
      Choice("train", {Measured("time-slicing", 7.9, 6.0),
                       Measured("mig", 7.5, 6.04)}),
      Choice("dev", {Score("hami", 9)})};
  // Without the tie rule time-slicing would win a on its pod-weighted score
  // (7.975 vs 7.575), its ratings' doing: measured 6.75 vs 6.76.
  const PoolSchemePlan plan = ResolvePoolSchemes(WithTimeSlicing(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "mig");
  EXPECT_EQ(a.written, "mig");
  EXPECT_EQ(a.kept_over, "time-slicing");
  EXPECT_DOUBLE_EQ(a.kept_over_measured, (30 * 7.0 + 10 * 6.0) / 40);
  EXPECT_EQ(a.buys, "");
  EXPECT_DOUBLE_EQ(a.measured, (30 * 7.0 + 10 * 6.04) / 40);
  EXPECT_DOUBLE_EQ(a.score, (30 * 7.6 + 10 * 7.5) / 40);
  // Measured better by more than the margin: the change is made and says
  // what it buys.
  s.classes[1].ranking[0].measured_by_seed = {6.5};
  const PoolSchemePlan changed = ResolvePoolSchemes(WithTimeSlicing(), s);
  const PoolSchemeChoice& b = Pool(changed, "a");
  EXPECT_EQ(b.variant, "time-slicing");
  EXPECT_EQ(b.kept_over, "");
  EXPECT_EQ(b.buys,
            "a measured score of 6.9 vs 6.8 (average over its pods, ratings "
            "left out)");
}

TEST(ResolvePoolSchemesTest, AChangeSaysWhatItBuys) {
  // MIG, as written, does not serve train well; time-slicing serves all 40.
  SchemeScore poorly = Measured("mig", 7.5, 7.5);
  poorly.served_well = false;
  Selection s;
  s.classes = {Choice("inf", {Measured("time-slicing", 8.0, 7.0),
                              Measured("mig", 7.6, 7.0)}),
               Choice("train", {Measured("time-slicing", 7.9, 6.0), poorly}),
               Choice("dev", {Score("hami", 9)})};
  const PoolSchemePlan plan = ResolvePoolSchemes(WithTimeSlicing(), s);
  const PoolSchemeChoice& a = Pool(plan, "a");
  EXPECT_EQ(a.variant, "time-slicing");
  EXPECT_EQ(a.buys, "10 more pods of this pool in classes it serves well");
  // b, written time-slicing, goes to dev's winner: HAMi serves its 20 pods
  // well.
  EXPECT_EQ(Pool(plan, "b").variant, "hami");
  EXPECT_EQ(Pool(plan, "b").buys,
            "20 more pods of this pool in classes it serves well");
  // The written scheme kept: nothing bought.
  const PoolSchemePlan kept = ResolvePoolSchemes(ThreePools(), s);
  EXPECT_EQ(Pool(kept, "a").variant, "mig");
  EXPECT_EQ(Pool(kept, "a").buys, "");
}

}  // namespace
}  // namespace pool_scheme_resolution_test
}  // namespace gpushare
