// Scheduler: kube-scheduler's scheduling cycle over the simulated cluster.
//
// (Speed: a pod asking for an extended resource is filtered only on the
// nodes with some of it free that its static filters (node affinity, taints)
// pass, in the same circular order from the same start index; the nodes skipped
// are infeasible anyway, so the feasible set, the start index's advance and
// every outcome equal those of the full scan. Each node remembers its last
// filter result (for a shape, at a Node::version()) and each cacheable score
// (ScorePlugin::ScoreKey): a node that did not change is not filtered or scored
// again for the same shape or key; the results are those the plugins would
// compute. A HAMi pod is first tested against each node's HamiFitSummary (one
// cache line per node, rebuilt on every change): nodes it rejects are skipped,
// and where it is exact it stands for NodeResourcesFit and GpuDeviceFit. A
// group's retried member is first checked on the group's dirty nodes only: if
// none passes, no node can (binds only take resources away) and the cycle fails
// without the full scan. The FitError message of a failed cycle counts the
// reasons of every node: the reasons of the static filters that come first
// (node affinity, taints) are counted once per set of constraints until a node
// changes, and each shape keeps the reasons of the nodes those pass, judging
// again only the nodes changed since its last failure; the message is the one a
// full evaluation gives. A departure's wake-ups are deferred and taken in the
// active queue's order: a woken pod whose retry would fail on every dirty node
// fails there without passing through the active queue, with the same effects
// as its cycle; deferred_wakes.cc.)
//
// Contract (docs/model.md §4; kubernetes/kubernetes pkg/scheduler/
// schedule_one.go): pods wait in an active queue ordered by priority
// (higher first), then arrival (PrioritySort). Each ScheduleOne() takes one
// pod through Filter (the profile's filter plugins,
// in order, stopping at the first that fails a node) over the nodes from a
// rotating start index until percentageOfNodesToScore's number of feasible
// nodes is found, Score (weighted sum of normalized plugin scores; a single
// feasible node is taken without scoring), selection of the best node (ties:
// seeded random by reservoir sampling, or the lowest node name), Reserve of
// the exact devices, and Bind. kubelet's admission check follows Bind; a pod
// it rejects fails for good. A pod that fits no node gets kube's FitError
// message and waits. It is retried only when an event could make it fit: a
// pod leaving a node, or a node added or changed — and only if it passes the
// filters on that node. Waiting pods with identical requests and
// constraints wait as one group: the group's first pod is retried; when it
// binds, the next one is retried if it passes the filters on a node that had
// an event since the group's last failure; when it fails the group waits
// again (a head that may preempt is also retried when the last
// terminating victim on a node where it could preempt is gone). A pod that
// fits no node runs the profile's PostFilter: with DefaultPreemption
// (sched/default_preemption.h) and a preemption policy of PreemptLowerPriority
// it looks for a node where evicting pods of lower priority makes room, at most
// NumPreemptionCandidates of the nodes its static filters pass, from a seeded
// random offset; nodes where earlier victims are still terminating, or where a
// pod of equal or higher priority is nominated, are skipped (their room is
// promised). The victims chosen are marked terminating (they stay bound,
// holding their devices, until the caller releases them after their grace
// period) and returned in the result; the preemptor waits with that node
// nominated (status.nominatedNodeName), does not preempt again while its
// victims terminate, is retried as soon as the last of them is gone, and takes
// its nominated node first when it fits there. Nominated pods hold their room
// (framework's RunFilterPluginsWithNominatedPods): a pod passes Filter on a
// node only if it also passes with the node's nominated pods of equal or
// higher priority added (their requests counted, and the devices they will
// need once their victims are gone left to them). A nomination ends when the
// pod binds (anywhere), is deleted, finds no preemption candidate, moves to
// another node, or a pod of higher priority is nominated to its node. A member
// of a PodGroup (Pod::pod_group with gang_min_member > 1) preempts for its gang
// as a unit: victims are chosen for as many pending members as minMember still
// needs, each on its node with the earlier ones assumed there, and evicted only
// when every one of them fits; otherwise nobody is. Pods, owned by the caller,
// must outlive the scheduler; their requests are final when enqueued.
//
// Shared ResourceClaims (Pod::dra_claim; scheduler_claims.cc), as the
// DynamicResources plugin treats a claim several pods reference: until one
// of them binds, each is scheduled with the claim's devices in its requests
// (the DRA bookkeeping resource: DraGpuDevices allocates them); the first
// to bind allocates the claim on its node (Reserve) and the claim, not the
// pod, holds those devices from then on (Node::HoldClaim). A pod whose claim
// is allocated is scheduled as a copy pinned to the claim's node
// (Pod::dra_claim_node, part of its constraints, and the claim part of its
// shape: it never shares a group or a filter memo with unpinned pods or
// another claim's) whose requests hold no device: Filter
// fails the other nodes with "resourceclaim not available on the node",
// PreFilter refuses it with "resourceclaim in use" while the claim is
// reserved for 256 other pods, and it gets the claim's grants (the same
// GPUs). Pending pods of a claim switch between the two forms when the claim
// is allocated or deallocated, keeping their place in the queue. When the
// last pod reserved for the claim leaves (ends, fails, is deleted) the claim
// is deallocated and its devices are free. Pods referencing a shared claim
// are never preemption victims.

