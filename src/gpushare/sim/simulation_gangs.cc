// Gangs of Simulation (simulation.h), as the coscheduling plugin's Permit:
// a PodGroup's bound members wait until minMember are bound, then start
// together; a gang that cannot complete within its timeout releases its
// members, and a member's failure ends the whole gang.

#include <algorithm>
#include <limits>

#include "gpushare/io/check.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/simulation_internal.h"

namespace gpushare {

using simulation_internal::kInfinity;

void Simulation::AddToGang(PodIndex i, const Pod& pod) {
  if (pod.pod_group.empty()) return;
  auto [it, added] =
      gang_index_.emplace(pod.pod_group, static_cast<int>(gangs_.size()));
  if (added) {
    if (pod.needs.work_s <= 0) {
      throw InputError("pod group '" + pod.pod_group +
                       "': gang members must be jobs (work_s > 0)");
    }
    GangRun g;
    g.min_member = pod.gang_min_member;
    g.timeout_s = pod.gang_timeout_s;
    g.work_s = pod.needs.work_s;
    gangs_.push_back(g);
  }
  if (gang_of_.empty()) gang_of_.assign(static_cast<size_t>(pod_total_), -1);
  gang_of_[static_cast<size_t>(i)] = it->second;
  gangs_[it->second].members.push_back(i);
  ++gangs_[it->second].unended;
}

void Simulation::SyncGang(double now, int g) {
  GangRun& gang = gangs_[g];
  if (!gang.admitted || gang.done) return;
  gang.remaining =
      std::max(0.0, gang.remaining - gang.rate * (now - gang.last_update));
  gang.last_update = now;
  int running = 0;
  double rate = kInfinity;
  for (PodIndex m : gang.members) {
    const PodRun& run = RunOrGone(m);
    if (run.phase != Phase::kRunning || !run.resident) continue;
    ++running;
    rate = std::min(rate, run.rate);
  }
  // A synchronous job: no progress unless minMember members run, then at
  // the pace of the slowest.
  gang.rate = running >= gang.min_member ? rate : 0;
  ++gang.version;
  if (gang.rate > 0) {
    events_.Push(now + gang.remaining / gang.rate, EventKind::kGangCompletion,
                 g, -1, gang.version);
  }
}

void Simulation::GangTimeout(double now, int g) {
  GangRun& gang = gangs_[g];
  if (gang.admitted) return;
  gang.waiting = 0;
  for (PodIndex m : gang.members) {
    if (RunOrGone(m).phase != Phase::kPermit) continue;
    PodRun& run = RunOf(m);
    ReleaseDevices(now, m);
    run.domains.clear();
    run.node = -1;
    run.phase = Phase::kGangDormant;
    if (observer_) observer_->OnGangTimeout(now, m);
  }
  dormant_gangs_.push_back(g);
}

void Simulation::WakeDormantGangs() {
  if (dormant_gangs_.empty()) return;
  std::vector<int> gangs;
  gangs.swap(dormant_gangs_);
  for (int g : gangs) {
    for (PodIndex m : gangs_[g].members) {
      if (RunOrGone(m).phase != Phase::kGangDormant) continue;
      RunOf(m).phase = Phase::kPending;
      scheduler_->Enqueue(m, PodOf(m));
    }
  }
}

void Simulation::FinishGang(double now, int g, bool succeeded,
                            const std::string& message) {
  GangRun& gang = gangs_[g];
  gang.done = true;
  // Done, or failed: the job's controller ends every member still there.
  const PodEnd others = succeeded ? PodEnd::kDeleted : PodEnd::kFailed;
  for (PodIndex m : gang.members) {
    switch (RunOrGone(m).phase) {
      case Phase::kRunning:
      case Phase::kBackoff:
        RunOf(m).remaining = 0;
        Finish(now, m, succeeded ? PodEnd::kSucceeded : PodEnd::kFailed,
               message);
        break;
      case Phase::kPending:
        scheduler_->Forget(m);
        Finish(now, m, others, message);
        break;
      case Phase::kTerminating:
      case Phase::kPermit:
      case Phase::kPreparing:
      case Phase::kGangDormant:
        Finish(now, m, others, message);
        break;
      default:
        break;
    }
  }
}

}  // namespace gpushare
