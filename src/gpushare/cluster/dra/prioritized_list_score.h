// The DynamicResources plugin's Score for prioritized lists (KEP-4816).
//
// Contract: PrioritizedListScore is a node's raw score for a pod, given the
// pod's claims allocated on that node and their AllocationResults (same
// order): for every request that uses firstAvailable, 8 - i where i is the
// index of the chosen subrequest (8 for the first choice down to 1 for the
// eighth), summed over requests and claims; requests with `exactly` add 0
// (kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/
// dynamicresources.go computeScore: FirstAvailableDeviceRequestMaxSize - i).
// Claims allocated by earlier pods are not passed: they have no new
// allocation on the node. There is no device bin-packing score.
//
// NormalizePrioritizedListScores maps raw scores over the candidate nodes
// as the plugin's NormalizeScore does (helper.DefaultNormalizeScore with
// MaxNodeScore 100, not reversed, pkg/scheduler/framework/plugins/helper/
// normalize_score.go): s * 100 / max(s), integer division; all stay 0 when
// the maximum is 0. Note that this scales from 0, not from the minimum:
// raw scores 8 and 7 become 100 and 87.

#ifndef GPUSHARE_CLUSTER_DRA_PRIORITIZED_LIST_SCORE_H_
#define GPUSHARE_CLUSTER_DRA_PRIORITIZED_LIST_SCORE_H_

#include <cstdint>
#include <vector>

#include "gpushare/cluster/dra/resource_claim.h"

namespace gpushare {

inline constexpr int64_t kDraMaxNodeScore = 100;

int64_t PrioritizedListScore(const std::vector<const ResourceClaim*>& claims,
                             const std::vector<AllocationResult>& results);

void NormalizePrioritizedListScores(std::vector<int64_t>* scores);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_DRA_PRIORITIZED_LIST_SCORE_H_
