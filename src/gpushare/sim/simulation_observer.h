// SimulationObserver: what a simulation run reports as it happens.
//
// Contract: the Simulation calls these hooks in simulated-time order; the
// observer only reads (metrics collectors, progress bars). A domain is an
// execution domain (a whole GPU or a MIG instance), numbered densely.
//
// Pods: a PodIndex is the pod's number in the workload's arrival order
// (0, 1, ...). The Simulation keeps a pod only while it lives: its pod(),
// target_pool() and allocation() (sim/simulation.h) may be read from its
// OnArrival until the return of the OnEnd of its final end (every OnEnd is
// final: succeeded, deleted, failed for good, admission failed,
// unschedulable), and through OnFinish for a pod still alive at the end of
// the run (those get no OnEnd: running, pending, terminating). After that
// its memory may be released and the Simulation aborts on a read of it: an
// observer that needs anything of a pod later (its name in another pod's
// message, its needs at the next sample) copies it in its own hooks. A pod
// named in a hook of another pod (a preemptor, a workload's pods) may have
// ended already. Pods whose arrival comes after the end of the run get one
// OnNotArrived each, after the last event and before OnFinish, in PodIndex
// order, during which their pod() may be read.

#ifndef GPUSHARE_SIM_SIMULATION_OBSERVER_H_
#define GPUSHARE_SIM_SIMULATION_OBSERVER_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/exec/latency_model.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

using PodIndex = int;

// A static description of one execution domain.
struct DomainInfo {
  int node = 0;
  int gpu = 0;
  int mig_instance = -1;     // -1: the whole GPU
  std::string profile;       // MIG profile name, "" for a whole GPU
  int64_t memory_mib = 0;    // of the GPU or instance
  double gpu_equivalents = 1;  // instance SMs / GPU SMs, 1 for a GPU
  // Its pods' contexts take turns on it: time-slicing replicas (of a GPU or
  // a MIG instance) or HAMi vGPUs.
  bool time_shared = false;
};

// The live state of one domain at a sample.
struct DomainState {
  double gpu_util = 0;
  double sm_active = 0;
  int64_t fb_used_mib = 0;
  int residents = 0;
  bool allocated = false;    // at least one pod holds it
  bool down = false;         // faulted, not yet recovered
  // Its GPU's MIG layout differs from the node's nvidia.com/mig.config (the
  // layout was lost in a GPU reset and not yet recreated).
  bool mig_config_drift = false;
  // A slot of an autoscaled pool without a node: the domain does not exist
  // now (no capacity, no cost, no DCGM sample).
  bool absent = false;
};

enum class PodEnd {
  kSucceeded,
  kDeleted,
  kFailed,          // gave up after restarts
  kAdmissionFailed,
  kUnschedulable,   // never fits its pool (translation said so)
};

// Why a running pod failed: CUDA out of memory, a GPU fault, or its
// container exiting with an error as it starts (its ranks collide on one
// device: Simulation::RankCollision).
enum class PodFailure { kOutOfMemory, kGpuFault, kStartError };

