#include "gpushare/sim/observer_fanout.h"

namespace gpushare {

void ObserverFanout::OnRunStart(const Cluster& cluster, int64_t pod_count,
                                const std::vector<DomainInfo>& domains) {
  for (SimulationObserver* o : observers_) {
    o->OnRunStart(cluster, pod_count, domains);
  }
}

void ObserverFanout::OnNotArrived(PodIndex pod) {
  for (SimulationObserver* o : observers_) o->OnNotArrived(pod);
}

void ObserverFanout::OnArrival(double t, PodIndex pod) {
  for (SimulationObserver* o : observers_) o->OnArrival(t, pod);
}

void ObserverFanout::OnUnschedulable(double t, PodIndex pod,
                                     const std::string& message) {
  for (SimulationObserver* o : observers_) o->OnUnschedulable(t, pod, message);
}

void ObserverFanout::OnStart(double t, PodIndex pod, int node, double alone_s) {
  for (SimulationObserver* o : observers_) o->OnStart(t, pod, node, alone_s);
}

void ObserverFanout::OnEngineStart(double t, PodIndex pod, int64_t kv_tokens,
                                   int64_t max_seqs) {
  for (SimulationObserver* o : observers_) {
    o->OnEngineStart(t, pod, kv_tokens, max_seqs);
  }
}

void ObserverFanout::OnFailure(double t, PodIndex pod, PodFailure why,
                               const std::string& message,
                               double lost_work_s) {
  for (SimulationObserver* o : observers_) {
    o->OnFailure(t, pod, why, message, lost_work_s);
  }
}

void ObserverFanout::OnRestart(double t, PodIndex pod) {
  for (SimulationObserver* o : observers_) o->OnRestart(t, pod);
}

void ObserverFanout::OnPreempted(double t, PodIndex pod, PodIndex preemptor,
                                 double lost_work_s) {
  for (SimulationObserver* o : observers_) {
    o->OnPreempted(t, pod, preemptor, lost_work_s);
  }
}

void ObserverFanout::OnEvicted(double t, PodIndex pod,
                               const std::string& reason, double lost_work_s) {
  for (SimulationObserver* o : observers_) {
    o->OnEvicted(t, pod, reason, lost_work_s);
  }
}

void ObserverFanout::OnRequeued(double t, PodIndex pod) {
  for (SimulationObserver* o : observers_) o->OnRequeued(t, pod);
}

void ObserverFanout::OnGangTimeout(double t, PodIndex pod) {
  for (SimulationObserver* o : observers_) o->OnGangTimeout(t, pod);
}

void ObserverFanout::OnWorkloadAdmitted(double t, int cluster_queue,
                                        std::span<const PodIndex> pods,
                                        bool borrowed) {
  for (SimulationObserver* o : observers_) {
    o->OnWorkloadAdmitted(t, cluster_queue, pods, borrowed);
  }
}

void ObserverFanout::OnWorkloadEvicted(double t, int cluster_queue,
                                       int preemptor_queue,
                                       std::string_view reason,
                                       std::span<const PodIndex> pods) {
  for (SimulationObserver* o : observers_) {
    o->OnWorkloadEvicted(t, cluster_queue, preemptor_queue, reason, pods);
  }
}

void ObserverFanout::OnEnd(double t, PodIndex pod, PodEnd how,
                           const std::string& message) {
  for (SimulationObserver* o : observers_) o->OnEnd(t, pod, how, message);
}

void ObserverFanout::OnFault(double t, int domain, int pods_killed) {
  for (SimulationObserver* o : observers_) o->OnFault(t, domain, pods_killed);
}

void ObserverFanout::OnLatency(double t, PodIndex pod, const Latency& latency) {
  for (SimulationObserver* o : observers_) o->OnLatency(t, pod, latency);
}

void ObserverFanout::OnPodShare(double t, PodIndex pod, int domain,
                                double gpu_time_ratio) {
  for (SimulationObserver* o : observers_) {
    o->OnPodShare(t, pod, domain, gpu_time_ratio);
  }
}

void ObserverFanout::OnSample(double t, const std::vector<DomainState>& domains,
                              int pending) {
  for (SimulationObserver* o : observers_) o->OnSample(t, domains, pending);
}

void ObserverFanout::OnFinish(double t, int64_t events, int64_t cycles) {
  for (SimulationObserver* o : observers_) o->OnFinish(t, events, cycles);
}

}  // namespace gpushare
