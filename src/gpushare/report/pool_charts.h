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
//
// Time axes: both run from 0 to `x_max` (widened to the data if a sample
// lies beyond it; NaN: 0 to the data's end), so a page that passes every
// chart the same `x_max` (its longest run's end) lines them up in time.
//
// No empty charts: when there is nothing to draw they return a one-line
// note (report/chart_note.h, data-no-chart="ID") instead of the chart:
// PoolUtilizationChart() for a pool without samples or whose four series
// are 0 at every sample, PendingChart() when no entry has samples or no pod
// was pending at any of them.

#ifndef GPUSHARE_REPORT_POOL_CHARTS_H_
#define GPUSHARE_REPORT_POOL_CHARTS_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/metrics/results.h"

namespace gpushare {

std::string PoolUtilizationChart(const std::string& id,
                                 const std::string& title,
                                 const PoolSummary& pool, double x_max);

// `runs`: (series name, samples or nullptr) in legend order.
std::string PendingChart(
    const std::string& id, const std::string& title,
    const std::vector<std::pair<std::string, const std::vector<PoolSample>*>>&
        runs,
    double x_max);

// The time of the latest sample of any of `pools` (0 when none has one):
// a run's end as its charts show it.
double LastSampleTime(const std::vector<PoolSummary>& pools);

}  // namespace gpushare

#endif  // GPUSHARE_REPORT_POOL_CHARTS_H_
