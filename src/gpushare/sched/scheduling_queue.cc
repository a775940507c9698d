// The scheduling queue of Scheduler (scheduler.h), as kube-scheduler's
// internal/queue: the active queue, waiting pods grouped by shape, back-off
// and its timers, and the wake-ups of node events (QueueingHints' model: a
// node event re-tests only groups that may fit that node).
//
// Contract: Enqueue() adds a pod to the active queue; a pod that fails a
// cycle waits in its shape's Group (Park), asleep or in back-off (Settle);
// WakeGroupsFor() — called by Release(), NodeChanged(), DevicesChanged() —
// retries the first waiting pod of each group that may fit the node
// (RetryNext; a departure's wakes are deferred: deferred_wakes.cc), and
// ExpireBackoffs() those whose back-off ended. Forget()
// drops a pending pod. The scheduling cycle (scheduling_cycle.cc) takes the
// active queue's first pod; preemption (scheduler_preemption.cc) wakes
// heads that may preempt.

#include <algorithm>
#include <limits>

#include "gpushare/io/check.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {

void Scheduler::Enqueue(PodId id, const Pod& pod) {
  MaterializeWakes();
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kUnknown || s.state == State::kDone,
           "pod enqueued twice");
  s = PodState();
  s.pod = &pod;
  s.seq = next_seq_++;
  if (!claim_pods_.empty()) claim_pods_.erase(id);
  if (!pod.dra_claim.empty()) s.pod = &EnqueueClaimPod(id, pod);
  s.shape = InternShape(*s.pod, &s.constraints);
  if (!pod.pod_group.empty()) gang_members_[pod.pod_group].insert(id);
  Group& group = groups_[s.shape];
  if (!group.waiting.empty() && group.retrying < 0 && !Woken(group) &&
      !MayPreempt(pod) &&
      (nominee_count_ == 0 || group.waiting.begin()->priority >= pod.priority)) {
    // Its twins failed and nothing that could help them happened since
    // (with back-off, events may have come while they wait: then it gets
    // its cycle): this pod cannot fit either (nor preempt: nothing has a
    // lower priority; nor pass nominated pods its first twin could not).
    ++cycles_;
    Park(id, group.message);
    return;
  }
  Activate(id);
}

void Scheduler::Activate(PodId id) {
  PodState& s = pods_[id];
  s.state = State::kActive;
  active_.push({s.pod->priority, s.seq, id});
  ++active_count_;
}

void Scheduler::BackOff(PodState& s) {
  if (profile_.pod_initial_backoff_s <= 0) return;
  // kube-scheduler's calculateBackoffDuration: the initial back-off,
  // doubled for each further attempt, at most the maximum.
  ++s.attempts;
  double backoff = profile_.pod_initial_backoff_s;
  for (int i = 1; i < s.attempts && backoff < profile_.pod_max_backoff_s; ++i) {
    backoff *= 2;
  }
  s.backoff_until = now_ + std::min(backoff, profile_.pod_max_backoff_s);
}

void Scheduler::Park(PodId id, const std::string& message) {
  PodState& s = pods_[id];
  s.state = State::kWaiting;
  BackOff(s);
  Group& group = groups_[s.shape];
  group.waiting.insert({s.pod->priority, s.seq, id});
  tracked_[s.shape / 64] |= uint64_t{1} << (s.shape % 64);
  if (&message != &group.message) {
    group.message = message;
    group.message_serial = ++message_serials_;
  }
  ++waiting_count_;
  Settle(s.shape);
}

bool Scheduler::MayFitNode(int shape, const Pod& pod, int node) {
  const WakeHint& hint = wake_hints_[shape];
  if (!StaticFits(hint.constraints, pod)[node]) return false;
  if (!hint.hami) return true;
  const HamiFitSummary* hami = HamiSummaries();
  return hami == nullptr || hami[node].Admits(hint.need);
}

const std::vector<int>& Scheduler::DirtyNodesSince(uint64_t clear_log) {
  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  dirty_scratch_.clear();
  const uint64_t end = change_log_base_ + change_log_.size();
  if (clear_log < change_log_base_ ||
      end - clear_log >= static_cast<uint64_t>(num_nodes)) {
    // Trimmed since, or as long as the node list: every node.
    for (int n = 0; n < num_nodes; ++n) dirty_scratch_.push_back(n);
    return dirty_scratch_;
  }
  if (dirty_stamp_.size() < static_cast<size_t>(num_nodes)) {
    dirty_stamp_.resize(num_nodes, 0);
  }
  ++dirty_calls_;
  for (uint64_t i = clear_log - change_log_base_; i < change_log_.size();
       ++i) {
    const int n = change_log_[i];
    if (n < num_nodes && dirty_stamp_[n] != dirty_calls_) {
      dirty_stamp_[n] = dirty_calls_;
      dirty_scratch_.push_back(n);
    }
  }
  return dirty_scratch_;
}

