// ReadDraClaim() (scenario_sections.h): a tenant class's shared
// ResourceClaims (`dra_claim: {pods_per_claim: K}`), checked against the pool
// its pods go to.

#include <fmt/format.h>

#include <string>
#include <vector>

#include "gpushare/cluster/dra/claim_reservations.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

void ReadDraClaim(const YamlMap& c, const std::vector<NodePoolSpec>& pools,
                  WorkloadClassSpec* spec) {
  if (!c.Has("dra_claim")) return;
  const std::string label = Label(c, "dra_claim");
  YamlMap m = c.Map("dra_claim", label);
  m.AllowOnly({"pods_per_claim"});
  if (!m.Has("pods_per_claim")) {
    FailAt(c.file(), c.Get("dra_claim"),
           label + ": give pods_per_claim, the pods that share one "
                   "ResourceClaim (1..256), e.g. {pods_per_claim: 4}");
  }
  spec->pods_per_claim = static_cast<int>(
      m.Int("pods_per_claim", 1,
            static_cast<int64_t>(kResourceClaimReservedForMaxSize)));
  // The pool its pods go to: the first they may land on (TargetPool).
  const NodePoolSpec* target = nullptr;
  for (const NodePoolSpec& pool : pools) {
    if (ClassMayLandOn(*spec, pool)) {
      target = &pool;
      break;
    }
  }
  const auto fail = [&](const std::string& why) {
    FailAt(c.file(), c.Get("dra_claim"), label + ": " + why);
  };
  if (!(spec->gpus.Quantile(1e-9) > 0)) {
    fail(fmt::format("the class's pods ask no GPU (gpus can be {}): a shared "
                     "ResourceClaim holds GPUs; give gpus > 0 or drop "
                     "dra_claim",
                     MessageNum(spec->gpus.Quantile(1e-9))));
  }
  if (target == nullptr || target->devices != PoolDevices::kDra ||
      target->gpus_per_node == 0) {
    fail(fmt::format(
        "the class's pods go to {}, which is no `devices: dra` pool with "
        "GPUs; ResourceClaims are DRA's (route the class to a DRA pool with "
        "node_selector gpushare.io/node-pool, or drop dra_claim)",
        target == nullptr ? std::string("no pool")
                          : "pool '" + target->name + "'"));
  }
  if (target->dra.extended_resource) {
    fail("pool '" + target->name +
         "' has dra.extended_resource: true: its pods ask nvidia.com/gpu "
         "(KEP-5004) and the scheduler makes a claim per pod; such a pod "
         "cannot name a shared ResourceClaim");
  }
  if (spec->pods_per_claim > 1 && target->sharing.mig_enabled) {
    fail("pool '" + target->name +
         "' hands out MIG devices; pods sharing one MIG device's claim are "
         "not modelled (use pods_per_claim: 1, or a pool of whole GPUs)");
  }
  if (spec->pods_per_claim > 1 && spec->gang_size > 0) {
    fail("a gang's members sharing ResourceClaims are not modelled");
  }
}

}  // namespace scenario_internal
}  // namespace gpushare