#ifndef GPUSHARE_SCHED_SCHEDULER_H_
#define GPUSHARE_SCHED_SCHEDULER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpushare/base/index_pages.h"
#include "gpushare/base/rng.h"
#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/claim_reservations.h"
#include "gpushare/sched/default_preemption.h"
#include "gpushare/sched/fit_error.h"
#include "gpushare/sched/framework.h"
#include "gpushare/sched/hami_fit_summary.h"
#include "gpushare/sched/profile.h"
#include "gpushare/sched/schedule_result.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

// kube-scheduler's numFeasibleNodesToFind (kubernetes/kubernetes
// pkg/scheduler/schedule_one.go): all nodes below 100; otherwise
// `percentage` of them (0: adaptive 50 - nodes/125, at least 5 %), at least
// 100.
int NumFeasibleNodesToFind(int num_nodes, int percentage);

class Scheduler {
 public:
  // Validates `profile` (InputError) and creates its plugins.
  Scheduler(Cluster& cluster, SchedulerProfile profile);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Adds a pending pod. `id` is the caller's index for it (dense, >= 0); an
  // id may be reused once its pod is done (released, failed or forgotten).
  void Enqueue(PodId id, const Pod& pod);
  // Whether a pod waits in the active queue.
  bool HasActive() const;
  // One scheduling cycle for the first active pod. Precondition: HasActive().
  ScheduleResult ScheduleOne();
  // From now on a failed cycle with message_unchanged returns no message
  // (for a caller that keeps each pod's last one).
  void OmitUnchangedMessages() { omit_unchanged_messages_ = true; }

  // Binds a pod that names its node (spec.nodeName) without a scheduling
  // cycle, as kubelet admits such a pod: it fits when the node has its cpu,
  // memory and extended resources free and the device plugin can serve it
  // (then its devices are allocated — the devices it recorded,
  // Pod::recorded_devices, where they have room: kBound); otherwise it is
  // rejected for good (kAdmissionFailed, kubelet's "OutOf<resource>"
  // message). `id` as for Enqueue(); the pod does not enter the queue. A pod
  // of a shared claim (Pod::dra_claim) is admitted as the scheduler would
  // reserve it: the first allocates the claim on the node (with its
  // devices), the others need no device and get the claim's grants; one on
  // another node than the claim's is rejected ("resourceclaim not available
  // on the node").
  ScheduleResult Bind(PodId id, const Pod& pod, int node);

  // A bound pod leaves its node (completed or deleted): its devices and
  // requests are released and waiting pods that may now fit are activated.
  void Release(PodId id);
  // A pending (active or waiting) pod is deleted before it was bound.
  void Forget(PodId id);
  // The caller is done with `id` for good (its pod ended and was released,
  // or never came to the scheduler): its state is freed. Ids are then never
  // named again, and the state is kept in pages freed with their last id
  // (base/index_pages.h), so memory follows the pods not yet dropped.
  void Drop(PodId id);
  // The simulated time of the calls that follow: a pod that fails a cycle
  // is in back-off from then (profile's pod_initial_backoff_s > 0).
  void SetTime(double now) {
    MaterializeWakes();
    now_ = now;
  }
  // With back-off on: the earliest time a waiting group's first pod leaves
  // its back-off having had a node event to retry on; +infinity when none.
  double NextBackoffExpiry();
  // Retries the groups whose first pod's back-off is over (SetTime() at or
  // after NextBackoffExpiry()).
  void ExpireBackoffs();

  // A node's labels or taints changed, or node `node` was appended to the
  // cluster: caches are refreshed and waiting pods re-checked against it.
  void NodeChanged(int node);
  // The health of devices on `node` changed (DevicePlugin::SetHealthy was
  // called): its allocatable is re-read and, when devices came back, waiting
  // pods are re-checked against it.
  void DevicesChanged(int node, bool recovered);

