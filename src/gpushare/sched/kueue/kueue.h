// Kueue: quota-based admission in front of kube-scheduler (Kueue v1beta1
// semantics, docs/model.md §4.3).
//
// Contract: a workload (a Job's pods, a PodGroup, a plain pod) is queued in
// the ClusterQueue its LocalQueue points to and admitted as a unit: its
// total requests get one ResourceFlavor per resource group (the first, in
// the group's order, whose nodes can run it and where it fits, borrowing
// from the cohort if need be) and are reserved in the QuotaBook; only then
// do its pods go to kube-scheduler, with the flavor's node labels as node
// selector. Each queue is ordered by priority, then creation time.
// Schedule() runs Kueue's scheduling cycles: the head of every queue is
// tried, heads that need no borrowing first, then by priority and age;
// under BestEffortFIFO a head that cannot be admitted is set aside
// (inadmissible) and the next one tried, under StrictFIFO it blocks its
// queue; inadmissible workloads are retried when quota is released in their
// cohort. A head that does not fit may preempt (kueue_preemption.h): its
// victims are evicted and it waits until their quota is released
// (EvictionDone), then is tried again. Deterministic. The configuration is
// validated by its readers (scenario/queue_reader.h, scenario/kubectl_queue_import.h);
// the constructor only checks that what they guarantee holds.

#ifndef GPUSHARE_SCHED_KUEUE_KUEUE_H_
#define GPUSHARE_SCHED_KUEUE_KUEUE_H_

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/resources.h"
#include "gpushare/sched/kueue/kueue_config.h"
#include "gpushare/sched/kueue/kueue_preemption.h"
#include "gpushare/sched/kueue/quota_book.h"
#include "gpushare/sched/queue_admission.h"

namespace gpushare {

// What a workload asks of Kueue: `queue` is its ClusterQueue.
using KueueWorkloadSpec = QueuedWorkloadSpec;

// Why Kueue evicted a workload (kueue_preempted_workloads_total's reason).
enum class KueueEvictionReason {
  kInClusterQueue,
  kInCohortReclamation,
  kInCohortReclaimWhileBorrowing,
};
std::string_view KueueEvictionReasonName(KueueEvictionReason r);

class Kueue : public QueueAdmission {
 public:
  // `config` as its readers validated it (names resolve, one resource in at
  // most one group, quotas ≥ 0); an internal error otherwise.
  Kueue(const KueueConfig& config, ResourceRegistry& registry);

  std::string_view system_name() const override { return "Kueue"; }
  // The ClusterQueue of LocalQueue `name` in `namespace_name`, or -1.
  int QueueOf(const std::string& namespace_name,
              const std::string& name) const override;
  // "" when every resource of `requests` is covered by a resource group of
  // `cluster_queue`; otherwise the first that is not, by name.
  std::string UncoveredResource(int cluster_queue,
                                const ResourceList& requests) const override;
  int flavor_count() const override { return static_cast<int>(flavors_.size()); }
  const ResourceFlavorSpec& flavor(int f) const { return flavors_[f]; }
  const Labels& flavor_node_labels(int f) const override {
    return flavors_[f].node_labels;
  }
  const ClusterQueueSpec& queue(int q) const { return queues_[q].spec; }

  // Adds a pending workload; returns its id (dense, from 0).
  int Add(const KueueWorkloadSpec& spec) override;
  // Admits workload `wl` without a quota check (its pods already run:
  // kubectl import); its flavors are assigned as for a real admission.
  void AdmitRunning(int wl, double now) override;

  // Runs scheduling cycles until none admits or evicts; appends to `out`.
  void Schedule(double now, Decisions* out) override;
  // The workload's pods are all done: its quota is released.
  void Finished(int wl) override;
  // An evicted workload's pods are all gone: its quota is released and it
  // waits in its queue again.
  // It is not admitted again before a later time than `now` (its Job is
  // re-created and requeued after the eviction): the quota it freed goes
  // to its preemptor first.
  void EvictionDone(int wl, double now) override;
  // Whether an evicted workload waits for time to pass (Schedule at a
  // later time may admit it).
  bool HasDeferred() const override { return !deferred_.empty(); }

  int workload_count() const override {
    return static_cast<int>(workloads_.size());
  }
  State state(int wl) const override { return workloads_[wl].state; }
  int queue_of(int wl) const override { return workloads_[wl].spec.queue; }
  // Of an admitted workload: the node labels of its flavors.
  const Labels& node_labels(int wl) const override {
    return workloads_[wl].node_labels;
  }
  // Of an admitted workload: whether it borrowed at admission.
  bool borrowed(int wl) const override { return workloads_[wl].borrowed; }
  // Of a pending workload: why it is not admitted ("" none yet).
  const std::string& message(int wl) const override {
    return workloads_[wl].message;
  }

  // (flavor, resource) pairs the queues define, for reports.
  struct FlavorResource {
    int flavor = -1;
    ResourceId resource = -1;
  };
  const std::vector<FlavorResource>& flavor_resources() const { return pairs_; }
  const QuotaBook& book() const { return book_; }

