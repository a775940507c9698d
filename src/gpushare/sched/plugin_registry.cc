#include "gpushare/sched/plugin_registry.h"

#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/sched/plugins/gpu_device_fit.h"
#include "gpushare/sched/plugins/hami_node_policy.h"
#include "gpushare/sched/plugins/node_affinity.h"
#include "gpushare/sched/plugins/node_resources_balanced_allocation.h"
#include "gpushare/sched/plugins/node_resources_fit.h"
#include "gpushare/sched/plugins/taint_toleration.h"

namespace gpushare {
namespace {

const std::vector<std::string>& AllPluginNames() {
  static const std::vector<std::string> names = {
      std::string(NodeResourcesFit::kName),
      std::string(NodeResourcesBalancedAllocation::kName),
      std::string(NodeAffinity::kName),
      std::string(TaintToleration::kName),
      std::string(GpuDeviceFit::kName),
      std::string(HamiNodePolicy::kName)};
  return names;
}

}  // namespace

std::unique_ptr<Plugin> MakePlugin(const std::string& name,
                                   const SchedulerProfile& profile,
                                   ResourceRegistry& resources) {
  if (name == NodeResourcesFit::kName) {
    return std::make_unique<NodeResourcesFit>(profile.scoring_strategy,
                                              resources);
  }
  if (name == NodeResourcesBalancedAllocation::kName) {
    return std::make_unique<NodeResourcesBalancedAllocation>();
  }
  if (name == NodeAffinity::kName) return std::make_unique<NodeAffinity>();
  if (name == TaintToleration::kName) {
    return std::make_unique<TaintToleration>();
  }
  if (name == GpuDeviceFit::kName) {
    return std::make_unique<GpuDeviceFit>(resources);
  }
  if (name == HamiNodePolicy::kName) {
    return std::make_unique<HamiNodePolicy>(resources);
  }
  throw InputError("unknown scheduler plugin '" + name + "'" +
                   DidYouMean(name, AllPluginNames(), 1));
}

const std::vector<std::string>& FilterPluginNames() {
  static const std::vector<std::string> names = {
      std::string(TaintToleration::kName), std::string(NodeAffinity::kName),
      std::string(NodeResourcesFit::kName), std::string(GpuDeviceFit::kName)};
  return names;
}

const std::vector<std::string>& ScorePluginNames() {
  static const std::vector<std::string> names = {
      std::string(TaintToleration::kName), std::string(NodeAffinity::kName),
      std::string(NodeResourcesFit::kName),
      std::string(NodeResourcesBalancedAllocation::kName),
      std::string(HamiNodePolicy::kName)};
  return names;
}

}  // namespace gpushare
