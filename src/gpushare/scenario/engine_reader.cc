// A class's `engine:` — a name (the engine `emit pod-patches` caps) or a
// mapping that also models the engine's memory (docs/scenario.md,
// docs/model.md §6.7).

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {
namespace scenario_internal {
namespace {

// TGI's --cuda-memory-fraction defaults to 1 (all the memory it sees).
constexpr double kTgiDefaultMemoryFraction = 1.0;
constexpr double kMaxEngineGib = 1 << 20;
constexpr int64_t kMaxEngineTokens = int64_t{1} << 30;
// --num-scheduler-steps in vLLM's published multi-step benchmarks (its own
// default, 1, is no multi-step; docs/model.md §6.8).
constexpr int kDefaultMultiSchedulerSteps = 10;

InferenceEngine EngineKind(const YamlMap& m, std::string_view key) {
  static const std::vector<std::string> kEngines = {"none", "vllm", "tgi"};
  const std::string engine = Choice(m, key, "engine", kEngines);
  return engine == "vllm"  ? InferenceEngine::kVllm
         : engine == "tgi" ? InferenceEngine::kTgi
                           : InferenceEngine::kNone;
}

// The largest GPU memory (MiB) of the scenario's pools, and its model;
// the catalog's largest when no pool has GPUs.
const GpuModel* LargestGpu(const std::vector<NodePoolSpec>& pools,
                           const Catalog& catalog) {
  const GpuModel* best = nullptr;
  for (const NodePoolSpec& p : pools) {
    if (p.gpus_per_node == 0 || p.gpu_model.empty()) continue;
    const GpuModel* m = catalog.Find(p.gpu_model);
    if (m != nullptr && (best == nullptr || m->memory_mib > best->memory_mib)) {
      best = m;
    }
  }
  if (best != nullptr) return best;
  for (const GpuModel& m : catalog.models()) {
    if (best == nullptr || m.memory_mib > best->memory_mib) best = &m;
  }
  return best;
}

void ReadKvShape(const YamlMap& e, LlmEngine* engine) {
  YamlMap kv = e.Map("kv_cache", Label(e, "kv_cache"));
  kv.AllowOnly({"layers", "kv_heads", "head_dim", "dtype_bytes"});
  engine->layers = static_cast<int>(kv.Int("layers", 1, 1000));
  engine->kv_heads = static_cast<int>(kv.Int("kv_heads", 1, 1000));
  engine->head_dim = static_cast<int>(kv.Int("head_dim", 1, 100000));
  if (kv.Has("dtype_bytes")) {
    engine->dtype_bytes = static_cast<int>(kv.Int("dtype_bytes", 1, 8));
  }
}

// `gpu_memory_utilization`: a share in (0, 1], or `auto` (the default):
// the share the emitted pod patch sets on a time-sliced GPU, the kind's
// default on an isolated grant (workload/engine_memory_fraction.h).
void ReadMemoryUtilization(const YamlMap& e, LlmEngine* engine) {
  engine->memory_utilization_auto = true;
  if (!e.Has("gpu_memory_utilization")) return;
  const YAML::Node v = e.Get("gpu_memory_utilization");
  if (v.IsScalar() && v.Scalar() == "auto") return;
  engine->memory_utilization_auto = false;
  engine->gpu_memory_utilization =
      Number(e, "gpu_memory_utilization", 0, 1, true);
}

// `scheduling` and its `num_scheduler_steps`, the overheads.
void ReadScheduling(const YamlMap& e, LlmEngine* engine) {
  if (e.Has("scheduling")) {
    static const std::vector<std::string> kPolicies = {
        "chunked_prefill", "multi_step", "eager"};
    const std::string policy = Choice(e, "scheduling", "scheduling", kPolicies);
    engine->scheduling = policy == "multi_step" ? LlmScheduling::kMultiStep
                         : policy == "eager"    ? LlmScheduling::kEager
                                                : LlmScheduling::kChunkedPrefill;
  }
  if (engine->scheduling == LlmScheduling::kMultiStep) {
    engine->scheduler_steps = kDefaultMultiSchedulerSteps;
  }
  if (e.Has("num_scheduler_steps")) {
    if (engine->scheduling != LlmScheduling::kMultiStep) {
      FailKey(e, "num_scheduler_steps",
              fmt::format("steps per scheduler invocation are for "
                          "`scheduling: multi_step`; this engine's scheduling "
                          "is {}",
                          LlmSchedulingName(engine->scheduling)));
    }
    engine->scheduler_steps =
        static_cast<int>(e.Int("num_scheduler_steps", 1, 1024));
  }
  if (e.Has("step_overhead_ms")) {
    engine->step_overhead_ms = Number(e, "step_overhead_ms", 0, 1000);
  }
  if (e.Has("request_overhead_ms")) {
    engine->request_overhead_ms = Number(e, "request_overhead_ms", 0, 60000);
  }
}

}  // namespace

std::shared_ptr<const LlmEngine> ReadEngine(
    const YamlMap& c, WorkloadClass workload_class, const Catalog& catalog,
    const std::vector<NodePoolSpec>& pools, InferenceEngine* kind) {
  if (!c.Get("engine").IsMap()) {
    *kind = EngineKind(c, "engine");
    return nullptr;
  }
  YamlMap e = c.Map("engine", Label(c, "engine"));
  if (workload_class != WorkloadClass::kInference) {
    FailKey(c, "engine",
            "an engine with a memory model serves requests: it is for "
            "inference classes (give `engine: vllm` alone to name a batch "
            "class's engine for emit pod-patches)");
  }
  e.AllowOnly({"kind", "weights_gib", "params_billion", "kv_cache",
               "gpu_memory_utilization",
               "max_num_seqs", "max_num_batched_tokens",
               "activation_reserve_gib", "prompt_tokens", "output_tokens",
               "scheduling", "num_scheduler_steps", "step_overhead_ms",
               "request_overhead_ms"});
  *kind = e.Has("kind") ? EngineKind(e, "kind") : InferenceEngine::kVllm;
  if (*kind == InferenceEngine::kNone) {
    FailKey(e, "kind", "an engine mapping names its engine: vllm or tgi");
  }
  auto engine = std::make_shared<LlmEngine>();
  if (*kind == InferenceEngine::kTgi) {
    engine->gpu_memory_utilization = kTgiDefaultMemoryFraction;
  }
  engine->weights_gib = Number(e, "weights_gib", 0, kMaxEngineGib, true);
  if (e.Has("params_billion")) {
    engine->params_billion = Number(e, "params_billion", 0, 1e6, true);
  }
  ReadKvShape(e, engine.get());
  ReadMemoryUtilization(e, engine.get());
  if (e.Has("max_num_seqs")) {
    engine->max_num_seqs = static_cast<int>(e.Int("max_num_seqs", 1, 1 << 20));
  }
  if (e.Has("max_num_batched_tokens")) {
    engine->max_num_batched_tokens =
        e.Int("max_num_batched_tokens", 1, kMaxEngineTokens);
  }
  if (*kind == InferenceEngine::kVllm &&
      engine->max_num_batched_tokens < engine->max_num_seqs) {
    // vllm/config/scheduler.py SchedulerConfig._verify_args raises it.
    FailKey(e, "max_num_batched_tokens",
            fmt::format("{} is below max_num_seqs ({}): vLLM refuses to "
                        "start (max_num_batched_tokens must be greater than "
                        "or equal to max_num_seqs); raise it or lower "
                        "max_num_seqs",
                        engine->max_num_batched_tokens, engine->max_num_seqs));
  }
  if (e.Has("activation_reserve_gib")) {
    engine->activation_reserve_gib =
        Number(e, "activation_reserve_gib", 0, kMaxEngineGib);
  }
  ReadScheduling(e, engine.get());
  ReadDistribution(e, "prompt_tokens", &engine->prompt_tokens);
  ReadDistribution(e, "output_tokens", &engine->output_tokens);
  for (const char* key : {"prompt_tokens", "output_tokens"}) {
    const Distribution& d = std::string_view(key) == "prompt_tokens"
                                ? engine->prompt_tokens
                                : engine->output_tokens;
    const double lowest = d.Quantile(1e-9);
    const double median = d.Quantile(0.5);
    if (lowest < 0 || median < 1 || median > kMaxEngineTokens) {
      FailKey(e, key,
              fmt::format("requests have 0..{} tokens, a median of at least "
                          "1; this one's least value is {} and median {}",
                          kMaxEngineTokens, MessageNum(lowest),
                          MessageNum(median)));
    }
  }
  const GpuModel* largest = LargestGpu(pools, catalog);
  if (largest != nullptr &&
      engine->weights_gib * 1024 > static_cast<double>(largest->memory_mib)) {
    FailKey(e, "weights_gib",
            fmt::format("{} GiB of weights fit no GPU of the scenario (the "
                        "largest, {}, has {:.1f} GiB); give the weights per "
                        "GPU of a tensor-parallel engine",
                        MessageNum(engine->weights_gib), largest->name,
                        static_cast<double>(largest->memory_mib) / 1024));
  }
  if (largest != nullptr && !engine->memory_utilization_auto &&
      engine->KvCapacityTokens(largest->memory_mib) <= 0) {
    // The most any grant shows it is the largest GPU whole.
    FailKey(e, "gpu_memory_utilization",
            fmt::format("{} of the scenario's largest GPU ({}, {} MiB) is {} "
                        "MiB, which leaves no KV cache block after {} GiB of "
                        "weights and {} GiB reserved: the engine can start "
                        "nowhere (vLLM: \"No available memory for the cache "
                        "blocks\"); raise it or give `auto`",
                        MessageNum(engine->gpu_memory_utilization),
                        largest->name, largest->memory_mib,
                        engine->FootprintMib(largest->memory_mib),
                        MessageNum(engine->weights_gib),
                        MessageNum(engine->activation_reserve_gib)));
  }
  return engine;
}

}  // namespace scenario_internal
}  // namespace gpushare
