// A PodGroup's preemption in Scheduler (scheduler.h): a gang preempts as a
// unit, or not at all. Volcano's preempt action
// (volcano-sh/volcano pkg/scheduler/actions/preempt/preempt.go) evicts for a
// job's tasks one by one inside one Statement, pipelining each task on the
// node it preempted on, and commits the Statement only when the job is then
// pipelined (JobPipelined: minAvailable tasks placed), else discards it;
// kube-scheduler's PodGroup preemption (kubernetes/kubernetes
// pkg/scheduler/framework/preemption/podgrouppreemption.go) likewise evicts
// only when every member's proposed assignment passes Filter.
//
// Contract: GangPreemptors() says which pending members must find room
// together; PreemptForGang() gives each in turn DefaultPreemption's
// candidate (SelectVictimsOnNode, pickOneNodeForPreemption) on the cluster
// with the earlier members assumed on theirs (victims removed, devices
// allocated), puts every node back exactly, and commits (victims
// terminating, every member nominated) only when all found one.

#include <algorithm>

#include "gpushare/io/check.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {

std::vector<PodId> Scheduler::GangPreemptors(PodId id) {
  const Pod& pod = *pods_[id].pod;
  int bound = 0;
  int placed = 0;
  std::vector<WaitKey> pending;
  auto it = gang_members_.find(pod.pod_group);
  if (it != gang_members_.end()) {
    std::set<PodId>& members = it->second;
    for (auto m = members.begin(); m != members.end();) {
      const PodState& ms = pods_[*m];
      if (ms.pod == nullptr || ms.pod->pod_group != pod.pod_group ||
          ms.state == State::kDone || ms.state == State::kUnknown) {
        m = members.erase(m);  // done, or its id reused
        continue;
      }
      if (ms.state == State::kBound) {
        bound += ms.terminating ? 0 : 1;
      } else if (*m != id) {
        if (ms.nominated_node >= 0 || ms.pending_victims > 0) {
          ++placed;  // its room is promised
        } else {
          pending.push_back({ms.pod->priority, ms.seq, *m});
        }
      }
      ++m;
    }
  }
  const int needed = pod.gang_min_member - bound - placed;
  if (needed <= 1) return {id};
  if (static_cast<int>(pending.size()) < needed - 1) return {};
  std::sort(pending.begin(), pending.end());  // queue order
  std::vector<PodId> out{id};
  for (int k = 0; k < needed - 1; ++k) out.push_back(pending[k].id);
  return out;
}

bool Scheduler::PreemptForGang(const std::vector<PodId>& members,
                               ScheduleResult* result) {
  struct Placed {
    PodId member = -1;
    PreemptionCandidate candidate;
    DeviceAllocation allocation;
    bool allocated = false;
    bool reserved = false;
  };
  std::vector<Placed> placed;
  std::vector<PodId> excluded;
  bool all = true;
  for (size_t k = 0; k < members.size() && all; ++k) {
    const int chosen =
        FindPreemptionCandidate(members[k], excluded, /*allow_fit=*/k > 0);
    if (chosen < 0) {
      all = false;
      break;
    }
    Placed& p = placed.emplace_back();
    p.member = members[k];
    p.candidate = candidates_scratch_[chosen];
    Node& node = cluster_.nodes()[p.candidate.node];
    // Assume it there: its victims leave, it takes their room.
    for (const PreemptionVictim& v : p.candidate.victims) {
      const PodState& vs = pods_[v.id];
      if (node.devices() != nullptr && !vs.allocation.grants.empty()) {
        node.devices()->Release(vs.allocation);
      }
      UnreservePod(node, *vs.pod);
      excluded.push_back(v.id);
    }
    const Pod& pod = *pods_[p.member].pod;
    bool extended = false;
    for (const auto& item : pod.requests.items()) {
      extended = extended || item.first > ResourceRegistry::kMemoryId;
    }
    if (extended && node.devices() != nullptr) {
      if (!node.devices()->Fits(pod.requests, nullptr)) {
        all = false;
        break;
      }
      p.allocation = node.devices()->Allocate(pod.requests);
      p.allocated = true;
    }
    ReservePod(node, pod);
    p.reserved = true;
  }
  // Every node back as it was, in reverse.
  for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
    Node& node = cluster_.nodes()[it->candidate.node];
    if (it->reserved) UnreservePod(node, *pods_[it->member].pod);
    if (it->allocated) node.devices()->Release(it->allocation);
    const std::vector<PreemptionVictim>& victims = it->candidate.victims;
    for (auto v = victims.rbegin(); v != victims.rend(); ++v) {
      const PodState& vs = pods_[v->id];
      if (node.devices() != nullptr && !vs.allocation.grants.empty()) {
        node.devices()->Reacquire(vs.allocation);
      }
      ReservePod(node, *vs.pod);
    }
    UpdateFreeNodes(it->candidate.node, ResourceList());
  }
  if (!all) return false;
  for (const Placed& p : placed) CommitPreemption(p.member, p.candidate, result);
  return true;
}

}  // namespace gpushare