  int NodeOf(PodId id) const { return pods_[id].node; }
  const DeviceAllocation& AllocationOf(PodId id) const {
    return pods_[id].allocation;
  }
  bool IsBound(PodId id) const { return pods_[id].state == State::kBound; }
  // A bound pod that DefaultPreemption chose as a victim.
  bool IsTerminating(PodId id) const { return pods_[id].terminating; }
  // A pending pod's nominated node (status.nominatedNodeName), or -1.
  int NominatedNodeOf(PodId id) const {
    const PodState& s = pods_[id];
    return s.state == State::kActive || s.state == State::kWaiting
               ? s.nominated_node
               : -1;
  }
  // The pending pods nominated to `node`, in nomination order.
  std::vector<PodId> NominatedPodsOn(int node) const;
  // Pods chosen as victims so far.
  int64_t preemptions() const { return preemptions_; }
  // Pods waiting after failing to fit.
  int64_t WaitingCount() const {
    return waiting_count_ -
           static_cast<int64_t>(deferred_wakes_.size() - next_deferred_wake_);
  }
  // Scheduling cycles run (including short-cut failures).
  int64_t cycles() const { return cycles_; }

 private:
  enum class State { kUnknown, kActive, kWaiting, kBound, kDone };
  struct PodState {
    const Pod* pod = nullptr;
    State state = State::kUnknown;
    uint64_t seq = 0;
    int shape = -1;
    int constraints = -1;
    int node = -1;
    DeviceAllocation allocation;
    uint64_t bind_seq = 0;  // bind order (the victims' start order)
    int node_slot = -1;     // index in node_pods_[node] while bound
    bool terminating = false;
    // Bound with a shared claim: its grants are the claim's (released with
    // the claim, not with the pod).
    bool claim_grants = false;
    // A preemptor: its nominated node, victims not yet released and the id
    // of the preemption that evicted them (0: none).
    int nominated_node = -1;
    int pending_victims = 0;
    uint64_t preemption = 0;
    // A victim: its preemptor and that preemption's id (ids are reused, and
    // a preemptor's nomination may end before its victims are gone).
    PodId preemptor = -1;
    uint64_t preemptor_preemption = 0;
    // Back-off: failed cycles, and until when it is not retried.
    int attempts = 0;
    double backoff_until = 0;
  };
  class VictimDryRun;
  class CountingDryRun;
  struct QueueEntry {
    int32_t priority;
    uint64_t seq;
    PodId id;
    bool operator<(const QueueEntry& o) const {  // max-heap order
      if (priority != o.priority) return priority < o.priority;
      return seq > o.seq;
    }
  };
  struct WaitKey {
    int32_t priority;
    uint64_t seq;
    PodId id;
    bool operator<(const WaitKey& o) const {
      if (priority != o.priority) return priority > o.priority;
      return seq < o.seq;
    }
  };
  // Pods with one shape that failed to fit.
  struct Group {
    std::set<WaitKey> waiting;
    PodId retrying = -1;  // the member being retried, or -1
    // The group's last clear: when it was last known to fit no node (a
    // failed scan, or a retry that found no dirty node it fits). Its dirty
    // nodes, the only ones that can hold a waiting member, are among those
    // changed since (change_log_ from clear_log on); clear_event is
    // Scheduler::events_ then (a node event since: the group is woken).
    // A sleeping group is clear at every instant (events check it at once).
    uint64_t clear_log = 0;
    uint64_t clear_event = 0;
    // The node count at the last clear (nodes appended since are among the
    // dirty ones only if NodeChanged told).
    int nodes_at_clear = -1;
    // Its state between events (Settle): sleeping (in sleepers_: the
    // first waiting pod is out of back-off, nothing is retried; every node
    // event that its static filters pass tests it), or in back-off with a
    // timer (armed), or in back-off waiting for a first event to arm one (in
    // unarmed_), or retrying.
    bool sleeping = false;
    int sleep_slot = -1;  // its index in sleepers_[constraints] while asleep
    bool unarmed = false;
    std::string message;  // the last FitError message
    // Scheduler::message_serials_ when `message` was last set, and the
    // enqueue (PodState::seq) and message serial of the last failed cycle
    // returned for a member (ScheduleResult::message_unchanged).
    uint64_t message_serial = 0;
    uint64_t reported_seq = UINT64_MAX;
    uint64_t reported_serial = 0;
    // The time of its pending entry in backoff_timers_, or -1.
    double backoff_timer = -1;
    // Diagnose's memo for this shape over the nodes the static prefix
    // passes (StaticDiagnosis::passed, by position): one word per node, the
    // version of the node it judged (0: not judged) above the index of the
    // node's reasons in `reason_sets` (the low 16 bits), with how many nodes
    // have each. A node whose version did not change keeps its reasons
    // (reuse_node_results). Freed when the group has no waiting member.
    struct DiagnosisMemo {
      uint64_t epoch = 0;  // static_epoch_ it was built in; 0: none
      std::vector<uint64_t> entries;
      std::vector<std::vector<std::string>> reason_sets;
      std::vector<int> set_nodes;
      // The message last rendered from the memo and the set_nodes it was
      // rendered from (the message is a function of them, of the static
      // prefix's counts — the same while `epoch` is — and of the node
      // count): rendered again only when they changed.
      std::vector<int> rendered_set_nodes;
      std::string rendered;
      int rendered_nodes = -1;
      // Scheduler::change_log_'s absolute length when it was last brought
      // up to date: only the nodes logged since can have changed.
      uint64_t log_end = 0;
    } diagnosis;
  };