void Scheduler::ClearGroup(Group& group) {
  group.clear_log = change_log_base_ + change_log_.size();
  group.clear_event = events_;
  group.nodes_at_clear = static_cast<int>(cluster_.nodes().size());
}

void Scheduler::SetSleeping(int shape, bool sleeping) {
  Group& group = groups_[shape];
  if (group.sleeping == sleeping) return;
  // Events passed a sleeping group by (or cleared it): it is clear now.
  if (!sleeping) ClearGroup(group);
  group.sleeping = sleeping;
  const int c = wake_hints_[shape].constraints;
  std::vector<Sleeper>& list = sleepers_[c];
  if (sleeping) {
    if (list.empty()) {
      sleeper_slot_[c] = static_cast<int>(sleeper_constraints_.size());
      sleeper_constraints_.push_back(c);
    }
    group.sleep_slot = static_cast<int>(list.size());
    const WakeHint& hint = wake_hints_[shape];
    list.push_back({shape, hint.hami, hint.need, *group.waiting.begin()});
    return;
  }
  // Swap-remove: the last sleeper takes its slot.
  const int slot = group.sleep_slot;
  group.sleep_slot = -1;
  list[slot] = list.back();
  groups_[list[slot].shape].sleep_slot = slot;
  list.pop_back();
  if (list.empty()) {
    const int cs = sleeper_slot_[c];
    sleeper_constraints_[cs] = sleeper_constraints_.back();
    sleeper_slot_[sleeper_constraints_[cs]] = cs;
    sleeper_constraints_.pop_back();
    sleeper_slot_[c] = -1;
  }
}

void Scheduler::ArmBackoffTimer(Group& group) {
  const double until = pods_[group.waiting.begin()->id].backoff_until;
  if (group.backoff_timer == until) return;
  group.backoff_timer = until;
  backoff_timers_.push({until, static_cast<int>(&group - groups_.data())});
}

void Scheduler::Settle(int shape) {
  Group& group = groups_[shape];
  if (group.waiting.empty() || group.retrying >= 0) {
    SetSleeping(shape, false);
    return;
  }
  const bool in_backoff = pods_[group.waiting.begin()->id].backoff_until > now_;
  const bool woken = Woken(group);
  SetSleeping(shape, !in_backoff && !woken);
  if (group.sleeping) {
    // Its first pod may have changed (a member parked, forgotten or
    // activated) while it slept.
    sleepers_[wake_hints_[shape].constraints][group.sleep_slot].head =
        *group.waiting.begin();
    return;
  }
  if (in_backoff && woken) {
    ArmBackoffTimer(group);
  } else if (!group.unarmed) {
    // In back-off: the first node event arms its timer (kube: an event
    // moves it to the backoffQ). Out of back-off with dirty nodes (its
    // first pod changed): the next event retries it on them.
    group.unarmed = true;
    unarmed_.push_back(shape);
  }
}

bool Scheduler::HasActive() const {
  return active_count_ > 0 || next_deferred_wake_ < deferred_wakes_.size();
}

void Scheduler::UntrackGroup(int shape) {
  tracked_[shape / 64] &= ~(uint64_t{1} << (shape % 64));
  SetSleeping(shape, false);
  groups_[shape].backoff_timer = -1;
  Group::DiagnosisMemo& memo = groups_[shape].diagnosis;
  memo = Group::DiagnosisMemo();
}

