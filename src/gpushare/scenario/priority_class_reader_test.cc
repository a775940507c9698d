// The scenario's priority_classes section, the classes that name them, and
// the scheduler's DefaultPreemption keys.

#include "gpushare/scenario/priority_class_reader.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace priority_class_reader_test {
namespace {

constexpr const char* kCluster = R"(cluster:
  pools:
    - {name: p, gpu: A100-80GB, nodes: 1}
)";

Scenario Read(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(std::string(kCluster) + text, "s.yaml", catalog);
}

std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PriorityClassReaderTest, ClassesTakeValueAndPolicy) {
  const Scenario s = Read(R"(priority_classes:
  - {name: prod, value: 1000}
  - {name: batch-low, value: 10, preemption_policy: Never, global_default: true}
scheduler:
  post_filters: [DefaultPreemption]
  default_preemption: {min_candidate_nodes_percentage: 20,
                       min_candidate_nodes_absolute: 5}
workload:
  classes:
    - name: serve
      class: inference
      count: 1
      priority_class: prod
      termination_grace_period_s: 5
    - {name: sweep, class: batch, count: 1, checkpoint_interval_s: 600}
    - {name: given, class: batch, count: 1, priority: 7}
    - {name: system, class: batch, count: 1,
       priority_class: system-node-critical}
)");
  ASSERT_EQ(s.priority_classes.size(), 2u);
  EXPECT_TRUE(s.priority_classes[1].global_default);
  const auto& c = s.workload.classes;
  EXPECT_EQ(c[0].priority, 1000);
  EXPECT_EQ(c[0].priority_class_name, "prod");
  EXPECT_EQ(c[0].preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(c[0].termination_grace_period_s, 5);
  // No class named: the global default's value and policy.
  EXPECT_EQ(c[1].priority, 10);
  EXPECT_EQ(c[1].priority_class_name, "batch-low");
  EXPECT_EQ(c[1].preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(c[1].checkpoint_interval_s, 600);
  EXPECT_EQ(c[1].termination_grace_period_s, 30);
  // A priority given as such stays.
  EXPECT_EQ(c[2].priority, 7);
  EXPECT_EQ(c[2].priority_class_name, "");
  EXPECT_EQ(c[3].priority, 2000001000);
  EXPECT_EQ(s.scheduler.min_candidate_nodes_percentage, 20);
  EXPECT_EQ(s.scheduler.min_candidate_nodes_absolute, 5);
  EXPECT_EQ(s.scheduler.post_filters.size(), 1u);
}

TEST(PriorityClassReaderTest, PreemptionCanBeTurnedOff) {
  const Scenario s = Read(R"(scheduler: {post_filters: []}
workload: {classes: [{name: j, class: batch, count: 1}]}
)");
  EXPECT_TRUE(s.scheduler.post_filters.empty());
}

TEST(PriorityClassReaderTest, LocatedErrors) {
  const std::string job =
      "workload: {classes: [{name: j, class: batch, "
      "count: 1";
  EXPECT_EQ(Error(job + ", priority_class: prd}]}\n"),
            "s.yaml:4:72: priority_class: no priority class is named 'prd'; "
            "did you mean system-node-critical? (known: "
            "system-cluster-critical, system-node-critical; define it "
            "under priority_classes)");
  EXPECT_EQ(Error("priority_classes: [{name: prod, value: 5}]\n" + job +
                  ", priority: 3, priority_class: prod}]}\n"),
            "s.yaml:5:85: give priority or priority_class, not both (a pod's "
            "priority comes from its PriorityClass)");
  EXPECT_EQ(Error("priority_classes: [{name: prod, value: 2000000000}]\n" +
                  job + "}]}\n"),
            "s.yaml:4:40: priority class value: 2000000000 is out of range "
            "(expected -2147483648..1000000000)");
  EXPECT_EQ(
      Error("priority_classes:\n  - {name: a, value: 1, global_default: true}\n"
            "  - {name: b, value: 2, global_default: true}\n" +
            job + "}]}\n"),
      "s.yaml:6:41: priority class: global_default: 'a' is already the global "
      "default (at "
      "most one class may be)");
  EXPECT_EQ(
      Error("priority_classes: [{name: a, value: 1}, {name: a, value: 2}]\n" +
            job + "}]}\n"),
      "s.yaml:4:48: priority class: 'a' is defined twice");
  EXPECT_EQ(
      Error("priority_classes: [{name: system-x, value: 1}]\n" + job + "}]}\n"),
      "s.yaml:4:27: priority class: name 'system-x': the prefix "
      "'system-' is reserved for the system classes");
  EXPECT_EQ(Error("priority_classes: [{name: a, value: 1, preemption_policy: "
                  "never}]\n" +
                  job + "}]}\n"),
            "s.yaml:4:59: priority class: preemption_policy: unknown policy "
            "'never'; did you "
            "mean Never? (PreemptLowerPriority or Never)");
  EXPECT_EQ(Error("scheduler: {post_filters: [Preemption]}\n" + job + "}]}\n"),
            "s.yaml:4:28: scheduler post_filters: unknown postFilter plugin "
            "'Preemption'; did you mean DefaultPreemption? (known: "
            "DefaultPreemption)");
  EXPECT_EQ(Error(job + ", checkpoint_interval_s: -1}]}\n"),
            "s.yaml:4:79: class 'j' checkpoint_interval_s: -1 is out of "
            "range (expected 0..1000000000)");
}

}  // namespace
}  // namespace priority_class_reader_test
}  // namespace gpushare
