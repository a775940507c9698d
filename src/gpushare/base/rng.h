// Rng: the one source of randomness of the simulator.
//
// Contract: a deterministic 64-bit generator (xoshiro256**, seeded through
// splitmix64) whose whole stream is fixed by the seed, on every platform and
// compiler: no std::random_device, no std:: distributions (their outputs are
// implementation-defined). Same seed, same calls → same values. Cheap to copy;
// Fork() derives an independent stream for a sub-component so that adding a
// consumer does not shift the others' streams.

#ifndef GPUSHARE_BASE_RNG_H_
#define GPUSHARE_BASE_RNG_H_

#include <cstdint>

namespace gpushare {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  // 64 uniformly random bits.
  uint64_t Next();
  // Uniform in [0, n) without modulo bias; n > 0.
  uint64_t Below(uint64_t n);
  // Uniform double in [0, 1) with 53 random bits.
  double Uniform01();
  // An independent generator derived from this one's seed and `stream`.
  Rng Fork(uint64_t stream) const;

 private:
  uint64_t seed_;
  uint64_t s_[4];
};

}  // namespace gpushare

#endif  // GPUSHARE_BASE_RNG_H_
