// PoolModelParams: the execution-model parameters a pool's GPUs run under.
//
// Contract: the scenario's ModelParams, except that on a `devices: dra` pool
// whose claims carry a TimeSlicing interval other than Default
// (EffectiveDraPoolSettings, cluster/dra/dra_pool_settings.h) time_slice_ms
// is that interval's duration: dra_time_slice_short_ms, _medium_ms or
// _long_ms (docs/model.md §6.4). NVIDIA's driver sets the interval per GPU
// (`nvidia-smi compute-policy --set-timeslice`), and claims sharing a GPU
// must carry the same config (the kubelet plugin refuses to prepare a claim
// whose config conflicts with one already prepared on the device,
// device_state.go), so one value per pool is exact. Pure function.

#ifndef GPUSHARE_SIM_POOL_MODEL_PARAMS_H_
#define GPUSHARE_SIM_POOL_MODEL_PARAMS_H_

#include "gpushare/cluster/cluster.h"
#include "gpushare/exec/model_params.h"

namespace gpushare {

ModelParams PoolModelParams(const ModelParams& scenario,
                            const NodePoolSpec& pool);

}  // namespace gpushare

#endif  // GPUSHARE_SIM_POOL_MODEL_PARAMS_H_
