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
               "activation_reserve_gib", "prompt_tokens", "output_tokens"});
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
  if (e.Has("gpu_memory_utilization")) {
    engine->gpu_memory_utilization =
        Number(e, "gpu_memory_utilization", 0, 1, true);
  }
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
  return engine;
}

}  // namespace scenario_internal
}  // namespace gpushare
