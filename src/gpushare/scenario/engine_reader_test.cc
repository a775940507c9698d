// A class's `engine:`: the name form (emit pod-patches only) and the
// mapping that models an LLM engine's memory, with located errors.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {
namespace engine_reader_test {
namespace {

// One H100-80GB pool (time-slicing, 4 replicas) and the class `klass`
// (one line of flow YAML, or several lines) under workload.classes.
std::string EngineScenario(const std::string& klass) {
  return R"(cluster:
  pools:
    - {name: tsl, gpu: H100-80GB, nodes: 1, gpus_per_node: 1,
       sharing: {scheme: time-slicing, replicas: 4}}
workload:
  horizon_s: 3600
  classes:
)" + klass;
}

constexpr const char* kChat = R"(    - name: chat
      class: inference
      count: 1
      lifetime_s: 600
      request_rate: 5
      gpu_ms_per_request: 20
      engine:
        weights_gib: 15
        kv_cache: {layers: 32, kv_heads: 8, head_dim: 128}
)";

gpushare::Scenario ReadEngineScenario(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(text, "s.yaml", catalog);
}

std::string EngineError(const std::string& text) {
  try {
    ReadEngineScenario(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(EngineReaderTest, NameFormKeepsNoMemoryModel) {
  const gpushare::Scenario s = ReadEngineScenario(EngineScenario(
      "    - {name: a, class: inference, count: 1, lifetime_s: 60, "
      "request_rate: 1, gpu_ms_per_request: 10, engine: tgi}\n"));
  EXPECT_EQ(s.workload.classes[0].engine, InferenceEngine::kTgi);
  EXPECT_EQ(s.workload.classes[0].llm_engine, nullptr);
}

TEST(EngineReaderTest, MappingWithVllmDefaults) {
  const gpushare::Scenario s = ReadEngineScenario(EngineScenario(kChat));
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.engine, InferenceEngine::kVllm);
  ASSERT_NE(c.llm_engine, nullptr);
  const LlmEngine& e = *c.llm_engine;
  EXPECT_EQ(e.weights_gib, 15);
  EXPECT_EQ(e.KvBytesPerToken(), 131072);
  EXPECT_EQ(e.gpu_memory_utilization, 0.92);
  EXPECT_TRUE(e.memory_utilization_auto);  // `auto` is the default
  EXPECT_EQ(e.scheduling, LlmScheduling::kChunkedPrefill);
  EXPECT_EQ(e.scheduler_steps, 1);
  EXPECT_EQ(e.step_overhead_ms, -1);    // the model's
  EXPECT_EQ(e.request_overhead_ms, -1);
  EXPECT_EQ(e.max_num_seqs, 256);
  EXPECT_EQ(e.max_num_batched_tokens, 8192);
  EXPECT_EQ(e.activation_reserve_gib, 1.0);
  EXPECT_EQ(e.prompt_tokens.value, 512);
  EXPECT_EQ(e.output_tokens.value, 256);
}

TEST(EngineReaderTest, MappingWithEveryKey) {
  const gpushare::Scenario s = ReadEngineScenario(EngineScenario(
      std::string(kChat) +
      "        kind: tgi\n"
      "        gpu_memory_utilization: 0.25\n"
      "        max_num_seqs: 64\n"
      "        max_num_batched_tokens: 4096\n"
      "        activation_reserve_gib: 0.5\n"
      "        prompt_tokens: {uniform: [100, 300]}\n"
      "        output_tokens: 128\n"));
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.engine, InferenceEngine::kTgi);
  const LlmEngine& e = *c.llm_engine;
  EXPECT_EQ(e.gpu_memory_utilization, 0.25);
  EXPECT_FALSE(e.memory_utilization_auto);
  EXPECT_EQ(e.max_num_seqs, 64);
  EXPECT_EQ(e.max_num_batched_tokens, 4096);
  EXPECT_EQ(e.activation_reserve_gib, 0.5);
  EXPECT_EQ(e.prompt_tokens.kind, Distribution::Kind::kUniform);
  EXPECT_EQ(e.output_tokens.value, 128);
}

TEST(EngineReaderTest, TgiDefaultsToAllTheMemory) {
  const gpushare::Scenario s = ReadEngineScenario(
      EngineScenario(std::string(kChat) + "        kind: tgi\n"));
  EXPECT_EQ(s.workload.classes[0].llm_engine->gpu_memory_utilization, 1.0);
}

TEST(EngineReaderTest, BadValuesAreLocated) {
  const std::string too_high = std::string(kChat) +
                               "        gpu_memory_utilization: 1.5\n";
  EXPECT_EQ(EngineError(EngineScenario(too_high)),
            "s.yaml:17:33: class 'chat' engine gpu_memory_utilization: 1.5 "
            "is out of range (expected > 0 and <= 1)");
  EXPECT_EQ(EngineError(EngineScenario(std::string(kChat) +
                                       "        gpu_memory_utilization: 0\n")),
            "s.yaml:17:33: class 'chat' engine gpu_memory_utilization: 0 "
            "is out of range (expected > 0 and <= 1)");
  std::string negative = kChat;
  negative.replace(negative.find("weights_gib: 15"), 15, "weights_gib: -3");
  EXPECT_EQ(EngineError(EngineScenario(negative)),
            "s.yaml:15:22: class 'chat' engine weights_gib: -3 is out of "
            "range (expected > 0 and <= 1048576)");
  std::string heads = kChat;
  heads.replace(heads.find("kv_heads: 8"), 11, "kv_heads: 0");
  EXPECT_NE(EngineError(EngineScenario(heads)).find("s.yaml:16:"),
            std::string::npos);
  EXPECT_NE(EngineError(EngineScenario(std::string(kChat) +
                                       "        max_num_seqs: -1\n"))
                .find("s.yaml:17:"),
            std::string::npos);
  EXPECT_NE(EngineError(EngineScenario(std::string(kChat) +
                                       "        prompt_tokens: -5\n"))
                .find("s.yaml:17:9: class 'chat' engine prompt_tokens: "),
            std::string::npos);
  EXPECT_NE(EngineError(EngineScenario(std::string(kChat) +
                                       "        weights: 3\n"))
                .find("s.yaml:17:9: class 'chat' engine: unknown key "
                      "'weights'"),
            std::string::npos);
}

TEST(EngineReaderTest, SchedulingAndOverheads) {
  const gpushare::Scenario s = ReadEngineScenario(EngineScenario(
      std::string(kChat) +
      "        scheduling: multi_step\n"
      "        step_overhead_ms: 2.5\n"
      "        request_overhead_ms: 4\n"
      "        gpu_memory_utilization: auto\n"));
  const LlmEngine& e = *s.workload.classes[0].llm_engine;
  EXPECT_EQ(e.scheduling, LlmScheduling::kMultiStep);
  EXPECT_EQ(e.scheduler_steps, 10);  // vLLM's published benchmarks' steps
  EXPECT_EQ(e.step_overhead_ms, 2.5);
  EXPECT_EQ(e.request_overhead_ms, 4);
  EXPECT_TRUE(e.memory_utilization_auto);
  const gpushare::Scenario eight = ReadEngineScenario(EngineScenario(
      std::string(kChat) +
      "        scheduling: multi_step\n"
      "        num_scheduler_steps: 8\n"));
  EXPECT_EQ(eight.workload.classes[0].llm_engine->scheduler_steps, 8);
  const gpushare::Scenario eager = ReadEngineScenario(
      EngineScenario(std::string(kChat) + "        scheduling: eager\n"));
  EXPECT_EQ(eager.workload.classes[0].llm_engine->scheduling,
            LlmScheduling::kEager);
  EXPECT_EQ(eager.workload.classes[0].llm_engine->scheduler_steps, 1);
}

TEST(EngineReaderTest, BadSchedulingIsLocated) {
  EXPECT_NE(EngineError(EngineScenario(std::string(kChat) +
                                       "        scheduling: fifo\n"))
                .find("s.yaml:17:21: class 'chat' engine scheduling"),
            std::string::npos);
  EXPECT_EQ(EngineError(EngineScenario(std::string(kChat) +
                                       "        num_scheduler_steps: 8\n")),
            "s.yaml:17:9: class 'chat' engine num_scheduler_steps: steps per "
            "scheduler invocation are for `scheduling: multi_step`; this "
            "engine's scheduling is chunked_prefill");
  EXPECT_NE(EngineError(EngineScenario(std::string(kChat) +
                                       "        step_overhead_ms: -1\n"))
                .find("s.yaml:17:27: class 'chat' engine step_overhead_ms: "
                      "-1 is out of range"),
            std::string::npos);
}

TEST(EngineReaderTest, AUtilizationThatCanStartNowhereIsRefused) {
  // 0.2 of the largest GPU (H100-80GB, 81,559 MiB) is 16,311 MiB: under
  // 15 GiB of weights and 1 GiB reserved, no KV block anywhere.
  EXPECT_EQ(EngineError(EngineScenario(std::string(kChat) +
                                       "        gpu_memory_utilization: "
                                       "0.2\n")),
            "s.yaml:17:9: class 'chat' engine gpu_memory_utilization: 0.2 of "
            "the scenario's largest GPU (H100-80GB, 81559 MiB) is 16311 MiB, "
            "which leaves no KV cache block after 15 GiB of weights and 1 GiB "
            "reserved: the engine can start nowhere (vLLM: \"No available "
            "memory for the cache blocks\"); raise it or give `auto`");
  // 0.21 (17,127 MiB) leaves 743 MiB: it can start on a whole GPU.
  EXPECT_EQ(EngineError(EngineScenario(std::string(kChat) +
                                       "        gpu_memory_utilization: "
                                       "0.21\n")),
            "");
}

TEST(EngineReaderTest, WeightsLargerThanEveryGpuAreRefused) {
  std::string huge = kChat;
  huge.replace(huge.find("weights_gib: 15"), 15, "weights_gib: 140");
  EXPECT_EQ(EngineError(EngineScenario(huge)),
            "s.yaml:15:9: class 'chat' engine weights_gib: 140 GiB of "
            "weights fit no GPU of the scenario (the largest, H100-80GB, has "
            "79.6 GiB); they are each GPU's: shard the model over more with "
            "tensor_parallel");
}

TEST(EngineReaderTest, BatchedTokensBelowMaxNumSeqsAreRefused) {
  // vLLM's SchedulerConfig refuses max_num_batched_tokens < max_num_seqs
  // (every running sequence takes a token of each step); TGI has no such
  // key and takes the value as the step's token budget.
  const std::string low =
      std::string(kChat) + "        max_num_batched_tokens: 100\n";
  EXPECT_EQ(EngineError(EngineScenario(low)),
            "s.yaml:17:9: class 'chat' engine max_num_batched_tokens: 100 "
            "is below max_num_seqs (256): vLLM refuses to start "
            "(max_num_batched_tokens must be greater than or equal to "
            "max_num_seqs); raise it or lower max_num_seqs");
  EXPECT_EQ(EngineError(EngineScenario(low + "        max_num_seqs: 100\n")),
            "");
  EXPECT_EQ(EngineError(EngineScenario(low + "        kind: tgi\n")), "");
}

TEST(EngineReaderTest, EngineClassNeedsAGpu) {
  // An engine with no GPU would run unmodelled, without TTFT or TPOT.
  std::string cpu = kChat;
  cpu.replace(cpu.find("      engine:"), 0, "      gpus: 0\n");
  EXPECT_EQ(EngineError(EngineScenario(cpu)),
            "s.yaml:14:7: class 'chat' gpus: an LLM engine runs on a GPU: "
            "every pod of the class asks one (gpus > 0), but this one's "
            "least value is 0");
  std::string some = kChat;
  some.replace(some.find("      engine:"), 0,
               "      gpus: {choice: [0, 1]}\n");
  EXPECT_NE(EngineError(EngineScenario(some)).find("s.yaml:14:7: "),
            std::string::npos);
  std::string quarter = kChat;
  quarter.replace(quarter.find("      engine:"), 0, "      gpus: 0.25\n");
  EXPECT_EQ(EngineError(EngineScenario(quarter)), "");
}

TEST(EngineReaderTest, MappingIsForInferenceClasses) {
  const std::string error = EngineError(EngineScenario(
      "    - {name: b, class: batch, count: 1, work_s: 60,\n"
      "       engine: {weights_gib: 1, kv_cache: {layers: 1, "
      "kv_heads: 1, head_dim: 1}}}\n"));
  EXPECT_NE(error.find("s.yaml:9:8: class 'b' engine: an engine with a "
                       "memory model serves requests"),
            std::string::npos)
      << error;
}

TEST(EngineReaderTest, TokenObjectivesAndParams) {
  // The SLO keys sit on the class (before `engine:`), params_billion in it.
  std::string chat = kChat;
  chat.replace(chat.find("      engine:"), 0,
               "      slo_ttft_p99_ms: 300\n      slo_tpot_p99_ms: 25\n");
  const gpushare::Scenario s = ReadEngineScenario(
      EngineScenario(chat + "        params_billion: 8.03\n"));
  const WorkloadClassSpec& c = s.workload.classes[0];
  EXPECT_EQ(c.slo_ttft_p99_ms, 300);
  EXPECT_EQ(c.slo_tpot_p99_ms, 25);
  EXPECT_DOUBLE_EQ(c.llm_engine->Params(), 8.03e9);
}

TEST(EngineReaderTest, TokenObjectivesNeedAnEngineMapping) {
  std::string plain = kChat;
  plain.replace(plain.find("      engine:"), std::string::npos,
                "      slo_ttft_p99_ms: 100\n");
  EXPECT_EQ(EngineError(EngineScenario(plain)),
            "s.yaml:14:7: class 'chat' slo_ttft_p99_ms: a TTFT or TPOT "
            "objective needs the class's LLM engine: give `engine:` as a "
            "mapping (docs/scenario.md)");
  std::string zero = kChat;
  zero.replace(zero.find("      engine:"), 0, "      slo_tpot_p99_ms: 0\n");
  EXPECT_NE(EngineError(EngineScenario(zero)).find("s.yaml:14:24: class "
                                                  "'chat' slo_tpot_p99_ms: 0 "
                                                  "is out of range"),
            std::string::npos)
      << EngineError(EngineScenario(zero));
}

// A 70B engine on four H100s of one pool (`sharing` as given), its class
// asking `gpus` GPUs, with `extra` engine lines.
std::string TpScenario(const std::string& sharing, const std::string& gpus,
                       const std::string& extra) {
  return R"(cluster:
  pools:
    - {name: p, gpu: H100-80GB, nodes: 1, gpus_per_node: 4,
       sharing: )" + sharing + R"(}
workload:
  horizon_s: 3600
  classes:
    - name: big
      class: inference
      count: 1
      lifetime_s: 600
      request_rate: 1
      gpus: )" + gpus + R"(
      engine:
        params_billion: 70.6
        weights_dtype: fp8
        kv_cache: {layers: 80, kv_heads: 8, head_dim: 128}
)" + extra;
}

