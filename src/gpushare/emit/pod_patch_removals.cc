#include "gpushare/emit/pod_patch_removals.h"

#include <vector>

#include "gpushare/catalog/mig_layout.h"
#include "gpushare/cluster/resources.h"

namespace gpushare {
namespace {

// HAMi's NVIDIA resource names besides nvidia.com/gpu (charts/hami/
// values.yaml; pkg/device/nvidia/device.go NvidiaConfig).
constexpr const char* kHamiOnlyNames[] = {
    "nvidia.com/gpumem", "nvidia.com/gpumem-percentage", "nvidia.com/gpucores",
    "nvidia.com/priority"};

void AddPool(const NodePoolSpec& spec, const Catalog& catalog,
             ClusterGpuSchemes* out) {
  if (spec.gpus_per_node <= 0) return;
  const GpuModel* model = catalog.Find(spec.gpu_model);
  const SharingConfig& sharing = spec.sharing;
  std::set<std::string>& names = out->resource_names;
  if (sharing.sharing == DeviceSharing::kHami) {
    out->hami = true;
    names.insert(std::string(kNvidiaGpu));
    for (const char* n : kHamiOnlyNames) names.insert(n);
    return;
  }
  // The MIG profiles the pool's devices are cut into (its layouts; with
  // dynamic MIG, any of the GPU's).
  std::set<std::string> profiles;
  if (sharing.mig_enabled && model != nullptr && model->mig) {
    if (sharing.mig.dynamic) {
      for (const MigProfile& p : model->mig->profiles) {
        profiles.insert(p.ResourceName());
      }
    } else {
      for (const MigLayout& layout :
           sharing.Validate(*model, spec.gpus_per_node)) {
        for (const MigInstance& i : layout) {
          profiles.insert(model->mig->profiles[i.profile].ResourceName());
        }
      }
    }
  }
  if (spec.devices == PoolDevices::kDra) {
    out->dra = true;
    // KEP-5004: the DeviceClasses' extendedResourceName (emit/dra_claim.h).
    if (spec.dra.extended_resource) {
      names.insert(std::string(kNvidiaGpu));
      names.insert(profiles.begin(), profiles.end());
    }
    return;
  }
  std::vector<std::string> advertised;
  if (sharing.mig_enabled && sharing.mig.strategy == MigStrategy::kMixed) {
    advertised.assign(profiles.begin(), profiles.end());
  } else {
    advertised.push_back(std::string(kNvidiaGpu));
  }
  // NVIDIA's plugin advertises nvidia.com/gpu on a MIG node too (mixed
  // strategy: 0 of it), and the class may ask it there under another.
  names.insert(std::string(kNvidiaGpu));
  const bool renamed = (sharing.sharing == DeviceSharing::kTimeSlicing ||
                        sharing.sharing == DeviceSharing::kMps) &&
                       sharing.replicas.rename_by_default;
  for (const std::string& name : advertised) {
    names.insert(renamed ? name + ".shared" : name);
  }
}

}  // namespace

ClusterGpuSchemes ClusterGpuSchemesOf(const Scenario& scenario,
                                      const Scenario* today,
                                      const Catalog& catalog) {
  ClusterGpuSchemes out;
  for (const NodePoolSpec& p : scenario.pools) AddPool(p, catalog, &out);
  if (today != nullptr) {
    for (const NodePoolSpec& p : today->pools) AddPool(p, catalog, &out);
  }
  return out;
}

}  // namespace gpushare
