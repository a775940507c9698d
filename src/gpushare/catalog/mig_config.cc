#include "gpushare/catalog/mig_config.h"

#include <algorithm>

#include "gpushare/io/check.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"

namespace gpushare {
namespace {

// A profile without a media or graphics suffix: "2g.20gb", not "1g.10gb+me".
bool IsBaseProfile(const MigProfile& p) {
  return p.name.find_first_of("+-") == std::string::npos;
}

// The base profile with `g` compute slices and the highest max count, or -1.
int BalancedProfile(const MigGeometry& geometry, int g) {
  int best = -1;
  for (size_t i = 0; i < geometry.profiles.size(); ++i) {
    const MigProfile& p = geometry.profiles[i];
    if (p.compute_slices != g || !IsBaseProfile(p)) continue;
    if (best < 0 || p.max_count > geometry.profiles[best].max_count) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

NamedMigConfig Build(const GpuModel& model, std::string name, bool enabled,
                     std::vector<int> counts) {
  NamedMigConfig config{std::move(name), enabled, std::move(counts), {}};
  std::vector<int> free;
  for (size_t i = 0; i < config.counts.size(); ++i) {
    free.insert(free.end(), config.counts[i], static_cast<int>(i));
  }
  std::string why_not;
  auto layout = PlaceMigProfiles(model, {}, free, &why_not);
  GS_CHECK(layout.has_value(), why_not.c_str());
  config.layout = *layout;
  return config;
}

}  // namespace

std::vector<NamedMigConfig> NamedMigConfigs(const GpuModel& model) {
  std::vector<NamedMigConfig> configs;
  if (!model.mig) return configs;
  const MigGeometry& g = *model.mig;
  const std::vector<int> none(g.profiles.size(), 0);
  configs.push_back(Build(model, "all-disabled", false, none));
  configs.push_back(Build(model, "all-enabled", true, none));
  for (size_t i = 0; i < g.profiles.size(); ++i) {
    std::string name = "all-" + g.profiles[i].name;
    std::replace(name.begin(), name.end(), '+', '.');
    std::vector<int> counts = none;
    counts[i] = g.profiles[i].max_count;
    configs.push_back(Build(model, std::move(name), true, std::move(counts)));
  }
  std::vector<int> balanced = none;
  const std::vector<std::pair<int, int>> recipe =
      g.compute_slices >= 7
          ? std::vector<std::pair<int, int>>{{1, 2}, {2, 1}, {3, 1}}
          : std::vector<std::pair<int, int>>{{1, 2}, {2, 1}};
  for (auto [slices, count] : recipe) {
    const int profile = BalancedProfile(g, slices);
    if (profile >= 0) balanced[profile] = count;
  }
  configs.push_back(Build(model, "all-balanced", true, std::move(balanced)));
  return configs;
}

NamedMigConfig FindNamedMigConfig(const GpuModel& model,
                                  const std::string& name) {
  model.RequireMig();
  std::vector<NamedMigConfig> configs = NamedMigConfigs(model);
  std::vector<std::string> names;
  for (NamedMigConfig& c : configs) {
    if (c.name == name) return std::move(c);
    names.push_back(c.name);
  }
  throw InputError("unknown MIG config '" + name + "' for " + model.name +
                   DidYouMean(name, names) + " (configs: " + JoinNames(names) +
                   ")");
}

}  // namespace gpushare
