// ScheduleResult: what one scheduling cycle of Scheduler (scheduler.h)
// returns.
//
// Contract: `outcome` says whether the pod was bound (to `node`), failed to
// fit (`message`: kube-scheduler's FitError, and for a pod that may preempt
// the victims and nominated node of DefaultPreemption), or was rejected by
// kubelet's admission for good (`message`: kubelet's reason).

#ifndef GPUSHARE_SCHED_SCHEDULE_RESULT_H_
#define GPUSHARE_SCHED_SCHEDULE_RESULT_H_

#include <string>
#include <vector>

namespace gpushare {

using PodId = int;

struct ScheduleResult {
  enum class Outcome { kBound, kUnschedulable, kAdmissionFailed };
  PodId pod = -1;
  Outcome outcome = Outcome::kUnschedulable;
  int node = -1;        // kBound: the node's index in cluster.nodes()
  std::string message;  // kUnschedulable / kAdmissionFailed: why
  // kUnschedulable: `message` is the one this pod's previous failed cycle
  // returned, and the pod waited since (a caller that keeps each pod's last
  // message has it already). Then `message` is empty when the scheduler
  // omits unchanged messages (Scheduler::OmitUnchangedMessages()).
  bool message_unchanged = false;
  // kUnschedulable: the pods DefaultPreemption evicts for it (now
  // terminating) and the node nominated for it; empty / -1 when none. For a
  // gang's preemption the victims of every member nominated, each with its
  // preemptor (victim_preemptors[k] evicts victims[k]; `pod` when alone).
  std::vector<PodId> victims;
  std::vector<PodId> victim_preemptors;
  int nominated_node = -1;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_SCHEDULE_RESULT_H_