  int InternShape(const Pod& pod, int* constraints);

  // Shared ResourceClaims (scheduler_claims.cc).
  // Registers pending pod `id` (its seq set) referencing pod.dra_claim and
  // returns the pod to schedule: `pod`, or its pinned copy when the claim
  // is allocated.
  const Pod& EnqueueClaimPod(PodId id, const Pod& pod);
  // The pod to schedule for claim pod `id` now (ClaimPod's original or its
  // pinned copy).
  const Pod& ClaimView(PodId id);
  // PreFilter: whether claim pod `id` is refused ("resourceclaim in use").
  bool ClaimInUse(PodId id) const;
  // Claim pod `id` was bound: Reserve (the first allocates the claim).
  void ClaimBound(PodId id);
  // Claim pod `id` left its node: it leaves reservedFor; the last one
  // deallocates the claim.
  void ClaimReleased(PodId id);
  // Pending claim pod `id` takes the view its claim now calls for (pinned
  // or not): a new shape, active again, in its queue place.
  void SwitchClaimView(PodId id);
  // Each still pending pod of `claim` switches its view.
  void SwitchClaimViews(const std::string& claim);
  // Claim pod `id` is done: its state points at the caller's pod again and
  // its pinned copy is freed.
  void ForgetClaimPod(PodId id);
  const std::vector<uint8_t>& StaticFits(int constraints, const Pod& pod);
  bool FitsNode(const Pod& pod, int constraints, int node);
  // FitsNode() after the dynamic filters' PreFilter(pod) (their state may
  // have moved to another pod since: the filters then judge without it).
  bool FitsNodePrepared(const Pod& pod, int constraints, int node);
  std::string Diagnose(const Pod& pod, int constraints, Group& group);
  // The group of `shape` has no waiting member left: it stops being
  // tracked and its memo is freed.
  void UntrackGroup(int shape);
  // Filter: the feasible nodes for pod `id` into feasible_, at most
  // NumFeasibleNodesToFind, visited circularly from next_start_node_, which
  // advances past the last node examined (kube's findNodesThatPassFilters).
  void FindFeasibleNodes(PodId id);
  // Score: the node of feasible_ (non-empty) with the highest weighted sum
  // of normalized scores; ties broken by profile_.tie_break.
  int SelectHost(const Pod& pod);
  void Activate(PodId id);
  void Park(PodId id, const std::string& message);
  // A node event (a pod released, a node changed or recovered) at `node`:
  // back-offs ending now end first; groups in back-off get their timer;
  // sleeping groups that may fit the node are retried there. Its cost is the
  // sleeping groups' (none in back-off is visited; QueueingHints' model).
  void WakeGroupsFor(int node);
  // Retries the group's next waiting pod if it passes the filters on one of
  // the group's dirty nodes (and its back-off is over; else a timer is set
  // or the group waits for an event to set one). `backoff_ended`: called as
  // its back-off ended; a retry that cannot fit then counts as a failed
  // attempt (the back-off grows).
  void RetryNext(Group& group, bool backoff_ended = false);
  // The group's dirty nodes into dirty_scratch_ (a superset: every node
  // changed since its clear; all nodes when the log was trimmed since).
  const std::vector<int>& DirtyNodes(const Group& group) {
    return DirtyNodesSince(group.clear_log);
  }
  // The nodes changed since change_log_'s absolute index `clear_log`.
  const std::vector<int>& DirtyNodesSince(uint64_t clear_log);
  // Whether a pod of `shape` may pass the filters on `node`: its static
  // filters and, for a HAMi pod, the node's HamiFitSummary (a necessary
  // condition of FitsNode, far cheaper). `pod`: one of the shape's pods.
  bool MayFitNode(int shape, const Pod& pod, int node);
  // Whether the group had a node event since its clear (always false for a
  // sleeping group, which is clear at every instant).
  bool Woken(const Group& group) const {
    return !group.sleeping && events_ > group.clear_event;
  }
  // The group was just found to fit no node.
  void ClearGroup(Group& group);
  // Puts the group of `shape` in the state its members call for (see
  // Group::sleeping). A group that stops sleeping is clear as of now.
  void Settle(int shape);
  void SetSleeping(int shape, bool sleeping);
  void ArmBackoffTimer(Group& group);
  // A pod failed a cycle: with back-off on, its attempts and back-off grow.
  void BackOff(PodState& s);
  // The nodes with some of `resource` free, as a bitset over node indexes
  // (built on first use, then kept in step by Reserve and Release).
  const std::vector<uint64_t>& FreeNodes(ResourceId resource);
  void UpdateFreeNodes(int node, const ResourceList& requests);
  // The pod's extended resource whose free-node set prunes the filter scan,
  // or -1 (scan every node).
  ResourceId PivotResource(const Pod& pod) const;
  // The nodes' HamiFitSummary, built on first use, then kept in step by
  // Reserve, Release and health changes; null when no node has HAMi devices.
  const HamiFitSummary* HamiSummaries();
  HamiFitSummary HamiSummaryOf(int node) const;
  // Every node's Node::version(), in one array the scans read instead of
  // the nodes: built on first use, then copied wherever the scheduler
  // changes a node (Reserve, Release, health changes; NodeChanged rebuilds).
  const uint64_t* NodeVersions();
  void CheckInvariants(int node) const;
  // Bookkeeping of bound pods per node and by priority.
  void NoteBound(PodId id, int node);
  // Returns whether the last terminating victim on its node is gone.
  bool NoteUnbound(PodId id);
  // The node's last terminating victim is gone: waiting heads that may
  // preempt there get a cycle (the node was no candidate while its room
  // was promised).
  void WakePreemptorsFor(int node);
  // Takes the group's first waiting pod to the active queue as its retry.
  void ActivateHead(Group& group);

