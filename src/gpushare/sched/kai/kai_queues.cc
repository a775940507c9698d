#include "gpushare/sched/kai/kai_queues.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "gpushare/io/check.h"
#include "gpushare/sched/kai/fair_share.h"

namespace gpushare {
namespace {

constexpr double kKaiQueueEpsilon = 1e-9;
constexpr std::string_view kReclaim = "Reclaim";
constexpr std::string_view kPreempt = "Preempt";

bool Preemptible(int32_t priority) {
  return priority < kKaiNonPreemptiblePriority;
}

}  // namespace

KaiQueues::KaiQueues(const KaiConfig& config, const ResourceRegistry& registry,
                     int64_t capacity_units)
    : registry_(registry),
      multiplier_(config.reclaimer_utilization_multiplier),
      capacity_(capacity_units) {
  for (const KaiQueueSpec& spec : config.queues) {
    Queue q;
    q.spec = spec;
    queues_.push_back(std::move(q));
  }
  for (Queue& q : queues_) {
    if (q.spec.parent.empty()) continue;
    for (size_t p = 0; p < queues_.size(); ++p) {
      if (queues_[p].spec.name == q.spec.parent) {
        q.parent = static_cast<int>(p);
        queues_[p].leaf = false;
      }
    }
    GS_CHECK(q.parent >= 0, "a KAI queue names an unknown parent");
  }
  for (Queue& q : queues_) {
    int depth = 0;
    for (int p = q.parent; p >= 0; p = queues_[p].parent) {
      GS_CHECK(++depth <= static_cast<int>(queues_.size()),
               "KAI queue parents form a cycle");
    }
    q.depth = depth;
  }
  fair_.assign(queues_.size(), 0.0);
}

int KaiQueues::QueueOf(const std::string& /*namespace_name*/,
                       const std::string& name) const {
  for (size_t q = 0; q < queues_.size(); ++q) {
    if (queues_[q].leaf && queues_[q].spec.name == name) {
      return static_cast<int>(q);
    }
  }
  return -1;
}

int KaiQueues::Add(const QueuedWorkloadSpec& spec) {
  GS_CHECK(spec.queue >= 0 && queues_[spec.queue].leaf,
           "a KAI job goes to a leaf queue");
  const int wl = static_cast<int>(workloads_.size());
  Workload w;
  w.spec = spec;
  for (const auto& [id, quantity] : spec.requests.items()) {
    w.units += GpuUnitsOf(registry_.Name(id)) * quantity;
  }
  workloads_.push_back(std::move(w));
  AddPending(wl);
  AddRequested(spec.queue, workloads_[wl].units);
  return wl;
}

KaiQueues::PendingKey KaiQueues::PendingKeyOf(int wl) const {
  const Workload& w = workloads_[wl];
  return {-w.spec.priority, w.spec.creation_s, wl};
}

void KaiQueues::AddPending(int wl) {
  const Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  q.pending.insert(PendingKeyOf(wl));
  ++q.pending_units[Preemptible(w.spec.priority)][w.units];
}

bool KaiQueues::RemovePending(int wl) {
  const Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  if (q.pending.erase(PendingKeyOf(wl)) == 0) return false;
  auto& units = q.pending_units[Preemptible(w.spec.priority)];
  auto it = units.find(w.units);
  if (--it->second == 0) units.erase(it);
  return true;
}

void KaiQueues::AddAllocated(int q, int64_t delta) {
  total_allocated_ += delta;
  for (; q >= 0; q = queues_[q].parent) queues_[q].allocated += delta;
}

void KaiQueues::AddEvicting(int q, int64_t delta) {
  for (; q >= 0; q = queues_[q].parent) queues_[q].evicting += delta;
}

void KaiQueues::AddRequested(int q, int64_t delta) {
  if (delta != 0) fair_dirty_ = true;
  for (; q >= 0; q = queues_[q].parent) queues_[q].requested += delta;
}

void KaiQueues::RefreshFairShares() {
  if (!fair_dirty_) return;
  fair_dirty_ = false;
  std::vector<FairShareQueue> in(queues_.size());
  for (size_t i = 0; i < queues_.size(); ++i) {
    const Queue& q = queues_[i];
    in[i].parent = q.parent;
    in[i].priority = q.spec.priority;
    in[i].quota = q.spec.gpu_quota;
    in[i].weight = q.spec.gpu_over_quota_weight;
    in[i].limit = q.spec.gpu_limit;
    in[i].request = static_cast<double>(q.requested);
  }
  fair_ = ComputeFairShares(in, static_cast<double>(capacity_));
}

double KaiQueues::FairShare(int q, int /*k*/) const { return fair_[q]; }

double KaiQueues::Ratio(int q, int64_t extra) const {
  const double allocated = static_cast<double>(queues_[q].allocated + extra);
  if (fair_[q] > kKaiQueueEpsilon) return allocated / fair_[q];
  // No fair share: only what others leave, after them.
  return std::numeric_limits<double>::infinity();
}

void KaiQueues::Reserve(Workload& w, int64_t units) {
  reserved_ += units - w.reserved;
  w.reserved = units;
}

bool KaiQueues::Within(double value, double cap) const {
  return cap < 0 || value <= cap + kKaiQueueEpsilon;
}

void KaiQueues::Allocate(int wl) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  RemovePending(wl);
  Reserve(w, 0);
  w.over_quota =
      q.spec.gpu_quota >= 0 && static_cast<double>(q.allocated + w.units) >
                                   q.spec.gpu_quota + kKaiQueueEpsilon;
  AddAllocated(w.spec.queue, w.units);
  w.state = State::kAdmitted;
  w.admitted_seq = next_seq_++;
  w.message.clear();
  q.admitted.insert({w.spec.priority, -w.admitted_seq, wl});
}

