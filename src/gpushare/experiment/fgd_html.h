// The HTML report of `gpushare-sim experiment fgd --html FILE`, built from
// report/'s page and chart pieces (experiment/ sits above report/).
//
// Contract: FgdHtmlReport() is one self-contained page (report/html_page.h)
// with `summary` (the terminal text: the experiment and its summary table,
// shown as is) and two line charts against the
// arrived workload (0..130 % of cluster GPU capacity): GPU allocation and
// fragmentation, both in % of cluster GPUs, one series per policy (the
// mean over the seeds) with a band from the lowest to the highest seed.
// At each arrived % a run counts with its bucket there or the last one
// before it (FgdRunResult::At), as in the summary; points where no run has
// a bucket yet are left out. Deterministic.

#ifndef GPUSHARE_EXPERIMENT_FGD_HTML_H_
#define GPUSHARE_EXPERIMENT_FGD_HTML_H_

#include <string>
#include <vector>

#include "gpushare/experiment/fgd_experiment.h"

namespace gpushare {

std::string FgdHtmlReport(const std::string& summary,
                          const std::vector<FgdPolicy>& policies,
                          const std::vector<FgdRunResult>& runs);

}  // namespace gpushare

#endif  // GPUSHARE_EXPERIMENT_FGD_HTML_H_
