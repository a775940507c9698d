#include "gpushare/cluster/memory_isolation.h"

#include "gpushare/cluster/dra/dra_pool_settings.h"

namespace gpushare {

bool PoolIsolatesMemory(const NodePoolSpec& pool) {
  if (pool.gpus_per_node == 0) return true;
  const SharingConfig& s = pool.sharing;
  if (pool.devices == PoolDevices::kDra) {
    const DraPoolSettings dra = EffectiveDraPoolSettings(pool.dra, s);
    // Consumable shares: claims share a device, nothing enforced on it.
    if (dra.consumable_shares != DraConsumableShares::kDisabled) return false;
    if (s.sharing == DeviceSharing::kMps) {
      return dra.mps_pinned_memory_limit_mib > 0;
    }
  }
  switch (s.sharing) {
    case DeviceSharing::kNone:
    case DeviceSharing::kMps:
      return true;
    case DeviceSharing::kTimeSlicing:
      return false;
    case DeviceSharing::kHami:
      return s.hami.memory_scaling <= 1.0;
  }
  return true;
}

}  // namespace gpushare
