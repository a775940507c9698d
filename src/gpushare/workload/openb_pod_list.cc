#include "gpushare/workload/openb_pod_list.h"

#include <limits>
#include <unordered_set>

#include "gpushare/io/csv_table.h"
#include "gpushare/io/input_error.h"
#include "gpushare/workload/openb_node_list.h"

namespace gpushare {
namespace {

const std::vector<std::string>& OpenbPodHeaders() {
  static const std::vector<std::string> headers = {
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,"
      "creation_time,deletion_time,scheduled_time",
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli"};
  return headers;
}

void CheckGpuSpec(const CsvTable& table, int column, std::string_view spec,
                  const GpuModelMap& models) {
  size_t start = 0;
  while (start <= spec.size()) {
    const size_t bar = spec.find('|', start);
    const std::string_view model = spec.substr(start, bar - start);
    if (model.empty()) {
      table.Fail(column, "empty model in the list '" + std::string(spec) + "'");
    }
    if (!models.Contains(model)) {
      try {
        models.CheckKnown(model);
      } catch (const InputError& e) {
        table.Fail(column, e.message());
      }
    }
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
}

std::vector<OpenbPod> ParseOpenbPods(CsvTable table,
                                     const GpuModelMap& models) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max() / 4;
  enum {
    kName, kCpu, kMemory, kNumGpu, kGpuMilli, kGpuSpec, kQos, kPhase,
    kCreation, kDeletion, kScheduled
  };
  const bool full = table.header_index() == 0;
  std::vector<OpenbPod> pods;
  std::unordered_set<std::string> names;
  while (table.Next()) {
    OpenbPod p;
    p.line = table.line();
    p.name = std::string(table.NonEmpty(kName));
    if (!names.insert(p.name).second) {
      table.Fail(kName, "duplicate pod name '" + p.name + "'");
    }
    p.cpu_milli = table.Int(kCpu, 0, kMax);
    p.memory_mib = table.Int(kMemory, 0, kMax);
    p.num_gpu = static_cast<int>(table.Int(kNumGpu, 0, kMaxOpenbGpusPerNode));
    p.gpu_milli = table.Int(kGpuMilli, 0, kMilliPerGpu);
    if (p.num_gpu == 0 && p.gpu_milli != 0) {
      table.Fail(kGpuMilli, "must be 0 when num_gpu is 0, got " +
                                std::to_string(p.gpu_milli));
    }
    if (p.num_gpu > 0 && p.gpu_milli == 0) {
      table.Fail(kGpuMilli, "must be 1..1000 when num_gpu is " +
                                std::to_string(p.num_gpu) + ", got 0");
    }
    if (p.num_gpu > 1 && p.gpu_milli != kMilliPerGpu) {
      table.Fail(kGpuMilli, "a task of " + std::to_string(p.num_gpu) +
                                " GPUs takes whole GPUs (1000), got " +
                                std::to_string(p.gpu_milli));
    }
    if (full) {
      p.gpu_spec = std::string(table.Field(kGpuSpec));
      if (!p.gpu_spec.empty()) {
        CheckGpuSpec(table, kGpuSpec, p.gpu_spec, models);
      }
      p.qos = std::string(table.Field(kQos));
      p.pod_phase = std::string(table.Field(kPhase));
      p.creation_time_s = table.Int(kCreation, 0, kMax);
      p.deletion_time_s = table.OptionalInt(kDeletion, 0, kMax, kNoTime);
      if (p.deletion_time_s != kNoTime &&
          p.deletion_time_s < p.creation_time_s) {
        table.Fail(kDeletion, "deletion_time " +
                                  std::to_string(p.deletion_time_s) +
                                  " is before creation_time " +
                                  std::to_string(p.creation_time_s));
      }
      p.scheduled_time_s = table.OptionalInt(kScheduled, 0, kMax, kNoTime);
    }
    pods.push_back(std::move(p));
  }
  return pods;
}

}  // namespace

std::vector<OpenbPod> ParseOpenbPodList(const std::string& file,
                                        std::string text,
                                        const GpuModelMap& models) {
  return ParseOpenbPods(CsvTable(file, std::move(text), OpenbPodHeaders()),
                        models);
}

std::vector<OpenbPod> ReadOpenbPodList(const std::string& path,
                                       const GpuModelMap& models) {
  return ParseOpenbPods(CsvTable::FromFile(path, OpenbPodHeaders()), models);
}

}  // namespace gpushare
