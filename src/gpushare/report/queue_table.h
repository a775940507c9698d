// The terminal table of Kueue's ClusterQueues, or KAI-Scheduler's queues,
// over a run.
//
// Contract: "" without queues; otherwise a blank line, a title and one row
// per ClusterQueue: cohort, workloads created, admissions (of which
// borrowing), evictions suffered and caused, workloads pending at the end,
// the mean admission wait, and its quota of GPU devices (whole GPUs,
// replicas, MIG instances, HAMi vGPUs, summed over flavors; HAMi memory and
// cores, cpu and memory are left to the JSON) as mean used / nominal with
// the peak borrowed. For KAI (`system` "KAI-Scheduler") the cohort column
// is the parent queue and the quota is GPU units as mean allocated / mean
// fair share / deserved quota, with the fair-share deviation, and the
// admissions over quota; jobs created are left to the JSON.

#ifndef GPUSHARE_REPORT_QUEUE_TABLE_H_
#define GPUSHARE_REPORT_QUEUE_TABLE_H_

#include <string>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

std::string QueueTable(const std::vector<QueueSummary>& queues,
                       const std::string& system);

// One warning line per queue that was held at its quota while its flavor's
// nodes had room for its pods (QueueSummary::idle_at_quota_samples > 0:
// free replicas, MIG instances, HAMi slots or whole GPUs, as its quota's
// resource counts them, with the mean free then): its quota, not the nodes,
// kept its workloads waiting. "" when none was.
std::string QueueQuotaWarnings(const std::vector<QueueSummary>& queues,
                               const std::string& system);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_QUEUE_TABLE_H_
