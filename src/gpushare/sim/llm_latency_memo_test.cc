// LlmLatencyMemo: the same bits as LlmServingLatency, computed again on any
// change of an input and only then.

#include "gpushare/sim/llm_latency_memo.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>

#include "gpushare/exec/llm_test_engine.h"

namespace gpushare {
namespace {

LlmEngine MemoTestEngine() {
  LlmEngine e = Llama8bTestEngine();
  e.prompt_tokens = Distribution::LogNormal(512, 0.8, 16, 8192);
  return e;
}

LlmDevice MemoTestDevice() {
  LlmDevice d;
  d.relative_speed = 3.17;
  d.bandwidth_gb_s = 3350;
  d.share = 0.5;
  return d;
}

LlmServingInputs MemoTestServing() {
  LlmServingInputs in;
  in.request_rate = 2;
  in.max_seqs = 64;
  in.contexts = 2;
  return in;
}

void ExpectSameBits(const LlmLatency& a, const LlmLatency& b) {
  auto bits = [](double x) { return std::bit_cast<uint64_t>(x); };
  EXPECT_EQ(bits(a.ttft_p50_ms), bits(b.ttft_p50_ms));
  EXPECT_EQ(bits(a.ttft_p99_ms), bits(b.ttft_p99_ms));
  EXPECT_EQ(bits(a.tpot_p50_ms), bits(b.tpot_p50_ms));
  EXPECT_EQ(bits(a.tpot_p99_ms), bits(b.tpot_p99_ms));
  EXPECT_EQ(bits(a.p50_ms), bits(b.p50_ms));
  EXPECT_EQ(bits(a.p99_ms), bits(b.p99_ms));
  EXPECT_EQ(bits(a.batch), bits(b.batch));
  EXPECT_EQ(bits(a.wait_probability), bits(b.wait_probability));
  EXPECT_EQ(bits(a.utilization), bits(b.utilization));
  EXPECT_EQ(bits(a.busy), bits(b.busy));
  EXPECT_EQ(a.saturated, b.saturated);
}

TEST(LlmLatencyMemoTest, SameInputsComputeOnce) {
  const LlmEngine engine = MemoTestEngine();
  const ModelParams params;
  LlmLatencyMemo memo;
  for (int i = 0; i < 5; ++i) {
    ExpectSameBits(
        memo.Get(engine, MemoTestDevice(), params, MemoTestServing()),
        LlmServingLatency(engine, MemoTestDevice(), params, MemoTestServing()));
  }
  EXPECT_EQ(memo.computations(), 1);
}

TEST(LlmLatencyMemoTest, EveryInputIsInTheKey) {
  const LlmEngine engine = MemoTestEngine();
  const LlmEngine other_engine = MemoTestEngine();
  const ModelParams params;
  const ModelParams other_params;
  // Each change of one input: the memo computes again and returns what
  // LlmServingLatency gives for the changed inputs.
  struct Change {
    const char* name;
    void (*device)(LlmDevice&);
    void (*serving)(LlmServingInputs&);
  };
  const Change changes[] = {
      {"relative_speed", [](LlmDevice& d) { d.relative_speed = 1; }, nullptr},
      {"sm_fraction", [](LlmDevice& d) { d.sm_fraction = 3.0 / 7; }, nullptr},
      {"bandwidth", [](LlmDevice& d) { d.bandwidth_gb_s = 4800; }, nullptr},
      {"share", [](LlmDevice& d) { d.share = 0.25; }, nullptr},
      {"request_rate", nullptr,
       [](LlmServingInputs& s) { s.request_rate = 3; }},
      {"max_seqs", nullptr, [](LlmServingInputs& s) { s.max_seqs = 12; }},
      {"contexts", nullptr, [](LlmServingInputs& s) { s.contexts = 3; }},
      {"time_slice", nullptr, [](LlmServingInputs& s) { s.time_slice_ms = 8; }},
      {"switch", nullptr, [](LlmServingInputs& s) { s.context_switch_ms = 1; }},
  };
  LlmLatencyMemo memo;
  int64_t expected = 0;
  for (const Change& c : changes) {
    SCOPED_TRACE(c.name);
    LlmDevice device = MemoTestDevice();
    LlmServingInputs in = MemoTestServing();
    memo.Get(engine, device, params, in);  // the base
    ++expected;
    if (c.device) c.device(device);
    if (c.serving) c.serving(in);
    const LlmLatency direct = LlmServingLatency(engine, device, params, in);
    ExpectSameBits(memo.Get(engine, device, params, in), direct);
    ++expected;
    EXPECT_EQ(memo.computations(), expected);
  }
  // The engine and the parameters by identity.
  memo.Get(engine, MemoTestDevice(), params, MemoTestServing());
  memo.Get(other_engine, MemoTestDevice(), params, MemoTestServing());
  memo.Get(other_engine, MemoTestDevice(), other_params, MemoTestServing());
  EXPECT_EQ(memo.computations(), expected + 3);
}

TEST(LlmLatencyMemoTest, ChangesAreSeenToTheBit) {
  // A share one ulp apart is another input, and so is -0 against +0.
  const LlmEngine engine = MemoTestEngine();
  const ModelParams params;
  LlmLatencyMemo memo;
  LlmDevice device = MemoTestDevice();
  memo.Get(engine, device, params, MemoTestServing());
  device.share = std::nextafter(device.share, 1.0);
  memo.Get(engine, device, params, MemoTestServing());
  EXPECT_EQ(memo.computations(), 2);
  device.share = 0.0;
  memo.Get(engine, device, params, MemoTestServing());
  device.share = -0.0;
  memo.Get(engine, device, params, MemoTestServing());
  EXPECT_EQ(memo.computations(), 4);
  EXPECT_TRUE(std::isinf(
      memo.Get(engine, device, params, MemoTestServing()).ttft_p50_ms));
  EXPECT_EQ(memo.computations(), 4);
}

}  // namespace
}  // namespace gpushare