TEST(EngineReaderTest, WeightsDtypeSetsTheWeightsFromTheParameters) {
  std::string chat = kChat;
  chat.replace(chat.find("        weights_gib: 15\n"), 24,
               "        params_billion: 8.03\n        weights_dtype: fp8\n");
  chat.replace(chat.find("head_dim: 128}"), 14,
               "head_dim: 128, dtype: fp8}");
  const gpushare::Scenario s = ReadEngineScenario(EngineScenario(chat));
  const LlmEngine& e = *s.workload.classes[0].llm_engine;
  EXPECT_EQ(e.weights_dtype, LlmWeightsDtype::kFp8);
  // 8.03e9 parameters at 1 byte: 7.4785 GiB.
  EXPECT_NEAR(e.weights_gib, 8.03e9 / (1024.0 * 1024 * 1024), 1e-9);
  EXPECT_EQ(e.KvBytesPerToken(), 65536);  // fp8 KV: 1 byte
  EXPECT_EQ(e.tensor_parallel, 1);
}

TEST(EngineReaderTest, TensorParallelShardsTheWeights) {
  const gpushare::Scenario s = ReadEngineScenario(TpScenario(
      "{scheme: exclusive}", "4",
      "        tensor_parallel: 4\n        hidden_size: 8192\n"));
  const LlmEngine& e = *s.workload.classes[0].llm_engine;
  EXPECT_EQ(e.tensor_parallel, 4);
  EXPECT_EQ(e.hidden_size, 8192);
  // 70.6e9 B of FP8 weights over 4 GPUs.
  EXPECT_NEAR(e.weights_gib, 70.6e9 / (1024.0 * 1024 * 1024) / 4, 1e-9);
  EXPECT_DOUBLE_EQ(e.Params(), 70.6e9);
  const gpushare::Scenario m = ReadEngineScenario(TpScenario(
      "{scheme: exclusive}", "2",
      "        tensor_parallel: 2\n        hidden_size: 8192\n"
      "        model_weights_gib: 140\n"));
  EXPECT_EQ(m.workload.classes[0].llm_engine->weights_gib, 70);
}

