// Test-only fixture: published LLM serving figures
// (tests/data/llm/published_figures.csv) and the model shapes they name
// (tests/data/llm/models.csv), and what the LLM model (llm_step_model.h,
// llm_serving_latency.h) computes for each. docs/model.md §6.8 describes
// the table and how its calibration table is regenerated.
//
// Contract: ReadLlmFigures/ReadLlmModelShapes parse a CSV with a header
// (RFC 4180 quoting) and fail the calling test (ADD_FAILURE) on a row they
// cannot read. LlmInputsForFigure is the ONE place a figure's row becomes
// model inputs; ModelValueForFigure evaluates the row's metric from them.
// Pure functions otherwise; deterministic.

#ifndef GPUSHARE_EXEC_TEST_LLM_FIGURES_H_
#define GPUSHARE_EXEC_TEST_LLM_FIGURES_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpushare/catalog/catalog.h"
#include "gpushare/exec/llm_scheduling.h"
#include "gpushare/exec/llm_serving_latency.h"
#include "gpushare/exec/llm_step_model.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/workload/distribution.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {
namespace llm_figures {

// One CSV record: the header's column names to the row's values.
using CsvRow = std::map<std::string, std::string>;

// Splits one CSV line into fields (RFC 4180: "a,""b""" is one field).
inline std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// Every record of the CSV at `path`; a row whose field count differs from
// the header's fails the test and is skipped.
inline std::vector<CsvRow> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::vector<CsvRow> rows;
  if (!in) {
    ADD_FAILURE() << "cannot read " << path;
    return rows;
  }
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  int line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const std::vector<std::string> fields = SplitCsvLine(line);
    if (fields.size() != header.size()) {
      ADD_FAILURE() << path << ":" << line_no << ": " << fields.size()
                    << " fields, the header has " << header.size();
      continue;
    }
    CsvRow row;
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

// A model's shape from its config.json (tests/data/llm/models.csv).
struct LlmModelShape {
  double params_b = 0;
  int layers = 0;
  int kv_heads = 0;
  int head_dim = 0;
  int hidden = 0;
};

inline std::map<std::string, LlmModelShape> ReadLlmModelShapes(
    const std::string& path) {
  std::map<std::string, LlmModelShape> shapes;
  for (const CsvRow& r : ReadCsv(path)) {
    LlmModelShape s;
    s.params_b = std::stod(r.at("params_b"));
    s.layers = std::stoi(r.at("layers"));
    s.kv_heads = std::stoi(r.at("kv_heads"));
    s.head_dim = std::stoi(r.at("head_dim"));
    s.hidden = std::stoi(r.at("hidden"));
    shapes[r.at("name")] = s;
  }
  return shapes;
}

// What a static-batch benchmark (TensorRT-LLM's gptSessionBenchmark,
// lmdeploy's profile_generation) adds to each batch's first token beyond
// the GPU's steps, ms: the C++ runtime's generate call (setup, sampling,
// host synchronisation). Fitted on the three batch-1 TTFT rows marked fit
// (lmd-13b-a100-b1-2048-ttft, trtperf-7b-h100-b1-128-ttft,
// trtgptj-a100-b1-ttft; a grid by 0.05 ms): 4.3 ms (docs/model.md §6.8).
inline constexpr double kStaticBatchRequestMs = 4.3;

// Bytes per weight (or KV element) of a dtype name; 0 when unknown.
// "not_stated" (a KV cache whose dtype the source does not give) is taken
// as 16 bits, the engines' default.
inline double DtypeBytes(const std::string& dtype) {
  if (dtype == "bf16" || dtype == "fp16" || dtype == "not_stated") return 2;
  if (dtype == "fp8" || dtype == "int8") return 1;
  if (dtype == "int4") return 0.5;
  return 0;
}

// The weights dtype of a row's name (bf16 when unknown; DtypeBytes checks).
inline LlmWeightsDtype WeightsDtype(const std::string& dtype) {
  if (dtype == "fp16") return LlmWeightsDtype::kFp16;
  if (dtype == "fp8") return LlmWeightsDtype::kFp8;
  if (dtype == "int8") return LlmWeightsDtype::kInt8;
  if (dtype == "int4") return LlmWeightsDtype::kInt4;
  return LlmWeightsDtype::kBf16;
}

// Whether a row whose source does not state the KV cache's dtype ran it in
// FP8: TensorRT-LLM (and NIM, built on it) serving FP8 weights in flight
// (not the static-batch rows of TensorRT-LLM 0.5, built from their own
// engines, whose sources do not say). NVIDIA's
// FP8 recipes quantise the KV cache with the weights: a ModelOpt FP8
// export's hf_quant_config.json names kv_cache_quant_algo FP8 beside
// quant_algo FP8 (NVIDIA/TensorRT-Model-Optimizer, the export's
// convert_hf_quant_config_format example), and the TensorRT-LLM 0.6
// performance page builds its FP8 engines with --fp8_kv_cache.
inline bool KvCacheFp8ByDefault(const CsvRow& row) {
  return row.at("kv_dtype") == "not_stated" &&
         row.at("weights_dtype") == "fp8" &&
         row.at("engine") == "TensorRT-LLM" &&
         row.at("scheduling") != "static-batch";
}

// What the model needs to compute one figure.
struct LlmFigureInputs {
  LlmEngine engine;   // the whole (tensor-parallel) engine
  LlmDevice device;   // one whole GPU of the row's model, alone
  ModelParams params;
  int64_t gpu_memory_mib = 0;
  int tensor_parallel = 1;
  // Requests: fixed lengths (the row's means; length_dist is not used yet).
  double input_tokens = 0;
  double output_tokens = 0;
  std::string load_kind;  // batch, concurrency, request_rate, offline
  double load = 0;        // batch size, clients, or requests per second
  // Row fields the model has no input for (docs/model.md §6.8).
  std::vector<std::string> not_yet_used;
};

// The ONE mapping from a figure's row to model inputs (docs/model.md
// §6.8, "From a row to the model"):
// - the engine: params_b (the row's, else the model's) in weights_dtype
//   (bf16/fp16 2 bytes, fp8/int8 1, int4 0.5; fp8 computes at the GPU's
//   FP8 rate), tensor_parallel = the row's tp (weights_gib is one GPU's
//   share; KV heads are sharded by LlmEngine), hidden_size and the KV
//   shape from models.csv, the KV cache in kv_dtype's bytes (not_stated:
//   16 bits, but FP8 where KvCacheFp8ByDefault);
// - the device: one whole GPU of the row's model with its catalog FP8
//   rate and GPU-to-GPU link;
// - scheduling from the engine: SGLang eager; vLLM whose scheduling names
//   multi-step n: multi_step n; other vLLM (V1, chunked prefill by
//   default) and TensorRT-LLM's in-flight batching (context chunks and
//   generation tokens in one step under a max_num_tokens budget, 8,192
//   by default): chunked_prefill; static-batch rows (TensorRT-LLM's
//   gptSessionBenchmark, lmdeploy's profile_generation) run all prompts
//   in one step, then decode, with no scheduler, plus
//   kStaticBatchRequestMs on the first token;
// - CPU overheads: the ModelParams of the scheduling (the engines'
//   schedulers in Python: vLLM, SGLang, TensorRT-LLM's PyTorch backend
//   and NIM); none for static-batch rows (C++ loops: TensorRT-LLM 0.5/0.6
//   sessions, TurboMind);
// - max_num_seqs: a batch row's batch; vLLM's default (256) for vLLM;
//   otherwise unbounded (the KV cache bounds the batch, as TensorRT-LLM's
//   and SGLang's memory-sized batches).
inline LlmFigureInputs LlmInputsForFigure(
    const CsvRow& row, const std::map<std::string, LlmModelShape>& shapes,
    const Catalog& catalog) {
  LlmFigureInputs in;
  const LlmModelShape& shape = shapes.at(row.at("model"));
  const GpuModel* gpu = catalog.Find(row.at("gpu"));
  EXPECT_NE(gpu, nullptr) << row.at("id") << ": GPU " << row.at("gpu");
  if (gpu == nullptr) return in;
  in.tensor_parallel = std::max(1, std::stoi(row.at("tp")));
  const double tp = in.tensor_parallel;
  const double params_b = row.at("params_b").empty()
                              ? shape.params_b
                              : std::stod(row.at("params_b"));
  const double weight_bytes = DtypeBytes(row.at("weights_dtype"));
  const double kv_bytes =
      KvCacheFp8ByDefault(row) ? 1 : DtypeBytes(row.at("kv_dtype"));
  EXPECT_GT(weight_bytes, 0) << row.at("id") << ": weights_dtype";
  EXPECT_GE(kv_bytes, 1) << row.at("id") << ": kv_dtype";
  constexpr double kGib = 1024.0 * 1024.0 * 1024.0;
  in.engine.params_billion = params_b;
  in.engine.weights_dtype = WeightsDtype(row.at("weights_dtype"));
  in.engine.weights_gib = params_b * 1e9 * weight_bytes / tp / kGib;
  in.engine.tensor_parallel = in.tensor_parallel;
  in.engine.hidden_size = shape.hidden;
  in.engine.layers = shape.layers;
  in.engine.kv_heads = shape.kv_heads;
  in.engine.head_dim = shape.head_dim;
  in.engine.dtype_bytes = static_cast<int>(kv_bytes);
  in.input_tokens = std::stod(row.at("input_tokens"));
  in.output_tokens = std::stod(row.at("output_tokens"));
  in.engine.prompt_tokens = Distribution::Constant(in.input_tokens);
  in.engine.output_tokens = Distribution::Constant(in.output_tokens);
  in.load_kind = row.at("load_kind");
  in.load = row.at("load").empty() ? 0 : std::stod(row.at("load"));
  const std::string& engine = row.at("engine");
  const std::string& scheduling = row.at("scheduling");
  if (engine == "SGLang") {
    in.engine.scheduling = LlmScheduling::kEager;
  } else if (engine == "vLLM" &&
             scheduling.find("multi-step") != std::string::npos) {
    in.engine.scheduling = LlmScheduling::kMultiStep;
    const size_t digits = scheduling.find_first_of("0123456789");
    in.engine.scheduler_steps =
        digits == std::string::npos ? 8 : std::stoi(scheduling.substr(digits));
  } else {
    in.engine.scheduling = LlmScheduling::kChunkedPrefill;
  }
  if (in.load_kind == "batch") {
    in.engine.max_num_seqs = static_cast<int>(in.load);
  } else if (engine != "vLLM") {
    in.engine.max_num_seqs = 1 << 20;
  }
  if (scheduling == "static-batch") {
    in.engine.step_overhead_ms = 0;
    in.engine.request_overhead_ms = 0;
  }
  if (engine == "TensorRT-LLM" || engine == "lmdeploy") {
    in.params.llm_step_overhead_per_seq_ms = 0;
  }
  in.device = {gpu->relative_speed, 1, gpu->memory_bandwidth_gb_s, 1,
               gpu->fp8_tflops, gpu->interconnect_gb_s};
  in.gpu_memory_mib = gpu->memory_mib;
  if (row.at("length_dist") != "fixed") {
    in.not_yet_used.push_back("length_dist " + row.at("length_dist"));
  }
  return in;
}

// The CPU's part of a decode step of `batch` sequences: the scheduler's
// invocation (once every n steps under multi_step) and o_s a sequence.
inline double StepCpuMs(const LlmFigureInputs& in, double batch) {
  const double n = in.engine.scheduling == LlmScheduling::kMultiStep
                       ? std::max(1, in.engine.scheduler_steps)
                       : 1;
  return LlmStepOverheadMs(in.engine, in.params) / n +
         in.params.llm_step_overhead_per_seq_ms * batch;
}

// Milliseconds to the first token of a static batch of `batch` prompts: one
// roofline step (LlmStepMs) of their batch · P prompt tokens, `batch`
// chunks from an empty cache, and the runtime's kStaticBatchRequestMs.
inline double StaticBatchTtftMs(const LlmFigureInputs& in, double batch) {
  LlmStep step;
  step.prefill_tokens = batch * in.input_tokens;
  step.prefill_seqs = batch;
  return kStaticBatchRequestMs +
         LlmStepMs(in.engine, in.device, in.params, step);
}

// One decode step of `batch` sequences at the mean context P + O/2, with
// the CPU's part.
inline double DecodeStepMs(const LlmFigureInputs& in, double batch) {
  return LlmDecodeStepMs(in.engine, in.device, in.params, batch,
                         in.input_tokens + in.output_tokens / 2) +
         StepCpuMs(in, batch);
}

// Sequences the engine runs at once on one GPU's memory.
inline int64_t SaturatedBatch(const LlmFigureInputs& in) {
  return in.engine.MaxConcurrentSeqs(
      in.engine.KvCapacityTokens(in.gpu_memory_mib));
}

// Output tokens per second of an engine fed without limit (all requests
// queued at once), in steady state, each step timed by LlmStepMs:
// - chunked_prefill: every step carries the batch's B decode tokens and
//   the B·P/O prompt tokens that keep it full, within the step's budget M:
//   B = min(KV-bound batch, M·O/(P + O)); rate B / step;
// - multi_step, eager: decode steps of the batch B (KV-bound) and
//   prefill-only steps of M prompt tokens (M/P prompts each) refilling
//   it: B·O tokens per O decode steps and B·P/M prefill steps.
inline double OfflineOutputTokS(const LlmFigureInputs& in) {
  const double p = in.input_tokens;
  const double o = in.output_tokens;
  const double m = static_cast<double>(in.engine.max_num_batched_tokens);
  double b = static_cast<double>(SaturatedBatch(in));
  if (!(b > 0)) return 0;
  if (in.engine.scheduling == LlmScheduling::kChunkedPrefill) {
    b = std::min(b, m * o / (p + o));
    LlmStep step;
    step.decode_seqs = b;
    step.decode_context = p + o / 2;
    step.prefill_tokens = b * p / o;
    step.prefill_seqs = std::max(1.0, b / o);
    const double ms =
        LlmStepMs(in.engine, in.device, in.params, step) + StepCpuMs(in, b);
    return b / (ms / 1000);
  }
  LlmStep prefill;
  prefill.prefill_tokens = std::min(m, b * p);
  prefill.prefill_seqs = std::max(1.0, prefill.prefill_tokens / p);
  const double prefill_steps = b * p / prefill.prefill_tokens;
  const double ms =
      o * DecodeStepMs(in, b) +
      prefill_steps * (LlmStepMs(in.engine, in.device, in.params, prefill) +
                       LlmStepOverheadMs(in.engine, in.params));
  return b * o / (ms / 1000);
}

// Serving latency at Poisson rate `rate` with the engine's KV-bound slots.
inline LlmLatency ServingAt(const LlmFigureInputs& in, double rate) {
  LlmServingInputs s;
  s.request_rate = rate;
  s.max_seqs = SaturatedBatch(in);
  return LlmServingLatency(in.engine, in.device, in.params, s);
}

// A closed loop of `clients` (each sends its next request when the last
// ends) as the Poisson rate λ with λ · latency_p50(λ) = clients (Little's
// law), found by bisection below the saturating rate.
inline double ClosedLoopRate(const LlmFigureInputs& in, double clients) {
  double lo = 0;
  double hi = 1;
  while (!ServingAt(in, hi).saturated && hi < 1e6) hi *= 2;
  for (int i = 0; i < 100; ++i) {
    const double mid = (lo + hi) / 2;
    const LlmLatency l = ServingAt(in, mid);
    if (!l.saturated && mid * l.p50_ms / 1000 < clients) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The model's value of the row's metric (+inf where the model saturates):
// - batch: a static batch of `load` requests: TTFT as StaticBatchTtftMs,
//   then O − 1 decode steps at batch `load`; throughput = batch · O / e2e;
// - offline: OfflineOutputTokS;
// - request_rate: LlmServingLatency at λ = load;
// - concurrency: LlmServingLatency at ClosedLoopRate.
// Means are taken as the model's p50; ITL and TPOT are its TPOT; a unit
// "tok/s/gpu" divides throughput by tensor_parallel.
inline double ModelValueForFigure(const LlmFigureInputs& in,
                                  const std::string& metric,
                                  const std::string& unit) {
  const double inf = std::numeric_limits<double>::infinity();
  const double o = in.output_tokens;
  double ttft = inf, ttft_p99 = inf, tpot = inf, e2e = inf;
  double out_tok_s = 0, req_s = 0;
  if (in.load_kind == "batch") {
    const double b = in.load;
    ttft = StaticBatchTtftMs(in, b);
    ttft_p99 = ttft;
    tpot = DecodeStepMs(in, b);
    e2e = ttft + std::max(0.0, o - 1) * tpot;
    out_tok_s = b * o / (e2e / 1000);
    req_s = b / (e2e / 1000);
  } else if (in.load_kind == "offline") {
    out_tok_s = OfflineOutputTokS(in);
    req_s = out_tok_s / o;
  } else {
    const double rate = in.load_kind == "request_rate"
                            ? in.load
                            : ClosedLoopRate(in, in.load);
    const LlmLatency l = ServingAt(in, rate);
    if (!l.saturated) {
      ttft = l.ttft_p50_ms;
      ttft_p99 = l.ttft_p99_ms;
      tpot = l.tpot_p50_ms;
      e2e = l.p50_ms;
      out_tok_s = rate * o;
      req_s = rate;
    }
  }
  const double per = unit == "tok/s/gpu" ? in.tensor_parallel : 1;
  if (metric == "ttft_mean_ms" || metric == "ttft_p50_ms") return ttft;
  if (metric == "ttft_p99_ms") return ttft_p99;
  if (metric == "tpot_mean_ms" || metric == "tpot_p50_ms" ||
      metric == "itl_mean_ms") {
    return tpot;
  }
  if (metric == "e2e_latency_ms") return e2e;
  if (metric == "output_tok_s") return out_tok_s > 0 ? out_tok_s / per : 0;
  if (metric == "total_tok_s") {
    return out_tok_s * (in.input_tokens + o) / o / per;
  }
  if (metric == "request_per_s") return req_s;
  ADD_FAILURE() << "unknown metric " << metric;
  return inf;
}

}  // namespace llm_figures
}  // namespace gpushare

#endif  // GPUSHARE_EXEC_TEST_LLM_FIGURES_H_
