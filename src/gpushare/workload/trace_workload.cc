#include "gpushare/workload/trace_workload.h"

#include "gpushare/workload/job_list.h"
#include "gpushare/workload/kubectl_pod_list.h"
#include "gpushare/workload/openb_pod_list.h"

namespace gpushare {

std::string_view TraceFormatName(TraceFormat format) {
  switch (format) {
    case TraceFormat::kOpenb:
      return "openb";
    case TraceFormat::kKubectl:
      return "kubectl";
    case TraceFormat::kJobs:
      return "jobs";
  }
  return "";
}

bool ParseTraceFormat(std::string_view text, TraceFormat* format) {
  for (TraceFormat f :
       {TraceFormat::kOpenb, TraceFormat::kKubectl, TraceFormat::kJobs}) {
    if (text == TraceFormatName(f)) {
      *format = f;
      return true;
    }
  }
  return false;
}

std::shared_ptr<const std::vector<Pod>> LoadTracePods(
    const TraceSpec& spec, const Catalog& catalog,
    std::vector<std::string>* notes) {
  std::vector<Pod> pods;
  switch (spec.format) {
    case TraceFormat::kOpenb:
      pods = OpenbReplayPods(spec.file,
                             ReadOpenbPodList(spec.file, spec.model_map),
                             spec.defaults, spec.openb_tenant_class);
      break;
    case TraceFormat::kKubectl: {
      KubectlPodOptions options;
      options.defaults = spec.defaults;
      options.classes = spec.kubectl_classes;
      options.gpu_pods_only = spec.gpu_pods_only;
      pods = ReadKubectlPods(spec.file, catalog, options, notes);
      break;
    }
    case TraceFormat::kJobs:
      pods = ReadJobList(spec.file);
      break;
  }
  return std::make_shared<const std::vector<Pod>>(std::move(pods));
}

}  // namespace gpushare
