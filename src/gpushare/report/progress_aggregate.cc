#include "gpushare/report/progress_aggregate.h"

#include <algorithm>
#include <cmath>

namespace gpushare {

void ProgressAggregate::AddRun(int64_t pods) {
  pods_total_.fetch_add(pods, std::memory_order_relaxed);
  runs_started_.fetch_add(1, std::memory_order_relaxed);
}

void ProgressAggregate::PodEnded() {
  pods_done_.fetch_add(1, std::memory_order_relaxed);
}

void ProgressAggregate::AdvanceTime(double t) {
  const int64_t ms = std::llround(t * 1000);
  int64_t seen = sim_time_ms_.load(std::memory_order_relaxed);
  while (ms > seen && !sim_time_ms_.compare_exchange_weak(
                          seen, ms, std::memory_order_relaxed)) {
  }
}

void ProgressAggregate::RunFinished(int64_t pods_left) {
  pods_done_.fetch_add(pods_left, std::memory_order_relaxed);
  runs_done_.fetch_add(1, std::memory_order_relaxed);
}

ProgressSnapshot ProgressAggregate::Snapshot() const {
  ProgressSnapshot s;
  s.sim_time_s =
      static_cast<double>(sim_time_ms_.load(std::memory_order_relaxed)) / 1000;
  s.pods_done = pods_done_.load(std::memory_order_relaxed);
  s.pods_total = pods_total_.load(std::memory_order_relaxed);
  s.runs_done = runs_done_.load(std::memory_order_relaxed);
  s.runs_total =
      std::max(runs_expected_, runs_started_.load(std::memory_order_relaxed));
  return s;
}

}  // namespace gpushare
