// Pod: one workload unit, with scheme-independent needs and the Kubernetes
// fields the scheduler reads.
//
// Contract (docs/model.md §3): `needs` says what the work requires of a GPU —
// `gpus` whole GPUs (>= 1, integral) or a fraction of one (0 < gpus < 1) or
// none (0), the memory footprint per GPU, the SM demand and duty cycle, the
// work or lifetime, and for inference the request rate and SLO. `requests`
// are the resource requests a user wrote (kubectl import) or that a request
// translator wrote for the pool's sharing scheme (workload/request_translator
// .h); the scheduler only reads `requests`, the node selector, affinity and
// tolerations.

#ifndef GPUSHARE_WORKLOAD_POD_H_
#define GPUSHARE_WORKLOAD_POD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {

struct LlmEngine;  // llm_engine.h

enum class WorkloadClass { kTraining, kInference, kBatch, kDev };
std::string_view WorkloadClassName(WorkloadClass c);
bool ParseWorkloadClass(std::string_view text, WorkloadClass* c);

// A node selector requirement (v1.NodeSelectorRequirement).
struct NodeSelectorRequirement {
  enum class Operator { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };
  std::string key;
  Operator op = Operator::kIn;
  std::vector<std::string> values;
};
// Requirements ANDed (v1.NodeSelectorTerm, matchExpressions).
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
};
struct PreferredSchedulingTerm {
  int32_t weight = 1;  // 1..100
  NodeSelectorTerm preference;
};

// v1.Toleration. An empty key with operator Exists tolerates everything; an
// empty effect matches every effect.
struct Toleration {
  enum class Operator { kEqual, kExists };
  std::string key;
  Operator op = Operator::kEqual;
  std::string value;
  bool any_effect = true;
  TaintEffect effect = TaintEffect::kNoSchedule;

  bool Tolerates(const Taint& taint) const;
};

struct PodNeeds {
  double gpus = 0;              // whole GPUs (integral >= 1) or a fraction
  int64_t gpu_memory_mib = 0;   // footprint per GPU (actual peak)
  double sm_demand = 1.0;       // fraction of a full GPU's SMs it can use
  double duty = 1.0;            // fraction of time with GPU work, alone
  double work_s = 0;            // seconds alone on a full reference GPU
  double lifetime_s = 0;        // services: seconds until deleted (0: none)
  double request_rate = 0;      // inference: requests per second
  double gpu_ms_per_request = 0;  // inference: GPU time per request, alone
  double slo_p99_ms = 0;        // inference: p99 latency objective
  // LLM engines (Pod::llm_engine): p99 time to first token and per output
  // token objectives; 0: none.
  double slo_ttft_p99_ms = 0;
  double slo_tpot_p99_ms = 0;
};

// The size a pod's template asks for per GPU (docs/model.md §3): a
// Deployment or Job has one pod template, so every pod of a generated class
// asks the same — its class's `request_percentile` of footprint and SM
// demand (WorkloadClassSpec). The request translator sizes HAMi's gpumem
// and gpucores and chooses the MIG profile from it instead of the pod's own
// needs, so a pod whose footprint is above it is OOM-killed under memory
// isolation, as in a cluster. gpu_memory_mib < 0: none — the pod is
// translated from its own needs (trace pods: each keeps its own request).
struct TemplateRequest {
  int64_t gpu_memory_mib = -1;
  double sm_demand = 0;
  bool set() const { return gpu_memory_mib >= 0; }
};

// v1.PodSpec restartPolicy. Always and OnFailure restart a failed
// container in place after kubelet's back-off; Never gives up at once.
enum class RestartPolicy { kAlways, kOnFailure, kNever };

// v1.PodSpec preemptionPolicy (from the pod's PriorityClass): whether a
// pending pod may evict pods of lower priority to fit.
enum class PreemptionPolicy { kPreemptLowerPriority, kNever };

// v1 terminationGracePeriodSeconds when a pod does not set it.
inline constexpr double kDefaultTerminationGracePeriodS = 30;

