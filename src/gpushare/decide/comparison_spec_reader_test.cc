#include "gpushare/decide/comparison_spec_reader.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace comparison_spec_reader_test {
namespace {

const Catalog& TestCatalog() {
  static const Catalog catalog = Catalog::Builtin();
  return catalog;
}

// A valid scenario (lines 1-15) with two classes, then `extra`.
std::string Text(const std::string& extra) {
  return "name: s\n"                            // 1
         "cluster:\n"                           // 2
         "  pools:\n"                           // 3
         "    - {name: p, gpu: A100-80GB, nodes: 1}\n"  // 4
         "workload:\n"                          // 5
         "  classes:\n"                         // 6
         "    - name: web\n"                    // 7
         "      class: inference\n"             // 8
         "      count: 3\n"                     // 9
         "      work_s: 0\n"                    // 10
         "      lifetime_s: 60\n"               // 11
         "    - name: notebooks\n"              // 12
         "      class: dev\n"                   // 13
         "      count: 3\n"                     // 14
         "      gpus: 1\n" +                    // 15
         extra;
}

ComparisonSpec Read(const std::string& extra) {
  const std::string text = Text(extra);
  const Scenario s = ReadScenarioYaml(text, "s.yaml", TestCatalog());
  return ReadComparisonSpec(text, "s.yaml", s);
}

std::string ErrorOf(const std::string& extra) {
  try {
    Read(extra);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ComparisonSpecReaderTest, DefaultsGiveEachClassItsKindsProfile) {
  const ComparisonSpec spec = Read("");
  EXPECT_EQ(spec.compare.schemes.size(), 5u);
  EXPECT_EQ(spec.compare.time_slicing_replicas, 4);
  ASSERT_EQ(spec.selection.classes.size(), 2u);
  EXPECT_EQ(spec.selection.classes[0].tenant_class, "web");
  EXPECT_EQ(spec.selection.classes[0].profile, "sla-production");
  EXPECT_EQ(spec.selection.classes[1].profile, "research-dev");
}

TEST(ComparisonSpecReaderTest, ReadsEverySetting) {
  const ComparisonSpec spec = Read(
      "compare:\n"
      "  schemes: [mig, time-slicing]\n"
      "  time_slicing_replicas: 8\n"
      "  mps_replicas: 3\n"
      "  hami_split_count: 5\n"
      "  vgpu_licence_per_gpu_hour: 0.25\n"
      "  mig_families: [3g, balanced]\n"
      "  mig_pilot_pods: 0\n"
      "selection:\n"
      "  profiles:\n"
      "    mine: {isolation: 1, cost: 3}\n"
      "  classes:\n"
      "    web: mine\n"
      "    notebooks: {overhead: 2, compatibility: 2}\n"
      "  ratings:\n"
      "    time-slicing: {isolation: 2}\n");
  EXPECT_EQ(spec.compare.schemes,
            (std::vector<SharingScheme>{SharingScheme::kMig,
                                        SharingScheme::kTimeSlicing}));
  EXPECT_EQ(spec.compare.time_slicing_replicas, 8);
  EXPECT_EQ(spec.compare.mps_replicas, 3);
  EXPECT_EQ(spec.compare.hami_split_count, 5);
  EXPECT_EQ(spec.compare.vgpu_licence_per_gpu_hour, 0.25);
  EXPECT_EQ(spec.compare.mig_families,
            (std::vector<std::string>{"3g", "balanced"}));
  EXPECT_EQ(spec.compare.mig_pilot_pods, 0);
  EXPECT_EQ(spec.selection.classes[0].profile, "mine");
  EXPECT_EQ(spec.selection.classes[0].weights.cost, 3);
  EXPECT_EQ(spec.selection.classes[1].profile, "custom");
  EXPECT_EQ(spec.selection.classes[1].weights.overhead, 2);
  const SchemeRatings ts =
      spec.selection.RatingsOf(SharingScheme::kTimeSlicing);
  EXPECT_EQ(ts.isolation, 2);
  EXPECT_EQ(ts.compatibility, 10);  // the default kept
}

TEST(ComparisonSpecReaderTest, ReadsSloTargets) {
  EXPECT_DOUBLE_EQ(Read("").selection.min_slo_attainment, 0.99);
  EXPECT_LT(Read("").selection.classes[0].min_slo_attainment, 0);
  const ComparisonSpec spec = Read(
      "selection:\n"
      "  min_slo_attainment: 0.95\n"
      "  classes:\n"
      "    web: {profile: research-dev, min_slo_attainment: 0.999}\n"
      "    notebooks: {min_slo_attainment: 0.5}\n");
  EXPECT_DOUBLE_EQ(spec.selection.min_slo_attainment, 0.95);
  EXPECT_EQ(spec.selection.classes[0].profile, "research-dev");
  EXPECT_DOUBLE_EQ(spec.selection.classes[0].min_slo_attainment, 0.999);
  // Only a target: the class keeps the default profile of its kind.
  EXPECT_EQ(spec.selection.classes[1].profile, "research-dev");
  EXPECT_DOUBLE_EQ(spec.selection.classes[1].min_slo_attainment, 0.5);
  const ComparisonSpec custom = Read(
      "selection:\n  classes:\n"
      "    web: {cost: 1, min_slo_attainment: 0.9}\n");
  EXPECT_EQ(custom.selection.classes[0].profile, "custom");
  EXPECT_EQ(custom.selection.classes[0].weights.cost, 1);
  EXPECT_DOUBLE_EQ(custom.selection.classes[0].min_slo_attainment, 0.9);
}

TEST(ComparisonSpecReaderTest, SloTargetErrors) {
  EXPECT_EQ(ErrorOf("selection:\n  min_slo_attainment: 1.5\n"),
            "s.yaml:17:23: selection min_slo_attainment: 1.5 is out of range "
            "(expected 0..1)");
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n"
                    "    web: {min_slo_attainment: -0.1}\n"),
            "s.yaml:18:31: selection.classes.web min_slo_attainment: -0.1 is "
            "out of range (expected 0..1)");
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n"
                    "    web: {profile: research-dev, cost: 1}\n"),
            "s.yaml:18:20: selection.classes.web: give a profile or weights, "
            "not both");
}