TEST(EngineReaderTest, TensorParallelRefusals) {
  const std::string tp4 =
      "        tensor_parallel: 4\n        hidden_size: 8192\n";
  EXPECT_EQ(EngineError(TpScenario("{scheme: exclusive}", "4",
                                   "        tensor_parallel: 3\n")),
            "s.yaml:18:26: class 'big' engine tensor_parallel: 3 is not 1, "
            "2, 4 or 8 (the GPUs of one node the model is sharded over; its "
            "attention heads must divide evenly)");
  EXPECT_EQ(EngineError(TpScenario("{scheme: exclusive}", "2", tp4)),
            "s.yaml:18:9: class 'big' engine tensor_parallel: 4 shards the "
            "model over 4 GPUs of each pod, so the class's gpus must be 4 "
            "(it is 2)");
  EXPECT_EQ(EngineError(TpScenario("{scheme: exclusive}", "4",
                                   "        tensor_parallel: 4\n")),
            "s.yaml:18:9: class 'big' engine tensor_parallel: a "
            "tensor-parallel engine all-reduces its activations every "
            "layer: give the model's hidden_size (config.json) beside "
            "tensor_parallel: 4");
  EXPECT_EQ(EngineError(TpScenario("{scheme: exclusive}", "4", "")),
            "s.yaml:13:7: class 'big' gpus: an LLM engine on 4 GPUs shards "
            "its model over them: give the engine tensor_parallel (1, 2, 4 "
            "or 8) equal to gpus, with hidden_size");
  std::string six = TpScenario("{scheme: exclusive}", "4", tp4);
  six.replace(six.find("kv_heads: 8"), 11, "kv_heads: 6");
  EXPECT_EQ(EngineError(six),
            "s.yaml:18:9: class 'big' engine tensor_parallel: 4 GPUs cannot "
            "share 6 KV heads evenly (vLLM requires the KV heads to be a "
            "multiple of the tensor-parallel size, or fewer than it)");
  const std::string mig = EngineError(TpScenario(
      "{scheme: mig, mig_config: all-1g.10gb}", "4", tp4));
  EXPECT_NE(mig.find("s.yaml:18:9: class 'big' engine tensor_parallel: 4 "
                     "GPUs of tensor parallelism cannot run on MIG "
                     "instances"),
            std::string::npos)
      << mig;
  EXPECT_NE(mig.find("no peer-to-peer access"), std::string::npos);
  EXPECT_EQ(EngineError(TpScenario("{scheme: exclusive}", "4",
                                   tp4 + "        weights_gib: 40\n"
                                         "        model_weights_gib: 160\n")),
            "s.yaml:21:9: class 'big' engine model_weights_gib: give the "
            "weights once: weights_gib (what each GPU holds) or "
            "model_weights_gib (the whole model's, split over "
            "tensor_parallel)");
}

TEST(EngineReaderTest, UnknownDtypesAreRefused) {
  std::string w = kChat;
  w += "        weights_dtype: fp4\n";
  EXPECT_NE(EngineError(EngineScenario(w))
                .find("s.yaml:17:24: class 'chat' engine weights_dtype: "),
            std::string::npos)
      << EngineError(EngineScenario(w));
  std::string kv = kChat;
  kv.replace(kv.find("head_dim: 128}"), 14,
             "head_dim: 128, dtype: fp8, dtype_bytes: 2}");
  EXPECT_NE(EngineError(EngineScenario(kv)).find(
                "engine kv_cache dtype_bytes: 2 disagrees with dtype fp8"),
            std::string::npos)
      << EngineError(EngineScenario(kv));
}

}  // namespace
}  // namespace engine_reader_test
}  // namespace gpushare