  // Deferred wake-ups (deferred_wakes.cc). A departure's woken groups are
  // not taken to the active queue at once: each is noted, with the
  // dirty-node window and node count ActivateHead() would have given it, and
  // stays physically asleep. ScheduleOne() takes them in the active queue's
  // order: one whose retry is hopeless (no dirty node fits it, it cannot
  // preempt, nothing is nominated) fails right there, with exactly that
  // cycle's effects, and never leaves its group; one that may fit is taken
  // to the active queue for its cycle. A cycle that could read other groups
  // (preemption, nominations, a gang's siblings) and every other call first
  // materialize all of them (ActivateHead() for each, as the wake would have
  // done), so any code that reads the groups reads the state of immediate
  // wakes. (The wakes of one event share deferred_clear_log_ and the like.)
  struct DeferredWake {
    int32_t priority;
    PodId id;
    uint64_t seq;
    int shape;
  };
  // Whether WakeGroupsFor() may defer: back-off off, reuse_node_results on,
  // no pod nominated and no nomination to flush.
  bool CanDeferWakes() const;
  // Notes the group of `shape`, first pod `head`, as woken by the current
  // event (retried on the event's node and those changed since).
  void DeferWake(int shape, const WaitKey& head);
  // Sorts the deferred wakes in the active queue's order.
  void SortDeferredWakes();
  // Takes every deferred wake not yet taken to the active queue.
  void MaterializeWakes() {
    if (next_deferred_wake_ < deferred_wakes_.size()) MaterializeWakesSlow();
  }
  void MaterializeWakesSlow();
  // ActivateHead() for one deferred wake, with the wake's clear.
  void MaterializeWake(const DeferredWake& w);
  // Before a cycle while wakes are deferred: when the next one comes before
  // the active queue's first pod and its retry is hopeless, fails it (one
  // cycle) into `result` and returns true. Otherwise the pod of the next
  // cycle is in the active queue (the deferred wake materialized, or all of
  // them when that cycle could read their groups) and returns false.
  bool TakeDeferredWake(ScheduleResult* result);
  // Whether the deferred wake's pod fits none of its dirty nodes.
  bool DeferredWakeHopeless(const DeferredWake& w);
  // Whether pod `id`'s cycle reads or changes no group but its own.
  bool CycleKeepsToItsGroup(PodId id) const;
  // The group's retried member is done (bound, failed for good, gone): the
  // next may be retried; the group is untracked once nothing waits.
  void EndRetry(int shape);
  // Whether DefaultPreemption could evict anything for `pod`: the plugin is
  // on, the pod may preempt and some bound pod has a lower priority.
  bool MayPreempt(const Pod& pod) const;
  // Whether `node` could be a preemption candidate for pod `id`: its static
  // filters pass, no victim terminates there, and it has a pod of lower
  // priority (a necessary condition).
  bool MayBeCandidate(PodId id, int node);
  // DefaultPreemption for pod `id`, which fits no node: fills the result's
  // victims and nominated node when it found a candidate.
  void Preempt(PodId id, ScheduleResult* result);
  // DefaultPreemption's search for pod `id` on the current state (its
  // PreFilter run): the index in candidates_scratch_ of the candidate chosen
  // (pickOneNodeForPreemption), or -1. Pods in `excluded` (a gang's victims
  // chosen so far, already removed) are not evicted again; with `allow_fit`
  // (a gang's later member) a node where the pod fits with nothing evicted
  // is a candidate too.
  int FindPreemptionCandidate(PodId id, const std::vector<PodId>& excluded,
                              bool allow_fit);
  // The gang members DefaultPreemption places together with `id` (a member
  // of a PodGroup): `id` first, then as many of its pending members without a
  // nomination as minMember still needs (members bound and not terminating,
  // and pending members nominated, count as placed). Just `id` when it alone
  // is missing; empty when not enough members are pending to complete it.
  std::vector<PodId> GangPreemptors(PodId id);
  // The gang's preemption: each of `members` in turn gets a candidate with
  // the earlier ones assumed on their nodes (their victims removed, their
  // devices allocated); all are nominated and their victims evicted only when
  // every member found one, else nothing changes. Returns whether it did.
  bool PreemptForGang(const std::vector<PodId>& members,
                      ScheduleResult* result);
  // Marks candidate `c`'s victims terminating for `preemptor`, nominates it
  // to the candidate's node (lower-priority pods nominated there lose their
  // nomination) and adds the victims to the result.
  void CommitPreemption(PodId preemptor, const PreemptionCandidate& c,
                        ScheduleResult* result);