void KaiQueues::AdmitRunning(int wl, double /*now*/) { Allocate(wl); }

void KaiQueues::Release(int wl) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  q.admitted.erase({w.spec.priority, -w.admitted_seq, wl});
  AddAllocated(w.spec.queue, -w.units);
  if (w.state == State::kEvicting) AddEvicting(w.spec.queue, -w.units);
}

void KaiQueues::Finished(int wl) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  if (w.state == State::kAdmitted || w.state == State::kEvicting) {
    Release(wl);
    for (int p : w.waiters) {
      if (--workloads_[p].awaiting_victims == 0) nominated_.push_back(p);
    }
    w.waiters.clear();
  } else if (w.state == State::kPending) {
    Reserve(w, 0);
    if (!RemovePending(wl)) {
      auto it = std::find_if(deferred_.begin(), deferred_.end(),
                             [&](const Deferred& d) { return d.wl == wl; });
      if (it != deferred_.end()) {
        deferred_.erase(it);
        --q.deferred;
      }
    }
  }
  w.state = State::kDone;
  AddRequested(w.spec.queue, -w.units);
}

void KaiQueues::EvictionDone(int wl, double now) {
  Workload& w = workloads_[wl];
  GS_CHECK(w.state == State::kEvicting, "EvictionDone of a job not evicting");
  Release(wl);
  for (int p : w.waiters) {
    if (--workloads_[p].awaiting_victims == 0) nominated_.push_back(p);
  }
  w.waiters.clear();
  w.state = State::kPending;
  deferred_.push_back({now, wl});
  ++queues_[w.spec.queue].deferred;
}

int64_t KaiQueues::PendingActive(int q) const {
  if (queues_[q].leaf) {
    return static_cast<int64_t>(queues_[q].pending.size()) +
           queues_[q].deferred;
  }
  int64_t n = 0;
  for (size_t c = 0; c < queues_.size(); ++c) {
    if (queues_[c].parent == q) n += PendingActive(static_cast<int>(c));
  }
  return n;
}

std::vector<QueueQuotaInfo> KaiQueues::queue_quotas(int q) const {
  const KaiQueueSpec& spec = queues_[q].spec;
  QueueQuotaInfo info;
  info.resource = "gpu";
  info.quota = spec.gpu_quota;
  if (spec.gpu_limit >= 0 && spec.gpu_quota >= 0) {
    info.borrowing_limit = spec.gpu_limit - spec.gpu_quota;
  }
  return {info};
}

