#include "gpushare/base/fake_uuid.h"

#include <fmt/format.h>

#include <cstdint>

#include "gpushare/base/fnv1a.h"

namespace gpushare {

std::string FakeNvmlUuid(std::string_view prefix, std::string_view key) {
  const uint64_t hi = Fnv1a(key, kFnv1aBasis);
  const uint64_t lo = Fnv1a(key, hi ^ 0x9e3779b97f4a7c15ULL);
  return fmt::format("{}-{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", prefix,
                     hi >> 32, (hi >> 16) & 0xffff, hi & 0xffff, lo >> 48,
                     lo & 0xffffffffffffULL);
}

}  // namespace gpushare
