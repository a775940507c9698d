#include "gpushare/workload/openb_replay.h"

#include <algorithm>
#include <cmath>

#include "gpushare/cluster/open_gpu_share_device_plugin.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

std::string ShapeClass(const OpenbPod& row) {
  if (row.num_gpu == 0) return "cpu-only";
  if (row.gpu_milli < kMilliPerGpu) return "gpu-share";
  return row.num_gpu == 1 ? "gpu-1" : "gpu-multi";
}

std::string QosClass(const OpenbPod& row) {
  std::string q = row.qos.empty() ? "unknown" : row.qos;
  std::transform(q.begin(), q.end(), q.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return q;
}

}  // namespace

std::vector<ImportedNode> OpenbReplayNodes(const std::vector<OpenbNode>& rows,
                                           const GpuModelMap& models,
                                           const Catalog& catalog) {
  std::vector<ImportedNode> nodes;
  nodes.reserve(rows.size());
  for (const OpenbNode& row : rows) {
    ImportedNode n;
    n.name = row.name;
    n.cpu_milli = std::max<int64_t>(row.cpu_milli, 1);
    n.memory_mib = std::max<int64_t>(row.memory_mib, 1);
    n.gpus = row.gpus;
    if (row.gpus > 0) {
      n.gpu_model = models.Resolve(row.model, catalog).name;
      n.labels[std::string(kOpenGpuShareCardModelLabel)] = row.model;
    }
    nodes.push_back(std::move(n));
  }
  return nodes;
}

std::vector<Pod> OpenbReplayPods(const std::string& file,
                                 const std::vector<OpenbPod>& rows,
                                 const TraceDefaults& defaults,
                                 OpenbTenantClass tenant_class) {
  std::vector<Pod> pods;
  pods.reserve(rows.size());
  for (const OpenbPod& row : rows) {
    if (row.creation_time_s == kNoTime) {
      throw InputError(file, row.line, 1,
                       "replay needs creation_time: give the full form of the "
                       "pod list (the five-column form has no times)");
    }
    Pod p;
    p.name = row.name;
    p.namespace_name = "openb";
    p.tenant = "openb";
    p.tenant_class = tenant_class == OpenbTenantClass::kShape ? ShapeClass(row)
                                                              : QosClass(row);
    p.workload_class =
        row.qos == "BE" ? WorkloadClass::kBatch : WorkloadClass::kInference;
    p.restart_policy = RestartPolicy::kOnFailure;
    p.arrival_s = static_cast<double>(row.creation_time_s);
    p.cpu_milli = row.cpu_milli;
    p.memory_mib = row.memory_mib;
    PodNeeds& n = p.needs;
    if (row.num_gpu > 1 || row.gpu_milli == kMilliPerGpu) {
      n.gpus = row.num_gpu;
    } else if (row.num_gpu == 1) {
      n.gpus = static_cast<double>(row.gpu_milli) / kMilliPerGpu;
    }
    if (n.gpus > 0) {
      n.gpu_memory_mib = std::llround(
          static_cast<double>(defaults.gpu_memory_mib) * std::min(1.0, n.gpus));
    }
    n.sm_demand = defaults.SmDemandFor(n.gpus);
    n.duty = defaults.duty;
    n.work_s = 0;
    if (row.deletion_time_s == kNoTime) {
      n.lifetime_s = defaults.lifetime_s;
    } else {
      n.lifetime_s = std::max<double>(
          1.0, static_cast<double>(row.deletion_time_s - row.creation_time_s));
    }
    if (!row.gpu_spec.empty()) {
      NodeSelectorRequirement r;
      r.key = std::string(kOpenGpuShareCardModelLabel);
      r.op = NodeSelectorRequirement::Operator::kIn;
      size_t start = 0;
      while (start <= row.gpu_spec.size()) {
        const size_t bar = row.gpu_spec.find('|', start);
        r.values.push_back(row.gpu_spec.substr(start, bar - start));
        if (bar == std::string::npos) break;
        start = bar + 1;
      }
      p.required_affinity.push_back({{r}});
    }
    pods.push_back(std::move(p));
  }
  std::stable_sort(pods.begin(), pods.end(), [](const Pod& a, const Pod& b) {
    return a.arrival_s < b.arrival_s;
  });
  return pods;
}

}  // namespace gpushare
