// Nominated pods in Scheduler (scheduler.h), as kube-scheduler's nominator
// and the framework's RunFilterPluginsWithNominatedPods
// (kubernetes/kubernetes pkg/scheduler/framework/runtime/framework.go,
// addGENominatedPods): a preemptor waits with status.nominatedNodeName set,
// and the pods of equal or higher priority nominated to a node count as
// already there when any other pod is filtered on it.
//
// Contract: Nominate() and ClearNomination() keep the nominated pods per
// node; FitsWithNominees() is the second filter run (with them added) that a
// pod passing the filters on such a node must pass too; FlushNominations()
// turns the nominations given back into node events and retries the
// preemptors whose last victim is gone.

#include <algorithm>

#include "gpushare/io/check.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {
namespace {

bool AsksForDevices(const ResourceList& requests) {
  for (const auto& item : requests.items()) {
    if (item.first > ResourceRegistry::kMemoryId && item.second > 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<PodId> Scheduler::NominatedPodsOn(int node) const {
  if (!HasNominees(node)) return {};
  return nominees_[node];
}

bool Scheduler::NomineesApply(const Pod& pod, int node) const {
  if (!HasNominees(node)) return false;
  for (PodId q : nominees_[node]) {
    const PodState& qs = pods_[q];
    if (qs.pod != &pod && qs.pod->priority >= pod.priority) return true;
  }
  return false;
}

bool Scheduler::FitsWithNominees(const Pod& pod, int node,
                                 std::vector<std::string_view>* reasons) {
  Node& n = cluster_.nodes()[node];
  std::vector<PodId> added;
  for (PodId q : nominees_[node]) {
    const PodState& qs = pods_[q];
    if (qs.pod != &pod && qs.pod->priority >= pod.priority) added.push_back(q);
  }
  // kube's second run of the filters: the nominated pods' requests counted
  // on the node as it is (their terminating victims' still are: kube's
  // NodeInfo keeps a terminating pod until it is gone).
  for (PodId q : added) ReservePod(n, *pods_[q].pod);
  bool fits = true;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  for (FilterPlugin* f : dynamic_filters_) {
    if (!f->Filter(pod, n, reasons)) {
      fits = false;
      break;
    }
  }
  for (auto it = added.rbegin(); it != added.rend(); ++it) {
    UnreservePod(n, *pods_[*it].pod);
  }
  // Devices (GpuDeviceFit): with the pod on the devices the device plugin
  // would give it now, each nominated pod that could get devices once its
  // victims are gone still can.
  DevicePlugin* devices = n.devices();
  if (fits && device_fit_filter_ && devices != nullptr &&
      AsksForDevices(pod.requests)) {
    std::vector<PodId> room;  // those that fit without the pod
    for (PodId q : added) {
      if (AsksForDevices(pods_[q].pod->requests) &&
          NomineeFitsDevices(q, node, VictimsOnNode(q, node), nullptr)) {
        room.push_back(q);
      }
    }
    if (!room.empty()) {
      const DeviceAllocation placed = devices->Allocate(pod.requests);
      for (PodId q : room) {
        if (!NomineeFitsDevices(q, node, VictimsOnNode(q, node), reasons)) {
          fits = false;
          break;
        }
      }
      devices->Release(placed);
    }
  }
  RefreshNodeCopies(node);
  return fits;
}

std::vector<PodId> Scheduler::VictimsOnNode(PodId q, int node) const {
  std::vector<PodId> victims;
  if (node >= static_cast<int>(node_pods_.size())) return victims;
  const PodState& qs = pods_[q];
  for (const BoundPod& b : node_pods_[node]) {
    const PodState& v = pods_[b.victim.id];
    if (v.terminating && v.preemptor == q &&
        v.preemptor_preemption == qs.preemption) {
      victims.push_back(b.victim.id);
    }
  }
  return victims;
}

bool Scheduler::NomineeFitsDevices(PodId q, int node,
                                   const std::vector<PodId>& victims,
                                   std::vector<std::string_view>* why) {
  DevicePlugin* devices = cluster_.nodes()[node].devices();
  for (PodId v : victims) {
    if (!pods_[v].allocation.grants.empty()) {
      devices->Release(pods_[v].allocation);
    }
  }
  std::string_view reason;
  const bool ok = devices->Fits(pods_[q].pod->requests, &reason);
  for (auto v = victims.rbegin(); v != victims.rend(); ++v) {
    if (!pods_[*v].allocation.grants.empty()) {
      devices->Reacquire(pods_[*v].allocation);
    }
  }
  if (!ok && why != nullptr) why->push_back(reason);
  return ok;
}

bool Scheduler::NomineeFitsOnceVictimsGone(PodId q, int node) {
  const Node& n = cluster_.nodes()[node];
  const ResourceRegistry& registry = cluster_.resources();
  const std::vector<PodId> gone = VictimsOnNode(q, node);
  bool fits = !resources_fit_filter_ ||
              n.pod_count() - static_cast<int>(gone.size()) < n.max_pods();
  for (const auto& [id, quantity] : pods_[q].pod->requests.items()) {
    if (!resources_fit_filter_ || registry.IgnoredByScheduler(id)) continue;
    int64_t freed = 0;
    for (PodId v : gone) freed += pods_[v].pod->requests.Get(id);
    fits = fits && quantity <= n.Allocatable(id) - n.Requested(id) + freed;
  }
  if (fits && device_fit_filter_ && n.devices() != nullptr) {
    fits = NomineeFitsDevices(q, node, gone, nullptr);
  }
  return fits;
}

void Scheduler::RefreshNodeCopies(int node) {
  if (node < static_cast<int>(hami_summaries_.size())) {
    hami_summaries_[node] = HamiSummaryOf(node);
  }
  if (node < static_cast<int>(node_versions_.size())) {
    node_versions_[node] = cluster_.nodes()[node].version();
  }
}

void Scheduler::Nominate(PodId id, int node) {
  PodState& s = pods_[id];
  if (s.nominated_node == node) return;
  ClearNomination(id, /*freed=*/true);
  if (static_cast<int>(nominees_.size()) <= node) {
    nominees_.resize(cluster_.nodes().size());
  }
  nominees_[node].push_back(id);
  nominated_nodes_.insert(node);
  ++nominee_count_;
  s.nominated_node = node;
}

void Scheduler::ClearNomination(PodId id, bool freed) {
  PodState& s = pods_[id];
  const int node = s.nominated_node;
  if (node < 0) return;
  s.nominated_node = -1;
  // Its victims, if any still terminate, are no longer its: it may preempt
  // again (kube: PodEligibleToPreemptOthers reads the nominated node).
  s.pending_victims = 0;
  s.preemption = 0;
  std::vector<PodId>& on_node = nominees_[node];
  auto it = std::find(on_node.begin(), on_node.end(), id);
  GS_CHECK(it != on_node.end(), "nominated pod missing from its node");
  on_node.erase(it);
  --nominee_count_;
  if (on_node.empty()) nominated_nodes_.erase(node);
  if (freed) freed_nominations_.push_back(node);
}

void Scheduler::ActivateWaiting(PodId id) {
  PodState& s = pods_[id];
  Group& group = groups_[s.shape];
  group.waiting.erase({s.pod->priority, s.seq, id});
  --waiting_count_;
  Activate(id);
  if (group.waiting.empty() && group.retrying < 0) {
    UntrackGroup(s.shape);
  } else {
    Settle(s.shape);  // its first pod may have changed
  }
}

void Scheduler::FlushNominations() {
  while (!ready_nominees_.empty() || !freed_nominations_.empty()) {
    // kube: the victim's deletion moves its preemptor to the active queue.
    std::vector<std::pair<PodId, uint64_t>> ready;
    ready.swap(ready_nominees_);
    for (const auto& [id, seq] : ready) {
      if (pods_[id].seq == seq && pods_[id].state == State::kWaiting) {
        ActivateWaiting(id);
      }
    }
    std::vector<int> freed;
    freed.swap(freed_nominations_);
    const int num_nodes = static_cast<int>(cluster_.nodes().size());
    for (int node : freed) {
      if (node >= num_nodes) continue;
      // The room is back for the others: a node event.
      UpdateFreeNodes(node, ResourceList());
      WakeGroupsFor(node);
    }
  }
}

}  // namespace gpushare
