// DefaultPreemption: kube-scheduler's PostFilter plugin, which frees room for
// a pod that fits no node by evicting pods of lower priority.
//
// Contract (kube-scheduler pkg/scheduler/framework/preemption,
// docs/model.md "Priority and preemption"): for a preemptor of priority P,
// a node is a candidate when the pod fits there once every pod of priority
// below P is removed. Its victims are then chosen by reprieve: the potential
// victims, most important first (higher priority, then earlier start), are
// put back one by one and each stays if the preemptor still fits, so the
// victims are the fewest and least important that make room. Among the
// candidates PickCandidate() takes the one with (1) the lowest highest-victim
// priority, (2) the lowest sum of victim priorities, (3) the fewest victims,
// (4) the latest start of its most important victims, (5) the first found.
// PodDisruptionBudgets are not modelled (no candidate violates one). The
// dry run goes through PreemptionDryRun, which the scheduler implements on
// its real nodes: Remove() and AddBack() must be exact inverses.

#ifndef GPUSHARE_SCHED_DEFAULT_PREEMPTION_H_
#define GPUSHARE_SCHED_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <span>
#include <vector>

namespace gpushare {

// A bound pod that a preemptor may evict.
struct PreemptionVictim {
  int id = -1;
  int32_t priority = 0;
  uint64_t start = 0;  // bind order: lower started earlier
  int index = -1;      // its position in the list given to the dry run
};

// What the dry run needs of the scheduler, for one preemptor and one node.
class PreemptionDryRun {
 public:
  virtual ~PreemptionDryRun() = default;
  // The victim's requests and devices leave its node, as if it were gone.
  virtual void Remove(const PreemptionVictim& victim) = 0;
  // Undoes Remove(victim).
  virtual void AddBack(const PreemptionVictim& victim) = 0;
  // Whether the preemptor passes the filters on the node now.
  virtual bool PreemptorFits() = 0;
  // Fast necessary conditions (false only when PreemptorFits() would be
  // false): with `victims` removed, and with `victim` added back. They let
  // the dry run skip work without changing its answer.
  virtual bool MayFitWithout(const std::vector<PreemptionVictim>& /*victims*/) {
    return true;
  }
  virtual bool MayFitWith(const PreemptionVictim& /*victim*/) { return true; }
};

struct PreemptionCandidate {
  int node = -1;
  std::vector<PreemptionVictim> victims;  // most important first
};

// kube's MoreImportantPod: higher priority, then the earlier start.
bool MoreImportant(const PreemptionVictim& a, const PreemptionVictim& b);

// SelectVictimsOnNode: `pods` are the node's evictable pods (any order).
// Returns false when the preemptor does not fit even with every pod of
// lower priority gone; otherwise fills `victims`, most important first.
// The node is left as it was. `scratch` is working space.
bool SelectVictimsOnNode(int32_t preemptor_priority,
                         const std::vector<PreemptionVictim>& pods,
                         PreemptionDryRun& dry_run,
                         std::vector<PreemptionVictim>* victims,
                         std::vector<PreemptionVictim>* scratch);

// pickOneNodeForPreemption over non-empty `candidates`: the index chosen.
int PickCandidate(std::span<const PreemptionCandidate> candidates);

// How many candidates the dry run looks for among `nodes` potential nodes:
// nodes x percentage / 100, at least `absolute`, at most `nodes`
// (DefaultPreemptionArgs minCandidateNodesPercentage and
// minCandidateNodesAbsolute).
int NumPreemptionCandidates(int nodes, int percentage, int absolute);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_DEFAULT_PREEMPTION_H_
