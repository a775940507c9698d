#include "gpushare/decide/comparison.h"

#include <gtest/gtest.h>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/decide/selection.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/report/comparison_json.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace comparison_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

struct Compared {
  Comparison comparison;
  Selection selection;
};

Compared CompareFile(const std::string& name, int threads) {
  const std::string path = GS_TESTDATA_DIR "/compare/" + name;
  const std::string text = ReadInputFile(path);
  const Scenario scenario = ReadScenarioYaml(text, path, TestCatalog());
  const ComparisonSpec spec = ReadComparisonSpec(text, path, scenario);
  Compared c;
  c.comparison = RunComparison(scenario, spec.compare, TestCatalog(), threads);
  c.selection = Select(c.comparison, spec.selection);
  return c;
}

const VariantOutcome& Variant(const Comparison& c GS_LIFETIMEBOUND, const std::string& name) {
  for (const VariantOutcome& v : c.variants) {
    if (v.name == name) return v;
  }
  ADD_FAILURE() << "no variant " << name;
  return c.variants.front();
}

const SchemeScore& Score(const ClassChoice& choice GS_LIFETIMEBOUND, const std::string& name) {
  for (const SchemeScore& s : choice.ranking) {
    if (s.variant == name) return s;
  }
  ADD_FAILURE() << "no score " << name;
  return choice.ranking.front();
}

// tests/data/compare/sla-inference.yaml: every scheme rated the same, so the
// ranking comes from the simulation alone.
TEST(ComparisonTest, MigWinsSlaBoundInferenceOnMeasuredNumbers) {
  const Compared c = CompareFile("sla-inference.yaml", 2);
  ASSERT_EQ(c.selection.classes.size(), 1u);
  const ClassChoice& choice = c.selection.classes[0];
  EXPECT_EQ(choice.profile, "sla-production");
  ASSERT_FALSE(choice.ranking.empty());
  EXPECT_EQ(choice.ranking[0].variant, "mig") << choice.explanation;

  const ClassMetrics& mig = Variant(c.comparison, "mig").classes[0];
  const ClassMetrics& ts = Variant(c.comparison, "time-slicing").classes[0];
  const ClassMetrics& hami = Variant(c.comparison, "hami").classes[0];
  const ClassMetrics& mps = Variant(c.comparison, "mps").classes[0];
  const ClassMetrics& exclusive = Variant(c.comparison, "exclusive").classes[0];
  // Sharing GPU time breaks the SLO; MIG's slices keep it.
  EXPECT_GT(mig.slo_attainment, 0.99);
  EXPECT_LT(ts.slo_attainment, 0.5);
  EXPECT_LT(hami.slo_attainment, 0.5);
  // Eight GPUs for 24 services: exclusive leaves some waiting.
  EXPECT_LT(exclusive.served, exclusive.pods);
  EXPECT_GT(exclusive.mean_wait_s, 60);
  // MPS keeps the latency but a fault kills every client of the GPU.
  EXPECT_GT(mps.slo_attainment, 0.99);
  EXPECT_GT(mps.killed, mig.killed);
  EXPECT_GT(Score(choice, "mig").scores.isolation,
            Score(choice, "mps").scores.isolation);
  // The layout family that won the pilot gives every service a 2g slice.
  ASSERT_EQ(c.comparison.mig_choices.size(), 1u);
  EXPECT_EQ(c.comparison.mig_choices[0].config, "all-2g.20gb");
}

// tests/data/compare/dev-notebooks.yaml: every scheme rated the same.
TEST(ComparisonTest, TimeSlicingWinsDevOnMeasuredNumbers) {
  const Compared c = CompareFile("dev-notebooks.yaml", 2);
  const ClassChoice& choice = c.selection.classes[0];
  EXPECT_EQ(choice.profile, "research-dev");
  EXPECT_EQ(choice.ranking[0].variant, "time-slicing") << choice.explanation;
  const ClassMetrics& ts = Variant(c.comparison, "time-slicing").classes[0];
  const ClassMetrics& mig = Variant(c.comparison, "mig").classes[0];
  const ClassMetrics& exclusive = Variant(c.comparison, "exclusive").classes[0];
  // Mostly idle notebooks: a whole GPU per burst at a quarter of the price.
  EXPECT_LT(ts.cost_per_served_pod, exclusive.cost_per_served_pod / 2);
  EXPECT_GT(ts.performance, mig.performance);
  EXPECT_GT(ts.performance, exclusive.performance);
  EXPECT_LT(ts.mean_wait_s, exclusive.mean_wait_s);
}

TEST(ComparisonTest, ResultsDoNotDependOnTheThreadCount) {
  const Compared one = CompareFile("dev-notebooks.yaml", 1);
  const Compared four = CompareFile("dev-notebooks.yaml", 4);
  EXPECT_EQ(ComparisonToJsonText(one.comparison, one.selection),
            ComparisonToJsonText(four.comparison, four.selection));
}

TEST(ComparisonTest, PilotScalesTheArrivalWindowAndCounts) {
  Scenario s;
  s.horizon_s = 5000;
  s.workload.horizon_s = 1000;
  WorkloadClassSpec rate;
  rate.arrival_rate_per_s = 10;  // 10,000 pods expected
  WorkloadClassSpec counted;
  counted.count = 10000;
  s.workload.classes = {rate, counted};
  const Scenario pilot = PilotScenario(s, 2000);  // a tenth
  EXPECT_DOUBLE_EQ(pilot.workload.horizon_s, 100);
  EXPECT_EQ(pilot.workload.classes[1].count, 1000);
  EXPECT_DOUBLE_EQ(pilot.horizon_s, 4100);  // the tail after arrivals kept
  const Scenario same = PilotScenario(s, 50000);
  EXPECT_DOUBLE_EQ(same.workload.horizon_s, 1000);
  EXPECT_EQ(PilotScenario(s, 0).workload.classes[1].count, 10000);
}

}  // namespace
}  // namespace comparison_test
}  // namespace gpushare
