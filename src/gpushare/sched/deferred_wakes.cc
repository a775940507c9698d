// Deferred wake-ups of Scheduler (scheduler.h, "Deferred wake-ups"): a
// standing queue's departures wake the heads of many waiting shapes; the
// first takes the room and the others' retries fail on the nodes that
// changed. Those failures are accounted where the active queue would have
// run them, without taking their pods through it.
//
// Contract: the outcome of every cycle, the cycle count, each group's clear,
// message and members, and the order of the cycles are those of immediate
// wakes (ActivateHead() at the event). Only the position of a group in
// sleepers_ may differ, and no visit of them depends on it
// (WakeGroupsFor()).

#include <algorithm>

#include "gpushare/sched/scheduler.h"

namespace gpushare {
namespace {

// The active queue's order of a deferred wake as one number: the priority,
// highest first (0x7fffffff - priority modulo 2^32: 0 for INT32_MAX), above
// the enqueue sequence.
__extension__ using DeferredWakeOrder = unsigned __int128;
template <typename Wake>
DeferredWakeOrder OrderOfDeferredWake(const Wake& w) {
  const uint32_t rank =
      uint32_t{0x7fffffff} - static_cast<uint32_t>(w.priority);
  return (static_cast<DeferredWakeOrder>(rank) << 64) | w.seq;
}

}  // namespace

bool Scheduler::WakeDeferred(int shape) const {
  return (wake_deferred_[shape / 64] >> (shape % 64)) & 1;
}

void Scheduler::SetWakeDeferred(int shape, bool deferred) {
  const uint64_t bit = uint64_t{1} << (shape % 64);
  if (deferred) {
    wake_deferred_[shape / 64] |= bit;
  } else {
    wake_deferred_[shape / 64] &= ~bit;
  }
}

void Scheduler::ReportKeptMessage(const Group& group,
                                  ScheduleResult* result) const {
  if (!(result->message_unchanged && omit_unchanged_messages_)) {
    result->message = group.message;
  }
}

bool Scheduler::CanDeferWakes() const {
  return profile_.pod_initial_backoff_s <= 0 &&
         profile_.reuse_node_results && nominee_count_ == 0 &&
         ready_nominees_.empty() && freed_nominations_.empty();
}

void Scheduler::DeferWake(int shape, const WaitKey& head) {
  SetWakeDeferred(shape, true);
  // The window ActivateHead() and WakeGroupsFor() give a woken group: this
  // event's node and those changed during its retry. (The wakes of an
  // earlier event were materialized: these are the only ones.)
  deferred_clear_log_ = change_log_base_ + change_log_.size() - 1;
  deferred_clear_event_ = events_ - 1;
  deferred_nodes_ = static_cast<int>(cluster_.nodes().size());
  deferred_wakes_.push_back({head.priority, head.id, head.seq, shape});
}

void Scheduler::SortDeferredWakes() {
  const auto first = deferred_wakes_.begin() + next_deferred_wake_;
  const auto last = deferred_wakes_.end();
  const size_t n = static_cast<size_t>(last - first);
  // A standing queue's departure wakes hundreds of groups, in no order, of
  // one priority: those are sorted by enqueue sequence (all below
  // next_seq_) with a least-significant-digit radix sort, 8 bits a pass.
  constexpr size_t kRadixFrom = 128;
  bool one_priority = n >= kRadixFrom;
  for (auto it = first; one_priority && it != last; ++it) {
    one_priority = it->priority == first->priority;
  }
  if (!one_priority) {
    std::sort(first, last, [](const DeferredWake& a, const DeferredWake& b) {
      // QueueEntry's order (b comes after a), as one comparison.
      return OrderOfDeferredWake(a) < OrderOfDeferredWake(b);
    });
    return;
  }
  wake_sort_scratch_.resize(n);
  DeferredWake* from = &*first;
  DeferredWake* to = wake_sort_scratch_.data();
  int passes = 0;
  for (int shift = 0; shift < 64 && (next_seq_ >> shift) != 0; shift += 8) {
    size_t start[257] = {};
    for (size_t i = 0; i < n; ++i) ++start[((from[i].seq >> shift) & 255) + 1];
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
    for (size_t i = 0; i < n; ++i) {
      to[start[(from[i].seq >> shift) & 255]++] = from[i];
    }
    std::swap(from, to);
    ++passes;
  }
  if (passes % 2 == 1) std::copy(from, from + n, &*first);
}

void Scheduler::MaterializeWake(const DeferredWake& w) {
  SetWakeDeferred(w.shape, false);
  Group& group = groups_[w.shape];
  ActivateHead(group);
  group.clear_log = deferred_clear_log_;
  group.clear_event = deferred_clear_event_;
  group.nodes_at_clear = deferred_nodes_;
}

void Scheduler::MaterializeWakesSlow() {
  // (Emptied first: ActivateHead() reads no deferred wake.)
  std::vector<DeferredWake> wakes;
  wakes.swap(deferred_wakes_);
  const size_t next = next_deferred_wake_;
  next_deferred_wake_ = 0;
  for (size_t i = next; i < wakes.size(); ++i) MaterializeWake(wakes[i]);
  wakes.clear();
  deferred_wakes_.swap(wakes);  // keeps the capacity
}

bool Scheduler::CycleKeepsToItsGroup(PodId id) const {
  // Preemption and nominations read other pods' groups and states; a gang
  // member's bind activates its siblings; a pod whose group's wake is
  // deferred would find it asleep.
  const PodState& s = pods_[id];
  const Pod& pod = *s.pod;
  return nominee_count_ == 0 && !WakeDeferred(s.shape) &&
         !MayPreempt(pod) &&
         (pod.pod_group.empty() || pod.gang_min_member <= 1);
}

bool Scheduler::DeferredWakeHopeless(const DeferredWake& w) {
  // ScheduleOne()'s short-cut failure: the retry's group kept its message
  // (it cannot preempt) and no dirty node fits the pod (FindFeasibleNodes).
  // May-preempt is tested without the pod when it cannot hold.
  if (nominee_count_ > 0 ||
      deferred_nodes_ != static_cast<int>(cluster_.nodes().size())) {
    return false;
  }
  if (preemption_ && !bound_priorities_.empty() &&
      bound_priorities_.begin()->first < w.priority &&
      MayPreempt(*pods_[w.id].pod)) {
    return false;
  }
  const Group& group = groups_[w.shape];
  if (group.message.empty()) return false;
  const WakeHint& hint = wake_hints_[w.shape];
  const Pod* pod = nullptr;  // read only when a filter must judge
  const std::vector<uint8_t>* static_fits = &static_fits_[hint.constraints];
  if (static_fits->size() != cluster_.nodes().size()) {
    pod = pods_[w.id].pod;
    static_fits = &StaticFits(hint.constraints, *pod);
  }
  const HamiFitSummary* hami =
      hint.hami && device_fit_filter_ ? HamiSummaries() : nullptr;
  bool prepared = false;
  for (int node : DirtyNodesSince(deferred_clear_log_)) {
    if (!(*static_fits)[node]) continue;
    if (hami != nullptr) {
      // As in WakeGroupsFor(): the summary rejects, or decides exactly.
      if (!hami[node].Admits(hint.need)) continue;
      if (hint.need.exact && hami[node].exact()) return false;
    }
    if (pod == nullptr) pod = pods_[w.id].pod;
    if (!prepared) {
      for (FilterPlugin* f : dynamic_filters_) f->PreFilter(*pod);
      prepared = true;
    }
    if (FitsNodePrepared(*pod, hint.constraints, node)) return false;
  }
  return true;
}

bool Scheduler::TakeDeferredWake(ScheduleResult* result) {
  const DeferredWake w = deferred_wakes_[next_deferred_wake_];
  // The wakes are taken in order and their groups lie anywhere: fetch a
  // later wake's group and hint while this one is taken.
  constexpr size_t kPrefetchAhead = 2;
  if (next_deferred_wake_ + kPrefetchAhead < deferred_wakes_.size()) {
    const int ahead =
        deferred_wakes_[next_deferred_wake_ + kPrefetchAhead].shape;
    const Group& group = groups_[ahead];
    __builtin_prefetch(&group.clear_log);
    __builtin_prefetch(&group.reported_serial);
    __builtin_prefetch(&wake_hints_[ahead]);
  }
  const QueueEntry wake{w.priority, w.seq, w.id};
  while (!active_.empty()) {
    const QueueEntry& top = active_.top();
    const PodState& t = pods_[top.id];
    if (t.state == State::kActive && t.seq == top.seq) break;
    active_.pop();  // a forgotten pod's entry, skipped as ScheduleOne() does
  }
  const bool wake_first = active_.empty() || active_.top() < wake;
  if (wake_first && DeferredWakeHopeless(w)) {
    // The cycle ScheduleOne() would run for it: it fails, keeps its group's
    // message, and the group is clear and asleep again (it never left).
    if (++next_deferred_wake_ == deferred_wakes_.size()) {
      deferred_wakes_.clear();
      next_deferred_wake_ = 0;
    }
    ++cycles_;
    SetWakeDeferred(w.shape, false);
    Group& group = groups_[w.shape];
    ClearGroup(group);
    result->pod = w.id;
    result->outcome = ScheduleResult::Outcome::kUnschedulable;
    NoteReported(group, w.seq, result);
    ReportKeptMessage(group, result);
    return true;
  }
  if (wake_first) {
    // Its group's wake is the one taken now.
    if (++next_deferred_wake_ == deferred_wakes_.size()) {
      deferred_wakes_.clear();
      next_deferred_wake_ = 0;
    }
    MaterializeWake(w);
  }
  if (!CycleKeepsToItsGroup(wake_first ? w.id : active_.top().id)) {
    MaterializeWakes();
  }
  return false;
}

}  // namespace gpushare
