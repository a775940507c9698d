// Summary statistics of samples, as the reports state them.
//
// Contract: Mean() of no values is 0. NearestRankPercentile(values, q) is the
// nearest-rank q-quantile (q in (0, 1]): the ceil(q·n)-th smallest value
// (the smallest when that rank is 0); 0 for no values. It sorts `values`.

#ifndef GPUSHARE_BASE_STATISTICS_H_
#define GPUSHARE_BASE_STATISTICS_H_

#include <vector>

namespace gpushare {

double Mean(const std::vector<double>& values);
double NearestRankPercentile(std::vector<double>& values, double q);

}  // namespace gpushare

#endif  // GPUSHARE_BASE_STATISTICS_H_
