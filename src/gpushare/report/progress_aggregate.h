// ProgressAggregate: how far one or more simulations have got, shared by
// the threads that run them (`compare` runs one per scheme) and read by a
// progress bar (report/progress_bar.h).
//
// Contract: every member is thread-safe and lock-free. A run calls
// AddRun() with its pod count when it starts, PodEnded() for each pod that
// ends, AdvanceTime() with its simulated time and RunFinished() with the
// pods it left unended (still running or pending at the horizon), which then
// count as done. Snapshot() reads the counters; the fields are each exact
// but may be from slightly different moments.

#ifndef GPUSHARE_REPORT_PROGRESS_AGGREGATE_H_
#define GPUSHARE_REPORT_PROGRESS_AGGREGATE_H_

#include <atomic>
#include <cstdint>

namespace gpushare {

struct ProgressSnapshot {
  double sim_time_s = 0;   // the furthest simulated time of any run
  int64_t pods_done = 0;
  int64_t pods_total = 0;
  int runs_done = 0;
  int runs_total = 0;
};

class ProgressAggregate {
 public:
  // `runs_expected`: runs that will call AddRun(), so that the total is
  // known before the last one starts (0: count them as they come).
  explicit ProgressAggregate(int runs_expected = 0)
      : runs_expected_(runs_expected) {}

  void AddRun(int64_t pods);
  void PodEnded();
  void AdvanceTime(double t);
  void RunFinished(int64_t pods_left);
  ProgressSnapshot Snapshot() const;

 private:
  const int runs_expected_;
  std::atomic<int64_t> pods_done_{0};
  std::atomic<int64_t> pods_total_{0};
  std::atomic<int64_t> sim_time_ms_{0};
  std::atomic<int> runs_started_{0};
  std::atomic<int> runs_done_{0};
};

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PROGRESS_AGGREGATE_H_
