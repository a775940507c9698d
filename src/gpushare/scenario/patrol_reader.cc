#include "gpushare/scenario/patrol_reader.h"

#include <string>

#include <fmt/format.h>

#include "gpushare/base/lifetimebound.h"
#include "gpushare/io/suggest.h"

namespace gpushare {
namespace {

constexpr double kMaxPatrolSeconds = 1e9;  // as the rest of the scenario

// The pool named by `m`'s `pool` key; it must exist and have GPUs.
const NodePoolSpec& StallPool(
    const YamlMap& m, const std::vector<NodePoolSpec>& pools GS_LIFETIMEBOUND) {
  const std::string name = m.String("pool");
  std::vector<std::string> names;
  for (const NodePoolSpec& p : pools) {
    if (p.name == name) {
      if (p.gpus_per_node == 0) {
        m.Fail(m.Get("pool"), "pool '" + name + "' has no GPUs");
      }
      return p;
    }
    names.push_back(p.name);
  }
  m.Fail(m.Get("pool"),
         fmt::format("unknown pool '{}'{} (pools: {})", name,
                     DidYouMean(name, names, 1), JoinNames(names)));
}

}  // namespace

std::vector<DevicePluginStallSpec> ReadDevicePluginStalls(
    const YamlMap& top, const std::vector<NodePoolSpec>& pools) {
  std::vector<DevicePluginStallSpec> stalls;
  if (!top.Has("device_plugin_stalls")) return stalls;
  const YAML::Node list = top.Get("device_plugin_stalls");
  if (!list.IsSequence()) {
    top.Fail(list, "device_plugin_stalls: expected a list, got " +
                       DescribeYamlNode(list));
  }
  for (const YAML::Node& item : list) {
    YamlMap m(top.file(), item, "device plugin stall");
    m.AllowOnly({"pool", "node", "at_s", "duration_s"});
    DevicePluginStallSpec spec;
    const NodePoolSpec& pool = StallPool(m, pools);
    spec.pool = pool.name;
    spec.node = static_cast<int>(m.Int("node", 0, pool.nodes - 1));
    spec.at_s = m.Double("at_s", 0, kMaxPatrolSeconds);
    if (m.Has("duration_s")) {
      spec.duration_s = m.Double("duration_s", 0, kMaxPatrolSeconds);
      if (spec.duration_s == 0) {
        m.Fail(m.Get("duration_s"),
               "duration_s: must be > 0 (leave it out for a stall that lasts "
               "to the end of the run)");
      }
    }
    stalls.push_back(spec);
  }
  return stalls;
}

PatrolRules ReadPatrolRules(const YamlMap& top) {
  PatrolRules rules;
  if (!top.Has("patrol")) return rules;
  const YamlMap m = top.Map("patrol", "patrol");
  m.AllowOnly({"for_s", "noisy_neighbour_share"});
  if (m.Has("for_s")) rules.for_s = m.Double("for_s", 0, kMaxPatrolSeconds);
  if (m.Has("noisy_neighbour_share")) {
    rules.noisy_neighbour_share = m.Double("noisy_neighbour_share", 0, 1);
    if (rules.noisy_neighbour_share >= 1) {
      m.Fail(m.Get("noisy_neighbour_share"),
             "noisy_neighbour_share: must be below 1 (a pod never holds more "
             "than the whole device)");
    }
  }
  return rules;
}

}  // namespace gpushare