class SimulationObserver {
 public:
  virtual ~SimulationObserver() = default;
  // The run starts with `pod_count` pods in its workload (those that will
  // arrive and those whose arrival comes after its end).
  virtual void OnRunStart(const Cluster& /*cluster*/, int64_t /*pod_count*/,
                          const std::vector<DomainInfo>& /*domains*/) {}
  virtual void OnArrival(double /*t*/, PodIndex /*pod*/) {}
  // A pod whose arrival comes after the end of the run (after the last
  // event, before OnFinish; it never existed for the run).
  virtual void OnNotArrived(PodIndex /*pod*/) {}
  // A pending pod failed a scheduling cycle (or Kueue did not admit it)
  // with `message`. A failed cycle whose message is the one this pod's
  // previous failed cycle reported, while it waited, is not reported again.
  virtual void OnUnschedulable(double /*t*/, PodIndex /*pod*/,
                               const std::string& /*message*/) {}
  // Bound to `node` and started running (wall time alone there: alone_s).
  virtual void OnStart(double /*t*/, PodIndex /*pod*/, int /*node*/,
                       double /*alone_s*/) {}
  // A pod running an LLM engine (Pod::llm_engine) starts: its KV cache
  // holds `kv_tokens` tokens (<= 0: none; it fails at once) and it runs
  // `max_seqs` sequences at once. Called after OnStart, before any
  // OnFailure of this start.
  virtual void OnEngineStart(double /*t*/, PodIndex /*pod*/,
                             int64_t /*kv_tokens*/, int64_t /*max_seqs*/) {}
  // A running pod failed; `lost_work_s` is the work it had done in this
  // attempt, now lost (it restarts from the beginning).
  virtual void OnFailure(double /*t*/, PodIndex /*pod*/, PodFailure /*why*/,
                         const std::string& /*message*/,
                         double /*lost_work_s*/) {}
  virtual void OnRestart(double /*t*/, PodIndex /*pod*/) {}
  // DefaultPreemption chose `pod` as a victim of `preemptor`: it stops and
  // terminates (it holds its devices for its grace period); `lost_work_s`
  // is the work done since its last checkpoint, now lost.
  virtual void OnPreempted(double /*t*/, PodIndex /*pod*/,
                           PodIndex /*preemptor*/, double /*lost_work_s*/) {}
  // A node of an autoscaled pool is drained (a scale-down, a spot
  // interruption): `pod` stops and terminates (its grace period), then its
  // controller's new pod waits again (OnRequeued); `lost_work_s` as for
  // OnPreempted.
  virtual void OnEvicted(double /*t*/, PodIndex /*pod*/,
                         const std::string& /*reason*/,
                         double /*lost_work_s*/) {}
  // A preempted pod's grace period is over: its devices are free and its
  // controller's new pod (the same PodIndex) waits to be scheduled again.
  virtual void OnRequeued(double /*t*/, PodIndex /*pod*/) {}
  // A gang member held at Permit is released: its PodGroup did not reach
  // minMember within its timeout; it waits to be scheduled again.
  virtual void OnGangTimeout(double /*t*/, PodIndex /*pod*/) {}
  // Kueue admitted the workload of `pods` in ClusterQueue `cluster_queue`
  // (its index in the scenario's queues), borrowing from its cohort when
  // `borrowed`: the pods go to kube-scheduler.
  virtual void OnWorkloadAdmitted(double /*t*/, int /*cluster_queue*/,
                                  std::span<const PodIndex> /*pods*/,
                                  bool /*borrowed*/) {}
  // Kueue evicted the workload of `pods` (queue `cluster_queue`) so that one
  // of `preemptor_queue` fits: its running pods terminate (OnPreempted),
  // then it waits in its queue again.
  virtual void OnWorkloadEvicted(double /*t*/, int /*cluster_queue*/,
                                 int /*preemptor_queue*/,
                                 std::string_view /*reason*/,
                                 std::span<const PodIndex> /*pods*/) {}
  virtual void OnEnd(double /*t*/, PodIndex /*pod*/, PodEnd /*how*/,
                     const std::string& /*message*/) {}
  virtual void OnFault(double /*t*/, int /*domain*/, int /*pods_killed*/) {}
  // At each sample, for every running inference pod (request_rate > 0).
  virtual void OnLatency(double /*t*/, PodIndex /*pod*/,
                         const Latency& /*latency*/) {}
  // At each sample, before OnPodShare and OnLatency of that sample.
  virtual void OnSample(double /*t*/, const std::vector<DomainState>& /*domains*/,
                        int /*pending*/) {}
  // At each sample, for every pod resident on a time-shared domain: the
  // fraction of the domain's time its context holds.
  virtual void OnPodShare(double /*t*/, PodIndex /*pod*/, int /*domain*/,
                          double /*gpu_time_ratio*/) {}
  virtual void OnFinish(double /*t*/, int64_t /*events*/,
                        int64_t /*scheduling_cycles*/) {}
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_SIMULATION_OBSERVER_H_
