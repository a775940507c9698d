#include "gpushare/cluster/dra/claim_reservations.h"

#include <algorithm>

#include "gpushare/cluster/dra/filter_messages.h"
#include "gpushare/io/check.h"

namespace gpushare {

const ClaimReservations::Status& ClaimReservations::StatusOf(
    const std::string& claim) const {
  static const Status kUnallocated;
  auto it = claims_.find(claim);
  return it == claims_.end() ? kUnallocated : it->second;
}

ClaimCheck ClaimReservations::PreFilter(
    const std::string& pod, const std::vector<std::string>& claims) const {
  for (const std::string& name : claims) {
    const Status& s = StatusOf(name);
    if (!s.allocated) continue;
    const bool reserved_for_pod =
        std::find(s.reserved_for.begin(), s.reserved_for.end(), pod) !=
        s.reserved_for.end();
    if (!reserved_for_pod &&
        s.reserved_for.size() >= kResourceClaimReservedForMaxSize) {
      return {false, kDraClaimInUse, name};
    }
  }
  return {};
}

ClaimCheck ClaimReservations::FilterAllocated(
    const std::vector<std::string>& claims, const std::string& node) const {
  for (const std::string& name : claims) {
    const Status& s = StatusOf(name);
    if (s.allocated && s.allocation.node_name != node) {
      return {false, kDraClaimNotAvailableOnNode, name};
    }
  }
  return {};
}

std::vector<std::string> ClaimReservations::Unallocated(
    const std::vector<std::string>& claims) const {
  std::vector<std::string> out;
  for (const std::string& name : claims) {
    if (!StatusOf(name).allocated) out.push_back(name);
  }
  return out;
}

void ClaimReservations::Allocate(const std::string& claim,
                                 AllocationResult allocation) {
  Status& s = claims_[claim];
  GS_CHECK(!s.allocated, "claim allocated twice");
  s.allocated = true;
  s.allocation = std::move(allocation);
}

void ClaimReservations::Reserve(const std::string& claim,
                                const std::string& pod) {
  Status& s = claims_[claim];
  GS_CHECK(s.allocated, "claim reserved before it is allocated");
  if (std::find(s.reserved_for.begin(), s.reserved_for.end(), pod) ==
      s.reserved_for.end()) {
    GS_CHECK(s.reserved_for.size() < kResourceClaimReservedForMaxSize,
             "claim reserved past ResourceClaimReservedForMaxSize");
    s.reserved_for.push_back(pod);
  }
}

bool ClaimReservations::Release(const std::string& claim,
                                const std::string& pod,
                                AllocationResult* freed) {
  auto it = claims_.find(claim);
  if (it == claims_.end()) return false;
  Status& s = it->second;
  auto at = std::find(s.reserved_for.begin(), s.reserved_for.end(), pod);
  if (at == s.reserved_for.end()) return false;
  s.reserved_for.erase(at);
  if (!s.reserved_for.empty()) return false;
  if (freed != nullptr) *freed = std::move(s.allocation);
  claims_.erase(it);
  return true;
}

}  // namespace gpushare