void KaiQueues::Schedule(double now, Decisions* out) {
  // Evicted jobs whose time has come wait in their queues again.
  for (size_t i = 0; i < deferred_.size();) {
    if (deferred_[i].not_before < now) {
      const int wl = deferred_[i].wl;
      AddPending(wl);
      --queues_[workloads_[wl].spec.queue].deferred;
      deferred_[i] = deferred_.back();
      deferred_.pop_back();
    } else {
      ++i;
    }
  }
  RefreshFairShares();
  // Jobs whose victims are gone take the units freed for them first.
  std::vector<int> nominated;
  nominated.swap(nominated_);
  std::sort(nominated.begin(), nominated.end());
  for (int wl : nominated) {
    const Workload& w = workloads_[wl];
    // Checked again: its queue may have taken units meanwhile.
    if (w.state == State::kPending && w.awaiting_victims == 0) {
      TryJob(wl, out);
    }
  }
  // Per queue: where its next untried job is, and the smallest job (by
  // preemptibility) that could not run: a later job, of no higher priority,
  // at least as large cannot run either.
  struct Cursor {
    std::optional<PendingKey> after;
    int64_t failed_units[2] = {std::numeric_limits<int64_t>::max(),
                               std::numeric_limits<int64_t>::max()};
    bool done = false;
  };
  std::vector<Cursor> cursors(queues_.size());
  auto next_job = [&](int q) -> int {
    Cursor& c = cursors[q];
    // Every job left at least as large as one that could not run: done.
    bool any = false;
    for (int p = 0; p < 2; ++p) {
      const auto& units = queues_[q].pending_units[p];
      any |= !units.empty() && units.begin()->first < c.failed_units[p];
    }
    if (!any) {
      c.done = true;
      return -1;
    }
    const auto& pending = queues_[q].pending;
    auto it = c.after ? pending.upper_bound(*c.after) : pending.begin();
    // Non-preemptible jobs (priority >= 100) come first; when none of them
    // is left to try, go straight to the preemptible ones.
    const auto& fixed = queues_[q].pending_units[0];
    if (fixed.empty() || fixed.begin()->first >= c.failed_units[0]) {
      const PendingKey first_preemptible = {-(kKaiNonPreemptiblePriority - 1),
                                            -std::numeric_limits<double>::max(),
                                            std::numeric_limits<int>::min()};
      auto p = pending.lower_bound(first_preemptible);
      if (it != pending.end() && (p == pending.end() || *p > *it)) it = p;
    }
    for (; it != pending.end(); ++it) {
      const int wl = std::get<2>(*it);
      const Workload& w = workloads_[wl];
      if (w.units < c.failed_units[Preemptible(w.spec.priority)]) return wl;
    }
    c.done = true;
    return -1;
  };
  for (;;) {
    // The leaf with jobs to try that is furthest below its fair share.
    int best = -1;
    int best_wl = -1;
    for (size_t i = 0; i < queues_.size(); ++i) {
      const Queue& q = queues_[i];
      if (!q.leaf || cursors[i].done || q.pending.empty()) continue;
      const int qi = static_cast<int>(i);
      if (best >= 0) {
        const double a = Ratio(qi, 0);
        const double b = Ratio(best, 0);
        if (a > b ||
            (a == b && q.spec.priority <= queues_[best].spec.priority)) {
          continue;
        }
      }
      const int wl = next_job(qi);
      if (wl < 0) continue;
      best = qi;
      best_wl = wl;
    }
    if (best < 0) break;
    const Try t = TryJob(best_wl, out);
    if (t != Try::kProgress) {
      const Workload& w = workloads_[best_wl];
      Cursor& c = cursors[best];
      c.after = PendingKeyOf(best_wl);
      if (t == Try::kNoRoom) {
        int64_t& failed = c.failed_units[Preemptible(w.spec.priority)];
        failed = std::min(failed, w.units);
      }
    }
  }
}

