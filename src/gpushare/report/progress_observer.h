// ProgressObserver: feeds one simulation run's progress into a shared
// ProgressAggregate (compose it with the Collector through
// sim/observer_fanout.h).
//
// Contract: counts the run's pods at OnRunStart, each OnEnd as a pod done,
// each sample's time as the run's simulated time, and at OnFinish the pods
// that never ended as done. Cheap: a few relaxed atomic adds per pod.

#ifndef GPUSHARE_REPORT_PROGRESS_OBSERVER_H_
#define GPUSHARE_REPORT_PROGRESS_OBSERVER_H_

#include <string>
#include <vector>

#include "gpushare/report/progress_aggregate.h"
#include "gpushare/sim/simulation_observer.h"

namespace gpushare {

class ProgressObserver : public SimulationObserver {
 public:
  explicit ProgressObserver(ProgressAggregate* aggregate)
      : aggregate_(aggregate) {}

  void OnRunStart(const Cluster& cluster, int64_t pod_count,
                  const std::vector<DomainInfo>& domains) override;
  void OnEnd(double t, PodIndex pod, PodEnd how,
             const std::string& message) override;
  void OnSample(double t, const std::vector<DomainState>& domains,
                int pending) override;
  void OnFinish(double t, int64_t events, int64_t cycles) override;

 private:
  ProgressAggregate* aggregate_;
  int64_t pods_ = 0;
  int64_t ended_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PROGRESS_OBSERVER_H_
