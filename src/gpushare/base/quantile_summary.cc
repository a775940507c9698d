#include "gpushare/base/quantile_summary.h"

#include <algorithm>
#include <cmath>

namespace gpushare {

QuantileSummary::QuantileSummary(QuantileOptions options)
    : options_(options),
      gamma_((1 + options.relative_accuracy) /
             (1 - options.relative_accuracy)),
      log_gamma_(std::log(gamma_)) {}

void QuantileSummary::Store::Add(int32_t index, int64_t n) {
  if (counts.empty()) {
    offset = index;
    counts.assign(1, 0);
  } else if (index < offset) {
    counts.insert(counts.begin(), static_cast<size_t>(offset - index), 0);
    offset = index;
  } else if (index - offset >= static_cast<int32_t>(counts.size())) {
    counts.resize(static_cast<size_t>(index - offset) + 1, 0);
  }
  counts[static_cast<size_t>(index - offset)] += n;
}

int32_t QuantileSummary::BucketIndex(double magnitude) const {
  return static_cast<int32_t>(std::ceil(std::log(magnitude) / log_gamma_));
}

double QuantileSummary::BucketValue(int32_t index) const {
  return 2 * std::exp(index * log_gamma_) / (gamma_ + 1);
}

void QuantileSummary::AddToSketch(double value, int64_t n) {
  if (value > 0) {
    positive_.Add(BucketIndex(value), n);
  } else if (value < 0) {
    negative_.Add(BucketIndex(-value), n);
  } else {
    zeros_ += n;
  }
}

void QuantileSummary::ToSketch() {
  if (!exact_) return;
  exact_ = false;
  for (double v : values_) AddToSketch(v, 1);
  std::vector<double>().swap(values_);
}

void QuantileSummary::Add(double value) {
  if (count_ == 0) {
    min_ = max_ = value;
  } else {
    min_ = std::min(min_, value);
    max_ = std::max(max_, value);
  }
  ++count_;
  sum_ += value;
  if (exact_ && count_ > options_.exact_limit) ToSketch();
  if (exact_) {
    sorted_ = sorted_ && (values_.empty() || values_.back() <= value);
    values_.push_back(value);
  } else {
    AddToSketch(value, 1);
  }
}

void QuantileSummary::Merge(const QuantileSummary& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    min_ = other.min_;
    max_ = other.max_;
  } else {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
  }
  count_ += other.count_;
  sum_ += other.sum_;
  if (exact_ && (!other.exact_ || count_ > options_.exact_limit)) ToSketch();
  if (exact_) {
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    sorted_ = false;
    return;
  }
  if (other.exact_) {
    for (double v : other.values_) AddToSketch(v, 1);
    return;
  }
  zeros_ += other.zeros_;
  for (size_t k = 0; k < other.positive_.counts.size(); ++k) {
    if (other.positive_.counts[k] == 0) continue;
    positive_.Add(other.positive_.offset + static_cast<int32_t>(k),
                  other.positive_.counts[k]);
  }
  for (size_t k = 0; k < other.negative_.counts.size(); ++k) {
    if (other.negative_.counts[k] == 0) continue;
    negative_.Add(other.negative_.offset + static_cast<int32_t>(k),
                  other.negative_.counts[k]);
  }
}

double QuantileSummary::Quantile(double q) {
  if (count_ == 0) return 0;
  const int64_t rank = std::min<int64_t>(
      count_, std::max<int64_t>(
                  1, static_cast<int64_t>(
                         std::ceil(q * static_cast<double>(count_)))));
  if (exact_) {
    if (!sorted_) {
      std::sort(values_.begin(), values_.end());
      sorted_ = true;
    }
    return values_[static_cast<size_t>(rank - 1)];
  }
  if (rank == 1) return min_;
  if (rank == count_) return max_;
  int64_t seen = 0;
  double estimate = 0;
  bool found = false;
  // Most negative first: the negative store's highest index.
  for (size_t k = negative_.counts.size(); k-- > 0 && !found;) {
    seen += negative_.counts[k];
    if (seen >= rank) {
      estimate = -BucketValue(negative_.offset + static_cast<int32_t>(k));
      found = true;
    }
  }
  if (!found) {
    seen += zeros_;
    if (seen >= rank) found = true;  // estimate 0: exact
  }
  for (size_t k = 0; k < positive_.counts.size() && !found; ++k) {
    seen += positive_.counts[k];
    if (seen >= rank) {
      estimate = BucketValue(positive_.offset + static_cast<int32_t>(k));
      found = true;
    }
  }
  return std::clamp(estimate, min_, max_);
}

double QuantileSummary::Mean() const {
  return count_ == 0 ? 0 : sum_ / static_cast<double>(count_);
}

}  // namespace gpushare