  // Nominated pods (scheduler_nomination.cc).
  // Whether `node` has a pending pod nominated of priority >= `pod`'s other
  // than `pod` itself (addGENominatedPods' pods).
  bool NomineesApply(const Pod& pod, int node) const;
  // Whether `pod`, which passes the filters on `node`, still passes them with
  // the node's nominated pods of equal or higher priority added: their
  // requests counted (their terminating victims' still are, as in kube's
  // NodeInfo), and, device by device, with `pod` on the devices the device
  // plugin would give it, each of them that could get devices once its
  // victims are gone still can. `reasons` (may be null) gets the failing
  // filter's or device plugin's reasons. The node is left as it was.
  bool FitsWithNominees(const Pod& pod, int node,
                        std::vector<std::string_view>* reasons);
  // The pods bound on `node` that terminate as victims of nominated pod
  // `q`'s current preemption.
  std::vector<PodId> VictimsOnNode(PodId q, int node) const;
  // Whether nominated pod `q` fits `node`'s devices once the grants of
  // `victims` (VictimsOnNode) are released; `why` (may be null) gets the
  // device plugin's reason if not. The devices are left as they were.
  bool NomineeFitsDevices(PodId q, int node, const std::vector<PodId>& victims,
                          std::vector<std::string_view>* why);
  // Whether nominated pod `q` fits `node` once its victims there are gone:
  // its pod slot and requests (when NodeResourcesFit filters) and its
  // devices (when GpuDeviceFit does). The invariant check of ScheduleOne().
  bool NomineeFitsOnceVictimsGone(PodId q, int node);
  void Nominate(PodId id, int node);
  // Ends pod `id`'s nomination, if any. `freed`: the room goes back to the
  // other pods (not bound there): the node is an event at the next
  // FlushNominations().
  void ClearNomination(PodId id, bool freed);
  // Wakes waiting pods on the nodes whose nominated room was given back, and
  // retries the nominated pods whose last victim is gone.
  void FlushNominations();
  // Takes waiting pod `id` out of its group to the active queue.
  void ActivateWaiting(PodId id);
  bool HasNominees(int node) const {
    return node < static_cast<int>(nominees_.size()) &&
           !nominees_[node].empty();
  }
  // The node's version and HAMi summary copies after a dry run that left it
  // as it was (not a change: not logged).
  void RefreshNodeCopies(int node);

  Cluster& cluster_;
  SchedulerProfile profile_;

  // Shared ResourceClaims: their status (allocation, reservedFor), the
  // devices each allocated claim holds, the pending pods that reference
  // each (id and seq: stale entries are skipped), and by pod id the
  // caller's pod and its pinned copy.
  struct ClaimHold {
    int node = -1;
    ResourceList requests;  // the claim's bookkeeping extended resources
    DeviceAllocation allocation;
  };
  struct ClaimPod {
    const Pod* original = nullptr;
    std::unique_ptr<Pod> pinned;
  };
  ClaimReservations claim_status_;
  std::unordered_map<std::string, ClaimHold> claim_holds_;
  std::unordered_map<std::string, std::vector<std::pair<PodId, uint64_t>>>
      claim_pending_;
  std::unordered_map<PodId, ClaimPod> claim_pods_;
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<FilterPlugin*> static_filters_;
  std::vector<FilterPlugin*> dynamic_filters_;
  std::vector<FilterPlugin*> filters_in_order_;
  std::vector<std::pair<ScorePlugin*, int64_t>> scores_;
  Rng rng_;

