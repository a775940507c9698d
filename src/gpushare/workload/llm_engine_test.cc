#include "gpushare/workload/llm_engine.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

namespace gpushare {
namespace {

// Llama-3-8B (Meta's config.json: 32 layers, 8 KV heads, head_dim 128;
// 8.03 B parameters in bf16 = 14.96 GiB of weights).
LlmEngine Llama3Of8B() {
  LlmEngine e;
  e.weights_gib = 15;
  e.layers = 32;
  e.kv_heads = 8;
  e.head_dim = 128;
  e.dtype_bytes = 2;
  return e;
}

TEST(LlmEngineTest, KvBytesPerTokenOfLlama3Of8B) {
  // 2 x 32 x 8 x 128 x 2 = 131,072 bytes = 128 KiB per token.
  EXPECT_EQ(Llama3Of8B().KvBytesPerToken(), 128 * 1024);
}

TEST(LlmEngineTest, KvCapacityByHandOnAWholeH100) {
  const LlmEngine e = Llama3Of8B();
  // H100-80GB: 81,559 MiB visible; 0.92 of it = 75,034 MiB (floor).
  EXPECT_EQ(e.FootprintMib(81559), 75034);
  // Left for KV: 75,034 MiB - 15 GiB weights - 1 GiB reserve
  // = 75,034 - 16,384 = 58,650 MiB. A block is 16 tokens x 128 KiB = 2 MiB:
  // 29,325 whole blocks = 469,200 tokens.
  EXPECT_EQ(e.KvCapacityTokens(81559), 469200);
  // 469,200 / (512 + 256) = 610 sequences: max_num_seqs (256) binds.
  EXPECT_EQ(e.MaxConcurrentSeqs(469200), 256);
  // Long requests: 8,192 + 1,024 tokens each -> 49 at once.
  LlmEngine long_requests = e;
  long_requests.prompt_tokens = Distribution::Constant(8192);
  long_requests.output_tokens = Distribution::Constant(1024);
  EXPECT_EQ(long_requests.MaxConcurrentSeqs(456144), 49);
}

TEST(LlmEngineTest, NoRoomForTheCacheGivesZero) {
  LlmEngine e = Llama3Of8B();
  e.gpu_memory_utilization = 0.2;
  // 0.2 x 81,559 = 16,311 MiB < 16 GiB of weights and reserve.
  EXPECT_EQ(e.FootprintMib(81559), 16311);
  EXPECT_EQ(e.KvCapacityTokens(81559), 0);
  EXPECT_EQ(e.MaxConcurrentSeqs(0), 0);
  // The 3g.40gb MIG instance of an H100 (40,448 MiB) at 0.9: 36,403 MiB,
  // 20,019 MiB for KV = 10,009 whole blocks of 2 MiB.
  e.gpu_memory_utilization = 0.9;
  EXPECT_EQ(e.KvCapacityTokens(40448), 10009 * 16);
}

TEST(LlmEngineTest, MeanTokensOfADistribution) {
  LlmEngine e = Llama3Of8B();
  e.prompt_tokens = Distribution::Uniform(0, 1000);
  e.output_tokens = Distribution::Constant(500);
  // Mean 500 + 500 = 1,000 tokens per request.
  EXPECT_EQ(e.MaxConcurrentSeqs(100000), 100);
}

TEST(LlmEngineTest, BytesPerParameterOfEachWeightsDtype) {
  EXPECT_EQ(LlmBytesPerParam(LlmWeightsDtype::kBf16), 2);
  EXPECT_EQ(LlmBytesPerParam(LlmWeightsDtype::kFp16), 2);
  EXPECT_EQ(LlmBytesPerParam(LlmWeightsDtype::kFp8), 1);
  EXPECT_EQ(LlmBytesPerParam(LlmWeightsDtype::kInt8), 1);
  EXPECT_EQ(LlmBytesPerParam(LlmWeightsDtype::kInt4), 0.5);
  EXPECT_TRUE(LlmFp8Compute(LlmWeightsDtype::kFp8));
  EXPECT_FALSE(LlmFp8Compute(LlmWeightsDtype::kInt8));  // weight-only
}

TEST(LlmEngineTest, TensorParallelShardsTheKvHeads) {
  // Llama-3-70B: 80 layers, 8 KV heads of 128, in 16 bits.
  LlmEngine e;
  e.layers = 80;
  e.kv_heads = 8;
  e.head_dim = 128;
  EXPECT_EQ(e.KvBytesPerToken(), 2 * 80 * 8 * 128 * 2);  // 327,680
  e.tensor_parallel = 4;  // 2 heads a GPU
  EXPECT_EQ(e.KvBytesPerToken(), 81920);
  e.kv_heads = 4;
  e.tensor_parallel = 8;  // fewer heads than GPUs: one each (replicated)
  EXPECT_EQ(e.KvBytesPerToken(), 2 * 80 * 1 * 128 * 2);
  e.dtype_bytes = 1;  // kv_cache dtype fp8
  EXPECT_EQ(e.KvBytesPerToken(), 20480);
}

TEST(LlmEngineTest, HiddenSizeIsGivenOrEstimatedFromTheParameters) {
  LlmEngine e;
  e.layers = 80;
  e.params_billion = 70.6;
  // sqrt(70.6e9 / (12 x 80)) = 8,575.64 (Llama-3-70B's is 8,192).
  EXPECT_NEAR(e.HiddenSize(), 8575.6438, 1e-3);
  e.hidden_size = 8192;
  EXPECT_EQ(e.HiddenSize(), 8192);
}

TEST(LlmEngineTest, KeptMeansAreTheMeansOfTheirOwnDistribution) {
  // Twelve distributions (more than the 8 kept), differing in one
  // parameter each or by one ulp, asked in turn and in reverse: each mean is
  // the average of its own 1,000 midpoint quantiles, to the bit.
  std::vector<Distribution> ds;
  for (int i = 0; i < 4; ++i) {
    ds.push_back(Distribution::LogNormal(512 + i, 0.8, 16, 8192));
  }
  ds.push_back(Distribution::LogNormal(512, 0.7, 16, 8192));
  ds.push_back(Distribution::LogNormal(512, 0.8, 16, 4096));
  ds.push_back(Distribution::LogNormal(512, 0.8, 8, 8192));
  ds.push_back(
      Distribution::LogNormal(std::nextafter(512.0, 1e9), 0.8, 16, 8192));
  ds.push_back(Distribution::Uniform(0, 1000));
  ds.push_back(Distribution::Exponential(300));
  ds.push_back(Distribution::Choice({{100, 1}, {1000, 1}}));
  ds.push_back(Distribution::Choice({{100, 1}, {1000, 3}}));
  auto by_hand = [](const Distribution& d) {
    double sum = 0;
    for (int i = 0; i < 1000; ++i) sum += d.Quantile((i + 0.5) / 1000);
    return sum / 1000;
  };
  for (int round = 0; round < 3; ++round) {
    for (size_t k = 0; k < ds.size(); ++k) {
      const Distribution& d = round == 1 ? ds[ds.size() - 1 - k] : ds[k];
      EXPECT_EQ(std::bit_cast<uint64_t>(LlmMeanTokens(d)),
                std::bit_cast<uint64_t>(by_hand(d)))
          << "round " << round << " distribution " << k;
    }
  }
  EXPECT_NEAR(LlmMeanTokens(Distribution::Choice({{100, 1}, {1000, 3}})), 775,
              1);
  EXPECT_EQ(LlmMeanTokens(Distribution::Constant(7)), 7);
}

}  // namespace
}  // namespace gpushare
