// Kueue's classical preemption: the smallest set of admitted workloads
// whose quota, once released, lets a pending workload fit (Kueue's
// pkg/scheduler/preemption, docs/model.md §4.3).
//
// Contract: candidates are ordered as Kueue's CandidatesOrdering does —
// workloads already being evicted first, then those of other ClusterQueues
// of the cohort before the preemptor's own, lower priority first, the most
// recently admitted first, then by id. They are removed from the book in
// that order — skipping a candidate of another queue once that queue no
// longer borrows in the preemptor's resources — until the preemptor fits;
// then every removed candidate but the last is put back if the preemptor
// still fits without it. The book is left as it was. Returns the indices
// of the chosen candidates, or none when even all of them would not do.

#ifndef GPUSHARE_SCHED_KUEUE_KUEUE_PREEMPTION_H_
#define GPUSHARE_SCHED_KUEUE_KUEUE_PREEMPTION_H_

#include <cstdint>
#include <span>
#include <vector>

#include "gpushare/sched/kueue/quota_book.h"

namespace gpushare {

struct KueuePreemptionCandidate {
  int workload = -1;
  int queue = -1;
  int32_t priority = 0;
  // Admission order (Kueue: quota reservation time; ties at one instant
  // go by the order of admission).
  uint64_t admitted_seq = 0;
  bool evicting = false;  // already chosen by an earlier preemption
  std::span<const QuotaAmount> usage;
};

std::vector<int> MinimalPreemptionSet(
    QuotaBook& book, int preemptor_queue, std::span<const QuotaAmount> request,
    bool allow_borrowing, std::vector<KueuePreemptionCandidate>& candidates);

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_KUEUE_KUEUE_PREEMPTION_H_
