// 64-bit FNV-1a, for stable identifiers derived from text (fake GPU UUIDs,
// sweep digests).
//
// Contract: a pure function of the bytes and the basis, the same on every
// machine and in every run; not a cryptographic hash.

#ifndef GPUSHARE_BASE_FNV1A_H_
#define GPUSHARE_BASE_FNV1A_H_

#include <cstdint>
#include <string_view>

namespace gpushare {

inline constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ULL;

// The hash of `text`, starting from `basis` (chain calls to hash several
// pieces).
constexpr uint64_t Fnv1a(std::string_view text, uint64_t basis = kFnv1aBasis) {
  uint64_t h = basis;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace gpushare

#endif  // GPUSHARE_BASE_FNV1A_H_
