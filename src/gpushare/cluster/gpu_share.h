// GPU-equivalents held by one device grant: how much of a physical GPU a
// pod's grant keeps from other pods. Used to attribute GPU-hours and cost to
// pods and tenant classes.
//
// Contract: a whole GPU counts 1; a MIG instance its SMs over the GPU's
// SMs in MIG mode (4g.40gb on A100: 56/98); a time-slicing or MPS replica
// 1/replicas of its device (a GPU or a time-sliced MIG instance); a HAMi
// vGPU the largest of its memory share (gpumem / (GPU memory x
// deviceMemoryScaling)), its core share (gpucores / (100 x
// deviceCoreScaling)) and its slot share (1 / deviceSplitCount), since any
// of the three can be what keeps others off the GPU.

#ifndef GPUSHARE_CLUSTER_GPU_SHARE_H_
#define GPUSHARE_CLUSTER_GPU_SHARE_H_

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/device_plugin.h"

namespace gpushare {

double GrantGpuEquivalents(const DeviceGrant& grant, const NodePool& pool);

// The sum over an allocation's grants.
double AllocationGpuEquivalents(const DeviceAllocation& allocation,
                                const NodePool& pool);

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_GPU_SHARE_H_
