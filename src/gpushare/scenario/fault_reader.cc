// The scenario's `faults:`: GPU failures at a time or at a rate per GPU
// hour, their recovery, resets and MIG re-creation.

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/io/suggest.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

std::vector<FaultSpec> ReadFaults(const YamlMap& top,
                                  const std::vector<NodePoolSpec>& pools) {
  std::vector<FaultSpec> faults;
  if (!top.Has("faults")) return faults;
  std::vector<std::string> pool_names;
  int64_t gpus = 0;
  for (const NodePoolSpec& p : pools) {
    pool_names.push_back(p.name);
    gpus += static_cast<int64_t>(p.nodes) * p.gpus_per_node;
  }
  for (const auto& node : List(top, "faults", false)) {
    YamlMap f(top.file(), node, "fault");
    f.AllowOnly({"pool", "at_s", "node", "gpu", "rate_per_gpu_hour",
                 "recovery_s", "reset", "mig_reapply_s"});
    FaultSpec spec;
    const NodePoolSpec* pool = nullptr;
    if (f.Has("pool")) {
      spec.pool = f.String("pool");
      for (const NodePoolSpec& p : pools) {
        if (p.name == spec.pool) pool = &p;
      }
      if (pool == nullptr) {
        FailAt(f.file(), f.Get("pool"),
               fmt::format("fault pool: unknown pool '{}'{} (pools: {})",
                           spec.pool, DidYouMean(spec.pool, pool_names, 1),
                           JoinNames(pool_names)));
      }
      if (pool->gpus_per_node == 0) {
        FailAt(f.file(), f.Get("pool"),
               "fault pool: pool '" + spec.pool + "' has no GPUs");
      }
      if (pool->sharing.mig_enabled && pool->sharing.mig.dynamic) {
        FailAt(f.file(), f.Get("pool"),
               "fault pool: pool '" + spec.pool +
                   "' has dynamic MIG (dra.dynamic_mig): GPU faults on it "
                   "are not modelled yet");
      }
    } else if (gpus == 0) {
      f.Fail(node, "no pool has GPUs to fail");
    }
    const bool at = f.Has("at_s");
    const bool rate = f.Has("rate_per_gpu_hour");
    if (!at && !rate) {
      f.Fail(node,
             "give at_s (one fault at that time) or rate_per_gpu_hour "
             "(faults at a rate)");
    }
    if (at && rate) {
      FailKey(f, "rate_per_gpu_hour",
              "give either at_s or rate_per_gpu_hour, not both");
    }
    if (at) spec.at_s = Number(f, "at_s", 0, kMaxSeconds);
    if (rate) {
      spec.rate_per_gpu_hour =
          Number(f, "rate_per_gpu_hour", 0, kMaxScenarioRate, true);
    }
    // node and gpu: indexes within the pool, for a fault at at_s.
    auto read_index = [&](const char* key, int count, int* index) {
      if (!f.Has(key)) return;
      if (!at) FailKey(f, key, "applies to a fault at at_s");
      if (pool == nullptr) FailKey(f, key, "needs pool");
      *index = static_cast<int>(f.Int(key, 0, count - 1));
    };
    read_index("node", pool == nullptr ? 0 : pool->nodes, &spec.node);
    read_index("gpu", pool == nullptr ? 0 : pool->gpus_per_node, &spec.gpu);
    if (f.Has("recovery_s")) {
      spec.recovery_s = Number(f, "recovery_s", 0, kMaxSeconds);
    }
    if (f.Has("reset")) spec.reset = f.Bool("reset");
    if (f.Has("mig_reapply_s")) {
      if (!spec.reset) {
        FailKey(f, "mig_reapply_s",
                "applies to a fault with reset: true (a GPU reset destroys "
                "the MIG layout that mig-manager then recreates)");
      }
      if (pool != nullptr && !pool->sharing.mig_enabled) {
        FailKey(f, "mig_reapply_s",
                "pool '" + spec.pool + "' does not use MIG");
      }
      spec.mig_reapply_s = Number(f, "mig_reapply_s", 0, kMaxSeconds);
    }
    faults.push_back(std::move(spec));
  }
  return faults;
}

}  // namespace scenario_internal
}  // namespace gpushare
