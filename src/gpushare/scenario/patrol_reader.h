// Readers of a scenario's patrol sections (format: docs/scenario.md):
// `device_plugin_stalls` (injected device-plugin outages) and `patrol` (the
// patrol alerts' thresholds).
//
// Contract: each reads its key of the scenario's top-level mapping (absent:
// none / the defaults) and throws InputError at file:line:col on an unknown
// key, a wrong type, an unknown pool, a pool without GPUs, a node index out
// of the pool or a number out of range.

#ifndef GPUSHARE_SCENARIO_PATROL_READER_H_
#define GPUSHARE_SCENARIO_PATROL_READER_H_

#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario.h"

namespace gpushare {

std::vector<DevicePluginStallSpec> ReadDevicePluginStalls(
    const YamlMap& top, const std::vector<NodePoolSpec>& pools);

PatrolRules ReadPatrolRules(const YamlMap& top);

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_PATROL_READER_H_
