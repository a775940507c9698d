// The section readers of a scenario file, one file each, called by
// ReadScenarioNode() (scenario_reader.h) and by one another: cluster and
// pools, sharing, placement (labels, taints, tolerations), workload classes
// and their distributions, the workload, the scheduler and faults.
// Internal to scenario/; the scenario's public entry is scenario_reader.h.
//
// Contract: each reader checks every key of its section (unknown keys,
// types, ranges, references to pools and classes) and throws InputError at
// the offending place; what it returns is valid for the engine.

#ifndef GPUSHARE_SCENARIO_SCENARIO_SECTIONS_H_
#define GPUSHARE_SCENARIO_SCENARIO_SECTIONS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {
namespace scenario_internal {

// placement_reader.cc

// A mapping of label keys to values (pool labels, node selectors).
Labels ReadLabels(const YamlMap& m, std::string_view key);

// A pool's `taints`: key (label syntax), value, effect; a key and effect
// given twice are refused.
std::vector<Taint> ReadTaints(const YamlMap& pool);

// A class's `tolerations`, with kube-scheduler's rules on operator,
// empty key and value.
std::vector<Toleration> ReadTolerations(const YamlMap& c);

// cluster_reader.cc

// A mapping of the trace's GPU model names to catalog models, over the
// default table.
GpuModelMap ReadModelMap(const YamlMap& m, const Catalog& catalog);

// The `cluster:` section: imported pools first (grouped by
// workload/imported_nodes.h GroupNodePools, then resized and set by the
// overrides of `import.pools`), then the written ones. `notes` (if set)
// gets what the kubectl import of DRA objects skipped or converted.
std::vector<NodePoolSpec> ReadCluster(const YamlMap& top,
                                      const Catalog& catalog,
                                      std::vector<std::string>* notes = nullptr);

// autoscaling_reader.cc

// A written pool's `autoscaling:` (after its nodes, GPUs and sharing are
// read): provider, min <= nodes <= max, the provider's settings.
void ReadAutoscaling(const YamlMap& pool, NodePoolSpec* spec);

// sharing_reader.cc

// The `sharing:` mapping of a pool or an import (validated against a GPU
// model by the caller).
SharingConfig ReadSharing(const YamlMap& pool);

// distribution_reader.cc

// The distribution under `key` of `m` into `out`: a number (constant) or
// one of DistributionKinds() with its parameters in range.
void ReadDistribution(const YamlMap& m, std::string_view key,
                      Distribution* out);

// served_requests.cc

// Whether the class's pods may land on the pool's nodes (false only when
// they certainly cannot: its `gpushare.io/node-pool` selector names another
// pool, or a NoSchedule/NoExecute taint is not tolerated).
bool ClassMayLandOn(const WorkloadClassSpec& spec, const NodePoolSpec& pool);

// Refuses, at the resource's key under the class's `requests`, an extended
// resource that no pool the class's pods may land on advertises (its pods
// would stay Pending for ever): a pool is left out only when it certainly
// cannot hold them — the class's `gpushare.io/node-pool` selector names
// another pool, or the pool has a NoSchedule or NoExecute taint the class
// does not tolerate. Checked against the pools as written: compare's and
// plan's scheme changes drop written requests and translate the needs.
void CheckRequestsServed(const YamlMap& c, const WorkloadClassSpec& spec,
                         const std::vector<NodePoolSpec>& pools,
                         const Catalog& catalog);

// dra_claim_reader.cc

// A class's `dra_claim: {pods_per_claim: K}` into spec.pods_per_claim,
// after its node_selector, tolerations and gang are read. Refused, located:
// K outside 1..256 (ResourceClaimReservedForMaxSize), a class whose pods go
// to no `devices: dra` pool (the first pool they may land on, as pods are
// routed), a pool with `dra.extended_resource: true` (KEP-5004 pods name no
// claim), K > 1 on a MIG pool (pods sharing a MIG device are not
// modelled), and K > 1 with a gang.
void ReadDraClaim(const YamlMap& c, const std::vector<NodePoolSpec>& pools,
                  WorkloadClassSpec* spec);

// workload_class_reader.cc

// The values of a class's `class` key.
const std::vector<std::string>& ClassNames();

// One item of `workload.classes`; `names` holds the classes read so far
// (duplicates are refused) and receives this one's.
WorkloadClassSpec ReadClass(const std::string& file, const YAML::Node& node,
                            double horizon_s, const Catalog& catalog,
                            const std::vector<NodePoolSpec>& pools,
                            const std::vector<PriorityClass>& priority_classes,
                            const KueueConfig& queues,
                            const KaiConfig& kai_queues,
                            std::vector<std::string>* names);

// engine_reader.cc

// A class's `engine:`: a name (vllm, tgi, none) sets `*kind` and gives
// null; a mapping (inference classes only) also gives the engine's memory
// model, its weights checked against the largest GPU of `pools`.
std::shared_ptr<const LlmEngine> ReadEngine(
    const YamlMap& c, WorkloadClass workload_class, const Catalog& catalog,
    const std::vector<NodePoolSpec>& pools, InferenceEngine* kind);

// A class's engine against its pods' GPUs (once the class is read): a
// tensor_parallel of N needs gpus: N and a pool that is not MIG; an engine
// on several GPUs needs tensor_parallel. Errors at the engine's keys.
void CheckEngineDevices(const YamlMap& c, const WorkloadClassSpec& spec,
                        const std::vector<NodePoolSpec>& pools);

// workload_reader.cc

// The `workload:` section against the pools, priority classes and queues
// read before it.
WorkloadSpec ReadWorkload(const YamlMap& top, double scenario_horizon_s,
                          const std::vector<PriorityClass>& priority_classes,
                          const KueueConfig& queues,
                          const KaiConfig& kai_queues,
                          const std::vector<NodePoolSpec>& pools,
                          const Catalog& catalog);

// scheduler_reader.cc

// The `scheduler:` section (defaults: kube-scheduler's).
SchedulerProfile ReadScheduler(const YamlMap& top);

// fault_reader.cc

// The `faults:` list against the scenario's pools.
std::vector<FaultSpec> ReadFaults(const YamlMap& top,
                                  const std::vector<NodePoolSpec>& pools);

}  // namespace scenario_internal
}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_SCENARIO_SECTIONS_H_
