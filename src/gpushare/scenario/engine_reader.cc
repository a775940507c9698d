// A class's `engine:` — a name (the engine `emit pod-patches` caps) or a
// mapping that also models the engine's memory (docs/scenario.md,
// docs/model.md §6.7).

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/cluster/sharing_config.h"
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
  kv.AllowOnly({"layers", "kv_heads", "head_dim", "dtype", "dtype_bytes"});
  engine->layers = static_cast<int>(kv.Int("layers", 1, 1000));
  engine->kv_heads = static_cast<int>(kv.Int("kv_heads", 1, 1000));
  engine->head_dim = static_cast<int>(kv.Int("head_dim", 1, 100000));
  if (kv.Has("dtype_bytes")) {
    engine->dtype_bytes = static_cast<int>(kv.Int("dtype_bytes", 1, 8));
  }
  if (kv.Has("dtype")) {
    // vLLM --kv-cache-dtype: auto (the model's 16 bits) or fp8.
    static const std::vector<std::string> kKvDtypes = {"bf16", "fp16", "fp8"};
    const int bytes =
        Choice(kv, "dtype", "KV cache dtype", kKvDtypes) == "fp8" ? 1 : 2;
    if (kv.Has("dtype_bytes") && engine->dtype_bytes != bytes) {
      FailKey(kv, "dtype_bytes",
              fmt::format("{} disagrees with dtype {} ({} bytes); give one "
                          "of them",
                          engine->dtype_bytes, kv.String("dtype"), bytes));
    }
    engine->dtype_bytes = bytes;
  }
}

LlmWeightsDtype WeightsDtype(const YamlMap& e) {
  static const std::vector<std::string> kDtypes = {"bf16", "fp16", "fp8",
                                                   "int8", "int4"};
  const std::string d = Choice(e, "weights_dtype", "weights dtype", kDtypes);
  return d == "fp16"   ? LlmWeightsDtype::kFp16
         : d == "fp8"  ? LlmWeightsDtype::kFp8
         : d == "int8" ? LlmWeightsDtype::kInt8
         : d == "int4" ? LlmWeightsDtype::kInt4
                       : LlmWeightsDtype::kBf16;
}

