#include "gpushare/sched/kueue/kueue.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "gpushare/io/check.h"
#include "gpushare/sched/kueue/kueue_preemption.h"

namespace gpushare {

std::string_view KueueEvictionReasonName(KueueEvictionReason r) {
  switch (r) {
    case KueueEvictionReason::kInClusterQueue:
      return "InClusterQueue";
    case KueueEvictionReason::kInCohortReclamation:
      return "InCohortReclamation";
    case KueueEvictionReason::kInCohortReclaimWhileBorrowing:
      return "InCohortReclaimWhileBorrowing";
  }
  return "InClusterQueue";
}

Kueue::Kueue(const KueueConfig& config, ResourceRegistry& registry)
    : registry_(registry),
      flavors_(config.resource_flavors),
      local_queues_(config.local_queues) {
  auto flavor_index = [&](const std::string& name) {
    for (size_t f = 0; f < flavors_.size(); ++f) {
      if (flavors_[f].name == name) return static_cast<int>(f);
    }
    return -1;
  };
  std::vector<int> cohort_of;
  for (const ClusterQueueSpec& spec : config.cluster_queues) {
    Queue q;
    q.spec = spec;
    if (!spec.cohort.empty()) {
      auto it = std::find(cohorts_.begin(), cohorts_.end(), spec.cohort);
      q.cohort = static_cast<int>(it - cohorts_.begin());
      if (it == cohorts_.end()) cohorts_.push_back(spec.cohort);
    }
    cohort_of.push_back(q.cohort);
    for (const ResourceGroupSpec& g : spec.resource_groups) {
      Group group;
      for (const std::string& r : g.covered_resources) {
        group.covered.push_back(registry.Intern(r));
      }
      for (const FlavorQuotasSpec& fq : g.flavors) {
        GroupFlavor gf;
        gf.flavor = flavor_index(fq.flavor);
        GS_CHECK(gf.flavor >= 0, "a ClusterQueue names an unknown flavor");
        for (const ResourceQuotaSpec& rq : fq.resources) {
          const ResourceId id = registry.Intern(rq.resource);
          int pair = Pair(gf.flavor, id);
          if (pair < 0) {
            pair = static_cast<int>(pairs_.size());
            pairs_.push_back({gf.flavor, id});
          }
          gf.pairs.push_back(pair);
        }
        group.flavors.push_back(std::move(gf));
      }
      q.groups.push_back(std::move(group));
    }
    queues_.push_back(std::move(q));
  }
  book_ = QuotaBook(cohort_of, static_cast<int>(pairs_.size()));
  // A queue's admitted workloads are kept in preemption order only where
  // some policy can make them victims.
  for (Queue& q : queues_) {
    q.preemptible =
        q.spec.within_cluster_queue != KueuePreemptionPolicy::kNever;
    for (const Queue& other : queues_) {
      if (&other == &q || q.cohort < 0 || other.cohort != q.cohort) continue;
      q.preemptible |=
          other.spec.reclaim_within_cohort != KueuePreemptionPolicy::kNever ||
          other.spec.borrow_within_cohort != KueuePreemptionPolicy::kNever;
    }
  }
  for (size_t qi = 0; qi < queues_.size(); ++qi) {
    const ClusterQueueSpec& spec = queues_[qi].spec;
    for (size_t g = 0; g < spec.resource_groups.size(); ++g) {
      const ResourceGroupSpec& group = spec.resource_groups[g];
      for (size_t f = 0; f < group.flavors.size(); ++f) {
        const FlavorQuotasSpec& fq = group.flavors[f];
        for (size_t r = 0; r < fq.resources.size(); ++r) {
          const ResourceQuotaSpec& rq = fq.resources[r];
          book_.Define(static_cast<int>(qi),
                       queues_[qi].groups[g].flavors[f].pairs[r],
                       rq.nominal_quota,
                       rq.borrowing_limit.value_or(QuotaBook::kUnlimited),
                       rq.lending_limit.value_or(rq.nominal_quota));
        }
      }
    }
  }
  for (const LocalQueueSpec& lq : local_queues_) {
    int cq = -1;
    for (size_t q = 0; q < queues_.size(); ++q) {
      if (queues_[q].spec.name == lq.cluster_queue) cq = static_cast<int>(q);
    }
    GS_CHECK(cq >= 0, "a LocalQueue names an unknown ClusterQueue");
    local_queue_cq_.push_back(cq);
  }
  defined_pairs_.resize(queues_.size());
  for (size_t q = 0; q < queues_.size(); ++q) {
    for (size_t k = 0; k < pairs_.size(); ++k) {
      const int fr = static_cast<int>(k);
      if (book_.Defines(static_cast<int>(q), fr)) {
        defined_pairs_[q].push_back(fr);
      }
    }
  }
}

int Kueue::Pair(int flavor, ResourceId resource) const {
  for (size_t i = 0; i < pairs_.size(); ++i) {
    if (pairs_[i].flavor == flavor && pairs_[i].resource == resource) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

int Kueue::QueueOf(const std::string& namespace_name,
                          const std::string& name) const {
  for (size_t i = 0; i < local_queues_.size(); ++i) {
    if (local_queues_[i].name == name &&
        local_queues_[i].namespace_name == namespace_name) {
      return local_queue_cq_[i];
    }
  }
  return -1;
}

std::string Kueue::UncoveredResource(int cluster_queue,
                                     const ResourceList& requests) const {
  for (const auto& [id, quantity] : requests.items()) {
    bool covered = false;
    for (const Group& g : queues_[cluster_queue].groups) {
      covered |=
          std::find(g.covered.begin(), g.covered.end(), id) != g.covered.end();
    }
    if (!covered) return registry_.Name(id);
  }
  return "";
}

int Kueue::Add(const KueueWorkloadSpec& spec) {
  const int wl = static_cast<int>(workloads_.size());
  Workload w;
  w.spec = spec;
  std::string key = fmt::format("{}|{}|", spec.queue, spec.priority);
  for (const auto& [id, quantity] : spec.requests.items()) {
    key += fmt::format("{}={};", id, quantity);
  }
  for (bool ok : spec.flavor_ok) key += ok ? '1' : '0';
  auto [it, added] = shape_ids_.emplace(key, static_cast<int>(shapes_.size()));
  if (added) shapes_.push_back({spec.queue, {}, false});
  w.shape = it->second;
  workloads_.push_back(std::move(w));
  Activate(wl);
  return wl;
}

Kueue::Assignment Kueue::Assign(const Workload& w) const {
  Assignment a;
  a.fit = QuotaBook::Fit::kFits;
  const Queue& q = queues_[w.spec.queue];
  for (const Group& g : q.groups) {
    // The workload's requests of this group's resources.
    std::vector<std::pair<size_t, int64_t>> wanted;
    for (size_t r = 0; r < g.covered.size(); ++r) {
      const int64_t quantity = w.spec.requests.Get(g.covered[r]);
      if (quantity > 0) wanted.push_back({r, quantity});
    }
    if (wanted.empty()) continue;
    int chosen = -1;
    int fallback = -1;
    QuotaBook::Fit fit = QuotaBook::Fit::kNoFit;
    std::vector<QuotaAmount> amounts;
    std::string why;
    for (size_t f = 0; f < g.flavors.size(); ++f) {
      const GroupFlavor& gf = g.flavors[f];
      if (!w.spec.flavor_ok[gf.flavor]) continue;
      std::vector<QuotaAmount> trial;
      for (const auto& [r, quantity] : wanted) {
        trial.push_back({gf.pairs[r], quantity});
      }
      fit = book_.Fits(w.spec.queue, trial);
      if (fit != QuotaBook::Fit::kNoFit) {
        chosen = static_cast<int>(f);
        amounts = std::move(trial);
        break;
      }
      if (fallback < 0) {
        fallback = static_cast<int>(f);
        amounts = trial;
        for (const QuotaAmount& t : trial) {
          const int64_t left =
              book_.Available(w.spec.queue, t.flavor_resource);
          if (t.quantity > left && why.empty()) {
            why = fmt::format(
                "insufficient unused quota for {} in flavor {}, {} more "
                "needed",
                registry_.Name(pairs_[t.flavor_resource].resource),
                flavors_[gf.flavor].name, t.quantity - left);
          }
        }
      }
    }
    if (chosen < 0 && fallback < 0) {
      a.fit = QuotaBook::Fit::kNoFit;
      a.message = fmt::format(
          "couldn't assign flavors: no flavor of {} matches the pods' nodes",
          registry_.Name(g.covered[wanted.front().first]));
      a.amounts.clear();
      return a;
    }
    if (chosen < 0) {
      a.fit = QuotaBook::Fit::kNoFit;
      if (a.message.empty()) a.message = "couldn't assign flavors: " + why;
      chosen = fallback;
    } else if (fit == QuotaBook::Fit::kFitsBorrowing &&
               a.fit == QuotaBook::Fit::kFits) {
      a.fit = QuotaBook::Fit::kFitsBorrowing;
    }
    a.flavors.push_back(g.flavors[chosen].flavor);
    a.amounts.insert(a.amounts.end(), amounts.begin(), amounts.end());
  }
  return a;
}

void Kueue::Reserve(int wl, const Assignment& a, double now) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  w.usage = a.amounts;
  w.borrowed = a.fit == QuotaBook::Fit::kFitsBorrowing;
  w.node_labels.clear();
  for (int f : a.flavors) {
    for (const auto& [key, value] : flavors_[f].node_labels) {
      w.node_labels[key] = value;
    }
  }
  book_.Add(w.spec.queue, w.usage, +1);
  failed_preemptions_.clear();
  w.state = State::kAdmitted;
  w.admitted_s = now;
  w.admitted_seq = ++admissions_;
  w.message.clear();
  if (q.preemptible) q.admitted.insert({w.spec.priority, w.admitted_seq, wl});
}

void Kueue::AdmitRunning(int wl, double now) {
  Workload& w = workloads_[wl];
  queues_[w.spec.queue].active.erase(
      KeyOf(wl));
  // Its flavors as Kueue would assign them now (or the first its nodes
  // match when none has room): the usage may go beyond the quota.
  Assignment a = Assign(w);
  a.fit = book_.Fits(w.spec.queue, a.amounts) == QuotaBook::Fit::kFits
              ? QuotaBook::Fit::kFits
              : QuotaBook::Fit::kFitsBorrowing;
  Reserve(wl, a, now);
}

void Kueue::Release(int wl) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  book_.Add(w.spec.queue, w.usage, -1);
  failed_preemptions_.clear();
  w.usage.clear();
  if (q.preemptible) q.admitted.erase({w.spec.priority, w.admitted_seq, wl});
  evicting_.erase(wl);
  Requeue(w.spec.queue);
}

void Kueue::Finished(int wl) {
  Workload& w = workloads_[wl];
  if (w.state == State::kAdmitted || w.state == State::kEvicting) {
    Release(wl);
    // A victim that ended while being evicted: its preemptors wait no more.
    for (int preemptor : w.waiters) --workloads_[preemptor].awaiting_victims;
    w.waiters.clear();
  } else if (w.state == State::kPending) {
    queues_[w.spec.queue].active.erase(
        KeyOf(wl));
  } else if (w.state == State::kInadmissible) {
    Queue& q = queues_[w.spec.queue];
    ShapeGroup& group = shapes_[w.shape];
    group.waiting.erase(KeyOf(wl));
    --q.inadmissible;
    if (group.waiting.empty()) q.inadmissible_shapes.erase(w.shape);
  }
  w.state = State::kDone;
}

void Kueue::EvictionDone(int wl, double now) {
  Workload& w = workloads_[wl];
  GS_CHECK(w.state == State::kEvicting, "eviction of a workload not evicted");
  Release(wl);
  w.released_s = now;
  if (now >= 0) deferred_.push_back(wl);
  w.state = State::kPending;
  Activate(wl);
  for (int preemptor : w.waiters) --workloads_[preemptor].awaiting_victims;
  w.waiters.clear();
}

Kueue::Key Kueue::KeyOf(int wl) const {
  const Workload& w = workloads_[wl];
  return {w.spec.priority, w.spec.creation_s, wl};
}

void Kueue::Activate(int wl) {
  const Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  q.active.insert(KeyOf(wl));
  // A new head of a StrictFIFO queue is tried even if the old one blocked.
  if (q.blocked && q.active.begin()->wl == wl) q.blocked = false;
}

void Kueue::Requeue(int q) {
  const int cohort = queues_[q].cohort;
  for (size_t i = 0; i < queues_.size(); ++i) {
    Queue& other = queues_[i];
    if (static_cast<int>(i) != q && (cohort < 0 || other.cohort != cohort)) {
      continue;
    }
    other.blocked = false;
    const bool may_preempt = MayPreempt(static_cast<int>(i));
    // WakeNext may empty a shape: walk a snapshot.
    const std::vector<int> shapes(other.inadmissible_shapes.begin(),
                                  other.inadmissible_shapes.end());
    for (int shape : shapes) {
      ShapeGroup& group = shapes_[shape];
      if (group.woken || group.waiting.empty()) continue;
      if (!may_preempt && Assign(workloads_[group.waiting.begin()->wl]).fit ==
                              QuotaBook::Fit::kNoFit) {
        continue;  // none of the shape fits now, nor later in the cycle
      }
      WakeNext(shape);
    }
  }
}

bool Kueue::MayPreempt(int q) const {
  const ClusterQueueSpec& spec = queues_[q].spec;
  return spec.within_cluster_queue != KueuePreemptionPolicy::kNever ||
         (queues_[q].cohort >= 0 &&
          (spec.reclaim_within_cohort != KueuePreemptionPolicy::kNever ||
           spec.borrow_within_cohort != KueuePreemptionPolicy::kNever));
}

void Kueue::SetAside(int wl) {
  Workload& w = workloads_[wl];
  Queue& q = queues_[w.spec.queue];
  ShapeGroup& group = shapes_[w.shape];
  w.state = State::kInadmissible;
  group.waiting.insert(KeyOf(wl));
  group.woken = false;
  ++q.inadmissible;
  q.inadmissible_shapes.insert(w.shape);
}

void Kueue::WakeNext(int shape) {
  ShapeGroup& group = shapes_[shape];
  if (group.waiting.empty()) {
    group.woken = false;
    return;
  }
  const Key key = *group.waiting.begin();
  group.waiting.erase(group.waiting.begin());
  Queue& q = queues_[group.queue];
  --q.inadmissible;
  if (group.waiting.empty()) q.inadmissible_shapes.erase(shape);
  group.woken = true;
  workloads_[key.wl].state = State::kPending;
  q.active.insert(key);
}

void Kueue::Schedule(double now, Decisions* out) {
  // Workloads released before `now` are no longer held back.
  std::erase_if(deferred_, [&](int wl) {
    Workload& w = workloads_[wl];
    if (w.released_s >= now) return false;
    w.released_s = -1;
    return true;
  });
  struct Entry {
    int queue;
    int wl;
    Assignment a;
  };
  for (;;) {
    std::vector<Entry> entries;
    for (size_t qi = 0; qi < queues_.size(); ++qi) {
      const Queue& q = queues_[qi];
      if (q.blocked || q.active.empty()) continue;
      const int wl = q.active.begin()->wl;
      // A preemptor waits for its victims' quota; its queue waits with it.
      if (workloads_[wl].awaiting_victims > 0) continue;
      // A workload evicted at this very time waits for time to pass.
      if (workloads_[wl].released_s >= now) continue;
      entries.push_back({static_cast<int>(qi), wl, Assign(workloads_[wl])});
    }
    if (entries.empty()) return;
    // Kueue's entry order: no borrowing first, then priority, then age.
    std::sort(
        entries.begin(), entries.end(), [&](const Entry& x, const Entry& y) {
          const Workload& a = workloads_[x.wl];
          const Workload& b = workloads_[y.wl];
          const bool xb = x.a.fit == QuotaBook::Fit::kFitsBorrowing;
          const bool yb = y.a.fit == QuotaBook::Fit::kFitsBorrowing;
          return std::make_tuple(xb, -a.spec.priority, a.spec.creation_s,
                                 x.wl) <
                 std::make_tuple(yb, -b.spec.priority, b.spec.creation_s, y.wl);
        });
    bool progress = false;
    for (Entry& e : entries) {
      Workload& w = workloads_[e.wl];
      Queue& q = queues_[e.queue];
      const Key key = KeyOf(e.wl);
      if (e.a.fit != QuotaBook::Fit::kNoFit) {
        // Admissions earlier in this cycle may have taken the cohort's
        // quota: such an entry waits for the next cycle.
        const QuotaBook::Fit fit = book_.Fits(e.queue, e.a.amounts);
        if (fit == QuotaBook::Fit::kNoFit) continue;
        e.a.fit = fit;
        q.active.erase(key);
        Reserve(e.wl, e.a, now);
        out->admitted.push_back(e.wl);
        // The next of its shape may fit as well.
        if (shapes_[w.shape].woken) WakeNext(w.shape);
        progress = true;
        continue;
      }
      out->waiting.push_back(e.wl);
      if (Preempt(e.wl, e.a, out)) {
        w.message = "pending the preemption of " +
                    std::to_string(w.awaiting_victims) + " workload(s)";
        progress = true;
        continue;
      }
      w.message = e.a.message;
      if (q.spec.queueing_strategy == QueueingStrategy::kStrictFifo) {
        q.blocked = true;
      } else {
        q.active.erase(key);
        SetAside(e.wl);
      }
      progress = true;
    }
    if (!progress) return;
  }
}

bool Kueue::Preempt(int wl, const Assignment& a, Decisions* out) {
  Workload& w = workloads_[wl];
  const int qi = w.spec.queue;
  const Queue& q = queues_[qi];
  const int32_t p = w.spec.priority;
  if (a.amounts.empty() || !MayPreempt(qi)) return false;
  for (const FailedPreemption& f : failed_preemptions_) {
    if (f.queue == qi && f.priority == p && f.amounts == a.amounts) {
      return false;
    }
  }
  auto candidate = [&](int v) {
    const Workload& c = workloads_[v];
    KueuePreemptionCandidate k;
    k.workload = v;
    k.queue = c.spec.queue;
    k.priority = c.spec.priority;
    k.admitted_seq = c.admitted_seq;
    k.evicting = c.state == State::kEvicting;
    k.usage = c.usage;
    return k;
  };
  std::vector<KueuePreemptionCandidate>& own = own_scratch_;
  own.clear();
  // What evicting all of its own candidates would give back, per pair of
  // the request.
  std::vector<int64_t> own_back(a.amounts.size(), 0);
  if (q.spec.within_cluster_queue != KueuePreemptionPolicy::kNever) {
    for (const Queue::AdmittedKey& entry : q.admitted) {
      const int v = entry.wl;
      const Workload& c = workloads_[v];
      if (c.spec.priority > p) break;
      const bool lower = c.spec.priority < p;
      const bool newer_equal =
          c.spec.priority == p && std::make_pair(c.spec.creation_s, v) >
                                      std::make_pair(w.spec.creation_s, wl);
      if (lower || (q.spec.within_cluster_queue ==
                        KueuePreemptionPolicy::kLowerOrNewerEqualPriority &&
                    newer_equal)) {
        own.push_back(candidate(v));
        for (const QuotaAmount& u : c.usage) {
          for (size_t k = 0; k < a.amounts.size(); ++k) {
            if (a.amounts[k].flavor_resource == u.flavor_resource) {
              own_back[k] += u.quantity;
            }
          }
        }
      }
    }
  }
  // Whether the request can fit the queue's own limit at all, with its own
  // candidates gone (the cohort's workloads do not lower its usage): a
  // necessary condition that spares the search.
  auto may_fit = [&](bool allow_borrowing) {
    for (size_t k = 0; k < a.amounts.size(); ++k) {
      const int fr = a.amounts[k].flavor_resource;
      int64_t limit = book_.Nominal(qi, fr);
      if (allow_borrowing && q.cohort >= 0) {
        const int64_t b = book_.BorrowingLimit(qi, fr);
        limit = b == QuotaBook::kUnlimited ? QuotaBook::kUnlimited : limit + b;
      }
      if (book_.Usage(qi, fr) - own_back[k] + a.amounts[k].quantity > limit) {
        return false;
      }
    }
    return true;
  };
  struct Attempt {
    bool allow_borrowing;
    KueuePreemptionPolicy policy;  // of the cohort's candidates
    KueueEvictionReason reason;
  };
  std::vector<Attempt> attempts = {
      {false, q.spec.reclaim_within_cohort,
       KueueEvictionReason::kInCohortReclamation},
      {true, q.spec.borrow_within_cohort,
       KueueEvictionReason::kInCohortReclaimWhileBorrowing}};
  if (q.spec.borrow_within_cohort != KueuePreemptionPolicy::kNever) {
    std::swap(attempts[0], attempts[1]);
  }
  std::vector<KueuePreemptionCandidate>& all = all_scratch_;
  for (const Attempt& t : attempts) {
    if (!may_fit(t.allow_borrowing)) continue;
    // The cohort's candidates, lazily in Kueue's order: each borrowing
    // queue's admitted set is already ordered (priority, then newest), and
    // the queues are merged by that key.
    auto eligible = [&](int32_t vp) {
      return t.allow_borrowing
                 ? vp < p && (!q.spec.borrow_max_priority_threshold ||
                              vp <= *q.spec.borrow_max_priority_threshold)
                 : t.policy == KueuePreemptionPolicy::kAny || vp < p;
    };
    using Iter = std::set<Queue::AdmittedKey>::const_iterator;
    std::vector<std::pair<Iter, Iter>> cursors;
    if (q.cohort >= 0 && t.policy != KueuePreemptionPolicy::kNever) {
      for (size_t oi = 0; oi < queues_.size(); ++oi) {
        const Queue& other = queues_[oi];
        if (static_cast<int>(oi) == qi || other.cohort != q.cohort) continue;
        if (!book_.BorrowingIn(static_cast<int>(oi), a.amounts)) continue;
        cursors.push_back({other.admitted.begin(), other.admitted.end()});
      }
    }
    // Candidates already being evicted come first, wherever they are.
    std::vector<KueuePreemptionCandidate> evicting;
    for (int v : evicting_) {
      const Workload& c = workloads_[v];
      const int cq = c.spec.queue;
      if (cq != qi && queues_[cq].cohort == q.cohort && q.cohort >= 0 &&
          t.policy != KueuePreemptionPolicy::kNever &&
          book_.BorrowingIn(cq, a.amounts) && eligible(c.spec.priority)) {
        evicting.push_back(candidate(v));
      }
    }
    for (const KueuePreemptionCandidate& c : own) {
      if (c.evicting) evicting.push_back(c);
    }
    // A prefix of the order suffices when the search ends inside it (it
    // removes in order and stops at the first fit): grow it until the
    // search succeeds or the candidates run out.
    std::vector<int> chosen;
    bool exhausted = false;
    size_t limit = 64;
    while (chosen.empty() && !exhausted) {
      all = evicting;
      std::vector<std::pair<Iter, Iter>> at = cursors;
      while (all.size() < limit) {
        int best = -1;
        for (size_t c = 0; c < at.size(); ++c) {
          while (at[c].first != at[c].second &&
                 (workloads_[at[c].first->wl].state == State::kEvicting ||
                  !eligible(at[c].first->priority))) {
            // Evicting ones are in front already; the ineligible are of
            // higher priority: none after them is eligible either, unless
            // the policy is Any.
            if (workloads_[at[c].first->wl].state != State::kEvicting &&
                !eligible(at[c].first->priority)) {
              at[c].first = at[c].second;
              break;
            }
            ++at[c].first;
          }
          if (at[c].first == at[c].second) continue;
          if (best < 0 || *at[c].first < *at[best].first) {
            best = static_cast<int>(c);
          }
        }
        if (best < 0) break;
        all.push_back(candidate(at[best].first->wl));
        ++at[best].first;
      }
      const bool cohort_done =
          std::all_of(at.begin(), at.end(),
                      [](const auto& c) { return c.first == c.second; });
      if (cohort_done) {
        for (const KueuePreemptionCandidate& c : own) {
          if (!c.evicting) all.push_back(c);
        }
        exhausted = true;
      }
      if (all.empty()) break;
      chosen =
          MinimalPreemptionSet(book_, qi, a.amounts, t.allow_borrowing, all);
      limit *= 4;
    }
    if (chosen.empty()) continue;
    for (int i : chosen) {
      Workload& v = workloads_[all[i].workload];
      v.waiters.push_back(wl);
      ++w.awaiting_victims;
      if (all[i].evicting) continue;
      v.state = State::kEvicting;
      evicting_.insert(all[i].workload);
      out->evictions.push_back(
          {all[i].workload, wl,
           KueueEvictionReasonName(all[i].queue == qi
                                       ? KueueEvictionReason::kInClusterQueue
                                       : t.reason)});
    }
    return true;
  }
  failed_preemptions_.push_back({qi, p, a.amounts});
  return false;
}

std::string Kueue::queue_strategy(int q) const {
  return std::string(QueueingStrategyName(queues_[q].spec.queueing_strategy));
}

std::vector<QueueQuotaInfo> Kueue::queue_quotas(int q) const {
  std::vector<QueueQuotaInfo> out;
  for (int fr : defined_pairs_[q]) {
    QueueQuotaInfo info;
    info.flavor = flavors_[pairs_[fr].flavor].name;
    info.flavor_index = pairs_[fr].flavor;
    info.resource = registry_.Name(pairs_[fr].resource);
    info.quota = static_cast<double>(book_.Nominal(q, fr));
    if (book_.BorrowingLimit(q, fr) != QuotaBook::kUnlimited) {
      info.borrowing_limit = static_cast<double>(book_.BorrowingLimit(q, fr));
    }
    if (!queues_[q].spec.cohort.empty()) {
      info.lending_limit = static_cast<double>(book_.LendingLimit(q, fr));
    }
    out.push_back(std::move(info));
  }
  return out;
}

int64_t Kueue::QuotaUsed(int q, int k) const {
  return book_.Usage(q, defined_pairs_[q][k]);
}

int64_t Kueue::PendingActive(int q) const {
  return static_cast<int64_t>(queues_[q].active.size());
}

int64_t Kueue::PendingInadmissible(int q) const {
  return queues_[q].inadmissible;
}

}  // namespace gpushare