KaiQueues::Try KaiQueues::TryJob(int wl, Decisions* out) {
  Workload& w = workloads_[wl];
  const int qi = w.spec.queue;
  Queue& q = queues_[qi];
  if (w.awaiting_victims > 0) {
    std::string why = fmt::format("waiting for {} evicted job(s) to terminate",
                                  w.awaiting_victims);
    if (w.message != why) w.message = std::move(why);
    out->waiting.push_back(wl);
    return Try::kAwaitingVictims;
  }
  // It cannot run now: nothing is kept for it.
  auto wait = [&](std::string why) {
    Reserve(w, 0);
    if (w.message != why) w.message = std::move(why);
    out->waiting.push_back(wl);
    return Try::kNoRoom;
  };
  // Limits on the queue and its ancestors.
  for (int a = qi; a >= 0; a = queues_[a].parent) {
    const Queue& anc = queues_[a];
    if (!Within(static_cast<double>(anc.allocated + w.units),
                anc.spec.gpu_limit)) {
      return wait(fmt::format(
          "queue {} would exceed its GPU limit: {} allocated + {} requested "
          "> limit {}",
          anc.spec.name, anc.allocated, w.units, anc.spec.gpu_limit));
    }
  }
  const bool preemptible = Preemptible(w.spec.priority);
  if (!preemptible &&
      !Within(static_cast<double>(q.allocated + w.units), q.spec.gpu_quota)) {
    return wait(fmt::format(
        "non-preemptible job (priority {} >= {}) would exceed queue {}'s "
        "deserved quota: {} allocated + {} requested > quota {}",
        w.spec.priority, kKaiNonPreemptiblePriority, q.spec.name, q.allocated,
        w.units, q.spec.gpu_quota));
  }
  // The units kept for it count as free for it.
  const int64_t free = Free() + w.reserved;
  if (w.units <= free) {
    Allocate(wl);
    out->admitted.push_back(wl);
    return Try::kProgress;
  }
  const int64_t needed = w.units - free;
  if (Reclaim(wl, needed, out) || Preempt(wl, needed, out)) {
    // What is free now waits for it with what its victims free.
    Reserve(w, free);
    return Try::kProgress;
  }
  return wait(fmt::format(
      "insufficient GPU units: needs {}, {} free of {}; queue {} has {} "
      "allocated of a fair share of {:.4g} and nothing to reclaim or preempt",
      w.units, Free(), capacity_, q.spec.name, q.allocated, fair_[qi]));
}

int KaiQueues::ChildOnPath(int q, int ancestor) const {
  while (queues_[q].parent != ancestor) q = queues_[q].parent;
  return q;
}

int KaiQueues::CommonAncestor(int a, int b) const {
  while (queues_[a].depth > queues_[b].depth) a = queues_[a].parent;
  while (queues_[b].depth > queues_[a].depth) b = queues_[b].parent;
  while (a != b) {
    a = queues_[a].parent;
    b = queues_[b].parent;
    if (a < 0 || b < 0) return -1;
  }
  return a;
}

