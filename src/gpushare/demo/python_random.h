// PythonRandom: CPython's random.Random stream, reproduced in C++.
//
// Contract: for an integer seed s, PythonRandom(|s|) yields exactly the values
// that `r = random.Random(s)` (or `random.seed(s)`) yields in CPython 3:
// GenRandUint32() is `r.getrandbits(32)`, Random() is `r.random()` and
// Uniform(a, b) is `r.uniform(a, b)`, bit for bit. The generator is the
// MT19937 Mersenne Twister seeded with init_by_array() over the seed's 32-bit
// words, least significant first (at least one word, so 0 gives key [0]).
// Python seeds with the absolute value of a negative int; callers pass that
// magnitude. Not thread-safe; not for cryptographic use.

#ifndef GPUSHARE_DEMO_PYTHON_RANDOM_H_
#define GPUSHARE_DEMO_PYTHON_RANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>

namespace gpushare {

class PythonRandom {
 public:
  explicit PythonRandom(uint64_t seed);

  PythonRandom(const PythonRandom&) = default;
  PythonRandom& operator=(const PythonRandom&) = default;

  // The next 32 random bits (Python: getrandbits(32)).
  uint32_t GenRandUint32();

  // A double uniformly in [0, 1) with 53 random bits (Python: random()).
  double Random();

  // a + (b - a) * Random() (Python: uniform(a, b)).
  double Uniform(double a, double b);

 private:
  static constexpr size_t kStateSize = 624;

  void InitGenRand(uint32_t s);
  void InitByArray(const uint32_t* key, size_t key_length);

  std::array<uint32_t, kStateSize> state_;
  size_t index_;
};

}  // namespace gpushare

#endif  // GPUSHARE_DEMO_PYTHON_RANDOM_H_
