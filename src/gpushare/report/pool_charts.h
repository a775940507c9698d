// Charts of a run's pools over time, shared by the run and compare HTML
// reports.
//
// Contract: PoolUtilizationChart() is one line chart of a pool's samples
// (metrics/results.h PoolSample): SM active against GPU util (the source
// document's point: a GPU that looks busy can be idle inside), memory used
// and allocation, all in % of the pool's GPU-equivalents (series names
// "SM active", "GPU util", "memory used", "allocation"). PendingChart()
// draws one series per entry: the cluster's pending pods over time (from a
// pool's samples; every pool carries the same cluster-wide count). Series
// are downsampled to at most 600 points (report/downsample.h).

#ifndef GPUSHARE_REPORT_POOL_CHARTS_H_
#define GPUSHARE_REPORT_POOL_CHARTS_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

std::string PoolUtilizationChart(const std::string& id,
                                 const std::string& title,
                                 const PoolSummary& pool);

// `runs`: (series name, samples) in legend order.
std::string PendingChart(
    const std::string& id, const std::string& title,
    const std::vector<std::pair<std::string, const std::vector<PoolSample>*>>&
        runs);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_POOL_CHARTS_H_
