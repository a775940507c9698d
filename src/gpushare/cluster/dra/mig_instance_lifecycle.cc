#include "gpushare/cluster/dra/mig_instance_lifecycle.h"

#include <algorithm>

#include "gpushare/io/check.h"

namespace gpushare {

MigInstanceLifecycle::MigInstanceLifecycle(int gpus, bool toggles_mode,
                                           MigLifecycleTimes times)
    : toggles_mode_(toggles_mode),
      times_(times),
      live_(static_cast<size_t>(gpus), 0),
      mode_on_(static_cast<size_t>(gpus), toggles_mode ? 0 : 1),
      mode_off_at_(static_cast<size_t>(gpus), 0) {}

double MigInstanceLifecycle::Create(double now, int gpu) {
  const double start = std::max(now, queue_free_);
  double duration = times_.create_s;
  if (mode_on_[gpu] == 0) {
    duration += times_.mode_enable_s;
    mode_on_[gpu] = 1;
    ++counts_.mode_enables;
  }
  queue_free_ = start + duration;
  ++live_[gpu];
  ++counts_.created;
  counts_.creation_wait_s += queue_free_ - now;
  return queue_free_;
}

double MigInstanceLifecycle::Destroy(double now, int gpu) {
  GS_CHECK(live_[gpu] > 0, "destroying a MIG instance on a GPU without one");
  const double start = std::max(now, queue_free_);
  double duration = times_.destroy_s;
  --live_[gpu];
  ++counts_.destroyed;
  if (live_[gpu] == 0 && toggles_mode_) {
    duration += times_.mode_enable_s;
    mode_on_[gpu] = 0;
    ++counts_.mode_disables;
    mode_off_at_[gpu] = start + duration;
  }
  queue_free_ = start + duration;
  return queue_free_;
}

double MigInstanceLifecycle::WholeReady(double now, int gpu) const {
  return std::max(now, mode_off_at_[gpu]);
}

}  // namespace gpushare
