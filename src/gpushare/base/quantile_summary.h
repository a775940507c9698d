// QuantileSummary: the nearest-rank quantiles of a stream of values, exact
// while the stream is small and within a stated relative error once it is
// not, in memory that stops growing with the stream.
//
// Contract: Add() values (finite doubles, any sign) one at a time; Merge()
// another summary's values in. While at most `exact_limit` values were
// added the summary keeps them all, and Quantile(q) is exactly
// NearestRankPercentile (base/statistics.h) of those values: the
// ceil(q·n)-th smallest (the smallest when that rank is 0), 0 for no
// values. Mean() is exactly Mean() of the values in the order they were
// added (the same sum, the same rounding).
//
// Past `exact_limit` values the summary turns, once and for good, into a
// log-bucket sketch after DDSketch (C. Masson, J. E. Rim, H. K. Lee,
// "DDSketch: A Fast and Fully-Mergeable Quantile Sketch with Relative-Error
// Guarantees", PVLDB 12(12), 2019): a value v ≠ 0 is counted in bucket
// i = ceil(log_γ |v|) of its sign, γ = (1 + α)/(1 − α), and 0 in a bucket
// of its own. Quantile(q) then finds the bucket that holds the rank
// max(1, ceil(q·n)) value x (the same rank as in exact mode) and returns
// 2γ^i/(γ + 1) with x's sign (0 for the zero bucket), clamped to the least
// and greatest values added: |returned − x| <= α·|x|. Zero is exact; so
// are the least and greatest values (ranks 1 and n). Mean() is then the
// running sum over n (the same sum as in exact mode, kept all along).
//
// Deterministic: no randomness; the sketch's counts are sums, so merging
// summaries gives the same sketch (and the same quantiles) as adding all
// their values to one, in any order. Merging an exact summary keeps it
// exact while the total stays within its limit. Memory: exact mode 8 bytes
// a value; sketch mode one 8-byte count per bucket spanned,
// log(max|v| / min|v|) / log γ per sign (α = 0.001 over 1 ms .. 10^7 s:
// about 11,500 buckets, 92 KB), whatever the number of values.
//
// Both parameters are the run's model parameters `quantile_exact_limit` and
// `quantile_relative_accuracy` (docs/model.md §6.4).

#ifndef GPUSHARE_BASE_QUANTILE_SUMMARY_H_
#define GPUSHARE_BASE_QUANTILE_SUMMARY_H_

#include <cstdint>
#include <vector>

namespace gpushare {

// Above every example and bench scenario's largest count of values (a
// million pods' waits): those stay exact.
inline constexpr int64_t kDefaultQuantileExactLimit = 2'000'000;
// α: a quantile past the limit is within 0.1 % of the exact one.
inline constexpr double kDefaultQuantileRelativeAccuracy = 0.001;

struct QuantileOptions {
  int64_t exact_limit = kDefaultQuantileExactLimit;             // >= 0
  double relative_accuracy = kDefaultQuantileRelativeAccuracy;  // (0, 0.5]
};

class QuantileSummary {
 public:
  explicit QuantileSummary(QuantileOptions options = {});

  void Add(double value);
  // Adds `other`'s values; both must have the same relative accuracy.
  void Merge(const QuantileSummary& other);

  int64_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  // False once the summary turned into a sketch.
  bool exact() const { return exact_; }

  // The nearest-rank q-quantile, q in (0, 1] (see the contract above).
  // Not const in exact mode's sense of sorting: it sorts the kept values.
  double Quantile(double q);
  double Mean() const;

 private:
  // One sign's buckets: counts_[k] is bucket offset_ + k.
  struct Store {
    int32_t offset = 0;
    std::vector<int64_t> counts;
    void Add(int32_t index, int64_t n);
  };

  void ToSketch();
  void AddToSketch(double value, int64_t n);
  int32_t BucketIndex(double magnitude) const;
  double BucketValue(int32_t index) const;

  QuantileOptions options_;
  double gamma_;
  double log_gamma_;
  bool exact_ = true;
  int64_t count_ = 0;
  double sum_ = 0;
  double min_ = 0, max_ = 0;
  std::vector<double> values_;  // exact mode
  bool sorted_ = true;
  Store positive_, negative_;   // sketch mode
  int64_t zeros_ = 0;
};

}  // namespace gpushare

#endif  // GPUSHARE_BASE_QUANTILE_SUMMARY_H_
