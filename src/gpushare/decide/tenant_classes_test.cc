#include "gpushare/decide/tenant_classes.h"

#include <gtest/gtest.h>

#include <memory>

#include "gpushare/decide/comparison_spec_reader.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

Pod TracePod(const std::string& tenant_class, WorkloadClass kind) {
  Pod p;
  p.tenant_class = tenant_class;
  p.workload_class = kind;
  return p;
}

Scenario WithTrace() {
  Scenario s;
  WorkloadClassSpec c;
  c.name = "web";
  c.workload_class = WorkloadClass::kInference;
  s.workload.classes.push_back(c);
  auto pods = std::make_shared<std::vector<Pod>>();
  pods->push_back(TracePod("gpu-share", WorkloadClass::kBatch));
  pods->push_back(TracePod("web", WorkloadClass::kBatch));  // already listed
  pods->push_back(TracePod("gpu-1", WorkloadClass::kInference));
  pods->push_back(TracePod("gpu-share", WorkloadClass::kInference));
  s.workload.trace.pods = pods;
  return s;
}

TEST(TenantClassesTest, ClassesThenTraceClassesInFirstAppearanceOrder) {
  const std::vector<TenantClassInfo> classes =
      ScenarioTenantClasses(WithTrace());
  ASSERT_EQ(classes.size(), 3u);
  EXPECT_EQ(classes[0].name, "web");
  EXPECT_EQ(classes[0].workload_class, WorkloadClass::kInference);
  EXPECT_EQ(classes[1].name, "gpu-share");
  EXPECT_EQ(classes[1].workload_class, WorkloadClass::kBatch);  // first pod's
  EXPECT_EQ(classes[2].name, "gpu-1");
}

TEST(TenantClassesTest, TraceClassesCanBeSelected) {
  const Scenario s = WithTrace();
  const ComparisonSpec spec = ReadComparisonSpec(
      "selection: {classes: {gpu-1: research-dev}}", "s.yaml", s);
  ASSERT_EQ(spec.selection.classes.size(), 3u);
  EXPECT_EQ(spec.selection.classes[2].tenant_class, "gpu-1");
  EXPECT_EQ(spec.selection.classes[2].profile, "research-dev");
  EXPECT_EQ(spec.selection.classes[1].tenant_class, "gpu-share");
  EXPECT_THROW(ReadComparisonSpec("selection: {classes: {gpu-2: research-dev}}",
                                  "s.yaml", s),
               InputError);
}

}  // namespace
}  // namespace gpushare
