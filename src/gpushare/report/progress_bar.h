// A progress bar on stderr for long simulations:
//   [########............]  42%  4,200/10,000 pods  t=3.2h  1,234 pods/s  ETA 5s
//
// Contract: FormatProgressLine() is the pure formatting (tested without a
// terminal): the line never exceeds `width` - 1 columns. ProgressBar draws
// a ProgressAggregate from its own thread every 200 ms, starting only once
// the work has taken `delay_s` (about a second: short runs stay silent), and
// only when `enabled` (the caller passes ShouldShowProgress()). It redraws
// one line in place ("\r", erase to end of line) and erases it at Stop() (or
// destruction), so stdout and the final stderr stay clean.

#ifndef GPUSHARE_REPORT_PROGRESS_BAR_H_
#define GPUSHARE_REPORT_PROGRESS_BAR_H_

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "gpushare/report/progress_aggregate.h"

namespace gpushare {

// `wall_s`: seconds the work has taken so far (for rate and ETA).
std::string FormatProgressLine(const ProgressSnapshot& snapshot, double wall_s,
                               int width);

// Whether a progress bar belongs on stderr: it is a terminal and the user
// did not ask for --quiet.
bool ShouldShowProgress(bool quiet);

// Seconds of work before the bar appears: $GPUSHARE_PROGRESS_DELAY_S when
// it is a number in [0, 3600] (tests set 0 to see the bar on short runs),
// else 1.
double ProgressDelaySeconds();

class ProgressBar {
 public:
  ProgressBar(const ProgressAggregate* aggregate, bool enabled,
              double delay_s = ProgressDelaySeconds());
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Stops drawing and erases the line; idempotent.
  void Stop();

 private:
  void Loop();

  const ProgressAggregate* aggregate_;
  const double delay_s_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_PROGRESS_BAR_H_