  // By id; pages of 64 freed once all their ids are dropped.
  IndexPages<PodState, 6> pods_;
  std::priority_queue<QueueEntry> active_;
  int64_t active_count_ = 0;
  uint64_t next_seq_ = 0;
  std::unordered_map<std::string, int> shape_ids_;
  std::string key_scratch_;  // InternShape's key buffer
  std::unordered_map<std::string, int> constraint_ids_;
  std::vector<Group> groups_;  // by shape
  // Shapes with waiting pods or with a member's retry in flight, as a
  // bitset over shapes.
  std::vector<uint64_t> tracked_;
  // Shapes whose group is woken with its retry deferred (deferred_wakes_):
  // logically retrying. A bitset over shapes, beside tracked_, so that a
  // node event defers a wake without touching the group.
  std::vector<uint64_t> wake_deferred_;
  bool WakeDeferred(int shape) const;
  void SetWakeDeferred(int shape, bool deferred);
  std::vector<int> wake_scratch_;
  // Deferred wakes in the active queue's order, consumed from
  // next_deferred_wake_ on (deferred_wakes.cc); defer_wakes_ while
  // WakeGroupsFor() may defer.
  std::vector<DeferredWake> deferred_wakes_;
  std::vector<DeferredWake> wake_sort_scratch_;  // SortDeferredWakes()'s
  size_t next_deferred_wake_ = 0;
  uint64_t deferred_clear_log_ = 0;
  uint64_t deferred_clear_event_ = 0;
  int deferred_nodes_ = -1;
  bool defer_wakes_ = false;
  // Node events so far (WakeGroupsFor calls).
  uint64_t events_ = 0;
  // Sleeping groups by constraints (unordered; Group::sleep_slot), and the
  // constraints that have some (unordered; sleeper_slot_ by constraints, -1
  // when none): a node event visits only the groups whose static filters
  // pass its node. Groups in back-off with no timer yet. Each with its
  // shape's WakeHint need and its first pod inline (Settle() keeps `head`
  // current): an event reads the list, not each hint, group and pod.
  struct Sleeper {
    int shape;
    bool hami;
    HamiFitNeed need;
    WaitKey head;
  };
  std::vector<std::vector<Sleeper>> sleepers_;
  std::vector<int> sleeper_constraints_;
  std::vector<int> sleeper_slot_;
  std::vector<int> unarmed_;
  // By shape: its constraints and, for a HAMi pod, its HamiFitNeed
  // (MayFitNode).
  struct WakeHint {
    int constraints = -1;
    bool hami = false;
    HamiFitNeed need;
  };
  std::vector<WakeHint> wake_hints_;
  std::vector<int> dirty_scratch_;
  std::vector<uint64_t> dirty_stamp_;  // by node: the DirtyNodes call
  uint64_t dirty_calls_ = 0;
  std::vector<std::vector<uint8_t>> static_fits_;  // by constraints
  // The same as bitsets over node indexes, built with them.
  std::vector<std::vector<uint64_t>> static_fit_bits_;
  // Diagnose's view of the static filters that come before every dynamic
  // one in the profile's order (they depend on the pod's constraints and the
  // nodes' labels and taints only): the reasons of the nodes they reject,
  // counted, and the nodes they pass, for the remaining filters to judge.
  struct StaticDiagnosis {
    int nodes = -1;      // the node count it was built for; -1: not built
    uint64_t epoch = 0;  // static_epoch_ when it was built
    FitError rejected{0};
    int existing = 0;  // the nodes that exist (Node::exists())
    std::vector<int> passed;
    std::vector<int> position;  // by node: its index in `passed`, or -1
  };
  const StaticDiagnosis& StaticDiagnosisFor(int constraints, const Pod& pod);
  // The nodes that exist (Node::exists(): not an empty slot of an
  // autoscaled pool), the count FitError messages give.
  int ExistingNodes() const;
  std::vector<StaticDiagnosis> static_diagnoses_;  // by constraints
  // The number of filters in that static prefix.
  size_t static_prefix_ = 0;
  // Counts the rebuilds of static diagnoses (Group::DiagnosisMemo::epoch).
  uint64_t static_epoch_ = 0;
  // Every node whose state the scheduler changed (UpdateFreeNodes), in
  // order, from absolute index change_log_base_ on (trimmed when long;
  // a memo older than the base judges every node's version instead).
  std::vector<int> change_log_;
  uint64_t change_log_base_ = 0;
  int64_t waiting_count_ = 0;
  // By resource id; empty: not built yet.
  std::vector<std::vector<uint64_t>> free_nodes_;
  // Whether GpuDeviceFit (HAMi pruning applies) and NodeResourcesFit are
  // among the filters, and whether every dynamic filter is one of them
  // (HamiFitNeed::exact may hold).
  bool device_fit_filter_ = false;
  bool resources_fit_filter_ = false;
  bool only_fit_filters_ = false;
  std::vector<HamiFitSummary> hami_summaries_;  // by node; empty: not built
  // The node count when HAMi nodes were last looked for, and whether any.
  int hami_checked_nodes_ = -1;
  bool has_hami_nodes_ = false;
  ResourceId gpu_resource_ =
      -1;  // nvidia.com/gpu when hami_summaries_ was built
  std::vector<uint64_t> node_versions_;  // by node; empty: not built
  int next_start_node_ = 0;
  int64_t cycles_ = 0;
  // Counts the groups' FitError messages set (Group::message_serial).
  uint64_t message_serials_ = 0;
  bool omit_unchanged_messages_ = false;
  // Sets a failed cycle's message to its group's kept one, unless the
  // caller has it and asked not to get it again. After NoteReported().
  void ReportKeptMessage(const Group& group, ScheduleResult* result) const;
  // A failed cycle of the pod of enqueue `seq` returns its group's message:
  // whether that pod's previous failed cycle returned it too (then
  // result->message_unchanged), and notes this one.
  void NoteReported(Group& group, uint64_t seq, ScheduleResult* result) {
    result->message_unchanged = group.reported_seq == seq &&
                                group.reported_serial == group.message_serial;
    group.reported_seq = seq;
    group.reported_serial = group.message_serial;
  }