TEST(ComparisonSpecReaderTest, ErrorsNameFileLineAndWhat) {
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n    webb: research-dev\n"),
            "s.yaml:18:5: selection.classes: unknown tenant class 'webb'; "
            "did you mean web? (the workload's classes: web, notebooks)");
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n    web: {isolation: -1}\n"),
            "s.yaml:18:22: selection.classes.web.isolation: weights must "
            "not be negative, got -1");
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n    web: {isolation: 0, cost: "
                    "0}\n"),
            "s.yaml:18:10: selection.classes.web: weights must not all be 0 "
            "(give isolation, overhead, compatibility and cost; only their "
            "ratios matter)");
  EXPECT_EQ(ErrorOf("selection:\n  classes:\n    web: sla\n"),
            "s.yaml:18:10: selection.classes.web: unknown profile 'sla'; did "
            "you mean research-dev? (profiles: research-dev, sla-production, "
            "elastic-multi-tenant)");
  EXPECT_EQ(ErrorOf("compare:\n  schemes: [mig, vgpu, hami]\n"),
            "s.yaml:17:24: compare.schemes: 'hami' is listed twice");
  EXPECT_EQ(ErrorOf("compare:\n  schemes: [mig, timeslicing]\n"),
            "s.yaml:17:18: compare.schemes: unknown sharing scheme "
            "'timeslicing'; did you mean time-slicing? (allowed: exclusive, "
            "time-slicing, mps, mig, hami)");
  EXPECT_EQ(ErrorOf("compare:\n  mps_replicas: 49\n"),
            "s.yaml:17:17: compare mps_replicas: 49 is out of range "
            "(expected 2..48)");
  EXPECT_EQ(ErrorOf("compare:\n  mig_families: [5g]\n"),
            "s.yaml:17:18: compare.mig_families: unknown family '5g'; did "
            "you mean 1g? (allowed: balanced, 1g, 2g, 3g, 4g, 7g)");
  EXPECT_EQ(ErrorOf("compare:\n  threads: 2\n"),
            "s.yaml:17:3: compare: unknown key 'threads'; did you mean "
            "seeds? (allowed: schemes, time_slicing_replicas, "
            "mps_replicas, hami_split_count, vgpu_licence_per_gpu_hour, "
            "mig_families, mig_pilot_pods, seeds, mig_dynamic)");
  EXPECT_EQ(ErrorOf("selection:\n  ratings:\n    mig: {isolation: 11}\n"),
            "s.yaml:18:22: selection.ratings.mig isolation: 11 is out of "
            "range (expected 0..10)");
}

}  // namespace
}  // namespace comparison_spec_reader_test
}  // namespace gpushare
