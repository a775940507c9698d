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

TEST(TenantClassesTest, ClassesAskingForNoGpuAreOfferedNoScheme) {
  Scenario s;
  WorkloadClassSpec gpu;
  gpu.name = "train";
  WorkloadClassSpec cpu;
  cpu.name = "etl";
  cpu.gpus = Distribution::Constant(0);
  WorkloadClassSpec written = cpu;  // no gpus, but nvidia.com requests
  written.name = "written";
  written.requests = {{"nvidia.com/gpu", 1}};
  WorkloadClassSpec drawn = cpu;  // 0 or 1 GPU
  drawn.name = "drawn";
  drawn.gpus = Distribution::Choice({{0, 1}, {1, 1}});
  s.workload.classes = {gpu, cpu, written, drawn};
  auto pods = std::make_shared<std::vector<Pod>>();
  Pod dns = TracePod("system", WorkloadClass::kInference);
  dns.in_system_namespace = true;
  Pod validator = dns;  // a system pod with a GPU does not count
  validator.needs.gpus = 1;
  Pod web = TracePod("web", WorkloadClass::kInference);
  Pod mig = TracePod("infer", WorkloadClass::kInference);
  mig.explicit_requests = {{"nvidia.com/mig-1g.10gb", 1}};
  Pod job = TracePod("etl", WorkloadClass::kBatch);  // joins the generated one
  job.needs.gpus = 0.5;
  *pods = {dns, validator, web, mig, job};
  s.workload.trace.pods = pods;
  const std::vector<TenantClassInfo> classes = ScenarioTenantClasses(s);
  ASSERT_EQ(classes.size(), 7u);
  EXPECT_EQ(classes[0].no_scheme, "");  // train
  EXPECT_EQ(classes[1].no_scheme, "");  // etl: a trace pod
  EXPECT_EQ(classes[2].no_scheme, "");  // written
  EXPECT_EQ(classes[3].no_scheme, "");  // drawn
  EXPECT_EQ(classes[4].name, "system");
  EXPECT_EQ(classes[4].no_scheme, "its pods run in system namespaces");
  EXPECT_EQ(classes[5].name, "web");
  EXPECT_EQ(classes[5].no_scheme, "none of its pods asks for a GPU");
  EXPECT_EQ(classes[6].no_scheme, "");  // infer
  // Without the trace pod, etl asks for none.
  *pods = {dns};
  EXPECT_EQ(ScenarioTenantClasses(s)[1].no_scheme,
            "none of its pods asks for a GPU");
}

}  // namespace
}  // namespace gpushare
