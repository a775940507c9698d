// Memory isolation: whether a pod's GPU memory on a pool is its own, or
// whether another pod on the same device can take it.
//
// Contract: PoolIsolatesMemory() is true when no other pod can allocate the
// memory a pod was granted on a device of `pool` (docs/model.md §6.3, §10):
//   exclusive, MIG without replicas   one pod per GPU or instance;
//   MPS (device plugin)               each client pinned to memory/replicas;
//   HAMi                              the scheduler reserves each pod's
//                                     gpumem within the GPU and HAMi-core
//                                     caps it — unless deviceMemoryScaling
//                                     > 1 oversubscribes the GPU;
//   DRA MPS                           with a pinned device memory limit;
// and false where devices are shared without a memory limit: time-slicing
// (on GPUs or MIG instances, device plugin or DRA), DRA consumable shares
// (the driver enforces no claim's memory on the GPU), DRA MPS without a
// pinned limit. A pool without GPUs isolates trivially (true).

#ifndef GPUSHARE_CLUSTER_MEMORY_ISOLATION_H_
#define GPUSHARE_CLUSTER_MEMORY_ISOLATION_H_

#include "gpushare/cluster/cluster.h"

namespace gpushare {

bool PoolIsolatesMemory(const NodePoolSpec& pool);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_MEMORY_ISOLATION_H_
