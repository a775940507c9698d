// ScoreDivisor: the quotients of many int64 numerators by one divisor, each
// exactly what C++'s `numerator / divisor` gives (truncation toward zero),
// without a hardware division per quotient.
//
// Score normalization (kube's DefaultNormalizeScore, HAMi's node policy)
// divides every feasible node's `kMaxNodeScore * score` by the largest
// score: hundreds of 64-bit divisions per scheduling cycle. Here each
// quotient is estimated by a multiplication with the divisor's reciprocal
// and corrected by one compare. For 0 <= numerator < 2^52 and
// 0 < divisor < 2^52 the estimate is within one of the quotient (the
// reciprocal and the product each round by at most 2^-53 relatively, so the
// estimate is off by less than quotient * 2^-52 < 1), and the correction
// makes it exact; outside those ranges Divide() divides.
//
// Contract: divisor > 0.

#ifndef GPUSHARE_SCHED_SCORE_DIVISOR_H_
#define GPUSHARE_SCHED_SCORE_DIVISOR_H_

#include <cstdint>

namespace gpushare {

class ScoreDivisor {
 public:
  explicit ScoreDivisor(int64_t divisor)
      : divisor_(divisor),
        inverse_(1.0 / static_cast<double>(divisor)),
        fast_(divisor < kExactBelow) {}

  int64_t Divide(int64_t numerator) const {
    if (!fast_ || numerator < 0 || numerator >= kExactBelow) {
      return numerator / divisor_;
    }
    int64_t q = static_cast<int64_t>(static_cast<double>(numerator) * inverse_);
    const int64_t rest = numerator - q * divisor_;
    if (rest < 0) {
      --q;
    } else if (rest >= divisor_) {
      ++q;
    }
    return q;
  }

 private:
  static constexpr int64_t kExactBelow = int64_t{1} << 52;

  int64_t divisor_;
  double inverse_;
  bool fast_;
};

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_SCORE_DIVISOR_H_
