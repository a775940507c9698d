// Output of `gpushare-sim experiment fgd`: per-run CSVs and the summary.
//
// Contract (docs/experiment-fgd.md, "Outputs"): FgdRunCsv() is one run's
// curve, one row per arrived-workload bucket: arrived_pct, records (events
// averaged), gpu_alloc_pct, gpu_unallocated_pct (100 - alloc),
// frag_amount_pct (fragmentation in % of cluster GPUs), frag_ratio_pct (% of
// idle GPU share), six decimals. FgdSummaryCsv() has, per policy and for
// arrived 100 % and 130 %, the mean, sample standard deviation (0 for one
// seed), minimum and maximum over the seeds of each measure, taking in each
// run the bucket at that arrived % or the last one before it.
// FgdSummaryTable() is the terminal table of the same at 100 % and 130 %.
// Everything is a pure function of the results: byte-identical for equal
// inputs.

#ifndef GPUSHARE_EXPERIMENT_FGD_REPORT_H_
#define GPUSHARE_EXPERIMENT_FGD_REPORT_H_

#include <string>
#include <vector>

#include "gpushare/experiment/fgd_experiment.h"

namespace gpushare {

// The summary's arrived-workload points.
inline constexpr int kFgdSummaryPoints[] = {100, 130};

std::string FgdRunFileName(const FgdRunResult& run);
std::string FgdRunCsv(const FgdRunResult& run);
std::string FgdSummaryCsv(const std::vector<FgdPolicy>& policies,
                          const std::vector<FgdRunResult>& runs);
std::string FgdSummaryTable(const std::vector<FgdPolicy>& policies,
                            const std::vector<FgdRunResult>& runs);

}  // namespace gpushare

#endif  // GPUSHARE_EXPERIMENT_FGD_REPORT_H_
