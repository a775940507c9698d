// The node list of Alibaba's openb GPU trace (cluster-trace-gpu-v2023).
//
// Contract: columns `sn,cpu_milli,memory_mib,gpu,model` (header checked):
// the node name (unique, and a Kubernetes node name: imported_nodes.h
// IsNodeName), CPU capacity in millicores, memory in MiB, the number of GPUs
// (0..kMaxOpenbGpusPerNode) and the trace's GPU model name (empty exactly
// when gpu is 0; otherwise a name `models` maps, see
// workload/gpu_model_map.h). Every malformed row is an InputError at
// file:line:col naming the column. Rows keep their 1-based line.

#ifndef GPUSHARE_WORKLOAD_OPENB_NODE_LIST_H_
#define GPUSHARE_WORKLOAD_OPENB_NODE_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/workload/gpu_model_map.h"

namespace gpushare {

// The most GPUs one node may have (a generous bound: openb has at most 8).
inline constexpr int kMaxOpenbGpusPerNode = 64;

struct OpenbNode {
  std::string name;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int gpus = 0;
  std::string model;  // the trace's name; empty for a CPU-only node
  int line = 0;
};

// Parses `text`; `file` names it in errors.
std::vector<OpenbNode> ParseOpenbNodeList(const std::string& file,
                                          std::string text,
                                          const GpuModelMap& models);
std::vector<OpenbNode> ReadOpenbNodeList(const std::string& path,
                                         const GpuModelMap& models);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_OPENB_NODE_LIST_H_
