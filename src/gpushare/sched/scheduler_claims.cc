// Shared ResourceClaims in the Scheduler (scheduler.h, "Shared
// ResourceClaims"): kube-scheduler's DynamicResources plugin for a claim
// that several pods reference (pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go: PreFilter's "resourceclaim in use",
// Filter's "resourceclaim not available on the node", Reserve's allocation
// and reservedFor), with the resourceclaim controller's deallocation of a
// claim reserved for nobody (cluster/dra/claim_reservations.h).

#include <utility>

#include "gpushare/io/check.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {

const Pod& Scheduler::EnqueueClaimPod(PodId id, const Pod& pod) {
  ClaimPod& cp = claim_pods_[id];
  cp.original = &pod;
  cp.pinned.reset();
  claim_pending_[pod.dra_claim].push_back({id, pods_[id].seq});
  return ClaimView(id);
}

const Pod& Scheduler::ClaimView(PodId id) {
  ClaimPod& cp = claim_pods_.at(id);
  const Pod& original = *cp.original;
  auto hold = claim_holds_.find(original.dra_claim);
  if (hold == claim_holds_.end()) return original;
  const std::string& node = cluster_.nodes()[hold->second.node].name();
  if (cp.pinned == nullptr || cp.pinned->dra_claim_node != node) {
    cp.pinned = std::make_unique<Pod>(original);
    cp.pinned->dra_claim_node = node;
    ResourceList requests;
    for (const auto& [resource, quantity] : original.requests.items()) {
      if (resource <= ResourceRegistry::kMemoryId) {
        requests.Set(resource, quantity);
      }
    }
    cp.pinned->requests = std::move(requests);
  }
  return *cp.pinned;
}

bool Scheduler::ClaimInUse(PodId id) const {
  const Pod& original = *claim_pods_.at(id).original;
  return !claim_status_.PreFilter(original.name, {original.dra_claim}).ok;
}

void Scheduler::ClaimBound(PodId id) {
  PodState& s = pods_[id];
  ClaimPod& cp = claim_pods_.at(id);
  const std::string& claim = cp.original->dra_claim;
  s.claim_grants = true;
  if (claim_status_.StatusOf(claim).allocated) {
    // Pinned: it needed no device; it uses the claim's.
    GS_CHECK(claim_holds_.at(claim).node == s.node,
             "a pod bound away from its claim's node");
    claim_status_.Reserve(claim, cp.original->name);
    s.allocation = claim_holds_.at(claim).allocation;
    return;
  }
  // Its Reserve allocated the claim: from now on the claim holds the
  // devices, and the pod only its cpu, memory and slot.
  Node& node = cluster_.nodes()[s.node];
  ClaimHold& hold = claim_holds_[claim];
  hold.node = s.node;
  hold.allocation = s.allocation;
  for (const auto& [resource, quantity] : s.pod->requests.items()) {
    if (resource > ResourceRegistry::kMemoryId) {
      hold.requests.Set(resource, quantity);
    }
  }
  AllocationResult allocation;
  allocation.node_name = node.name();
  claim_status_.Allocate(claim, std::move(allocation));
  claim_status_.Reserve(claim, cp.original->name);
  const ResourceList& full = s.pod->requests;
  const Pod& pinned = ClaimView(id);
  UnreservePod(node, *s.pod);
  ReservePod(node, pinned);
  node.HoldClaim(hold.requests);
  UpdateFreeNodes(s.node, full);
  s.pod = &pinned;
  SwitchClaimViews(claim);
  if (profile_.check_invariants) CheckInvariants(s.node);
}

void Scheduler::ClaimReleased(PodId id) {
  PodState& s = pods_[id];
  s.claim_grants = false;
  const Pod& original = *claim_pods_.at(id).original;
  const std::string& claim = original.dra_claim;
  if (!claim_status_.Release(claim, original.name)) return;
  // Reserved for nobody: deallocated, its devices free.
  auto it = claim_holds_.find(claim);
  GS_CHECK(it != claim_holds_.end(), "a deallocated claim held nothing");
  ClaimHold hold = std::move(it->second);
  claim_holds_.erase(it);
  Node& node = cluster_.nodes()[hold.node];
  if (node.devices() != nullptr && !hold.allocation.grants.empty()) {
    node.devices()->Release(hold.allocation);
  }
  node.DropClaim(hold.requests);
  UpdateFreeNodes(hold.node, hold.requests);
  SwitchClaimViews(claim);
  if (profile_.check_invariants) CheckInvariants(hold.node);
}

void Scheduler::ForgetClaimPod(PodId id) {
  auto it = claim_pods_.find(id);
  if (it == claim_pods_.end()) return;
  pods_[id].pod = it->second.original;
  claim_pods_.erase(it);
}

void Scheduler::SwitchClaimViews(const std::string& claim) {
  auto it = claim_pending_.find(claim);
  if (it == claim_pending_.end()) return;
  // Drop the stale entries (bound, done, or ids reused), then switch.
  std::vector<std::pair<PodId, uint64_t>>& pending = it->second;
  size_t kept = 0;
  for (const auto& [q, seq] : pending) {
    const PodState& qs = pods_[q];
    if (qs.seq == seq &&
        (qs.state == State::kActive || qs.state == State::kWaiting)) {
      pending[kept++] = {q, seq};
    }
  }
  pending.resize(kept);
  if (pending.empty()) {
    claim_pending_.erase(it);
    return;
  }
  const std::vector<std::pair<PodId, uint64_t>> ids = pending;
  for (const auto& [q, seq] : ids) SwitchClaimView(q);
}

void Scheduler::SwitchClaimView(PodId id) {
  PodState& s = pods_[id];
  const Pod& view = ClaimView(id);
  if (s.pod == &view) return;
  // The claim changed (upstream: a ResourceClaim event moves the pods that
  // reference it to the active queue).
  ClearNomination(id, /*freed=*/true);
  if (s.state == State::kWaiting) ActivateWaiting(id);
  const int old_shape = s.shape;
  s.pod = &view;
  s.shape = InternShape(view, &s.constraints);
  if (groups_[old_shape].retrying == id) EndRetry(old_shape);
}

}  // namespace gpushare
