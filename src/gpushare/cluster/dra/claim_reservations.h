// ClaimReservations: the status of the ResourceClaims pods reference — which
// are allocated, on which node, with which devices, reserved for which pods —
// and what the kube-scheduler's DynamicResources plugin decides from it for a
// pod before and beside the allocator.
//
// Contract. A claim is unallocated until a pod's Reserve allocates it on a
// node (Allocate: the allocator's result, status.allocation with the node
// as its nodeSelector) and reserves it for that pod. Later pods that
// reference the claim share its devices (a shared ResourceClaim, or one
// container-shared claim): PreFilter refuses them with "resourceclaim in
// use" when status.reservedFor already holds ResourceClaimReservedForMaxSize
// (256) other pods (kubernetes/api resource/v1 types.go;
// pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go,
// PreFilter, resourceclaim.CanBeReserved); Filter passes only the
// allocation's node and fails the others with "resourceclaim not available
// on the node" (Filter, availableOnNodes), and needs no device there: the
// claim's devices are its own. Reserve() adds the pod to reservedFor. When a
// pod ends, Release() removes it; a claim reserved for nobody is deallocated
// and its devices are free again — the resourceclaim controller clears the
// allocation of a claim whose reservedFor became empty
// (pkg/controller/resourceclaim/controller.go; its test "clear-reserved"
// expects status.allocation nil). A claim from a template is the same with
// one pod. Claims are named; at most one status per name.
// Single-threaded; deterministic.

#ifndef GPUSHARE_CLUSTER_DRA_CLAIM_RESERVATIONS_H_
#define GPUSHARE_CLUSTER_DRA_CLAIM_RESERVATIONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpushare/cluster/dra/resource_claim.h"

namespace gpushare {

// resource/v1 ResourceClaimReservedForMaxSize.
inline constexpr size_t kResourceClaimReservedForMaxSize = 256;

// What PreFilter or Filter says about one pod's claims.
struct ClaimCheck {
  bool ok = true;
  // The plugin's message when not ok (filter_messages.h).
  std::string_view message;
  // The claim it is about ("" when ok).
  std::string claim;
};

class ClaimReservations {
 public:
  struct Status {
    bool allocated = false;
    AllocationResult allocation;  // node_name: where its devices are
    std::vector<std::string> reserved_for;  // pod names, in order
  };

  // The status of `claim` (unallocated and unreserved when unknown).
  const Status& StatusOf(const std::string& claim) const;

  // PreFilter for `pod` referencing `claims`: not ok ("resourceclaim in
  // use") when an allocated claim cannot take another reservation.
  ClaimCheck PreFilter(const std::string& pod,
                       const std::vector<std::string>& claims) const;
  // Filter of the claims already allocated: not ok ("resourceclaim not
  // available on the node") when one is allocated on another node. The
  // unallocated ones are the allocator's (Unallocated()).
  ClaimCheck FilterAllocated(const std::vector<std::string>& claims,
                             const std::string& node) const;
  // Of `claims`, those no pod has allocated yet, in order.
  std::vector<std::string> Unallocated(
      const std::vector<std::string>& claims) const;

  // Reserve: `claim` gets `allocation` (it must be unallocated).
  void Allocate(const std::string& claim, AllocationResult allocation);
  // Reserve: `claim` (allocated) is reserved for `pod` too; a pod already
  // in reservedFor is not added twice.
  void Reserve(const std::string& claim, const std::string& pod);
  // The pod ended (or Unreserve): it leaves reservedFor. Returns true when
  // that deallocated the claim: its devices, in `*freed` when given, are
  // free again.
  bool Release(const std::string& claim, const std::string& pod,
               AllocationResult* freed = nullptr);

 private:
  std::unordered_map<std::string, Status> claims_;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_CLAIM_RESERVATIONS_H_
