// The extended resources the device plugin of a pool's nodes serves: what
// a pod may request there and ever be given.
//
// Contract: PoolExtendedResources() builds the pool's device plugin for one
// node (cluster/cluster.cc's choice: HAMi's for vGPU pools, NVIDIA's for the
// others) and returns the names it registers with kubelet, sorted — whole
// GPUs or replicas (`nvidia.com/gpu`, `nvidia.com/gpu.shared`), MIG
// devices (`nvidia.com/mig-<profile>` under the mixed strategy), HAMi's
// `nvidia.com/gpu`, `nvidia.com/gpumem` and `nvidia.com/gpucores` — plus,
// for HAMi, `nvidia.com/gpumem-percentage`, which its scheduler serves
// without registering it. Empty for a pool without GPUs. Throws InputError
// when the pool's sharing configuration does not fit `model` (as
// Cluster::AddPool would).

#ifndef GPUSHARE_CLUSTER_POOL_RESOURCES_H_
#define GPUSHARE_CLUSTER_POOL_RESOURCES_H_

#include <string>
#include <vector>

#include "gpushare/catalog/gpu_model.h"
#include "gpushare/cluster/cluster.h"

namespace gpushare {

std::vector<std::string> PoolExtendedResources(const NodePoolSpec& pool,
                                               const GpuModel& model);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_POOL_RESOURCES_H_
