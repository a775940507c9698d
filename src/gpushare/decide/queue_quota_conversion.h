// Kueue quotas carried over to another sharing scheme, for `compare` and
// `plan` variants (docs/model.md §9.1).
//
// Contract: a ClusterQueue quota is written in the resources the pool's
// device plugin advertises under the scenario's scheme (nvidia.com/gpu for
// whole GPUs, replicas under time-slicing or MPS, nvidia.com/mig-<profile>
// under MIG, nvidia.com/gpu, gpumem and gpucores under HAMi). When a
// variant changes the scheme of the one pool a flavor's node labels select,
// ConvertQueueQuotas() rewrites that flavor's device quotas: each is turned
// into whole GPUs by what one GPU advertises under the old scheme (the
// largest figure over the device resources the quota names), then into
// every resource one GPU advertises under the new scheme (rounded down);
// borrowing and lending limits likewise; cpu, memory and other resources
// stay. Flavors of a group that end up naming different resources get a
// quota of 0 for those they lack, so the group covers one set.
//
// With QuotaScaling::with_pool_sizes (`plan`, docs/model.md §10) quotas also
// follow the pools' sizes: a flavor whose pools keep their schemes has each
// device quota (and borrowing and lending limit) multiplied by the GPUs of
// its pools in the variant over those in the original, rounded down as a
// Kueue count is (nvidia.com/gpu 16 on 6 nodes of 4 GPUs becomes 21 on 8);
// a flavor converted to another scheme counts its GPUs so scaled; cpu and
// memory quotas scale with the pools' cpu and memory. Queues listed in
// `pinned` keep their size (a scheme change still converts them). Returns
// one note per flavor converted or scaled, and per flavor left as it was
// because it selects pools of different schemes.

#ifndef GPUSHARE_DECIDE_QUEUE_QUOTA_CONVERSION_H_
#define GPUSHARE_DECIDE_QUEUE_QUOTA_CONVERSION_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

// How quotas follow the variant's pools besides their schemes.
struct QuotaScaling {
  bool with_pool_sizes = false;     // scale with the pools' GPUs
  std::vector<std::string> pinned;  // queues that keep their size
};

std::vector<std::string> ConvertQueueQuotas(const Scenario& original,
                                            Scenario* variant,
                                            const Catalog& catalog,
                                            const QuotaScaling& scaling = {});

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_QUEUE_QUOTA_CONVERSION_H_
