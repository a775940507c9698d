// The synthetic workload generator: pods of the classes training,
// inference, batch and dev, with tenants and priorities.
//
// Contract: GenerateWorkload() draws, for each class, arrivals as a Poisson
// process of `arrival_rate_per_s` over [0, horizon_s), or, when count > 0,
// exactly `count` arrivals in the class's window — [0, horizon_s), or
// [0, count / arrival_rate_per_s) when a rate is given and that is shorter —
// as a Poisson process conditioned on that many arrivals there (`count`
// sorted uniform points): every generated arrival falls inside the
// horizon. It draws each pod's needs from the class's distributions, its
// tenant uniformly from
// `tenants`, and returns all pods sorted by arrival time (ties: class order,
// then draw order), named "<class name>-<n>" with n counting within the
// class. Every random draw comes from Rng(seed) forked per class, so adding a
// class does not change the others' pods. Validate() throws InputError on an
// invalid spec (unknown class, negative rates, gpus not a fraction < 1 or a
// whole number, duty or sm_demand outside [0, 1], ...). A draw above its
// field's upper bound (docs/scenario.md: 16 GPUs, 10^8 MiB, 10^9 s, ...;
// only an exponential or an unclamped lognormal can draw one) is clamped to
// it, so a pod never asks for more than a class may write.

#ifndef GPUSHARE_WORKLOAD_GENERATOR_H_
#define GPUSHARE_WORKLOAD_GENERATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/workload/distribution.h"
#include "gpushare/workload/llm_engine.h"
#include "gpushare/workload/pod.h"
#include "gpushare/workload/trace_workload.h"