  int queue_count() const override { return static_cast<int>(queues_.size()); }
  const std::string& queue_name(int q) const override {
    return queues_[q].spec.name;
  }
  // The queue's cohort name ("" none).
  const std::string& queue_parent(int q) const override {
    return queues_[q].spec.cohort;
  }
  std::string queue_strategy(int q) const override;
  // The (flavor, resource) pairs queue `q` defines, in flavor_resources()
  // order.
  std::vector<QueueQuotaInfo> queue_quotas(int q) const override;
  int64_t QuotaUsed(int q, int k) const override;
  // Pending workloads of a queue: active (to be tried) and inadmissible.
  int64_t PendingActive(int q) const override;
  int64_t PendingInadmissible(int q) const override;

 private:
  struct Key {
    int32_t priority;
    double creation_s;
    int wl;
    bool operator<(const Key& o) const {
      if (priority != o.priority) return priority > o.priority;
      if (creation_s != o.creation_s) return creation_s < o.creation_s;
      return wl < o.wl;
    }
  };
  // One flavor of a resource group of a queue: its pairs per covered
  // resource (parallel to the group's covered resources).
  struct GroupFlavor {
    int flavor = -1;
    std::vector<int> pairs;
  };
  struct Group {
    std::vector<ResourceId> covered;
    std::vector<GroupFlavor> flavors;
  };
  struct Queue {
    ClusterQueueSpec spec;
    int cohort = -1;
    std::vector<Group> groups;
    std::set<Key> active;
    // Shapes with inadmissible workloads (ShapeGroup::waiting non-empty).
    std::set<int> inadmissible_shapes;
    int64_t inadmissible = 0;
    bool blocked = false;  // StrictFIFO: its head cannot be admitted
    // Workloads holding quota (evicting too), in Kueue's preemption order:
    // lower priority first, then the most recently admitted.
    struct AdmittedKey {
      int32_t priority;
      uint64_t seq;
      int wl;
      bool operator<(const AdmittedKey& o) const {
        if (priority != o.priority) return priority < o.priority;
        return seq > o.seq;
      }
    };
    std::set<AdmittedKey> admitted;  // only when `preemptible`
    bool preemptible = false;        // some policy may evict its workloads
  };
  struct Workload {
    KueueWorkloadSpec spec;
    int shape = -1;
    State state = State::kPending;
    std::vector<QuotaAmount> usage;  // reserved while admitted / evicting
    Labels node_labels;
    bool borrowed = false;
    double admitted_s = 0;
    double released_s = -1;  // evicted: when its quota was freed
    uint64_t admitted_seq = 0;
    int awaiting_victims = 0;  // a preemptor waiting for victims to go
    std::vector<int> waiters;  // a victim: the preemptors waiting for it
    std::string message;
  };
  // The flavor assignment of a workload's requests, or why none fits.
  struct Assignment {
    QuotaBook::Fit fit = QuotaBook::Fit::kNoFit;
    std::vector<QuotaAmount> amounts;
    std::vector<int> flavors;  // per group used
    std::string message;       // kNoFit: Kueue's reason
  };
  Assignment Assign(const Workload& w) const;
  // Evicts the victims that let `wl` fit (appended to `out`) or finds that
  // it waits on workloads already being evicted: true; false when no
  // preemption helps.
  bool Preempt(int wl, const Assignment& a, Decisions* out);
  void Reserve(int wl, const Assignment& a, double now);
  void Release(int wl);
  // Retries the inadmissible workloads of `q`'s cohort (or of `q` alone).
  // Workloads of one queue, priority, requests and flavor eligibility (a
  // shape) fare alike: quota only shrinks during Schedule(), so when the
  // first of a shape cannot fit none can, and only that first one is
  // moved back to the active queue — unless its queue may preempt, where
  // it is moved back as Kueue would; when it is admitted the next of its
  // shape follows (WakeNext). The outcome is Kueue's requeue of them all.
  void Requeue(int q);
  // Puts `wl` in its queue's active set (unblocking a StrictFIFO queue it
  // now heads).
  void Activate(int wl);
  Key KeyOf(int wl) const;  // its place in its queue
  void SetAside(int wl);
  void WakeNext(int shape);
  bool MayPreempt(int q) const;
  int Pair(int flavor, ResourceId resource) const;

  const ResourceRegistry& registry_;
  std::vector<ResourceFlavorSpec> flavors_;
  std::vector<Queue> queues_;
  std::vector<LocalQueueSpec> local_queues_;
  std::vector<int> local_queue_cq_;
  std::vector<FlavorResource> pairs_;
  std::vector<std::string> cohorts_;
  QuotaBook book_;
  std::vector<Workload> workloads_;
  uint64_t admissions_ = 0;
  std::vector<int> deferred_;  // evicted workloads not yet re-admissible
  struct ShapeGroup {
    int queue = -1;
    std::set<Key> waiting;  // inadmissible members
    bool woken = false;     // a member is back in the active queue
  };
  std::vector<ShapeGroup> shapes_;
  std::unordered_map<std::string, int> shape_ids_;
  // Preemptions that found no victims since the book last changed: heads
  // of the same queue, priority and request fail alike.
  struct FailedPreemption {
    int queue;
    int32_t priority;
    std::vector<QuotaAmount> amounts;
  };
  std::vector<FailedPreemption> failed_preemptions_;
  std::vector<KueuePreemptionCandidate> own_scratch_, all_scratch_;
  std::set<int> evicting_;  // workloads being evicted
  // Per queue: the pairs it defines (indexes into pairs_).
  std::vector<std::vector<int>> defined_pairs_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KUEUE_KUEUE_H_
