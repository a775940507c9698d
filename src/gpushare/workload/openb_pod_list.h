// The pod (task) lists of Alibaba's openb GPU trace (cluster-trace-gpu-v2023).
//
// Contract: the header must be the full form `name,cpu_milli,memory_mib,
// num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,
// scheduled_time` or the five-column form of the multigpu* files (`name,
// cpu_milli,memory_mib,num_gpu,gpu_milli`). Per row: a non-empty, unique
// name; CPU request in millicores and memory in MiB (>= 0); num_gpu in
// 0..kMaxOpenbGpusPerNode; gpu_milli, the share of *each* requested GPU in
// thousandths (0 exactly when num_gpu is 0, 1..1000 otherwise, and 1000 when
// num_gpu > 1); gpu_spec, a '|' list of allowed GPU models (empty: any), each
// one `models` maps; qos and pod_phase as written; the three timestamps are
// integer seconds from the start of the trace, scheduled_time empty for a
// task never scheduled (kNoTime). The five-column form leaves gpu_spec empty
// and the times kNoTime. Every malformed row is an InputError at
// file:line:col naming the column.

#ifndef GPUSHARE_WORKLOAD_OPENB_POD_LIST_H_
#define GPUSHARE_WORKLOAD_OPENB_POD_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/workload/gpu_model_map.h"

namespace gpushare {

// One GPU in thousandths.
inline constexpr int64_t kMilliPerGpu = 1000;
// A timestamp the row does not have.
inline constexpr int64_t kNoTime = -1;

struct OpenbPod {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int num_gpu = 0;
  int64_t gpu_milli = 0;  // per GPU
  std::string gpu_spec;   // '|'-separated allowed models; empty: any
  std::string qos;
  std::string pod_phase;
  int64_t creation_time_s = kNoTime;
  int64_t deletion_time_s = kNoTime;
  int64_t scheduled_time_s = kNoTime;
  int line = 0;

  // num_gpu x gpu_milli.
  int64_t TotalGpuMilli() const { return num_gpu * gpu_milli; }
};

std::vector<OpenbPod> ParseOpenbPodList(const std::string& file,
                                        std::string text,
                                        const GpuModelMap& models);
std::vector<OpenbPod> ReadOpenbPodList(const std::string& path,
                                       const GpuModelMap& models);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_OPENB_POD_LIST_H_