struct Pod {
  std::string name;
  std::string namespace_name = "default";
  std::string tenant;
  // The tenant class the pod belongs to: the workload class spec it was
  // generated from ("prod-inference"); compare reports and selects per
  // tenant class.
  std::string tenant_class;
  WorkloadClass workload_class = WorkloadClass::kBatch;
  // Imported from one of the import's system namespaces (kubectl; tenant
  // class "system"): compare never offers such pods a GPU scheme.
  bool in_system_namespace = false;
  int32_t priority = 0;
  std::string priority_class_name;  // "" when none (priority given as such)
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  // A preempted pod keeps its devices this long (SIGTERM to SIGKILL) before
  // they are free.
  double termination_grace_period_s = kDefaultTerminationGracePeriodS;
  // The work saves a checkpoint every this many seconds of progress on the
  // reference GPU (0: never): a preempted or failed attempt loses only the
  // work since its last checkpoint and resumes from there.
  double checkpoint_interval_s = 0;
  // Gang scheduling (scheduler-plugins Coscheduling): the PodGroup it belongs
  // to ("" none), the group's minMember and scheduleTimeoutSeconds.
  std::string pod_group;
  // Its LocalQueue in its namespace (label kueue.x-k8s.io/queue-name; ""
  // none: Kueue does not manage it).
  std::string queue_name;
  int gang_min_member = 0;
  double gang_timeout_s = 0;
  // spec.nodeName of a pod already running on an imported node: it is bound
  // there on arrival without a scheduling cycle (kubelet admits it), when
  // the cluster has that node; otherwise it is scheduled like any pod.
  std::string node_name;
  // The devices it holds on node_name as the cluster recorded them (kubectl
  // import: the DRA allocation's device names): bound on arrival, it is
  // given those devices where they still have room (DevicePlugin::
  // AllocateRecorded), not a fresh first fit. Empty: none recorded.
  std::vector<std::string> recorded_devices;
  // Running in the kubectl dump it was imported from: the replay of today
  // should run it as the cluster does (metrics/replay_check.h).
  bool running_in_dump = false;
  // metadata.generateName of a kubectl pod ("web-7d9f8-": the prefix its
  // controller names its pods with; "" none): the recorded series of the
  // controller's earlier pods stand for it (docs/model.md §3.2).
  std::string generate_name;
  // A kubectl pod's status.startTime, else metadata.creationTimestamp, in
  // Unix seconds; < 0 when the dump has neither. Only the check of a
  // recording's time against the dump's reads it (docs/scenario.md
  // "Measured needs").
  double dump_time_unix_s = -1;
  double arrival_s = 0;
  RestartPolicy restart_policy = RestartPolicy::kOnFailure;
  // Its work runs one process per device it is given, each process choosing
  // its own device (its class's `multi_process: true`): it can use several
  // MIG instances, which one CUDA process cannot (a process enumerates one
  // MIG device; docs/model.md §3). false: one process — or ranks launched
  // per visible GPU, as torchrun does — so a pod given several MIG
  // instances cannot run (request_translator.h).
  bool multi_process = false;
  PodNeeds needs;
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  // What scoring counts for cpu and memory (NonZeroOf below), when it is not
  // the default reading of cpu_milli / memory_mib: a kubectl pod whose
  // containers name an explicit 0, or whose containers' requests are partly
  // absent (each absent one counts 100m / 200 MiB). -1: the default.
  int64_t nonzero_cpu_milli = -1;
  int64_t nonzero_memory_mib = -1;
  // nodeSelector, required node affinity (terms ORed), preferred affinity.
  Labels node_selector;
  std::vector<NodeSelectorTerm> required_affinity;
  std::vector<PreferredSchedulingTerm> preferred_affinity;
  std::vector<Toleration> tolerations;
  // Extended resource requests by name as the user wrote them (kubectl
  // import); when set, translators keep them.
  std::vector<std::pair<std::string, int64_t>> explicit_requests;
  // The DeviceClass its ResourceClaims ask (kubectl import of DRA claims:
  // "gpu.nvidia.com" or a per-profile MIG class); "" for other pods.
  // TargetPool prefers a DRA pool that serves it (request_translator.h).
  std::string dra_device_class;
  // The catalog GPU models its claims' selectors allow (a productName
  // selector; kubectl import), sorted; empty: any. TargetPool and the
  // simulation hold the pod to pools of those models.
  std::vector<std::string> dra_gpu_models;
  // What its imported claim asks of each device's `memory` capacity
  // (capacity.requests.memory, in MiB rounded up as the driver's 1Mi
  // requestPolicy step rounds it); 0: the claim names no memory (the
  // policy's default applies); -1: not an imported claim (the pool's
  // request translator decides, request_translator.h).
  int64_t dra_claim_memory_mib = -1;
  // The shared ResourceClaim it references by name (spec.resourceClaims[].
  // resourceClaimName; a class's `dra_claim: {pods_per_claim: K}`): K pods
  // share one claim's allocation (sched/scheduler.h). "" for a claim of its
  // own from a ResourceClaimTemplate, or none.
  std::string dra_claim;
  // Set only on the scheduler's copy of a pod whose shared claim is
  // allocated: the claim's node (its allocation's nodeSelector), the only
  // node its Filter passes; its requests then hold no device.
  std::string dra_claim_node;
  // The DynamicResources Filter's reason on every node for a claim no
  // device can satisfy (kubectl import: "cannot allocate all claims"); ""
  // when none. Such a pod is unschedulable from its arrival.
  std::string dra_unallocatable;
  // The LLM serving engine it runs, shared by its class (null: none
  // modelled). Its memory footprint is then what the engine pre-allocates
  // of the memory it sees at start, not needs.gpu_memory_mib (llm_engine.h).
  std::shared_ptr<const LlmEngine> llm_engine;
  // Its class's request size (generated pods); unset for trace pods.
  TemplateRequest template_request;
  // All requests (cpu, memory, extended) the scheduler uses.
  ResourceList requests;
};

// The pod's cpu and memory as NodeResourcesFit's scoring and the node's
// NonZeroRequested count them: its own nonzero_* when set, else its
// requests with 0 read as absent (node.h DefaultNonZeroRequests).
NonZeroRequests NonZeroOf(const Pod& pod);

// Whether `labels` satisfy a requirement / a term (v1 semantics: Gt and Lt
// compare integers; a missing key fails In, Exists, Gt and Lt).
bool Matches(const NodeSelectorRequirement& requirement, const Labels& labels);
bool Matches(const NodeSelectorTerm& term, const Labels& labels);
// Whether `labels` carry every key of `selector` with its value (a
// nodeSelector; a ResourceFlavor's nodeLabels).
bool MatchesSelector(const Labels& selector, const Labels& labels);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_POD_H_
