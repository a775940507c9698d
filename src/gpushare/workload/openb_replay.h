// openb replay: Alibaba's openb trace as a timed workload and a cluster.
//
// Contract: OpenbReplayNodes() turns node-list rows into ImportedNodes
// (name sn, allocatable cpu/memory, GPUs of the catalog model `models` maps
// the trace's model to, exclusive sharing, and the label
// alibabacloud.com/gpu-card-model = the trace's model name, which the
// Open-Gpu-Share node YAML of the trace carries). OpenbReplayPods() turns
// pod-list rows (the full form; the five-column form has no times and is an
// InputError) into pods that arrive at creation_time and are deleted
// deletion_time − creation_time (at least 1 s; `defaults.lifetime_s` when the
// row has no deletion time) after they start: services with work 0. Every
// row is replayed whatever its pod_phase — the trace says what was asked;
// whether it fits is the simulation's answer. Needs: gpus = num_gpu, or
// gpu_milli/1000 for a share of one GPU; footprint per GPU = the share of
// `defaults.gpu_memory_mib`; sm_demand `defaults` (the share by default);
// a gpu_spec list becomes required node affinity on
// alibabacloud.com/gpu-card-model. Tenant class: the shape (`cpu-only`,
// `gpu-share`, `gpu-1`, `gpu-multi`) or the qos (`ls`, `be`, `burstable`,
// `guaranteed`); workload class inference for LS, Burstable and Guaranteed,
// batch for BE. Pods come sorted by arrival (ties: file order).

#ifndef GPUSHARE_WORKLOAD_OPENB_REPLAY_H_
#define GPUSHARE_WORKLOAD_OPENB_REPLAY_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/workload/gpu_model_map.h"
#include "gpushare/workload/imported_nodes.h"
#include "gpushare/workload/openb_node_list.h"
#include "gpushare/workload/openb_pod_list.h"
#include "gpushare/workload/trace_defaults.h"

namespace gpushare {

enum class OpenbTenantClass { kShape, kQos };

std::vector<ImportedNode> OpenbReplayNodes(const std::vector<OpenbNode>& rows,
                                           const GpuModelMap& models,
                                           const Catalog& catalog);

// `file` names the list in errors.
std::vector<Pod> OpenbReplayPods(const std::string& file,
                                 const std::vector<OpenbPod>& rows,
                                 const TraceDefaults& defaults,
                                 OpenbTenantClass tenant_class);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_OPENB_REPLAY_H_
