#include "gpushare/workload/distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

[[noreturn]] void Fail(const std::string& what, const std::string& reason) {
  throw InputError(what + ": " + reason);
}

void CheckFinite(const std::string& what, const char* kind, const char* field,
                 double v) {
  if (!std::isfinite(v)) {
    Fail(what, fmt::format("{} {} must be finite, got {}", kind, field, v));
  }
}

// A standard normal deviate from exactly two uniform draws (Box–Muller,
// cosine branch; the sine branch is never cached so that every sample
// consumes the same number of draws).
double StandardNormal(Rng& rng) {
  const double u1 = rng.Uniform01();
  const double u2 = rng.Uniform01();
  // 1 - u1 is in (0, 1], so the logarithm is finite.
  const double radius = std::sqrt(-2.0 * std::log(1.0 - u1));
  return radius * std::cos(2.0 * std::numbers::pi * u2);
}

// The standard normal quantile z_p, 0 < p < 1: Acklam's rational
// approximation (relative error 1.15e-9) refined by one Halley step on
// erfc, which brings it to about machine precision.
double StandardNormalQuantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double kLow = 0.02425;
  double x = 0;
  if (p < kLow) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - kLow) {
    const double q = p - 0.5;
    const double r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) *
        q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q +
          c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = 0.5 * std::erfc(-x / std::numbers::sqrt2) - p;
  const double u =
      e * std::sqrt(2 * std::numbers::pi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

}  // namespace

double Distribution::Quantile(double p) const {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  switch (kind) {
    case Kind::kConstant:
      return value;
    case Kind::kUniform:
      return min + (max - min) * p;
    case Kind::kExponential:
      return p >= 1 ? kInf : -mean * std::log(1.0 - p);
    case Kind::kLogNormal: {
      double x = sigma == 0 ? median
                 : p >= 1   ? kInf
                            : median * std::exp(sigma * StandardNormalQuantile(p));
      if (max > min) x = std::clamp(x, min, max);
      return x;
    }
    case Kind::kChoice: {
      std::vector<std::pair<double, double>> sorted;
      double total = 0;
      for (const auto& [v, w] : choices) {
        if (w <= 0) continue;
        sorted.emplace_back(v, w);
        total += w;
      }
      std::sort(sorted.begin(), sorted.end());
      double cumulative = 0;
      for (const auto& [v, w] : sorted) {
        cumulative += w;
        if (cumulative >= p * total * (1 - 1e-12)) return v;
      }
      return sorted.empty() ? 0.0 : sorted.back().first;
    }
  }
  return 0;
}

Distribution Distribution::Constant(double v) {
  Distribution d;
  d.kind = Kind::kConstant;
  d.value = v;
  return d;
}

Distribution Distribution::Uniform(double lo, double hi) {
  Distribution d;
  d.kind = Kind::kUniform;
  d.min = lo;
  d.max = hi;
  return d;
}

Distribution Distribution::Exponential(double mean) {
  Distribution d;
  d.kind = Kind::kExponential;
  d.mean = mean;
  return d;
}

Distribution Distribution::LogNormal(double median, double sigma, double lo,
                                     double hi) {
  Distribution d;
  d.kind = Kind::kLogNormal;
  d.median = median;
  d.sigma = sigma;
  d.min = lo;
  d.max = hi;
  return d;
}

Distribution Distribution::Choice(
    std::vector<std::pair<double, double>> choices) {
  Distribution d;
  d.kind = Kind::kChoice;
  d.choices = std::move(choices);
  return d;
}

Distribution Distribution::Scaled(double factor) const {
  Distribution d = *this;
  d.value *= factor;
  d.min *= factor;
  d.max *= factor;
  d.mean *= factor;
  d.median *= factor;
  for (auto& [v, w] : d.choices) v *= factor;
  return d;
}

double Distribution::Sample(Rng& rng) const {
  switch (kind) {
    case Kind::kConstant:
      return value;
    case Kind::kUniform:
      return min + (max - min) * rng.Uniform01();
    case Kind::kExponential:
      return -mean * std::log(1.0 - rng.Uniform01());
    case Kind::kLogNormal: {
      double x = median * std::exp(sigma * StandardNormal(rng));
      if (max > min) {
        if (x < min) x = min;
        if (x > max) x = max;
      }
      return x;
    }
    case Kind::kChoice: {
      double total = 0;
      for (const auto& [v, w] : choices) total += w;
      const double u = rng.Uniform01() * total;
      double cumulative = 0;
      const std::pair<double, double>* last_positive = nullptr;
      for (const auto& choice : choices) {
        if (choice.second <= 0) continue;
        cumulative += choice.second;
        last_positive = &choice;
        if (u < cumulative) return choice.first;
      }
      // Only reached through rounding of the cumulative sum (or on an
      // invalid, all-zero distribution).
      return last_positive != nullptr ? last_positive->first : 0.0;
    }
  }
  return 0;
}

void Distribution::Validate(const std::string& what) const {
  switch (kind) {
    case Kind::kConstant:
      CheckFinite(what, "constant", "value", value);
      return;
    case Kind::kUniform:
      CheckFinite(what, "uniform", "min", min);
      CheckFinite(what, "uniform", "max", max);
      if (min > max) {
        Fail(what, fmt::format("uniform min {} > max {}", min, max));
      }
      if (!std::isfinite(max - min)) {
        Fail(what, fmt::format("uniform range [{}, {}] is too wide (its "
                               "width must be finite)",
                               min, max));
      }
      return;
    case Kind::kExponential:
      CheckFinite(what, "exponential", "mean", mean);
      if (!(mean > 0 && mean <= kMaxDistributionScale)) {
        Fail(what, fmt::format("exponential mean must be in (0, 1e12], got {}",
                               mean));
      }
      return;
    case Kind::kLogNormal:
      CheckFinite(what, "lognormal", "median", median);
      CheckFinite(what, "lognormal", "sigma", sigma);
      CheckFinite(what, "lognormal", "min", min);
      CheckFinite(what, "lognormal", "max", max);
      if (!(median > 0 && median <= kMaxDistributionScale)) {
        Fail(what, fmt::format("lognormal median must be in (0, 1e12], got {}",
                               median));
      }
      if (!(sigma >= 0 && sigma <= kMaxLogNormalSigma)) {
        Fail(what, fmt::format("lognormal sigma must be in 0..{}, got {}",
                               kMaxLogNormalSigma, sigma));
      }
      if (min > max) {
        Fail(what, fmt::format("lognormal clamp min {} > max {}", min, max));
      }
      return;
    case Kind::kChoice: {
      if (choices.empty()) Fail(what, "choice has no values");
      bool any_positive = false;
      for (const auto& [v, w] : choices) {
        CheckFinite(what, "choice", "value", v);
        CheckFinite(what, "choice", "weight", w);
        if (w < 0) {
          Fail(what,
               fmt::format("choice weight {} of value {} is negative", w, v));
        }
        if (w > 0) any_positive = true;
      }
      if (!any_positive) Fail(what, "choice weights are all 0");
      return;
    }
  }
  Fail(what, "unknown distribution kind");
}

}  // namespace gpushare