void Scheduler::RetryNext(Group& group, bool backoff_ended) {
  const int shape = static_cast<int>(&group - groups_.data());
  if (group.waiting.empty() || group.retrying >= 0) {
    Settle(shape);
    return;
  }
  const WaitKey head = *group.waiting.begin();
  PodState& s = pods_[head.id];
  if (s.backoff_until > now_ || group.sleeping ||
      (backoff_ended && !Woken(group))) {
    // In back-off: retried when it ends, on the nodes dirty by then (a
    // timer once an event came). Or sleeping, or its back-off ended with no
    // event since its clear: no node can hold it until an event.
    Settle(shape);
    return;
  }
  bool fits = false;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(*s.pod);
  for (int node : DirtyNodes(group)) {
    if (MayFitNode(shape, *s.pod, node) &&
        FitsNodePrepared(*s.pod, s.constraints, node)) {
      fits = true;
      break;
    }
  }
  // Nominated room depends on the pod's priority, not only on the node.
  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  for (auto it = nominated_nodes_.begin(); !fits && it != nominated_nodes_.end();
       ++it) {
    fits = *it < num_nodes && MayFitNode(shape, *s.pod, *it) &&
           FitsNodePrepared(*s.pod, s.constraints, *it);
  }
  if (!fits) {
    ClearGroup(group);
    if (backoff_ended) {
      // kube-scheduler moved it to the active queue when its back-off
      // ended (an event came meanwhile); its cycle would fail: an attempt.
      ++cycles_;
      BackOff(s);
    }
    Settle(shape);
    return;
  }
  ActivateHead(group);
}

double Scheduler::NextBackoffExpiry() {
  MaterializeWakes();
  while (!backoff_timers_.empty()) {
    const BackoffTimer& t = backoff_timers_.top();
    if (groups_[t.shape].backoff_timer == t.time) return t.time;
    backoff_timers_.pop();  // stale
  }
  return std::numeric_limits<double>::infinity();
}

void Scheduler::ExpireBackoffs() {
  MaterializeWakes();
  while (!backoff_timers_.empty() && backoff_timers_.top().time <= now_) {
    const BackoffTimer t = backoff_timers_.top();
    backoff_timers_.pop();
    Group& group = groups_[t.shape];
    if (group.backoff_timer != t.time) continue;  // stale
    group.backoff_timer = -1;
    RetryNext(group, /*backoff_ended=*/true);
  }
}

void Scheduler::EndRetry(int shape) {
  Group& group = groups_[shape];
  group.retrying = -1;
  RetryNext(group);
  if (group.waiting.empty() && group.retrying < 0) UntrackGroup(shape);
}

void Scheduler::ActivateHead(Group& group) {
  const WaitKey head = *group.waiting.begin();
  group.waiting.erase(group.waiting.begin());
  --waiting_count_;
  // The group stays tracked while its retry is in flight: events until the
  // retried pod's cycle must reach its dirty nodes.
  group.retrying = head.id;
  Settle(static_cast<int>(&group - groups_.data()));
  Activate(head.id);
}

void Scheduler::WakeGroupsFor(int node) {
  // The wakes of an earlier event are taken to the active queue first.
  MaterializeWakes();
  // A back-off that ends at this instant ends before the event.
  ExpireBackoffs();
  ++events_;
  // Groups in back-off that waited for an event get their timer; those
  // whose back-off has ended meanwhile sleep, and are tested below.
  wake_scratch_.swap(unarmed_);
  unarmed_.clear();
  for (int shape : wake_scratch_) {
    Group& group = groups_[shape];
    group.unarmed = false;
    if (!group.waiting.empty() && group.retrying < 0 &&
        pods_[group.waiting.begin()->id].backoff_until <= now_) {
      RetryNext(group);  // on its dirty nodes, this one among them
    } else {
      Settle(shape);
    }
  }
  // The sleeping groups whose static filters pass the node; one that fits
  // it is retried. Retrying one changes no other group's state, so the
  // order of the visits does not matter (each retried pod enters the active
  // queue at its own priority and arrival). Backwards: a retried group
  // leaves its list by swap-remove, and an emptied list leaves
  // sleeper_constraints_ the same way, both from visited slots.
  for (size_t k = sleeper_constraints_.size(); k-- > 0;) {
    const int c = sleeper_constraints_[k];
    const std::vector<Sleeper>& list = sleepers_[c];
    if (!StaticFits(c, *pods_[list[0].head.id].pod)[node]) {
      continue;
    }
    // MayFitNode() without reading the pod (its static filters pass).
    const HamiFitSummary* summaries =
        device_fit_filter_ ? HamiSummaries() : nullptr;
    for (size_t i = list.size(); i-- > 0;) {
      // (Read before ActivateHead() moves the last sleeper to this slot.)
      const Sleeper& sleeper = list[i];
      const int shape = sleeper.shape;
      const HamiFitSummary* hami = sleeper.hami ? summaries : nullptr;
      if (hami != nullptr && !hami[node].Admits(sleeper.need)) {
        continue;  // it stays clear
      }
      const bool exact = sleeper.need.exact;
      if (hami != nullptr && exact && hami[node].exact()) {
        // The summary admits it and decides NodeResourcesFit and
        // GpuDeviceFit, as in the filter scan; nominated pods remain.
        if (nominee_count_ > 0) {
          const Pod& pod = *pods_[sleeper.head.id].pod;
          if (NomineesApply(pod, node) &&
              !FitsWithNominees(pod, node, nullptr)) {
            continue;
          }
        }
      } else {
        const PodState& s = pods_[sleeper.head.id];
        if (!FitsNode(*s.pod, s.constraints, node)) continue;
      }
      if (defer_wakes_) {
        DeferWake(shape, sleeper.head);  // taken in the active queue's order
        continue;
      }
      Group& group = groups_[shape];
      ActivateHead(group);
      // Its dirty nodes: this one, and those changed during its retry.
      group.clear_log = change_log_base_ + change_log_.size() - 1;
      group.clear_event = events_ - 1;
    }
  }
  if (defer_wakes_) SortDeferredWakes();
}

