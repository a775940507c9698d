// PatrolEvaluator: evaluates the patrol alerts during a simulation run, as
// Prometheus evaluates the rules of `gpushare-sim emit prometheus-rules` on
// the run's series with the evaluation interval equal to the sample
// interval (docs/output.md "Patrol alerts").
//
// Contract: attach as an observer (the Collector forwards to it). At every
// sample it evaluates, on that sample's values:
//   GpuNoisyNeighbour (per time-shared device): one pod's context holds more
//     than `noisy_neighbour_share` of the device's time while another pod on
//     it (holding at most that share) misses its p99 latency SLO in the
//     interval;
//   MigConfigDrift (per MIG GPU): its layout differs from the node's
//     nvidia.com/mig.config;
//   DevicePluginStalled (per GPU node): the node advertises none of
//     nvidia.com/gpu, nvidia.com/gpu.shared and nvidia.com/mig-* although
//     every device on it is healthy and no MIG GPU on it drifted (a lost
//     layout advertises nothing either), while pods are pending.
// A condition that holds at consecutive samples for at least `for_s` fires
// an alert (active since its first true sample, fired at the first sample
// `for_s` later); it resolves at the first sample where it no longer holds.
// alerts() lists the alerts that fired, in firing order (at one sample:
// drift by GPU, stalled by node, then noisy neighbours by device); complete
// after OnFinish. Deterministic.

#ifndef GPUSHARE_METRICS_PATROL_EVALUATOR_H_
#define GPUSHARE_METRICS_PATROL_EVALUATOR_H_

#include <string>
#include <vector>

#include "gpushare/metrics/results.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/simulation_observer.h"

namespace gpushare {

class PatrolEvaluator : public SimulationObserver {
 public:
  explicit PatrolEvaluator(const PatrolRules& rules) : rules_(rules) {}

  void OnRunStart(const Cluster& cluster, int64_t pod_count,
                  const std::vector<DomainInfo>& domains) override;
  // The run whose pods' names and objectives it reads, while they live
  // (OnPodShare and OnLatency come only for running pods).
  void SetSimulation(const Simulation* simulation) { simulation_ = simulation; }
  void OnSample(double t, const std::vector<DomainState>& domains,
                int pending) override;
  void OnPodShare(double t, PodIndex pod, int domain,
                  double gpu_time_ratio) override;
  void OnLatency(double t, PodIndex pod, const Latency& latency) override;
  void OnFinish(double t, int64_t events, int64_t cycles) override;

  const std::vector<PatrolAlert>& alerts() const { return alerts_; }

 private:
  // One alert series' state: pending since `since` (-1: condition false),
  // firing as alerts_[firing] (-1: not firing).
  struct Hold {
    double since = -1;
    int firing = -1;
  };
  struct Share {
    PodIndex pod;
    int domain;
    double ratio;
    // Copied while the pod lives: it may end before the evaluation.
    std::string name;
  };

  // Applies one evaluation of one series; `make` fills a new alert.
  template <typename Make>
  void Evaluate(Hold& hold, double t, bool condition, double value,
                Make make);
  // The noisy-neighbour evaluation of the sample at `t`, once its shares
  // and latencies are in.
  void EvaluateNoisyNeighbours(double t);

  PatrolRules rules_;
  const Cluster* cluster_ = nullptr;
  const Simulation* simulation_ = nullptr;
  std::vector<DomainInfo> domains_;
  // Per node: its devices, and the ids of the GPU resources it advertises.
  std::vector<std::vector<int>> node_domains_;
  std::vector<std::vector<ResourceId>> node_gpu_resources_;
  std::vector<Hold> noisy_;    // per device
  std::vector<Hold> drift_;    // per device (a GPU's first device)
  std::vector<Hold> stalled_;  // per node
  // The sample whose noisy-neighbour evaluation is open (-1: none).
  double open_sample_ = -1;
  std::vector<Share> shares_;
  std::vector<PodIndex> missed_slo_;  // pods missing their SLO in it
  std::vector<bool> seen_scratch_;    // per device: shares at this sample
  std::vector<PatrolAlert> alerts_;
};

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_PATROL_EVALUATOR_H_