// tensor_parallel, hidden_size and the weights each GPU holds: weights_gib
// (per GPU), model_weights_gib (the model's, over tensor_parallel), else
// params_billion at the weights dtype's bytes over tensor_parallel.
void ReadSharding(const YamlMap& e, LlmEngine* engine) {
  if (e.Has("weights_dtype")) engine->weights_dtype = WeightsDtype(e);
  if (e.Has("tensor_parallel")) {
    const int64_t n = e.Int("tensor_parallel", 1, 8);
    if (n != 1 && n != 2 && n != 4 && n != 8) {
      FailAt(e.file(), e.Get("tensor_parallel"),
             fmt::format("{}: {} is not 1, 2, 4 or 8 (the GPUs of one node "
                         "the model is sharded over; its attention heads "
                         "must divide evenly)",
                         Label(e, "tensor_parallel"), n));
    }
    engine->tensor_parallel = static_cast<int>(n);
  }
  if (e.Has("hidden_size")) {
    engine->hidden_size = static_cast<int>(e.Int("hidden_size", 1, 1000000));
  } else if (engine->tensor_parallel > 1) {
    FailKey(e, "tensor_parallel",
            fmt::format("a tensor-parallel engine all-reduces its "
                        "activations every layer: give the model's "
                        "hidden_size (config.json) beside tensor_parallel: "
                        "{}",
                        engine->tensor_parallel));
  }
  const int n = engine->tensor_parallel;
  if (engine->kv_heads >= n && engine->kv_heads % n != 0) {
    FailKey(e, "tensor_parallel",
            fmt::format("{} GPUs cannot share {} KV heads evenly (vLLM "
                        "requires the KV heads to be a multiple of the "
                        "tensor-parallel size, or fewer than it)",
                        n, engine->kv_heads));
  }
  if (e.Has("params_billion")) {
    engine->params_billion = Number(e, "params_billion", 0, 1e6, true);
  }
  if (e.Has("weights_gib") && e.Has("model_weights_gib")) {
    FailKey(e, "model_weights_gib",
            "give the weights once: weights_gib (what each GPU holds) or "
            "model_weights_gib (the whole model's, split over "
            "tensor_parallel)");
  }
  if (e.Has("weights_gib")) {
    engine->weights_gib = Number(e, "weights_gib", 0, kMaxEngineGib, true);
  } else if (e.Has("model_weights_gib")) {
    engine->weights_gib =
        Number(e, "model_weights_gib", 0, kMaxEngineGib * n, true) / n;
  } else if (engine->params_billion > 0) {
    engine->weights_gib = engine->params_billion * 1e9 *
                          LlmBytesPerParam(engine->weights_dtype) /
                          (1024.0 * 1024.0 * 1024.0) / n;
  } else {
    FailKey(e, "weights_gib",
            "expected the engine's weights: weights_gib (each GPU's), "
            "model_weights_gib (the model's) or params_billion (the model's "
            "parameters, at weights_dtype's bytes each)");
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
  e.AllowOnly({"kind", "weights_gib", "model_weights_gib", "params_billion",
               "weights_dtype", "tensor_parallel", "hidden_size", "kv_cache",
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
  ReadKvShape(e, engine.get());
  ReadSharding(e, engine.get());
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
    const char* key = e.Has("weights_gib")         ? "weights_gib"
                      : e.Has("model_weights_gib") ? "model_weights_gib"
                                                   : "params_billion";
    FailKey(e, key,
            fmt::format("{} GiB of weights fit no GPU of the scenario (the "
                        "largest, {}, has {:.1f} GiB); they are each GPU's: "
                        "shard the model over more with tensor_parallel",
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

void CheckEngineDevices(const YamlMap& c, const WorkloadClassSpec& spec,
                        const std::vector<NodePoolSpec>& pools) {
  if (spec.llm_engine == nullptr) return;
  const int n = spec.llm_engine->tensor_parallel;
  YamlMap e = c.Map("engine", Label(c, "engine"));
  const bool constant = spec.gpus.kind == Distribution::Kind::kConstant;
  const double gpus = spec.gpus.Quantile(0.5);
  if (n > 1 && (!constant || gpus != n)) {
    FailKey(e, "tensor_parallel",
            fmt::format("{} shards the model over {} GPUs of each pod, so "
                        "the class's gpus must be {} (it is {})",
                        n, n, n,
                        constant ? MessageNum(gpus)
                                 : std::string("a distribution")));
  }
  if (n == 1 && spec.gpus.Quantile(1 - 1e-9) > 1) {
    FailKey(c, "gpus",
            fmt::format("an LLM engine on {} GPUs shards its model over "
                        "them: give the engine tensor_parallel (1, 2, 4 or "
                        "8) equal to gpus, with hidden_size",
                        MessageNum(spec.gpus.Quantile(1 - 1e-9))));
  }
  if (n == 1) return;
  bool any = false;
  bool all_mig = true;
  for (const NodePoolSpec& p : pools) {
    if (p.gpus_per_node == 0 || !ClassMayLandOn(spec, p)) continue;
    any = true;
    all_mig &= p.sharing.scheme() == SharingScheme::kMig;
  }
  if (any && all_mig) {
    FailKey(e, "tensor_parallel",
            fmt::format("{} GPUs of tensor parallelism cannot run on MIG "
                        "instances, the only devices this class's pods can "
                        "land on: MIG instances have no peer-to-peer access "
                        "(no NVLink or PCIe P2P between them, NVIDIA MIG "
                        "User Guide) and a CUDA process enumerates one MIG "
                        "instance; run it on whole GPUs",
                        n));
  }
}

}  // namespace scenario_internal
}  // namespace gpushare
