// The scenario's `workload:` section: the horizon, synthetic classes, a
// trace (openb, job list, kubectl pods) and the defaults applied to it.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/dcgm_metrics_import.h"
#include "gpushare/scenario/dcgm_recording_checks.h"
#include "gpushare/scenario/kubectl_class_reader.h"
#include "gpushare/scenario/kubernetes_names.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"
#include "gpushare/workload/cluster_import.h"
#include "gpushare/workload/trace_workload.h"

namespace gpushare {
namespace scenario_internal {

namespace {

TraceDefaults ReadTraceDefaults(const YamlMap& trace) {
  const YamlMap d = trace.Map("defaults", "workload trace defaults");
  d.AllowOnly({"work_s", "lifetime_s", "gpu_memory_mib", "sm_demand", "duty",
               "workload_class"});
  TraceDefaults out;
  if (d.Has("work_s")) out.work_s = Number(d, "work_s", 0, kMaxSeconds);
  if (d.Has("lifetime_s")) {
    out.lifetime_s = Number(d, "lifetime_s", 0, kMaxSeconds, true);
  }
  if (d.Has("gpu_memory_mib")) {
    out.gpu_memory_mib = d.Int("gpu_memory_mib", 0, 10000000);
  }
  if (d.Has("sm_demand")) out.sm_demand = Number(d, "sm_demand", 0, 1);
  if (d.Has("duty")) out.duty = Number(d, "duty", 0, 1);
  if (d.Has("workload_class")) {
    ParseWorkloadClass(Choice(d, "workload_class", "class", ClassNames()),
                       &out.workload_class);
  }
  return out;
}

TraceWorkload ReadTrace(const YamlMap& w, const Catalog& catalog,
                        const std::vector<NodePoolSpec>& pools) {
  const YamlMap t = w.Map("trace", "workload trace");
  t.AllowOnly({"format", "file", "tenant_class", "tenant_class_label",
               "gpu_pods_only", "workload_class_label", "workload_classes",
               "infer_workload_class", "system_namespaces", "model_map",
               "defaults", "metrics", "metrics_busy_threshold",
               "metrics_warn_points"});
  TraceWorkload trace;
  TraceSpec& spec = trace.spec;
  ParseTraceFormat(
      Choice(t, "format", "trace format", {"openb", "kubectl", "jobs"}),
      &spec.format);
  spec.file = t.InputPath("file");
  if (spec.format != TraceFormat::kOpenb) {
    Refuse(t, {"tenant_class", "model_map"}, "applies to openb traces only");
  }
  if (spec.format != TraceFormat::kKubectl) {
    Refuse(t,
           {"tenant_class_label", "gpu_pods_only", "workload_class_label",
            "workload_classes", "infer_workload_class", "system_namespaces",
            "metrics", "metrics_busy_threshold", "metrics_warn_points"},
           "applies to kubectl traces only");
  }
  if (spec.format == TraceFormat::kJobs) {
    Refuse(t, {"defaults"}, "job lists give every need in their columns");
  }
  if (t.Has("tenant_class")) {
    spec.openb_tenant_class = Choice(t, "tenant_class", "tenant class source",
                                     {"shape", "qos"}) == "qos"
                                  ? OpenbTenantClass::kQos
                                  : OpenbTenantClass::kShape;
  }
  if (t.Has("model_map")) spec.model_map = ReadModelMap(t, catalog);
  if (t.Has("tenant_class_label")) {
    spec.kubectl_classes.tenant_class_label = t.String("tenant_class_label");
    if (!IsLabelKey(spec.kubectl_classes.tenant_class_label)) {
      FailKey(t, "tenant_class_label", "expected a label key");
    }
  }
  if (t.Has("gpu_pods_only")) spec.gpu_pods_only = t.Bool("gpu_pods_only");
  ReadKubectlClassSettings(t, &spec.kubectl_classes);
  if (t.Has("defaults")) spec.defaults = ReadTraceDefaults(t);
  if (t.Has("metrics")) spec.metrics_files = t.InputPathList("metrics");
  if (t.Has("metrics_busy_threshold")) {
    if (!t.Has("metrics")) {
      FailKey(t, "metrics_busy_threshold", "applies with metrics only");
    }
    spec.metrics_busy_threshold = Number(t, "metrics_busy_threshold", 0, 1);
  }
  if (t.Has("metrics_warn_points")) {
    if (!t.Has("metrics")) {
      FailKey(t, "metrics_warn_points", "applies with metrics only");
    }
    spec.metrics_warn_points = Number(t, "metrics_warn_points", 1, 100);
  }
  trace.pods = LoadTracePods(spec, catalog, &trace.import_notes);
  if (!spec.metrics_files.empty()) {
    DcgmRecording read = ReadDcgmRecording(spec.metrics_files);
    CheckDcgmRecording(read, catalog, pools, trace.pods.get(), &read.warnings);
    for (const std::string& warning : read.warnings) {
      trace.import_notes.push_back("metrics: warning: " + warning);
    }
    auto recording = std::make_shared<const DcgmRecording>(std::move(read));
    std::vector<Pod> pods = *trace.pods;
    trace.metrics_pods =
        ApplyDcgmMetrics(*recording, catalog, spec.metrics_busy_threshold,
                         &pods, &trace.import_notes)
            .pods;
    trace.pods = std::make_shared<const std::vector<Pod>>(std::move(pods));
    trace.metrics = std::move(recording);
  }
  return trace;
}

}  // namespace

WorkloadSpec ReadWorkload(const YamlMap& top, double scenario_horizon_s,
                          const std::vector<PriorityClass>& priority_classes,
                          const KueueConfig& queues,
                          const KaiConfig& kai_queues,
                          const std::vector<NodePoolSpec>& pools,
                          const Catalog& catalog) {
  YamlMap w = top.Map("workload", "workload");
  w.AllowOnly({"horizon_s", "classes", "trace"});
  WorkloadSpec spec;
  if (w.Has("horizon_s")) {
    spec.horizon_s = Number(w, "horizon_s", 0, kMaxSeconds, true);
  } else if (scenario_horizon_s > 0) {
    spec.horizon_s = scenario_horizon_s;
  }
  if (!w.Has("classes") && !w.Has("trace")) {
    w.Fail(w.node(), "give classes, a trace, or both");
  }
  std::vector<std::string> names;
  if (w.Has("classes")) {
    for (const auto& node : List(w, "classes", true)) {
      spec.classes.push_back(ReadClass(w.file(), node, spec.horizon_s,
                                       catalog, pools,
                                       priority_classes, queues, kai_queues,
                                       &names));
    }
  }
  if (w.Has("trace")) spec.trace = ReadTrace(w, catalog, pools);
  try {
    spec.Validate();
  } catch (const InputError& e) {
    FailAt(w.file(), KeyNode(top, "workload"), e.message());
  }
  return spec;
}

}  // namespace scenario_internal
}  // namespace gpushare
