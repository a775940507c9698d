// QueueAdmission: a queueing system in front of the scheduler that admits
// whole workloads (a Job's pods, a PodGroup, a plain pod) from tenant
// queues. Two implement it: Kueue (sched/kueue/kueue.h: quotas per
// ResourceFlavor, cohorts, borrowing) and KAI-Scheduler's fair-share queues
// (sched/kai/kai_queues.h: hierarchical queues, fair share, reclaim).
//
// Contract: workloads are added when their last pod arrives and get dense
// ids from 0. Schedule() runs the system's cycles at a time and reports the
// workloads it admitted (their pods may now be scheduled, with node_labels
// as a node selector), those it evicted (their running pods terminate, then
// EvictionDone) and those it tried and left waiting (message() says why).
// Finished() releases a workload whose pods are all done. Deterministic:
// the same calls give the same decisions.

#ifndef GPUSHARE_SCHED_QUEUE_ADMISSION_H_
#define GPUSHARE_SCHED_QUEUE_ADMISSION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpushare/cluster/labels.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {

// What a workload asks of its queueing system.
struct QueuedWorkloadSpec {
  int queue = -1;  // the queue it is submitted to
  int32_t priority = 0;
  double creation_s = 0;
  ResourceList requests;        // the sum over its pods
  std::vector<bool> flavor_ok;  // per flavor: its nodes can run the pods
};

// A queue's limit on one resource, for reports: its quota (Kueue's nominal
// quota, KAI's deserved quota) and how far above it the queue may go.
struct QueueQuotaInfo {
  std::string flavor;    // Kueue's ResourceFlavor; "" for KAI
  int flavor_index = -1;  // for flavor_node_labels(); -1 for KAI
  std::string resource;  // a resource name, or KAI's "gpu" (GPU units)
  double quota = 0;      // in the simulator's unit of `resource`
  std::optional<double> borrowing_limit;  // above the quota; none: no cap
  std::optional<double> lending_limit;
};

class QueueAdmission {
 public:
  enum class State { kPending, kInadmissible, kAdmitted, kEvicting, kDone };
  struct Eviction {
    int victim = -1;
    int preemptor = -1;
    // The system's reason: Kueue's kueue_preempted_workloads_total reason
    // (InClusterQueue, InCohortReclamation, ...) or KAI's action (Reclaim,
    // Preempt). Static text.
    std::string_view reason;
  };
  struct Decisions {
    std::vector<int> admitted;
    std::vector<Eviction> evictions;
    std::vector<int> waiting;  // tried and still waiting
  };

  virtual ~QueueAdmission() = default;

  // "Kueue" or "KAI-Scheduler", for messages.
  virtual std::string_view system_name() const = 0;
  // The queue a pod in `namespace_name` labelled with `name` goes to
  // (Kueue: its LocalQueue's ClusterQueue; KAI: the leaf queue), or -1.
  virtual int QueueOf(const std::string& namespace_name,
                      const std::string& name) const = 0;
  // "" when the queue accounts for every resource of `requests`; otherwise
  // the first it cannot admit, by name.
  virtual std::string UncoveredResource(int queue,
                                        const ResourceList& requests) const = 0;
  // Node labels a workload's flavor may impose (Kueue's ResourceFlavors;
  // none for KAI).
  virtual int flavor_count() const { return 0; }
  virtual const Labels& flavor_node_labels(int f) const = 0;

  virtual int Add(const QueuedWorkloadSpec& spec) = 0;
  // Admits `wl` without checks: its pods already run (kubectl import).
  virtual void AdmitRunning(int wl, double now) = 0;
  virtual void Schedule(double now, Decisions* out) = 0;
  virtual void Finished(int wl) = 0;
  // An evicted workload's pods are all gone: it waits in its queue again,
  // not admitted before a time later than `now`.
  virtual void EvictionDone(int wl, double now) = 0;
  // Whether Schedule() at a later time may admit a workload without any
  // other event.
  virtual bool HasDeferred() const = 0;

  virtual int workload_count() const = 0;
  virtual State state(int wl) const = 0;
  virtual int queue_of(int wl) const = 0;
  // Of an admitted workload: the node selector its admission adds.
  virtual const Labels& node_labels(int wl) const = 0;
  // Of an admitted workload: it went above its queue's quota.
  virtual bool borrowed(int wl) const = 0;
  virtual const std::string& message(int wl) const = 0;

  // Reports.
  virtual int queue_count() const = 0;
  virtual const std::string& queue_name(int q) const = 0;
  // Kueue: the cohort; KAI: the parent queue ("" none).
  virtual const std::string& queue_parent(int q) const = 0;
  // Kueue: the queueing strategy; KAI: "FairShare".
  virtual std::string queue_strategy(int q) const = 0;
  virtual std::vector<QueueQuotaInfo> queue_quotas(int q) const = 0;
  // Current usage of queue_quotas(q)[k].
  virtual int64_t QuotaUsed(int q, int k) const = 0;
  // The queue's fair share of queue_quotas(q)[k] now; -1 where the system
  // has none (Kueue).
  virtual double FairShare(int /*q*/, int /*k*/) const { return -1; }
  virtual int64_t PendingActive(int q) const = 0;
  virtual int64_t PendingInadmissible(int q) const = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_QUEUE_ADMISSION_H_
