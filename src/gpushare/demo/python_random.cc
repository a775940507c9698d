#include "gpushare/demo/python_random.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace gpushare {
namespace {

constexpr size_t kShift = 397;  // MT19937's middle word offset (M).
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpperMask = 0x80000000U;
constexpr uint32_t kLowerMask = 0x7fffffffU;

}  // namespace

PythonRandom::PythonRandom(uint64_t seed) : state_{}, index_(kStateSize) {
  // CPython splits |seed| into 32-bit words, least significant first, and
  // keeps at least one word.
  std::array<uint32_t, 2> key = {static_cast<uint32_t>(seed),
                                 static_cast<uint32_t>(seed >> 32)};
  const size_t key_length = (seed >> 32) != 0 ? 2 : 1;
  InitByArray(key.data(), key_length);
}

void PythonRandom::InitGenRand(uint32_t s) {
  state_[0] = s;
  for (size_t i = 1; i < kStateSize; ++i) {
    const uint32_t prev = state_[i - 1];
    state_[i] = 1812433253U * (prev ^ (prev >> 30)) + static_cast<uint32_t>(i);
  }
  index_ = kStateSize;
}

void PythonRandom::InitByArray(const uint32_t* key, size_t key_length) {
  InitGenRand(19650218U);
  size_t i = 1;
  size_t j = 0;
  size_t k = kStateSize > key_length ? kStateSize : key_length;
  for (; k != 0; --k) {
    const uint32_t prev = state_[i - 1];
    state_[i] = (state_[i] ^ ((prev ^ (prev >> 30)) * 1664525U)) + key[j] +
                static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= kStateSize) {
      state_[0] = state_[kStateSize - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (k = kStateSize - 1; k != 0; --k) {
    const uint32_t prev = state_[i - 1];
    state_[i] = (state_[i] ^ ((prev ^ (prev >> 30)) * 1566083941U)) -
                static_cast<uint32_t>(i);
    ++i;
    if (i >= kStateSize) {
      state_[0] = state_[kStateSize - 1];
      i = 1;
    }
  }
  state_[0] = 0x80000000U;  // The most significant bit is 1: non-zero state.
}

uint32_t PythonRandom::GenRandUint32() {
  if (index_ >= kStateSize) {
    // Regenerate the whole state block.
    for (size_t kk = 0; kk < kStateSize; ++kk) {
      const uint32_t y = (state_[kk] & kUpperMask) |
                         (state_[(kk + 1) % kStateSize] & kLowerMask);
      state_[kk] = state_[(kk + kShift) % kStateSize] ^ (y >> 1) ^
                   ((y & 1U) != 0 ? kMatrixA : 0U);
    }
    index_ = 0;
  }
  uint32_t y = state_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

double PythonRandom::Random() {
  const uint32_t a = GenRandUint32() >> 5;
  const uint32_t b = GenRandUint32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

double PythonRandom::Uniform(double a, double b) {
  return a + (b - a) * Random();
}

}  // namespace gpushare
