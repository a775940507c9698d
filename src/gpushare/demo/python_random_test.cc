#include "gpushare/demo/python_random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpushare/demo/python_float.h"

namespace gpushare {
namespace {

std::vector<uint32_t> FirstWords(uint64_t seed, int count) {
  PythonRandom random(seed);
  std::vector<uint32_t> words;
  for (int i = 0; i < count; ++i) words.push_back(random.GenRandUint32());
  return words;
}

std::vector<double> FirstDoubles(uint64_t seed, int count) {
  PythonRandom random(seed);
  std::vector<double> values;
  for (int i = 0; i < count; ++i) values.push_back(random.Random());
  return values;
}

// Expected values printed by Python 3.11.7:
//   python3 -c "import random
//   for s in (0, 42, 2**40+7):
//       r = random.Random(s); print(s, [r.getrandbits(32) for _ in range(10)])
//       r = random.Random(s); print(s, [repr(r.random()) for _ in range(10)])"

TEST(PythonRandomTest, Seed0) {
  EXPECT_EQ(
      FirstWords(0, 10),
      (std::vector<uint32_t>{3626764237U, 1654615998U, 3255389356U, 3823568514U,
                             1806341205U, 173879092U, 1112038970U, 4146640122U,
                             2195908194U, 2087043557U}));
  EXPECT_EQ(FirstDoubles(0, 10),
            (std::vector<double>{0.8444218515250481, 0.7579544029403025,
                                 0.420571580830845, 0.25891675029296335,
                                 0.5112747213686085, 0.4049341374504143,
                                 0.7837985890347726, 0.30331272607892745,
                                 0.4765969541523558, 0.5833820394550312}));
}

TEST(PythonRandomTest, Seed42) {
  EXPECT_EQ(FirstWords(42, 10),
            (std::vector<uint32_t>{
                2746317213U, 478163327U, 107420369U, 3184935163U, 1181241943U,
                1051802512U, 958682846U, 599310825U, 3163119785U, 440213415U}));
  EXPECT_EQ(FirstDoubles(42, 10),
            (std::vector<double>{0.6394267984578837, 0.025010755222666936,
                                 0.27502931836911926, 0.22321073814882275,
                                 0.7364712141640124, 0.6766994874229113,
                                 0.8921795677048454, 0.08693883262941615,
                                 0.4219218196852704, 0.029797219438070344}));
}

TEST(PythonRandomTest, SeedWiderThan32Bits) {
  const uint64_t seed = (uint64_t{1} << 40) + 7;
  EXPECT_EQ(
      FirstWords(seed, 10),
      (std::vector<uint32_t>{2635837658U, 3209733218U, 3500038837U, 4028389051U,
                             4058793509U, 2746733121U, 2449809396U, 3030506883U,
                             2044078442U, 1077368710U}));
  EXPECT_EQ(FirstDoubles(seed, 10),
            (std::vector<double>{0.6137037779936511, 0.8149162973309487,
                                 0.9450115087592873, 0.5703906991004561,
                                 0.47592409887048936, 0.9481332869499145,
                                 0.126750756180395, 0.37526993096870054,
                                 0.7197665450211919, 0.39317959132030256}));
}

// python3 -c "import random
// r = random.Random(2**64-1); print([r.getrandbits(32) for _ in range(3)])
// r = random.Random(2**32); print([r.getrandbits(32) for _ in range(3)])"
TEST(PythonRandomTest, SeedEdgeWords) {
  EXPECT_EQ(FirstWords(std::numeric_limits<uint64_t>::max(), 3),
            (std::vector<uint32_t>{93740670U, 1068495656U, 1452108352U}));
  EXPECT_EQ(FirstWords(uint64_t{1} << 32, 3),
            (std::vector<uint32_t>{485306839U, 1508871100U, 1794561286U}));
}

// Crosses several state regenerations (624 words each).
// python3 -c "import random; r = random.Random(42)
// for _ in range(1500): r.getrandbits(32)
// print(r.getrandbits(32), repr(r.random()))"
TEST(PythonRandomTest, LongStream) {
  PythonRandom random(42);
  for (int i = 0; i < 1500; ++i) random.GenRandUint32();
  EXPECT_EQ(random.GenRandUint32(), 1388450337U);
  EXPECT_EQ(random.Random(), 0.11592160143095787);
}

// python3 -c "import random; r = random.Random(42)
// print(repr(r.uniform(2, 10)), repr(r.uniform(1, 8)),
//       repr(r.uniform(-3.5, 1e6)))"
TEST(PythonRandomTest, Uniform) {
  PythonRandom random(42);
  EXPECT_EQ(random.Uniform(2, 10), 7.11541438766307);
  EXPECT_EQ(random.Uniform(1, 8), 1.1750752865586684);
  EXPECT_EQ(random.Uniform(-3.5, 1e6), 275026.78097173356);
}

TEST(PythonRandomTest, CopyContinuesTheSameStream) {
  PythonRandom a(7);
  a.Random();
  PythonRandom b = a;
  for (int i = 0; i < 700; ++i) EXPECT_EQ(a.GenRandUint32(), b.GenRandUint32());
}

// Expected values: python3 -c "print(repr(round(X, N)))" for each case.
TEST(PythonRoundTest, TiesAndTrickyValues) {
  struct Case {
    double x;
    int ndigits;
    double expected;
  };
  const Case cases[] = {
      {0.25, 1, 0.2},  // Exact tie: to even.
      {0.35, 1, 0.3},  // 0.35 is below the tie in binary.
      {2.675, 2, 2.67},
      {1.005, 2, 1.0},
      {0.125, 2, 0.12},  // Exact tie: to even.
      {0.375, 2, 0.38},  // Exact tie: to even.
      {2.5, 0, 2.0},
      {3.5, 0, 4.0},
      {0.5, 0, 0.0},
      {1.5, 0, 2.0},
      {-0.25, 1, -0.2},
      {-2.675, 2, -2.67},
      {123456789.125, 2, 123456789.12},
      {1e16 + 2, 1, 1.0000000000000002e+16},
      {1.7976931348623157e308, 2, 1.7976931348623157e308},
      {5e-324, 3, 0.0},
      {0.0005, 3, 0.001},
      {0.0015, 3, 0.002},
      {96.55499999999999, 2, 96.55},
      {0.9045, 3, 0.904},
      {1e22, 3, 1e22},
      {2.345, 2, 2.35},
      {0.285, 2, 0.28},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PythonRound(c.x, c.ndigits), c.expected)
        << "round(" << c.x << ", " << c.ndigits << ")";
  }
}

TEST(PythonRoundTest, SignOfZeroAndNonFinite) {
  EXPECT_TRUE(std::signbit(PythonRound(-0.04, 1)));  // Python: -0.0
  EXPECT_TRUE(std::signbit(PythonRound(-0.0, 2)));
  EXPECT_FALSE(std::signbit(PythonRound(0.04, 1)));
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(PythonRound(inf, 2), inf);
  EXPECT_EQ(PythonRound(-inf, 2), -inf);
  EXPECT_TRUE(std::isnan(PythonRound(std::nan(""), 2)));
  EXPECT_EQ(PythonRound(0.1, 400), 0.1);  // Beyond 323 digits: unchanged.
}

// Expected values: python3 -c "print(repr(X // Y))" for each case.
TEST(PythonFloorDivTest, MatchesPython) {
  struct Case {
    double x;
    double y;
    double expected;
  };
  const Case cases[] = {
      {7.0, 2.0, 3.0},  {7.5, 8.0, 0.0}, {8.0, 8.0, 1.0},   {9.9, 8.0, 1.0},
      {0.3, 0.1, 2.0},  {1.0, 0.1, 9.0}, {-7.0, 2.0, -4.0}, {7.0, -2.0, -4.0},
      {10.0, 8.0, 1.0}, {5.9, 8.0, 0.0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PythonFloorDiv(c.x, c.y), c.expected) << c.x << " // " << c.y;
  }
  EXPECT_TRUE(std::signbit(PythonFloorDiv(-0.0, 3.0)));  // Python: -0.0
  EXPECT_TRUE(std::signbit(PythonFloorDiv(0.0, -3.0)));  // Python: -0.0
  EXPECT_EQ(PythonFloorDiv(1e300, 1e-300),
            std::numeric_limits<double>::infinity());
}

// Expected values: python3 -c "print(format(X, SPEC))" for each case.
TEST(PythonFormatTest, FixedAndPercent) {
  EXPECT_EQ(PythonFormatFixed(96.55, 2), "96.55");
  EXPECT_EQ(PythonFormatFixed(53.8, 2), "53.80");
  EXPECT_EQ(PythonFormatFixed(0.005, 2), "0.01");
  EXPECT_EQ(PythonFormatFixed(0.015, 2), "0.01");
  EXPECT_EQ(PythonFormatFixed(0.025, 2), "0.03");
  EXPECT_EQ(PythonFormatFixed(2.675, 2), "2.67");
  EXPECT_EQ(PythonFormatFixed(-0.001, 2), "-0.00");
  EXPECT_EQ(PythonFormatFixed(1234.5, 0), "1234");
  EXPECT_EQ(PythonFormatFixed(-std::numeric_limits<double>::infinity(), 2),
            "-inf");
  EXPECT_EQ(PythonFormatFixed(-std::nan(""), 2), "nan");
  EXPECT_EQ(PythonFormatPercent(0.904, 1), "90.4%");
  EXPECT_EQ(PythonFormatPercent(0.406, 1), "40.6%");
  EXPECT_EQ(PythonFormatPercent(0.94, 1), "94.0%");
  EXPECT_EQ(PythonFormatPercent(0.0005, 1), "0.1%");
  EXPECT_EQ(PythonFormatPercent(0.0005, 2), "0.05%");
  EXPECT_EQ(PythonFormatPercent(0.9995, 1), "100.0%");
  EXPECT_EQ(PythonFormatPercent(0.12345, 2), "12.35%");
  EXPECT_EQ(PythonFormatPercent(0.0, 1), "0.0%");
}

}  // namespace
}  // namespace gpushare