void Scheduler::Release(PodId id) {
  MaterializeWakes();
  PodState& s = pods_[id];
  GS_CHECK(s.state == State::kBound, "release of a pod that is not bound");
  Node& node = cluster_.nodes()[s.node];
  if (node.devices() != nullptr && !s.allocation.grants.empty() &&
      !s.claim_grants) {
    node.devices()->Release(s.allocation);
  }
  UnreservePod(node, *s.pod);
  UpdateFreeNodes(s.node, s.pod->requests);
  if (s.claim_grants) ClaimReleased(id);
  const bool nomination_ended = NoteUnbound(id);
  s.allocation.grants.clear();
  s.state = State::kDone;
  if (!s.pod->dra_claim.empty()) ForgetClaimPod(id);
  if (profile_.check_invariants) CheckInvariants(s.node);
  // A departure's wakes are deferred (ScheduleOne takes them) when nothing
  // else reads the groups before the next cycle.
  defer_wakes_ = !nomination_ended && CanDeferWakes();
  WakeGroupsFor(s.node);
  defer_wakes_ = false;
  if (nomination_ended) WakePreemptorsFor(s.node);
  FlushNominations();
}

void Scheduler::Drop(PodId id) {
  const PodState& s = pods_[id];
  GS_CHECK(s.state == State::kUnknown || s.state == State::kDone,
           "a pod was dropped while queued or bound");
  pods_.Release(id);
}

void Scheduler::Forget(PodId id) {
  MaterializeWakes();
  PodState& s = pods_[id];
  // A deleted pod's nomination ends; its room goes back to the others.
  ClearNomination(id, /*freed=*/true);
  if (s.state == State::kWaiting) {
    Group& group = groups_[s.shape];
    group.waiting.erase({s.pod->priority, s.seq, id});
    if (group.waiting.empty() && group.retrying < 0) {
      UntrackGroup(s.shape);
    } else {
      Settle(s.shape);  // its first pod may have changed
    }
    --waiting_count_;
    s.state = State::kDone;
    if (!s.pod->dra_claim.empty()) ForgetClaimPod(id);
  } else if (s.state == State::kActive) {
    // Lazy removal: the queue entry is skipped when popped.
    s.state = State::kDone;
    --active_count_;
    Group& group = groups_[s.shape];
    if (group.retrying == id) {
      // Its twins wait for an event; this pod's retry was one, pass it on.
      EndRetry(s.shape);
    }
    if (!s.pod->dra_claim.empty()) ForgetClaimPod(id);
  }
  FlushNominations();
}

void Scheduler::NodeChanged(int node) {
  MaterializeWakes();
  for (auto& fits : static_fits_) fits.clear();  // recomputed lazily
  for (StaticDiagnosis& d : static_diagnoses_) d.nodes = -1;
  notified_nodes_ = -1;
  for (auto& bits : free_nodes_) bits.clear();
  hami_summaries_.clear();
  hami_checked_nodes_ = -1;
  node_versions_.clear();
  change_log_.push_back(node);  // its groups' dirty node
  WakeGroupsFor(node);
}

void Scheduler::DevicesChanged(int index, bool recovered) {
  MaterializeWakes();
  Node& node = cluster_.nodes()[index];
  node.SyncDeviceAllocatable();
  UpdateFreeNodes(index, node.extended());
  if (profile_.check_invariants) CheckInvariants(index);
  if (recovered) WakeGroupsFor(index);
}

}  // namespace gpushare
