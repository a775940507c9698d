#include "gpushare/metrics/gpu_uuid.h"

#include <cstdint>

#include <fmt/format.h>

namespace gpushare {
namespace {

// 64-bit FNV-1a of `text`, starting from `basis`.
uint64_t Fnv1a(std::string_view text, uint64_t basis) {
  uint64_t h = basis;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace

std::string FakeGpuUuid(std::string_view node, int gpu) {
  const std::string key = fmt::format("{}/{}", node, gpu);
  const uint64_t hi = Fnv1a(key, 0xcbf29ce484222325ULL);
  const uint64_t lo = Fnv1a(key, hi ^ 0x9e3779b97f4a7c15ULL);
  return fmt::format("GPU-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32,
                     (hi >> 16) & 0xffff, hi & 0xffff, lo >> 48,
                     lo & 0xffffffffffffULL);
}

}  // namespace gpushare
