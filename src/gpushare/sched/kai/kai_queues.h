// KaiQueues: KAI-Scheduler's queue-based admission (docs/model.md §4.4;
// kai-scheduler docs/queues, docs/fairness, docs/scheduling-deep-dive).
// Jobs wait in leaf queues; a cycle computes every queue's fair share of
// the cluster's GPU units (fair_share.h), then tries the queues in order of
// allocated / fair share, lowest first, each queue's jobs by priority then
// creation. A job is allocated when the cluster has the GPU units free and
// no limit on its queue or an ancestor is passed; a non-preemptible job
// (priority ≥ 100) only within its queue's deserved quota. When units are
// short the job may:
//   Reclaim: take units from other queues' preemptible jobs, if its queue
//     stays within its fair share and each victim's queue (leveled to the
//     sibling of the reclaimer's ancestor) stays above its fair share
//     (MaintainFairShare) or the reclaimer stays within its deserved quota
//     while the victim's queue is above its own (GuaranteeDeservedQuota);
//     no sibling ends with a utilization ratio at or below the reclaimer's
//     times reclaimer_utilization_multiplier.
//   Preempt: evict strictly lower-priority preemptible jobs of its own
//     queue.
// Victims are evicted (the simulation terminates their pods and calls
// EvictionDone); the reclaimer or preemptor is allocated first once they are
// gone, and an evicted job waits for time to pass before it is allocated
// again.
//
// Contract: QueueAdmission's. Accounting is in GPU units only (GpuUnitsOf):
// KAI's cpu and memory quotas are not modelled. The cluster's capacity is
// fixed at construction. In one Schedule() call each pending job is tried
// at most once, and not at all after a job of its queue no larger and of
// no lower priority could not run.

#ifndef GPUSHARE_SCHED_KAI_KAI_QUEUES_H_
#define GPUSHARE_SCHED_KAI_KAI_QUEUES_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpushare/cluster/resources.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/sched/queue_admission.h"

namespace gpushare {

class KaiQueues : public QueueAdmission {
 public:
  // `config` as its reader validated it; `capacity_units` the cluster's GPU
  // units (its nodes' allocatable GPU resources, each by GpuUnitsOf).
  KaiQueues(const KaiConfig& config, const ResourceRegistry& registry,
            int64_t capacity_units);

  std::string_view system_name() const override { return "KAI-Scheduler"; }
  // The leaf queue named `name` (any namespace), or -1.
  int QueueOf(const std::string& namespace_name,
              const std::string& name) const override;
  std::string UncoveredResource(int, const ResourceList&) const override {
    return "";
  }
  const Labels& flavor_node_labels(int) const override { return no_labels_; }

  int Add(const QueuedWorkloadSpec& spec) override;
  void AdmitRunning(int wl, double now) override;
  void Schedule(double now, Decisions* out) override;
  void Finished(int wl) override;
  void EvictionDone(int wl, double now) override;
  bool HasDeferred() const override { return !deferred_.empty(); }

  int workload_count() const override {
    return static_cast<int>(workloads_.size());
  }
  State state(int wl) const override { return workloads_[wl].state; }
  int queue_of(int wl) const override { return workloads_[wl].spec.queue; }
  const Labels& node_labels(int) const override { return no_labels_; }
  // Admitted above its queue's deserved quota (over quota).
  bool borrowed(int wl) const override { return workloads_[wl].over_quota; }
  const std::string& message(int wl) const override {
    return workloads_[wl].message;
  }
  // The job's GPU units.
  int64_t units(int wl) const { return workloads_[wl].units; }

  int queue_count() const override { return static_cast<int>(queues_.size()); }
  const std::string& queue_name(int q) const override {
    return queues_[q].spec.name;
  }
  const std::string& queue_parent(int q) const override {
    return queues_[q].spec.parent;
  }
  std::string queue_strategy(int) const override { return "FairShare"; }
  // One entry: "gpu", its deserved quota (-1 unlimited) and, with a limit,
  // the limit above the quota as the borrowing limit.
  std::vector<QueueQuotaInfo> queue_quotas(int q) const override;
  // GPU units allocated to the queue's subtree (evicting jobs included).
  int64_t QuotaUsed(int q, int) const override { return queues_[q].allocated; }
  double FairShare(int q, int) const override;
  int64_t PendingActive(int q) const override;
  int64_t PendingInadmissible(int) const override { return 0; }

 private:
  struct Workload {
    QueuedWorkloadSpec spec;
    int64_t units = 0;
    State state = State::kPending;
    bool over_quota = false;
    int64_t admitted_seq = 0;
    int awaiting_victims = 0;  // evicted for it, not yet gone
    int64_t reserved = 0;      // free units kept for it meanwhile
    std::vector<int> waiters;  // while evicting: who waits for it
    std::string message;
  };
  // Pending order within a queue: priority, then creation, then id.
  using PendingKey = std::tuple<int32_t, double, int>;  // (-prio, t, wl)
  // Victim order within a queue: lowest priority, newest first.
  using AdmittedKey = std::tuple<int32_t, int64_t, int>;  // (prio, -seq, wl)
  struct Queue {
    KaiQueueSpec spec;
    int parent = -1;
    int depth = 0;
    bool leaf = true;
    int64_t allocated = 0;  // subtree
    int64_t requested = 0;  // subtree: allocated plus pending
    int64_t evicting = 0;   // subtree: of jobs being evicted
    std::set<PendingKey> pending;
    // Per preemptibility (index 1: preemptible): pending jobs by units.
    std::map<int64_t, int> pending_units[2];
    std::set<AdmittedKey> admitted;
    int64_t deferred = 0;  // evicted, waiting for time to pass
  };

  PendingKey PendingKeyOf(int wl) const;
  void AddPending(int wl);
  // False when `wl` was not in its queue's pending set.
  bool RemovePending(int wl);
  void AddAllocated(int q, int64_t delta);
  void AddRequested(int q, int64_t delta);
  void AddEvicting(int q, int64_t delta);
  void RefreshFairShares();
  double Ratio(int q, int64_t extra) const;
  // Units neither allocated nor kept for a job waiting for its victims.
  int64_t Free() const { return capacity_ - total_allocated_ - reserved_; }
  void Reserve(Workload& w, int64_t units);
  // Tries pending job `wl`: allocated or evictions started for it
  // (kProgress), still waiting for its victims, or no room for it.
  enum class Try { kProgress, kAwaitingVictims, kNoRoom };
  Try TryJob(int wl, Decisions* out);
  void Allocate(int wl);
  // Frees `wl`'s units (finished or evicted).
  void Release(int wl);
  bool Reclaim(int wl, int64_t needed, Decisions* out);
  bool Preempt(int wl, int64_t needed, Decisions* out);
  void Evict(int victim, int preemptor, std::string_view reason,
             Decisions* out);
  // The ancestor of q (or q) that is a child of `ancestor` (-1: top level).
  int ChildOnPath(int q, int ancestor) const;
  int CommonAncestor(int a, int b) const;
  bool Within(double value, double cap) const;

  const ResourceRegistry& registry_;
  double multiplier_;
  int64_t capacity_;
  std::vector<Queue> queues_;
  int64_t total_allocated_ = 0;
  int64_t reserved_ = 0;  // sum of the jobs' reserved
  std::vector<double> fair_;
  bool fair_dirty_ = true;
  std::vector<Workload> workloads_;
  std::vector<int> nominated_;  // their victims are gone: tried first
  struct Deferred {
    double not_before;
    int wl;
  };
  std::vector<Deferred> deferred_;
  int64_t next_seq_ = 0;
  Labels no_labels_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KAI_KAI_QUEUES_H_
