// CheckRequestsServed() (scenario_sections.h): a class's hand-written
// extended resources against what the device plugins of the pools its pods
// may land on advertise (cluster/pool_resources.h).

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpushare/cluster/pool_resources.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/suggest.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

bool ClassMayLandOn(const WorkloadClassSpec& spec, const NodePoolSpec& pool) {
  const auto it = spec.node_selector.find(kNodePoolLabel);
  if (it != spec.node_selector.end() && it->second != pool.name) return false;
  for (const Taint& taint : pool.taints) {
    if (taint.effect == TaintEffect::kPreferNoSchedule) continue;
    if (std::none_of(spec.tolerations.begin(), spec.tolerations.end(),
                     [&](const Toleration& t) { return t.Tolerates(taint); })) {
      return false;
    }
  }
  return true;
}

namespace {

struct PoolAdvertisement {
  const NodePoolSpec* pool = nullptr;
  std::vector<std::string> resources;
  bool reachable = false;
};

std::string DescribeAdvertisement(const PoolAdvertisement& p) {
  return fmt::format("{} ({}): {}", p.pool->name, PoolSharingLabel(*p.pool, nullptr),
                     p.resources.empty() ? std::string("no GPU resources")
                                         : JoinNames(p.resources));
}

}  // namespace

void CheckRequestsServed(const YamlMap& c, const WorkloadClassSpec& spec,
                         const std::vector<NodePoolSpec>& pools,
                         const Catalog& catalog) {
  if (spec.requests.empty() || !c.Has("requests")) return;
  std::vector<PoolAdvertisement> serves;
  bool any_reachable = false;
  for (const NodePoolSpec& pool : pools) {
    PoolAdvertisement s;
    s.pool = &pool;
    if (pool.gpus_per_node > 0 && !pool.gpu_model.empty()) {
      s.resources = PoolExtendedResources(pool, catalog.Get(pool.gpu_model));
    }
    s.reachable = ClassMayLandOn(spec, pool);
    any_reachable = any_reachable || s.reachable;
    serves.push_back(std::move(s));
  }
  // A class no pool can hold at all is another problem (its pods are
  // unschedulable whatever they ask for), reported by the run.
  if (!any_reachable) return;
  const YamlMap requests = c.Map("requests", Label(c, "requests"));
  for (const auto& entry : requests.node()) {
    const std::string name = entry.first.Scalar();
    const auto advertises = [&](const PoolAdvertisement& p) {
      return std::find(p.resources.begin(), p.resources.end(), name) !=
             p.resources.end();
    };
    if (std::any_of(serves.begin(), serves.end(),
                    [&](const PoolAdvertisement& p) {
                      return p.reachable && advertises(p);
                    })) {
      continue;
    }
    std::vector<std::string> reachable;
    std::vector<std::string> elsewhere;
    for (const PoolAdvertisement& p : serves) {
      if (p.reachable) reachable.push_back(DescribeAdvertisement(p));
      if (!p.reachable && advertises(p)) elsewhere.push_back(p.pool->name);
    }
    std::string message = fmt::format(
        "{}: no pool the class's pods may land on advertises {}, so every "
        "pod would stay Pending (pools: {})",
        Label(c, "requests"), name, JoinNames(reachable, "; "));
    if (!elsewhere.empty()) {
      message += fmt::format(
          "; {} advertise{} it, but the class's node_selector or tolerations "
          "keep its pods off",
          JoinNames(elsewhere), elsewhere.size() == 1 ? "s" : "");
    } else {
      message +=
          "; request what the pools' device plugins advertise (docs/model.md "
          "§2), or leave requests out to have them translated from the "
          "class's needs";
    }
    FailAt(c.file(), entry.first, message);
  }
}

}  // namespace scenario_internal
}  // namespace gpushare
