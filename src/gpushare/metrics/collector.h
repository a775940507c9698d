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
//
// What is kept, and for how long (docs/model.md §4.5): a pod's PodRecord
// and its bookkeeping live from its OnArrival to its final OnEnd (or the
// end of the run). Then the record is final: it goes to every PodRecordSink
// (the streamed per-pod outputs), in the order pods end (those alive at the
// end of the run in pod order), and its compact PodSummary to the result;
// the record is released. The Collector reads a pod of the Simulation only
// in its hooks, while the pod lives, never after the run.

#ifndef GPUSHARE_METRICS_COLLECTOR_H_
#define GPUSHARE_METRICS_COLLECTOR_H_

#include <utility>
#include <unordered_map>
#include <vector>

#include "gpushare/metrics/queue_collector.h"
#include "gpushare/metrics/patrol_evaluator.h"
#include "gpushare/metrics/pod_record_sink.h"
#include "gpushare/metrics/results.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {

struct CollectorOptions {
  // Keep the per-device series (see above).
  bool record_devices = false;
  // Keep each pod's name and devices in its summary (the per-device outputs
  // and the HTML GPU timeline name pods and draw their devices).
  bool pod_detail = false;
  // Also keep every pod's PodRecord in SimulationResult::pod_records
  // (tests, small API users): memory grows with the pods.
  bool keep_pod_records = false;
};

class Collector : public SimulationObserver {
 public:
  // `scenario` and `seed` label the result.
  Collector(const Simulation& simulation, std::string scenario, uint64_t seed,
            CollectorOptions options);
  // Keeps every record and its detail (CollectorOptions::keep_pod_records).
  Collector(const Simulation& simulation, std::string scenario, uint64_t seed,
            bool record_devices)
      : Collector(simulation, std::move(scenario), seed,
                  CollectorOptions{record_devices, true, true}) {}

  // `sink` (outliving the run) receives every final record.
  void AddPodSink(PodRecordSink* sink) { sinks_.push_back(sink); }

  void OnRunStart(const Cluster& cluster, int64_t pod_count,
                  const std::vector<DomainInfo>& domains) override;
  void OnArrival(double t, PodIndex pod) override;
  void OnNotArrived(PodIndex pod) override;
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
  // The result, moved out (the Collector is then spent).
  SimulationResult TakeResult() { return std::move(result_); }

 private:
  // With record_devices: the nodes and their
  // extended resources.
  void RecordLayout(const Cluster& cluster);
  // A pod's record at its arrival.
  PodRecord NewRecord(PodIndex i, const Pod& pod) const;
  // A live pod: its record so far and its bookkeeping.
  struct Live {
    PodRecord record;
    double attempt_start = -1;
    // Since when it holds its devices (-1: not bound), and how long it held
    // them before (bindings ended by preemption).
    double hold_start = -1;
    double held_s = 0;
    // When it was last evicted and has not started since (-1: not evicted).
    double evicted_at = -1;
    // A service: when its current attempt started running (-1: not
    // running), for PodRecord::lost_session_s.
    double session_start = -1;
    int pool = -1;           // pool of its node, or -1
    int first_holding = -1;  // into device_holdings, -1
    int claim_pods = 1;      // pods naming its shared ResourceClaim
  };
  // The live pod `pod`, nullptr when it is not alive.
  Live* Find(PodIndex pod);
  // A service's attempt ended by a kill or an eviction: its up time since
  // session_start is lost (PodRecord::lost_session_s).
  void EndSession(double t, Live* live);
  // `live`'s record is final at `t` (its end, or the end of the run):
  // derives what depends on its end, hands it to the sinks and the
  // summaries and releases it.
  void Retire(double t, PodIndex pod, Live* live);

  const Simulation& simulation_;
  CollectorOptions options_;
  bool record_devices_;
  PatrolEvaluator patrol_;
  SimulationResult result_;
  std::unordered_map<PodIndex, Live> live_;
  std::vector<PodRecordSink*> sinks_;
  QueueCollector queues_;
  std::vector<int> device_pool_;       // per domain
  // node -> GPU index -> its first domain (MIG instances follow).
  std::vector<std::vector<int>> gpu_domain_;
  std::vector<int> domain_gpu_;  // per domain: its GPU, dense
  std::vector<int> gpu_pool_;    // per GPU: its pool
  // Per node: (index into extended_resources, its ResourceId).
  std::vector<std::vector<std::pair<int, int>>> node_resources_;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_COLLECTOR_H_
