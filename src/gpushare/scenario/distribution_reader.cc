// The distributions of workload class fields (constant, uniform,
// exponential, lognormal, choice), each parameter within its range.

#include <fmt/format.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"
#include "gpushare/workload/distribution.h"

namespace gpushare {
namespace scenario_internal {

namespace {

const std::vector<std::string>& DistributionKinds() {
  static const std::vector<std::string> kinds = {
      "constant", "uniform", "exponential", "lognormal", "choice"};
  return kinds;
}

Distribution ReadDistributionNode(const std::string& file,
                                  const YAML::Node& node,
                                  const std::string& label) {
  Distribution d;
  if (node.IsScalar()) {
    d = Distribution::Constant(
        ScalarDouble(file, node, label, kLowest, kHighest));
  } else if (node.IsMap()) {
    YamlMap m(file, node, label);
    m.AllowOnly({"constant", "uniform", "exponential", "lognormal", "choice"});
    if (node.size() != 1) {
      std::vector<std::string> keys;
      YAML::Node second = node;
      for (const auto& entry : node) {
        keys.push_back(entry.first.Scalar());
        if (keys.size() == 2) second.reset(entry.first);
      }
      FailAt(file, second,
             fmt::format("{}: expected exactly one of {}, got {}", label,
                         JoinNames(DistributionKinds()),
                         keys.empty() ? "none" : JoinNames(keys, " and ")));
    }
    const std::string kind = node.begin()->first.Scalar();
    if (kind == "constant") {
      d = Distribution::Constant(Number(m, "constant", kLowest, kHighest));
    } else if (kind == "exponential") {
      d = Distribution::Exponential(
          Number(m, "exponential", 0, kMaxDistributionScale, true));
    } else if (kind == "uniform") {
      YAML::Node bounds = List(m, "uniform", false);
      if (bounds.size() != 2) {
        FailAt(file, bounds,
               fmt::format("{} uniform: expected [min, max], got {} values",
                           label, bounds.size()));
      }
      const std::string what = label + " uniform";
      d = Distribution::Uniform(
          ScalarDouble(file, bounds[0], what, kLowest, kHighest),
          ScalarDouble(file, bounds[1], what, kLowest, kHighest));
    } else if (kind == "lognormal") {
      YamlMap p = m.Map("lognormal", label + " lognormal");
      p.AllowOnly({"median", "sigma", "min", "max"});
      const double median = Number(p, "median", 0, kMaxDistributionScale, true);
      const double sigma = Number(p, "sigma", 0, kMaxLogNormalSigma);
      double lo = 0;
      double hi = 0;
      if (p.Has("min")) {
        if (!p.Has("max")) {
          FailKey(p, "min", "needs max (samples are clamped to [min, max])");
        }
        lo = Number(p, "min", kLowest, kHighest);
      }
      if (p.Has("max")) hi = Number(p, "max", kLowest, kHighest);
      d = Distribution::LogNormal(median, sigma, lo, hi);
    } else {  // choice
      const std::string what = label + " choice";
      std::vector<std::pair<double, double>> choices;
      for (const auto& item : List(m, "choice", true)) {
        if (item.IsScalar()) {
          choices.emplace_back(
              ScalarDouble(file, item, what, kLowest, kHighest), 1.0);
          continue;
        }
        if (!item.IsSequence() || item.size() != 2) {
          FailAt(file, item,
                 what + ": expected a value or [value, weight], got " +
                     DescribeYamlNode(item));
        }
        choices.emplace_back(
            ScalarDouble(file, item[0], what + " value", kLowest, kHighest),
            ScalarDouble(file, item[1], what + " weight", kLowest, kHighest));
      }
      d = Distribution::Choice(std::move(choices));
    }
  } else {
    FailAt(file, node,
           label + ": expected a number or a distribution (" +
               JoinNames(DistributionKinds()) + "), got " +
               DescribeYamlNode(node));
  }
  try {
    d.Validate(label);
  } catch (const InputError& e) {
    FailAt(file, node, e.message());
  }
  return d;
}

}  // namespace

void ReadDistribution(const YamlMap& m, std::string_view key,
                      Distribution* out) {
  if (!m.Has(key)) return;
  *out = ReadDistributionNode(
      m.file(), Value(m, key, "a number or a distribution"), Label(m, key));
}

}  // namespace scenario_internal
}  // namespace gpushare
