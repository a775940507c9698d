#include "gpushare/metrics/gpu_uuid.h"

#include <cstdint>

#include <fmt/format.h>

#include "gpushare/base/fnv1a.h"

namespace gpushare {

std::string FakeGpuUuid(std::string_view node, int gpu) {
  const std::string key = fmt::format("{}/{}", node, gpu);
  const uint64_t hi = Fnv1a(key, kFnv1aBasis);
  const uint64_t lo = Fnv1a(key, hi ^ 0x9e3779b97f4a7c15ULL);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32,
                     (hi >> 16) & 0xffff, hi & 0xffff, lo >> 48,
                     lo & 0xffffffffffffULL);
}

}  // namespace gpushare
