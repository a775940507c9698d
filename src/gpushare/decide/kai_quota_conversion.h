// KAI-Scheduler queue quotas carried over to another sharing scheme, for
// `compare` and `plan` variants (docs/model.md §9.1).
//
// Contract: KAI counts GPU units (a whole GPU or replica 1, a MIG device
// nvidia.com/mig-Xg.* X), so one physical GPU is a different number of
// units under each scheme: 1 exclusive, R with R time-slicing or MPS
// replicas, the split count under HAMi, the sum of its instances' slices
// under MIG. ConvertKaiQuotas() scales every queue's quota and limit (not
// the unlimited -1) by the variant's units per physical GPU over the
// original's, cluster-wide, so each queue deserves the same share of the
// GPUs; a change of pool sizes alone changes nothing — unless
// QuotaScaling::with_pool_sizes (`plan`, docs/model.md §10): then the
// factor is the cluster's GPU units in the variant over the original's, so
// a queue keeps its share of a resized cluster too (queues listed in
// `pinned` keep the units-per-GPU factor alone). Returns one note when it
// scaled, none otherwise (and none without kai_queues).

#ifndef GPUSHARE_DECIDE_KAI_QUOTA_CONVERSION_H_
#define GPUSHARE_DECIDE_KAI_QUOTA_CONVERSION_H_

#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/decide/queue_quota_conversion.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::vector<std::string> ConvertKaiQuotas(const Scenario& original,
                                          Scenario* variant,
                                          const Catalog& catalog,
                                          const QuotaScaling& scaling = {});

// KAI's GPU units per physical GPU of the cluster `pools` build (0 without
// GPUs).
double KaiUnitsPerGpu(const std::vector<NodePoolSpec>& pools,
                      const Catalog& catalog);

}  // namespace gpushare

#endif  // GPUSHARE_DECIDE_KAI_QUOTA_CONVERSION_H_
