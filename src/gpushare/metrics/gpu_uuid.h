// Fake but stable GPU UUIDs for the simulated GPUs, in NVML's form
// ("GPU-1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d").
//
// Contract: a pure function of the node name and the GPU index, so the same
// GPU has the same UUID in every run and every output (the UUID label of
// --openmetrics); different GPUs get different UUIDs (two 64-bit FNV-1a
// hashes; collisions are possible in theory, not in any cluster size the
// simulator runs).

#ifndef GPUSHARE_METRICS_GPU_UUID_H_
#define GPUSHARE_METRICS_GPU_UUID_H_

#include <string>
#include <string_view>

namespace gpushare {

std::string FakeGpuUuid(std::string_view node, int gpu);

}  // namespace gpushare

#endif  // GPUSHARE_METRICS_GPU_UUID_H_
