// The registry of scheduler plugins: one line per plugin.
//
// Contract: MakePlugin(name, ...) creates the plugin called `name` (kube-
// scheduler's name where there is one), configured from the profile; the
// object implements FilterPlugin and/or ScorePlugin. Unknown names throw
// InputError naming the closest known plugin. Adding a plugin is one file in
// sched/plugins/ and one line in plugin_registry.cc.

#ifndef GPUSHARE_SCHED_PLUGIN_REGISTRY_H_
#define GPUSHARE_SCHED_PLUGIN_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "gpushare/cluster/resources.h"
#include "gpushare/sched/framework.h"
#include "gpushare/sched/profile.h"

namespace gpushare {

std::unique_ptr<Plugin> MakePlugin(const std::string& name,
                                   const SchedulerProfile& profile,
                                   ResourceRegistry& resources);

// Names of the plugins that implement Filter / Score.
const std::vector<std::string>& FilterPluginNames();
const std::vector<std::string>& ScorePluginNames();

}  // namespace gpushare

#endif  // GPUSHARE_SCHED_PLUGIN_REGISTRY_H_
