// Fake but stable UUIDs in NVML's form ("GPU-1a2b3c4d-5e6f-7a8b-9c0d-
// 1e2f3a4b5c6d", "MIG-..."), for simulated GPUs and MIG devices.
//
// Contract: a pure function of `prefix` and `key` (two 64-bit FNV-1a hashes
// of `key`), so the same device has the same UUID in every run and every
// output; different keys get different UUIDs (collisions are possible in
// theory, not in any cluster size the simulator runs).

#ifndef GPUSHARE_BASE_FAKE_UUID_H_
#define GPUSHARE_BASE_FAKE_UUID_H_

#include <string>
#include <string_view>

namespace gpushare {

std::string FakeNvmlUuid(std::string_view prefix, std::string_view key);

}  // namespace gpushare

#endif  // GPUSHARE_BASE_FAKE_UUID_H_
