// EventQueue: the discrete-event engine's agenda.
//
// Contract: events are popped in order of time, then of the sequence number
// they were pushed with, so ties resolve in push order and runs are
// deterministic. An event carries its kind, two integer arguments and a
// version: the handler compares the version with the target's current one
// to skip stale events (a completion rescheduled after a rate change).

#ifndef GPUSHARE_SIM_EVENT_QUEUE_H_
#define GPUSHARE_SIM_EVENT_QUEUE_H_

#include <cstdint>
#include <cstddef>
#include <queue>
#include <vector>

namespace gpushare {

enum class EventKind {
  kArrival,     // a = pod
  kCompletion,  // a = pod, version = the pod's run version
  kDeletion,    // a = pod (a service's lifetime ends)
  kRestart,     // a = pod (back-off over)
  kFault,       // a = domain (-1: draw one), b = fault spec index
  kRecovery,    // a = domain
  kMigReapply,  // a = the GPU's first domain (mig-manager recreates its layout)
  kStallStart,  // a = node (its device plugin stops serving)
  kStallEnd,    // a = node (its device plugin registers again)
  kTerminated,  // a = pod (a preempted pod's grace period is over)
  kGangTimeout,     // a = gang (its Permit wait is over), version
  kGangCompletion,  // a = gang (its job's work is done), version
  kBackoffExpiry,   // waiting pods' scheduler back-off ends
  kMigInstanceReady,  // a = pod (its dynamic MIG instances), version
  kSample,
  kAutoscalerDecision,  // a = the Simulation's autoscaler index
  kNodeStage,  // a = node, b = lifecycle step (autoscaled pools), version
};

struct Event {
  double time = 0;
  uint64_t seq = 0;
  EventKind kind = EventKind::kSample;
  int a = -1;
  int b = -1;
  uint64_t version = 0;
};

class EventQueue {
 public:
  void Push(double time, EventKind kind, int a = -1, int b = -1,
            uint64_t version = 0);
  bool empty() const { return heap_.empty(); }
  const Event& top() const { return heap_.top(); }
  Event Pop();
  size_t size() const { return heap_.size(); }

 private:
  struct Later {
    bool operator()(const Event& x, const Event& y) const {
      if (x.time != y.time) return x.time > y.time;
      return x.seq > y.seq;
    }
  };
  std::priority_queue<Event, std::vector<Event>, Later> heap_;
  uint64_t next_seq_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_EVENT_QUEUE_H_