bool KaiQueues::Reclaim(int wl, int64_t needed, Decisions* out) {
  const Workload& w = workloads_[wl];
  const int rq = w.spec.queue;
  const Queue& reclaimer = queues_[rq];
  // CanReclaimResources: the reclaimer stays within its fair share (and a
  // non-preemptible one within its deserved quota).
  const double after = static_cast<double>(reclaimer.allocated + w.units);
  if (after > fair_[rq] + kKaiQueueEpsilon) return false;
  if (!Preemptible(w.spec.priority) &&
      !Within(after, reclaimer.spec.gpu_quota)) {
    return false;
  }
  // Victim queues: the leaves most above their fair share first.
  std::vector<int> leaves;
  for (size_t i = 0; i < queues_.size(); ++i) {
    if (queues_[i].leaf && static_cast<int>(i) != rq &&
        !queues_[i].admitted.empty()) {
      leaves.push_back(static_cast<int>(i));
    }
  }
  std::stable_sort(leaves.begin(), leaves.end(),
                   [&](int a, int b) { return Ratio(a, 0) > Ratio(b, 0); });
  // Allocations after the jobs being evicted and the victims chosen so far
  // leave.
  std::vector<int64_t> remaining(queues_.size());
  for (size_t i = 0; i < queues_.size(); ++i) {
    remaining[i] = queues_[i].allocated - queues_[i].evicting;
  }
  std::vector<int> victims;
  int64_t freed = 0;
  for (int vq : leaves) {
    if (freed >= needed) break;
    const int lca = CommonAncestor(rq, vq);
    const int r_level = ChildOnPath(rq, lca);
    const int v_level = ChildOnPath(vq, lca);
    for (const auto& [priority, seq, v] : queues_[vq].admitted) {
      if (freed >= needed) break;
      const Workload& c = workloads_[v];
      if (!Preemptible(priority) || c.state != State::kAdmitted ||
          c.units == 0) {
        continue;
      }
      const double left = static_cast<double>(remaining[v_level]);
      const bool maintain_fair_share = left > fair_[v_level] + kKaiQueueEpsilon;
      const double r_after =
          static_cast<double>(queues_[r_level].allocated + w.units);
      const double v_quota = queues_[v_level].spec.gpu_quota;
      const bool guarantee_deserved =
          Within(r_after, queues_[r_level].spec.gpu_quota) && v_quota >= 0 &&
          left > v_quota + kKaiQueueEpsilon;
      // Remaining only falls: later jobs of this queue fail as well.
      if (!maintain_fair_share && !guarantee_deserved) break;
      victims.push_back(v);
      freed += c.units;
      for (int a = vq; a >= 0; a = queues_[a].parent) remaining[a] -= c.units;
    }
  }
  if (freed < needed) return false;
  // Boundaries: at each of the reclaimer's levels, no sibling the victims
  // came from ends up relatively poorer than the reclaimer.
  for (int a = rq; a >= 0; a = queues_[a].parent) {
    const double fair = fair_[a];
    const double ratio_r =
        fair > kKaiQueueEpsilon
            ? static_cast<double>(queues_[a].allocated + w.units) / fair
            : std::numeric_limits<double>::infinity();
    if (ratio_r <= 1) continue;
    for (size_t s = 0; s < queues_.size(); ++s) {
      const int si = static_cast<int>(s);
      if (si == a || queues_[s].parent != queues_[a].parent ||
          remaining[s] == queues_[s].allocated - queues_[s].evicting ||
          fair_[s] <= kKaiQueueEpsilon) {
        continue;
      }
      const double ratio_s = static_cast<double>(remaining[s]) / fair_[s];
      if (ratio_r * multiplier_ >= ratio_s) return false;
    }
  }
  for (int v : victims) Evict(v, wl, kReclaim, out);
  return true;
}

bool KaiQueues::Preempt(int wl, int64_t needed, Decisions* out) {
  const Workload& w = workloads_[wl];
  std::vector<int> victims;
  int64_t freed = 0;
  for (const auto& [priority, seq, v] : queues_[w.spec.queue].admitted) {
    if (freed >= needed || priority >= w.spec.priority) break;
    const Workload& c = workloads_[v];
    if (!Preemptible(priority) || c.state != State::kAdmitted || c.units == 0) {
      continue;
    }
    victims.push_back(v);
    freed += c.units;
  }
  if (freed < needed) return false;
  for (int v : victims) Evict(v, wl, kPreempt, out);
  return true;
}

void KaiQueues::Evict(int victim, int preemptor, std::string_view reason,
                      Decisions* out) {
  Workload& v = workloads_[victim];
  v.state = State::kEvicting;
  AddEvicting(v.spec.queue, v.units);
  v.waiters.push_back(preemptor);
  ++workloads_[preemptor].awaiting_victims;
  workloads_[preemptor].message =
      fmt::format("{}: waiting for {} evicted job(s) to terminate", reason,
                  workloads_[preemptor].awaiting_victims);
  out->evictions.push_back({victim, preemptor, reason});
}

}  // namespace gpushare
