// Distribution: a random variable of the workload generator.
//
// Contract: Sample() draws one value from the seeded Rng (never from global
// state), so the same seed gives the same workload. Kinds: constant
// (value), uniform [min, max), exponential (mean), lognormal (median and
// sigma of the log, optionally clamped to [min, max]), and choice (values
// with weights). Scaled() multiplies a distribution's values (a unit
// conversion). Validate() throws InputError naming `what` when a parameter
// is out of range (negative mean, min > max, weights all zero, ...), with
// the range: every parameter is finite, an exponential mean and a lognormal
// median are in (0, kMaxDistributionScale], a lognormal sigma in
// 0..kMaxLogNormalSigma and a uniform range's width finite. Every draw of a
// valid distribution is then finite (a standard normal draw is within
// +-8.6, so a lognormal's is below 1e12 * e^86 < 1e50), and the workload
// generator clamps draws to the field's upper bound (generator.h).

#ifndef GPUSHARE_WORKLOAD_DISTRIBUTION_H_
#define GPUSHARE_WORKLOAD_DISTRIBUTION_H_

#include <string>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"

namespace gpushare {

// The largest exponential mean and lognormal median (far above any field's
// bound, docs/scenario.md; the generator checks those).
inline constexpr double kMaxDistributionScale = 1e12;
// The largest lognormal sigma: e^10 is a factor of 22,000 per standard
// deviation; sigma 40 or 1e300 would draw values no run can finish.
inline constexpr double kMaxLogNormalSigma = 10;

struct Distribution {
  enum class Kind { kConstant, kUniform, kExponential, kLogNormal, kChoice };
  Kind kind = Kind::kConstant;
  double value = 0;    // constant
  double min = 0;      // uniform; lognormal clamp (if max > min)
  double max = 0;      // uniform; lognormal clamp
  double mean = 0;     // exponential
  double median = 0;   // lognormal
  double sigma = 0;    // lognormal: standard deviation of ln(x)
  std::vector<std::pair<double, double>> choices;  // (value, weight)

  static Distribution Constant(double v);
  static Distribution Uniform(double lo, double hi);
  static Distribution Exponential(double mean);
  static Distribution LogNormal(double median, double sigma, double lo = 0,
                                double hi = 0);
  static Distribution Choice(std::vector<std::pair<double, double>> choices);

  double Sample(Rng& rng) const;
  // The p-quantile (0 < p <= 1) of the values Sample() draws: the least v
  // with P(sample <= v) >= p — value; min + p (max - min); -mean ln(1 - p);
  // median e^(sigma z_p) clamped to [min, max] when max > min; a choice's
  // least value whose cumulative weight reaches p. Exact up to the inverse
  // normal CDF (about 1e-15 relative); +infinity for p = 1 of an exponential
  // or an unclamped lognormal with sigma > 0. Needs no Rng: the same for
  // every seed and sample size.
  double Quantile(double p) const;
  // The distribution of `factor` x this one's samples (factor > 0): every
  // value, bound, mean and median multiplied; weights and sigma kept.
  Distribution Scaled(double factor) const;
  // Throws InputError("<what>: ...") when invalid.
  void Validate(const std::string& what) const;
};

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_DISTRIBUTION_H_
