#include "gpushare/cluster/dra/prioritized_list_score.h"

#include "gpushare/io/check.h"

namespace gpushare {

int64_t PrioritizedListScore(const std::vector<const ResourceClaim*>& claims,
                             const std::vector<AllocationResult>& results) {
  GS_CHECK(claims.size() == results.size(), "one result per claim");
  int64_t score = 0;
  for (size_t c = 0; c < claims.size(); ++c) {
    const std::vector<DraDeviceRequest>& requests = claims[c]->spec.requests;
    const std::vector<int>& selected = results[c].selected_subrequest;
    for (size_t r = 0; r < requests.size() && r < selected.size(); ++r) {
      if (requests[r].has_exactly || selected[r] < 0) continue;
      score += static_cast<int64_t>(kMaxFirstAvailable) - selected[r];
    }
  }
  return score;
}

void NormalizePrioritizedListScores(std::vector<int64_t>* scores) {
  int64_t max = 0;
  for (const int64_t s : *scores) max = s > max ? s : max;
  if (max == 0) return;
  for (int64_t& s : *scores) s = kDraMaxNodeScore * s / max;
}

}  // namespace gpushare
