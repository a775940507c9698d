#include "gpushare/catalog/mig_mix.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpushare/catalog/mig_config.h"

namespace gpushare {
namespace {

bool IsBaseMixProfile(const MigProfile& p) {
  return p.name.find_first_of("+-") == std::string::npos;
}

}  // namespace

int WholeGpuMigProfile(const GpuModel& model) {
  if (!model.mig) return -1;
  const MigGeometry& g = *model.mig;
  int best = -1;
  for (size_t i = 0; i < g.profiles.size(); ++i) {
    const MigProfile& p = g.profiles[i];
    if (p.compute_slices != g.compute_slices || !IsBaseMixProfile(p)) continue;
    if (best < 0 || p.memory_mib > g.profiles[best].memory_mib) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

std::vector<int> MigMixWholeGpuCounts(int gpus_per_node) {
  std::vector<int> out;
  if (gpus_per_node <= 4) {
    for (int k = 1; k < gpus_per_node; ++k) out.push_back(k);
    return out;
  }
  for (int k : {1, gpus_per_node / 4, gpus_per_node / 2,
                3 * gpus_per_node / 4}) {
    if (k >= 1 && k < gpus_per_node) out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<MigMix> MigMixes(const GpuModel& model, int gpus_per_node) {
  std::vector<MigMix> out;
  const int whole = WholeGpuMigProfile(model);
  if (whole < 0 || gpus_per_node < 2) return out;
  const std::vector<MigProfile>& profiles = model.mig->profiles;
  std::vector<NamedMigConfig> others;
  for (NamedMigConfig& c : NamedMigConfigs(model)) {
    bool usable = c.mig_enabled;
    int instances = 0;
    for (size_t i = 0; i < c.counts.size(); ++i) {
      instances += c.counts[i];
      if (c.counts[i] > 0 && profiles[i].media_extension()) usable = false;
    }
    const bool only_whole =
        instances == c.counts[whole] && c.counts[whole] > 0;
    if (usable && instances > 0 && !only_whole) others.push_back(std::move(c));
  }
  for (int k : MigMixWholeGpuCounts(gpus_per_node)) {
    for (const NamedMigConfig& c : others) {
      std::vector<std::string> items;
      for (size_t i = 0; i < c.counts.size(); ++i) {
        if (c.counts[i] > 0) {
          items.push_back(fmt::format("{}:{}", profiles[i].name, c.counts[i]));
        }
      }
      MigMix mix;
      mix.whole_gpus = k;
      mix.other_config = c.name;
      mix.layouts.assign(k, {profiles[whole].name});
      mix.layouts.resize(gpus_per_node, items);
      out.push_back(std::move(mix));
    }
  }
  return out;
}

}  // namespace gpushare
