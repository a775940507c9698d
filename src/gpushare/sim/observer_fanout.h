// ObserverFanout: one SimulationObserver that forwards every hook to several
// (a Collector and a progress bar, say), so Simulation::Run() keeps taking
// one observer.
//
// Contract: each hook is forwarded to every observer in the order given,
// with the same arguments; the observers must outlive the fanout.

#ifndef GPUSHARE_SIM_OBSERVER_FANOUT_H_
#define GPUSHARE_SIM_OBSERVER_FANOUT_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/sim/simulation_observer.h"

namespace gpushare {

class ObserverFanout : public SimulationObserver {
 public:
  explicit ObserverFanout(std::vector<SimulationObserver*> observers)
      : observers_(std::move(observers)) {}

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
  void OnPodShare(double t, PodIndex pod, int domain,
                  double gpu_time_ratio) override;
  void OnSample(double t, const std::vector<DomainState>& domains,
                int pending) override;
  void OnFinish(double t, int64_t events, int64_t cycles) override;

 private:
  std::vector<SimulationObserver*> observers_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_OBSERVER_FANOUT_H_