  // Back-off (kube-scheduler's podInitialBackoffSeconds and
  // podMaxBackoffSeconds): a group whose first pod is in back-off is not
  // retried at node events; once an event came, it is retried on its dirty
  // nodes when the back-off ends. Timers by time, then shape; an entry is stale
  // when it is not its group's backoff_timer.
  double now_ = 0;
  struct BackoffTimer {
    double time;
    int shape;
    bool operator>(const BackoffTimer& o) const {
      if (time != o.time) return time > o.time;
      return shape > o.shape;
    }
  };
  std::priority_queue<BackoffTimer, std::vector<BackoffTimer>,
                      std::greater<BackoffTimer>>
      backoff_timers_;

  // DefaultPreemption.
  bool preemption_ = false;
  Rng preemption_rng_;
  // A bound pod as the preemption dry run reads it, kept contiguous per node
  // (index unused): its priority, bind order and, inline when it has at most
  // kInlineRequests items, its requests.
  static constexpr int kInlineRequests = 4;
  struct BoundPod {
    PreemptionVictim victim;
    // A pod holding DRA devices while the profile's dra_preemption is off:
    // never a victim (upstream has no preemption for DRA resources until
    // KEP-5690).
    bool never_victim = false;
    int request_count = -1;  // -1: more than kInlineRequests (read the pod)
    std::pair<ResourceId, int64_t> requests[kInlineRequests];
    int64_t Request(ResourceId id) const {
      for (int i = 0; i < request_count; ++i) {
        if (requests[i].first == id) return requests[i].second;
      }
      return 0;
    }
  };
  std::vector<std::vector<BoundPod>> node_pods_;
  // Parallel to evictable_scratch_.
  std::vector<const BoundPod*> evictable_pods_;
  std::vector<PreemptionVictim> victims_scratch_;
  std::vector<PreemptionVictim> potential_scratch_;
  size_t num_candidates_ = 0;  // used entries of candidates_scratch_
  std::vector<int> terminating_on_node_;
  std::map<int32_t, int64_t> bound_priorities_;  // priority → bound pods
  uint64_t next_bind_seq_ = 0;
  uint64_t next_preemption_ = 1;
  int64_t preemptions_ = 0;
  std::vector<PreemptionVictim> evictable_scratch_;
  std::vector<PreemptionCandidate> candidates_scratch_;
  // PodGroups' pods the scheduler has seen, by group name (ids of pods done
  // or reused are dropped when met).
  std::map<std::string, std::set<PodId>> gang_members_;

  // Nominated pods: by node, the pending pods nominated there in nomination
  // order; the nodes that have some; nodes whose nominated room was given
  // back and preemptors whose last victim is gone, both handled by
  // FlushNominations().
  std::vector<std::vector<PodId>> nominees_;
  std::set<int> nominated_nodes_;
  int64_t nominee_count_ = 0;
  std::vector<int> freed_nominations_;
  std::vector<std::pair<PodId, uint64_t>> ready_nominees_;

  // The last dynamic-filter result of each node: valid while the node's
  // version and the pod's shape are the same.
  struct FilterMemo {
    uint64_t version = 0;  // Node versions start at 1
    int shape = -1;
    bool fits = false;
  };
  std::vector<FilterMemo> filter_memo_;  // by node
  // The last cacheable score of each node, per score plugin.
  struct ScoreMemo {
    uint64_t version = 0;
    uint64_t key = 0;
    int64_t score = 0;
  };
  std::vector<std::vector<ScoreMemo>> score_memo_;  // by score plugin, node
  // The node count the score plugins were last told of (NodesChanged); -1
  // after a node changed.
  int notified_nodes_ = -1;

  // A score plugin of the current cycle: its index in scores_, weight and
  // ScoreKey (when `keyed`).
  struct LazyScore {
    size_t plugin;
    int64_t weight;
    uint64_t key;
    bool keyed;
  };

  // Per-cycle scratch, kept to avoid allocation.
  std::vector<LazyScore> lazy_scores_;
  std::vector<int> feasible_;
  std::vector<int64_t> totals_;
  std::vector<int64_t> scratch_scores_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_SCHEDULER_H_
