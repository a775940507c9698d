#include "gpushare/sim/event_queue.h"

namespace gpushare {

void EventQueue::Push(double time, EventKind kind, int a, int b,
                      uint64_t version) {
  heap_.push(Event{time, next_seq_++, kind, a, b, version});
}

Event EventQueue::Pop() {
  Event e = heap_.top();
  heap_.pop();
  return e;
}

}  // namespace gpushare
