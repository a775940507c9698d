// The fixture of the scheduler's tests (test-only; included by
// scheduler_test.cc, scheduling_queue_test.cc and scheduling_cycle_test.cc):
// pools, pods with extended requests, a checking profile, and a run of
// every queued pod through ScheduleOne(); ScheduleAndChurn() for the replay
// tests that compare the scheduler's caches with a plain run.

#ifndef GPUSHARE_SCHED_TEST_SCHEDULER_FIXTURE_H_
#define GPUSHARE_SCHED_TEST_SCHEDULER_FIXTURE_H_

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {
namespace scheduler_test {

using Outcome = ScheduleResult::Outcome;

class SchedulerTest : public ::testing::Test {
 protected:
  NodePoolSpec Pool(std::string name, const char* model, int nodes, int gpus,
                    SharingConfig sharing) {
    NodePoolSpec spec;
    spec.name = std::move(name);
    spec.gpu_model = model;
    spec.nodes = nodes;
    spec.gpus_per_node = gpus;
    spec.cpu_milli = 64000;
    spec.memory_mib = 512 * 1024;
    spec.sharing = std::move(sharing);
    return spec;
  }

  // A pod with `extended` requests (name, quantity) and 1 CPU, 1 GiB.
  Pod& NewPod(std::vector<std::pair<std::string, int64_t>> extended,
              int32_t priority = 0) {
    Pod& pod = pods_.emplace_back();
    pod.name = "pod-" + std::to_string(pods_.size() - 1);
    pod.priority = priority;
    pod.requests.Set(ResourceRegistry::kCpuId, 1000);
    pod.requests.Set(ResourceRegistry::kMemoryId, 1024);
    for (const auto& [name, quantity] : extended) {
      pod.requests.Set(cluster_.resources().Intern(name), quantity);
    }
    return pod;
  }

  SchedulerProfile Profile() {
    SchedulerProfile profile;
    profile.check_invariants = true;
    profile.tie_break = TieBreak::kLowestName;
    return profile;
  }

  // Enqueues every pod not yet enqueued and runs cycles until the queue is
  // empty; returns the results in order.
  std::vector<ScheduleResult> Run(Scheduler& scheduler) {
    for (; enqueued_ < pods_.size(); ++enqueued_) {
      scheduler.Enqueue(static_cast<PodId>(enqueued_), pods_[enqueued_]);
    }
    std::vector<ScheduleResult> results;
    while (scheduler.HasActive()) results.push_back(scheduler.ScheduleOne());
    return results;
  }

  Cluster cluster_{Catalog::Builtin()};
  std::deque<Pod> pods_;  // stable addresses
  size_t enqueued_ = 0;
};

// Enqueues `pod` as `id` and runs every cycle it allows, logging
// "pod:node:message[/gpu...]" per cycle; then, half of the time, releases a
// random bound pod (the churn of the replay tests).
inline void ScheduleAndChurn(Scheduler& scheduler, PodId id, const Pod& pod, Rng& rng,
                      std::vector<PodId>* bound,
                      std::vector<std::string>* log) {
  scheduler.Enqueue(id, pod);
  while (scheduler.HasActive()) {
    const ScheduleResult r = scheduler.ScheduleOne();
    log->push_back(std::to_string(r.pod) + ":" + std::to_string(r.node) + ":" +
                   r.message);
    if (r.outcome == ScheduleResult::Outcome::kBound) {
      bound->push_back(r.pod);
      for (const DeviceGrant& g : scheduler.AllocationOf(r.pod).grants) {
        log->back() += "/" + std::to_string(g.gpu);
      }
    }
  }
  if (rng.Below(2) == 0 && !bound->empty()) {
    const size_t k = rng.Below(bound->size());
    scheduler.Release((*bound)[k]);
    bound->erase(bound->begin() + static_cast<long>(k));
  }
}

}  // namespace scheduler_test
}  // namespace gpushare

#endif  // GPUSHARE_SCHED_TEST_SCHEDULER_FIXTURE_H_