namespace gpushare {

// The LLM serving engine a class's containers run (`engine`, docs/emit.md):
// vLLM and TGI pre-allocate most of the GPU memory they see, so on a GPU
// shared without memory isolation their share must be capped by a flag.
enum class InferenceEngine { kNone, kVllm, kTgi };
// "none", "vllm", "tgi".
std::string_view InferenceEngineName(InferenceEngine e);

// The percentile of a class's footprint and SM demand its pods ask for by
// default (`request_percentile`, docs/model.md §3).
inline constexpr double kDefaultRequestPercentile = 95;

struct WorkloadClassSpec {
  std::string name;                     // "inference", "team-a-training", ...
  WorkloadClass workload_class = WorkloadClass::kBatch;
  std::vector<std::string> tenants = {"default"};
  int32_t priority = 0;
  // The PriorityClass its pods name ("" none); `priority` and
  // `preemption_policy` are then that class's.
  std::string priority_class_name;
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  double termination_grace_period_s = kDefaultTerminationGracePeriodS;
  double checkpoint_interval_s = 0;     // Pod::checkpoint_interval_s
  // Gang jobs: > 0 makes every arrival a PodGroup of this many pods with the
  // same needs, named <class>-<n>-<k>, admitted when `gang_min_member` of
  // them are bound, released after `gang_timeout_s` otherwise.
  // Its LocalQueue (the kueue.x-k8s.io/queue-name label; "" none).
  std::string queue_name;
  int gang_size = 0;
  int gang_min_member = 0;                // 0: gang_size
  double gang_timeout_s = 60;             // Coscheduling's default
  RestartPolicy restart_policy = RestartPolicy::kOnFailure;
  // `multi_process: true`: one process per device (Pod::multi_process).
  bool multi_process = false;
  double arrival_rate_per_s = 0;        // Poisson rate
  // > 0: exactly this many pods (jobs of a gang), arriving within
  // [0, horizon_s) — within [0, count / arrival_rate_per_s) when a rate is
  // given too and that window is shorter.
  int64_t count = 0;
  // The class's arrivals begin here: every window above starts at
  // arrival_start_s instead of 0 and the horizon left is horizon_s −
  // arrival_start_s (a later shift: a night shift of a day/night mix).
  double arrival_start_s = 0;
  // Needs (PodNeeds fields). gpus: whole GPUs (1, 2, 4, 8) or a fraction.
  Distribution gpus = Distribution::Constant(1);
  Distribution gpu_memory_mib = Distribution::Constant(8192);
  Distribution sm_demand = Distribution::Constant(0.5);
  Distribution duty = Distribution::Constant(1.0);
  Distribution work_s = Distribution::Constant(3600);   // 0 for services
  Distribution lifetime_s = Distribution::Constant(0);  // services
  Distribution request_rate = Distribution::Constant(0);
  // GPU time per request alone on the reference GPU (relative speed 1).
  Distribution gpu_ms_per_request = Distribution::Constant(0);
  // When the scenario gave it as measured on another model: that model and
  // its relative speed, by which the value was multiplied ("" and 1: given
  // in reference time).
  std::string gpu_ms_per_request_on;
  double gpu_ms_per_request_speed = 1;
  Distribution slo_p99_ms = Distribution::Constant(0);
  // An LLM engine's TTFT and TPOT p99 objectives, ms (0: none).
  double slo_ttft_p99_ms = 0;
  double slo_tpot_p99_ms = 0;
  Distribution cpu_milli = Distribution::Constant(4000);
  Distribution memory_mib = Distribution::Constant(16384);
  // Kubernetes placement fields copied to every pod of the class.
  Labels node_selector;
  std::vector<Toleration> tolerations;
  // Extended resource requests written by hand ("nvidia.com/gpumem" →
  // 10000): when given, the pods keep them instead of translated ones.
  std::vector<std::pair<std::string, int64_t>> requests;
  // The percentile (1..100) of the class's footprint and SM demand its pod
  // template asks for (ClassTemplateRequest, docs/model.md §3).
  double request_percentile = kDefaultRequestPercentile;
  // true (`request_sizing: per_pod`): the class is a population of
  // workloads, each with its own pod template sized to its pod's own
  // footprint and SM demand — a platform where every user submits their own
  // Job. Its pods carry no template request and are translated from their
  // own needs, as trace pods are; `request_percentile` does not apply.
  bool request_per_pod = false;
  // `dra_claim: {pods_per_claim: K}` (1..kResourceClaimReservedForMaxSize):
  // with K > 1 the class's pods reference shared ResourceClaims, K
  // consecutive pods (in arrival order) per claim: pod n references
  // `<class>-claim-<n / K>` (Pod::dra_claim). 1: a claim per pod from the
  // class's ResourceClaimTemplate.
  int pods_per_claim = 1;
  // The serving engine its containers run (emit pod-patches writes its
  // memory cap on schemes without memory isolation).
  InferenceEngine engine = InferenceEngine::kNone;
  // Its memory model when `engine:` is a mapping (null otherwise): every
  // pod of the class shares it (Pod::llm_engine).
  std::shared_ptr<const LlmEngine> llm_engine;
};

struct WorkloadSpec {
  std::vector<WorkloadClassSpec> classes;  // may be empty with a trace
  double horizon_s = 3600;  // generated arrivals in [0, horizon_s)
  TraceWorkload trace;      // pods read from a file (trace.pods non-null)

  void Validate() const;
};

std::vector<Pod> GenerateWorkload(const WorkloadSpec& spec, uint64_t seed);

// The one size every pod of class `c` asks for: the `request_percentile`
// quantile of its gpu_memory_mib distribution (capped at the field's bound
// and rounded as a pod's draw is) and of its sm_demand (in [0, 1]) —
// Distribution::Quantile, computed from the class's distributions rather
// than its drawn pods, so every seed, a pilot's shorter workload and the
// emitted pod patches get the same number. GenerateWorkload sets it on each
// pod of the class (Pod::template_request).
TemplateRequest ClassTemplateRequest(const WorkloadClassSpec& c);

// Every pod of the workload: the generated ones merged with the trace's by
// arrival (ties: trace pods first, each side in its own order). Without
// `trace.keep_explicit_requests`, trace pods lose their explicit requests
// (they are then translated from their needs).
std::vector<Pod> BuildWorkload(const WorkloadSpec& spec, uint64_t seed);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_GENERATOR_H_
