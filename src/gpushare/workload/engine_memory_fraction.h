// EngineMemoryFraction: the share of the memory it sees that an LLM
// engine pre-allocates under `gpu_memory_utilization: auto`, the one
// number both the simulation (sim/simulation_pods.cc) and the emitted pod
// patch (emit/pod_template_patches.cc, GPUSHARE_GPU_MEMORY_FRACTION or
// TGI's CUDA_MEMORY_FRACTION) use, so what is judged is what is deployed
// (docs/model.md §6.7, docs/emit.md).
//
// On a GPU shared without memory isolation (time-slicing, of whole GPUs or
// of MIG instances) the patch caps the engine at its class's memory
// request over the memory it sees, rounded down to hundredths and kept in
// [0.01, 1]. Elsewhere (exclusive, MIG alone, MPS, HAMi: the grant is its
// own) no patch caps it and it takes its kind's default share (vLLM 0.92,
// TGI 1.0) of what it sees.
//
// Contract: pure integer arithmetic; deterministic.

#ifndef GPUSHARE_WORKLOAD_ENGINE_MEMORY_FRACTION_H_
#define GPUSHARE_WORKLOAD_ENGINE_MEMORY_FRACTION_H_

#include <cstdint>

namespace gpushare {

// The patch's cap in hundredths: ⌊request × 100 / visible⌋ in [1, 100];
// 0 when either is not positive (no cap can be written).
int64_t TimeSlicedEngineCapHundredths(int64_t request_mib,
                                      int64_t visible_mib);

// The share an engine with `auto` pre-allocates: the cap above when
// `time_sliced` and it can be written, else `kind_default`.
double AutoGpuMemoryUtilization(bool time_sliced, double kind_default,
                                int64_t request_mib, int64_t visible_mib);

}  // namespace gpushare

#endif  // GPUSHARE_WORKLOAD_ENGINE_MEMORY_FRACTION_H_
