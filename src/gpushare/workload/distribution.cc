#include "gpushare/workload/distribution.h"

#include <cmath>
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

}  // namespace

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
