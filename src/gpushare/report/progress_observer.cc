#include "gpushare/report/progress_observer.h"

namespace gpushare {

void ProgressObserver::OnRunStart(const Cluster& /*cluster*/,
                                  int64_t pod_count,
                                  const std::vector<DomainInfo>& /*domains*/) {
  pods_ = pod_count;
  ended_ = 0;
  aggregate_->AddRun(pods_);
}

void ProgressObserver::OnEnd(double t, PodIndex /*pod*/, PodEnd /*how*/,
                             const std::string& /*message*/) {
  ++ended_;
  aggregate_->PodEnded();
  aggregate_->AdvanceTime(t);
}

void ProgressObserver::OnSample(double t,
                                const std::vector<DomainState>& /*domains*/,
                                int /*pending*/) {
  aggregate_->AdvanceTime(t);
}

void ProgressObserver::OnFinish(double t, int64_t /*events*/,
                                int64_t /*cycles*/) {
  aggregate_->AdvanceTime(t);
  aggregate_->RunFinished(pods_ - ended_);
}

}  // namespace gpushare
