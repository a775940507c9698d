// Results of one simulation run: per pod, per device over time, per pool
// and cluster-wide. What users would read off kubectl, DCGM and Prometheus.
//
// Contract: plain values filled by the Simulation; the writers
// (metrics/*_writer.h) only format them. Times are seconds of simulated time;
// fractions are in [0, 1]; -1 marks "not applicable" (a pod that never
// started has start_s = -1).

#ifndef GPUSHARE_METRICS_RESULTS_H_
#define GPUSHARE_METRICS_RESULTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpushare/base/quantile_summary.h"
#include "gpushare/metrics/pod_summary.h"
#include "gpushare/metrics/pod_summary_store.h"
#include "gpushare/sim/elastic_pool_stats.h"

namespace gpushare {

enum class PodOutcome {
  kSucceeded,      // its work completed
  kDeleted,        // a service deleted at the end of its lifetime
  kFailed,         // gave up after failures (OOM, GPU fault) and restarts
  kUnschedulable,  // never fits (its requests exceed every node)
  kPending,        // still waiting at the horizon
  kRunning,        // still running at the horizon
  kAdmissionFailed,  // kubelet rejected it after Bind
  // Its arrival is after the end of the run (horizon_s before the
  // workload's or a trace's last arrival): never created, so not pending.
  kNotArrived,
};
const char* PodOutcomeName(PodOutcome outcome);

struct PodRecord {
  std::string name;
  std::string workload_class;
  std::string tenant_class;  // the workload class spec ("prod-inference")
  std::string tenant;
  std::string namespace_name;  // metadata.namespace
  std::string pod_group;       // its gang's PodGroup ("" none)
  std::string cluster_queue;   // Kueue's ClusterQueue ("" not Kueue's)
  std::string target_pool;  // the pool its selectors route it to ("" none)
  std::string pool;       // where it ran ("" if never bound)
  std::string node;
  // The devices it ran on (indexes into SimulationResult::devices) at its
  // last start: one per GPU or MIG instance granted; empty if never bound.
  std::vector<int> devices;
  std::string requests;   // "cpu=4000m memory=16384Mi nvidia.com/gpu=1"
  bool running_in_dump = false;  // Pod::running_in_dump
  double arrival_s = 0;
  double start_s = -1;    // first start
  double end_s = -1;
  double wait_s = -1;     // first start − arrival
  // Its part waiting for its workload's first admission by Kueue or KAI:
  // first admission − arrival (-1: outside a queue, or never admitted).
  double admission_wait_s = -1;
  double work_s = 0;      // requested work (reference-GPU seconds)
  // What it asks: whole GPUs (or a fraction, PodNeeds::gpus) and, for a
  // service, its life (PodNeeds::lifetime_s; 0: until the end of the run).
  double gpus = 0;
  double lifetime_s = 0;
  double run_s = 0;       // wall seconds spent running (last attempt)
  double alone_s = 0;     // wall seconds alone on a whole GPU of its node
  double slowdown = -1;   // run_s / alone_s
  // Devices held: GPU-equivalents of its grants (a time-slicing replica of
  // R counts 1/R, a MIG instance its share of the SMs, a HAMi vGPU the
  // largest of its memory, cores and slot shares) from first start to end,
  // and what that costs at the pool's price plus licence per GPU-hour.
  double gpu_share = 0;
  double gpu_hours = 0;
  double cost = 0;
  // The part of gpu_hours spent on work that was lost: all of it for a pod
  // that failed (gave up or was rejected by the kubelet); for a job, the
  // share lost_work_s / (work_s + lost_work_s) of it (work lost to OOM and
  // fault kills and evictions past the last checkpoint); 0 for a service.
  double wasted_gpu_hours = 0;
  // Inference pods: over the samples while running.
  int latency_samples = 0;
  int saturated_samples = 0;   // queue growing without bound
  int slo_met_samples = 0;     // p99 <= slo_p99_ms (all, without an SLO)
  // Samples that missed the SLO although the pod alone on the same device
  // would have met it: missed because of its neighbours.
  int neighbour_missed_samples = 0;
  double p50_ms = -1;          // mean over non-saturated samples
  double p99_ms = -1;          // worst over non-saturated samples
  double slo_p99_ms = 0;
  double slo_attainment = -1;  // slo_met / latency samples
  int restarts = 0;
  int oom_kills = 0;
  int fault_kills = 0;
  // A pod running an LLM engine: its KV cache in tokens and the sequences
  // it runs at once, at its last start (0 when the engine could not start);
  // -1 for other pods.
  int64_t kv_cache_tokens = -1;
  int64_t max_concurrent_seqs = -1;
  // A pod running an LLM engine: its TTFT and TPOT objectives (0: none),
  // and over its non-saturated samples the mean p50 and worst p99 of time
  // to first token and time per output token (-1: none, or not an engine).
  double slo_ttft_p99_ms = 0;
  double slo_tpot_p99_ms = 0;
  double ttft_p50_ms = -1;
  double ttft_p99_ms = -1;
  double tpot_p50_ms = -1;
  double tpot_p99_ms = -1;
  // Times DefaultPreemption or Kueue evicted it, and the work
  // (reference-GPU seconds) its failures and evictions lost past their last
  // checkpoint.
  int preemptions = 0;
  double lost_work_s = 0;
  // A service (work_s 0): the up time of its attempts that an OOM or fault
  // kill or an eviction ended (the session whose in-memory state went with
  // it; docs/model.md §10, "Lost work").
  double lost_session_s = 0;
  // Up time its evictions cost it: from each eviction to its next start
  // (its grace period, then the wait to be scheduled or admitted again), or
  // to its end or the end of the run.
  double eviction_down_s = 0;
  PodOutcome outcome = PodOutcome::kPending;
  std::string message;    // why it failed or waits
};

// One DCGM-style sample of one GPU (or MIG instance).
struct DeviceSample {
  double time_s = 0;
  int device = 0;          // index into SimulationResult::devices
  double gpu_util = 0;     // DCGM_FI_DEV_GPU_UTIL / 100
  double sm_active = 0;    // DCGM_FI_PROF_SM_ACTIVE
  int64_t fb_used_mib = 0; // DCGM_FI_DEV_FB_USED
  int pods = 0;            // pods resident
  bool down = false;       // faulted, not yet recovered
  // Under MIG: the GPU's actual layout differs from the one its node's
  // nvidia.com/mig.config names (lost in a GPU reset, not yet recreated).
  bool mig_config_drift = false;
};

// One device held by one pod, from its bind to its end (end_s = -1: still
// held at the end of the run): what kubelet's pod-resources API tells
// dcgm-exporter when it maps GPUs to pods.
struct DeviceHolding {
  int pod = 0;             // pod index
  int device = 0;          // index into devices
  int replica = -1;        // time-slicing/MPS replica (-1: none)
  double start_s = 0;
  double end_s = -1;
};

// One interval's latency of one running inference pod.
struct PodLatencySample {
  double time_s = 0;
  int pod = 0;
  double p99_ms = 0;       // +inf when its queue grows without bound
  bool slo_met = false;
};

// The share of one device's time that one pod's context holds at a sample,
// for every pod on a time-shared device (time-slicing replicas, HAMi vGPU).
struct PodShareSample {
  double time_s = 0;
  int pod = 0;
  int device = 0;
  double gpu_time_ratio = 0;
};

// One patrol alert that fired (metrics/patrol_evaluator.h), as Prometheus
// would fire the rules of `emit prometheus-rules` evaluated at every sample.
struct PatrolAlert {
  std::string name;        // GpuNoisyNeighbour, MigConfigDrift,
                           // DevicePluginStalled
  std::string severity;    // warning, critical
  std::string node;
  int gpu = -1;            // -1: the whole node
  int device = -1;         // index into devices (noisy neighbour); -1
  std::string pod;         // noisy neighbour: the pod holding most time
  double active_s = 0;     // first sample of the run of true conditions
  double fired_s = 0;      // first sample with the condition held `for`
  double resolved_s = -1;  // first sample it no longer held; -1: firing at
                           // the end of the run
  // Noisy neighbour: the largest time share while firing; stalled: the most
  // pods pending; drift: 1.
  double value = 0;
  std::string description;
};

struct NodeInfo {
  std::string name;
  std::string pool;
};

// What one node advertises of one extended resource at a sample
// (kube_node_status_allocatable of kube-state-metrics).
struct NodeResourceSample {
  double time_s = 0;
  int node = 0;            // index into nodes
  int resource = 0;        // index into extended_resources
  int64_t allocatable = 0;
};

struct DeviceInfo {
  std::string node;
  std::string pool;
  int gpu = 0;
  int mig_instance = -1;   // -1: the whole GPU
  std::string profile;     // MIG profile ("" for a whole GPU)
  std::string model;
  int64_t memory_mib = 0;
};

// Pool-wide averages of one sample.
struct PoolSample {
  double time_s = 0;
  double gpu_util = 0;
  double sm_active = 0;
  double fb_used_fraction = 0;
  double allocation = 0;   // allocated GPU-equivalents / GPUs
  int pending = 0;         // cluster-wide pending pods at that time
  int idle_gpus = 0;       // GPUs with no pod on any of their devices
};

struct PoolSummary {
  std::string name;
  std::string scheme;
  bool dra = false;  // the pool hands out its GPUs through DRA
  // How reports name a DRA pool's sharing (PoolSharingLabel: "DRA
  // time-slicing x4", "exclusive (DRA)"); empty for device-plugin pools,
  // whose scheme says it.
  std::string label;
  std::string model;
  int nodes = 0;
  int gpus = 0;
  // Whether a pod's GPU memory there is its own: no other pod can take it
  // (cluster/memory_isolation.h; false under time-slicing).
  bool memory_isolated = true;
  double gpu_hours = 0;
  double cost = 0;         // gpu_hours × price_per_hour
  double mean_gpu_util = 0;
  double mean_sm_active = 0;
  double mean_allocation = 0;
  std::vector<PoolSample> samples;
  // Dynamic MIG pools only (docs/model.md §11.2): the NVIDIA DRA driver's
  // MIG operations over the run and the sampled fragmentation.
  struct DynamicMig {
    int64_t instances_created = 0;
    int64_t instances_destroyed = 0;
    int64_t mode_enables = 0;
    int64_t mode_disables = 0;
    double creation_wait_s = 0;        // summed over creations
    double churn_per_hour = 0;         // (created + destroyed) per hour
    // Pending pods whose profile is stranded on a GPU of the pool (its
    // free slices would hold it, no placement does), per sample.
    double stranded_pending_mean = 0;
    int64_t stranded_pending_max = 0;
  };
  bool dynamic_mig = false;
  DynamicMig mig;
  // Autoscaled pools only (docs/model.md, "Elastic node pools"): nodes,
  // gpus above are the nodes at the start; gpu_hours and cost are the
  // elastic run's.
  bool elastic = false;
  ElasticPoolStats autoscaling;
};

// One (flavor, resource) quota of a ClusterQueue, or a KAI queue's GPU
// quota (flavor "", resource "gpu", in GPU units). Quantities are in the
// resource's base unit, as Kueue's metrics give them: cpu in cores, memory
// in bytes, anything else in units.
struct QueueQuota {
  std::string flavor;
  std::string resource;
  double nominal = 0;
  double borrowing_limit = -1;  // -1: none
  double lending_limit = -1;    // -1: none
  double mean_used = 0;         // over the samples
  double peak_used = 0;
  double mean_borrowed = 0;     // usage above nominal
  double peak_borrowed = 0;
  std::vector<double> used;     // per sample (the pools' sample times)
  // KAI only (empty for Kueue): the queue's fair share per sample, its mean
  // and the fair-share deviation, the mean of |used - fair share|.
  std::vector<double> fair_share;
  double mean_fair_share = 0;
  double fair_share_deviation = 0;
};

// A Kueue ClusterQueue or a KAI-Scheduler queue over the run.
struct QueueSummary {
  std::string name;
  std::string cohort;  // KAI: the parent queue
  std::string queueing_strategy;
  int64_t workloads = 0;          // created
  int64_t admissions = 0;         // re-admissions after eviction included
  int64_t borrowing_admissions = 0;
  int64_t evictions = 0;          // of its workloads, by Kueue's preemption
  // Evictions its workloads caused, by kueue_preempted_workloads_total's
  // reason (InClusterQueue, InCohortReclamation, ...).
  std::vector<std::pair<std::string, int64_t>> preempted_by_reason;
  int64_t pending_at_end = 0;     // workloads never or no longer admitted
  // From creation to first admission, over the admitted workloads.
  double mean_admission_wait_s = 0;
  double p99_admission_wait_s = 0;
  // Its pods' evictions (Kueue's and DefaultPreemption's) and work lost.
  int64_t pod_preemptions = 0;
  double lost_work_s = 0;
  std::vector<QueueQuota> quotas;
  // Per sample: workloads waiting to be tried (active) and set aside until
  // quota is released (inadmissible), as kueue_pending_workloads' status.
  std::vector<int64_t> pending_active;
  std::vector<int64_t> pending_inadmissible;
  // Samples taken, and those at which it was held at its quota with room
  // for its pods on its flavor's nodes: it had workloads waiting for
  // admission, its usage of a GPU resource of a flavor was at or above its
  // quota there (Kueue's nominal quota; KAI's limit, none without one), and
  // the flavor's nodes had free units of that resource — as much as the
  // least one of its pods asks: a time-sliced replica, a MIG instance, a
  // HAMi slot, a whole GPU (KAI: a GPU of the cluster with no pod on any of
  // its devices; docs/model.md §4.3). `mean_free_at_quota`: those free
  // units, mean over such samples, of `free_at_quota_resource` (the
  // resource's name, or "whole GPUs"); `mean_idle_gpus_at_quota`: the GPUs
  // with no pod on any device then.
  int64_t samples = 0;
  int64_t idle_at_quota_samples = 0;
  double mean_idle_gpus_at_quota = 0;
  double mean_free_at_quota = 0;
  std::string free_at_quota_resource;
  // When its workloads were admitted and evicted (for the counters).
  std::vector<double> admitted_at;
  std::vector<double> evicted_at;
};

struct SimulationResult {
  std::string scenario;
  uint64_t seed = 0;
  double end_s = 0;            // simulated time at the end (makespan)
  int64_t pods = 0;
  int64_t succeeded = 0;
  int64_t failed = 0;
  int64_t unschedulable = 0;
  int64_t oom_kills = 0;
  int64_t fault_kills = 0;
  int64_t preemptions = 0;      // evictions by DefaultPreemption
  int64_t gang_timeouts = 0;    // gang members released at Permit's timeout
  int64_t faults = 0;
  double max_blast_radius = 0;  // most pods killed by one fault
  double mean_wait_s = 0;       // over pods that started; -1 when none did
  double p99_wait_s = 0;
  double mean_slowdown = 0;
  double throughput_per_h = 0;  // completed pods per hour
  double completed_work_s = 0;  // work of the jobs that completed
  // Work done by attempts that then failed or were preempted, past their
  // last checkpoint.
  double lost_work_s = 0;
  double goodput = -1;  // completed / (completed + lost) work; -1: no work
  double slo_attainment = -1;   // inference samples meeting their SLO
  double cost = 0;
  std::vector<PoolSummary> pools;
  // One summary per pod that arrived, read in pod index order with
  // ForEach(): what reports, compare and plan read of the pods
  // (metrics/pod_summary.h). Past a million pods they are kept in an
  // unnamed temporary file (metrics/pod_summary_store.h). A pod whose
  // arrival is after the end of the run has none (`pods` counts it).
  PodSummaryStore pod_summaries;
  PodTexts pod_texts;            // the summaries' strings
  std::vector<int> pod_devices;  // the summaries' devices (per-pod detail)
  // Every pod's record, indexed by pod, only when the Collector is asked to
  // keep them (CollectorOptions::keep_pod_records: tests and small API
  // users; memory grows with the pods). Readers read pod_summaries.
  std::vector<PodRecord> pod_records;
  // Every eviction by DefaultPreemption: when, the victim, the preemptor
  // (pod indexes), in time order.
  struct Preemption {
    double time_s = 0;
    int pod = -1;
    int preemptor = -1;
  };
  std::vector<Preemption> preemption_events;
  // Kueue's ClusterQueues or KAI's queues (none: off), and which.
  std::string queue_system;  // "Kueue", "KAI-Scheduler" or ""
  std::vector<QueueSummary> queues;
  std::vector<DeviceInfo> devices;
  // When recorded (Collector's record_devices): samples of every device,
  // the devices each pod held, inference latency per interval and the
  // extended resources each node advertised at each sample.
  std::vector<DeviceSample> device_samples;
  std::vector<DeviceHolding> device_holdings;
  std::vector<PodLatencySample> latency_samples;
  std::vector<PodShareSample> pod_share_samples;
  std::vector<NodeInfo> nodes;
  std::vector<std::string> extended_resources;  // "nvidia.com/gpu", sorted
  std::vector<NodeResourceSample> node_samples;
  // Patrol alerts in the order they fired (always evaluated).
  std::vector<PatrolAlert> alerts;
  int64_t events = 0;
  int64_t scheduling_cycles = 0;
  // The scenario's model.eviction_warning_per_pod: reports warn about pods
  // evicted more often.
  int eviction_warning_per_pod = 3;
  // The scenario's model.quantile_exact_limit and
  // quantile_relative_accuracy: how the run's percentiles (p99 waits) and
  // those computed from it (ClassMetrics) are taken.
  QuantileOptions quantiles;

  const std::string& text(TextId id) const { return pod_texts[id]; }
  // The summary of pod `index`, nullptr when it has none.
  std::optional<PodSummary> FindPod(int64_t index) const;
};

// Rebuilds `result`'s pod summaries (with per-pod detail) from its
// pod_records, leaving out pods that never arrived (PodOutcome::kNotArrived):
// for results assembled by hand.
void SummarizePodRecords(SimulationResult* result);
// `result` with its summaries rebuilt so (tests).
SimulationResult WithPodSummaries(SimulationResult result);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_RESULTS_H_
