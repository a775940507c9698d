// Collector: builds a SimulationResult by observing a simulation run.
//
// Contract: attach to Simulation::Run(); Result() is complete after
// OnFinish. Per pod it records wait (first start − arrival), the run time of
// the last attempt and the slowdown against running alone on a whole GPU of
// its node, the devices of its last start (indexes into
// SimulationResult::devices), restarts, OOM and fault kills and the
// outcome. Per sample it averages each pool's devices weighted by their
// GPU-equivalents (a MIG
// instance counts its share of the GPU's SMs). Each pod's GPU-hours are the
// GPU-equivalents of its grants (cluster/gpu_share.h) held from its first
// start to its end, less the time it waited again after a preemption,
// priced like its pool's GPUs; the time from each eviction to its next
// start (or its end) is its eviction_down_s. With `record_devices` the
// Collector also keeps every device's samples, the devices each pod holds
// from bind to end, every inference pod's latency per interval, the share of
// its device's time each pod on a time-shared device holds and, at each
// sample, what each node advertises of each extended resource (for --csv
// and --openmetrics). Cost = the pool's GPUs x the run's duration x the
// model's price per GPU-hour. The patrol alerts (PatrolEvaluator with the
// scenario's thresholds) are always evaluated.

#ifndef GPUSHARE_METRICS_COLLECTOR_H_
#define GPUSHARE_METRICS_COLLECTOR_H_

#include <utility>
#include <unordered_map>
#include <vector>

#include "gpushare/metrics/queue_collector.h"
#include "gpushare/metrics/patrol_evaluator.h"
#include "gpushare/metrics/results.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {

class Collector : public SimulationObserver {
 public:
  // `scenario` and `seed` label the result.
  Collector(const Simulation& simulation, std::string scenario, uint64_t seed,
            bool record_devices);

  void OnRunStart(const Cluster& cluster, const std::vector<Pod>& pods,
               const std::vector<DomainInfo>& domains) override;
  void OnUnschedulable(double t, PodIndex pod,
                       const std::string& message) override;
  void OnStart(double t, PodIndex pod, int node, double alone_s) override;
  void OnEngineStart(double t, PodIndex pod, int64_t kv_tokens,
                     int64_t max_seqs) override;
  void OnFailure(double t, PodIndex pod, PodFailure why,
                 const std::string& message, double lost_work_s) override;
  void OnRestart(double t, PodIndex pod) override;
  void OnPreempted(double t, PodIndex pod, PodIndex preemptor,
                   double lost_work_s) override;
  void OnEvicted(double t, PodIndex pod, const std::string& reason,
                 double lost_work_s) override;
  void OnRequeued(double t, PodIndex pod) override;
  void OnGangTimeout(double t, PodIndex pod) override;
  void OnWorkloadAdmitted(double t, int cluster_queue,
                          std::span<const PodIndex> pods,
                          bool borrowed) override;
  void OnWorkloadEvicted(double t, int cluster_queue, int preemptor_queue,
                         std::string_view reason,
                         std::span<const PodIndex> pods) override;
  void OnEnd(double t, PodIndex pod, PodEnd how,
             const std::string& message) override;
  void OnFault(double t, int domain, int pods_killed) override;
  void OnLatency(double t, PodIndex pod, const Latency& latency) override;
  void OnSample(double t, const std::vector<DomainState>& domains,
                int pending) override;
  void OnPodShare(double t, PodIndex pod, int domain,
                  double gpu_time_ratio) override;
  void OnFinish(double t, int64_t events, int64_t cycles) override;

  const SimulationResult& result() const { return result_; }

 private:
  // With record_devices: the nodes and their
  // extended resources.
  void RecordLayout(const Cluster& cluster);
  // A service's attempt ended by a kill or an eviction: its up time since
  // session_start_ is lost (PodRecord::lost_session_s).
  void EndSession(double t, PodIndex pod);

  const Simulation& simulation_;
  bool record_devices_;
  PatrolEvaluator patrol_;
  SimulationResult result_;
  std::vector<double> attempt_start_;  // per pod
  // Per pod: since when it holds its devices (-1: not bound), and how long
  // it held them before (bindings ended by preemption).
  std::vector<double> hold_start_;
  std::vector<double> held_s_;
  // Per pod: when it was last evicted and has not started since (-1: not
  // evicted).
  std::vector<double> evicted_at_;
  // Per service: when its current attempt started running (-1: not
  // running), for PodRecord::lost_session_s.
  std::vector<double> session_start_;
  QueueCollector queues_;
  std::vector<int> pod_pool_;          // per pod: pool of its node, or -1
  // Per shared ResourceClaim (Pod::dra_claim): the pods that name it.
  std::unordered_map<std::string, int> claim_pods_;
  std::vector<int> device_pool_;       // per domain
  // node -> GPU index -> its first domain (MIG instances follow).
  std::vector<std::vector<int>> gpu_domain_;
  std::vector<int> domain_gpu_;  // per domain: its GPU, dense
  std::vector<int> gpu_pool_;    // per GPU: its pool
  std::vector<int> first_holding_;     // per pod: into device_holdings, -1
  // Per node: (index into extended_resources, its ResourceId).
  std::vector<std::vector<std::pair<int, int>>> node_resources_;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_COLLECTOR_H_
