#include "gpushare/cluster/gpu_share.h"

#include <algorithm>

namespace gpushare {

double GrantGpuEquivalents(const DeviceGrant& grant, const NodePool& pool) {
  const GpuModel* model = pool.model;
  if (model == nullptr) return 0;
  const SharingConfig& sharing = pool.spec.sharing;
  double share = 1;
  if (grant.instance > 0 && model->mig_capable() &&
      grant.instance < static_cast<int>(pool.dynamic_mig_domains.size())) {
    // Dynamic MIG: the instance indexes the GPU's placements.
    const MigGeometry& mig = *model->mig;
    share = static_cast<double>(
                mig.profiles[pool.dynamic_mig_domains[grant.instance]].sms) /
            mig.sms;
  } else if (grant.instance >= 0 && model->mig_capable() &&
      grant.gpu < static_cast<int>(pool.mig_layouts.size())) {
    const MigGeometry& mig = *model->mig;
    const MigLayout& layout = pool.mig_layouts[grant.gpu];
    if (grant.instance < static_cast<int>(layout.size()) && mig.sms > 0) {
      share = static_cast<double>(
                  mig.profiles[layout[grant.instance].profile].sms) /
              mig.sms;
    }
  }
  if (grant.replica >= 0 && sharing.replicas.replicas > 0) {
    return share / sharing.replicas.replicas;
  }
  if (sharing.sharing == DeviceSharing::kHami) {
    // deviceMemoryScaling / deviceCoreScaling enlarge what HAMi hands out.
    const double total_memory =
        static_cast<double>(model->memory_mib) * sharing.hami.memory_scaling;
    const double memory =
        total_memory > 0 ? static_cast<double>(grant.memory_mib) / total_memory
                         : 0;
    const double cores =
        grant.cores_percent / (100.0 * sharing.hami.core_scaling);
    const double slot = 1.0 / std::max(1, sharing.hami.split_count);
    return std::min(1.0, std::max({memory, cores, slot}));
  }
  return share;
}

double AllocationGpuEquivalents(const DeviceAllocation& allocation,
                                const NodePool& pool) {
  double sum = 0;
  for (const DeviceGrant& g : allocation.grants) {
    sum += GrantGpuEquivalents(g, pool);
  }
  return sum;
}

}  // namespace gpushare
