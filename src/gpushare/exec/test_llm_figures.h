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
    shapes[r.at("name")] = s;
  }
  return shapes;
}

// Bytes per weight (or KV element) of a dtype name; 0 when unknown.
// "not_stated" (a KV cache whose dtype the source does not give) is taken
// as 16 bits, the engines' default.
inline double DtypeBytes(const std::string& dtype) {
  if (dtype == "bf16" || dtype == "fp16" || dtype == "not_stated") return 2;
  if (dtype == "fp8" || dtype == "int8") return 1;
  if (dtype == "int4") return 0.5;
  return 0;
}

// What the model needs to compute one figure.
struct LlmFigureInputs {
  LlmEngine engine;   // one GPU's share of the (tensor-parallel) engine
  LlmDevice device;   // one whole GPU of the row's model, alone
  ModelParams params;
  int64_t gpu_memory_mib = 0;
  int tensor_parallel = 1;
  // Requests: fixed lengths (the row's means; length_dist is not used yet).
  double input_tokens = 0;
  double output_tokens = 0;
  std::string load_kind;  // batch, concurrency, request_rate, offline
  double load = 0;        // batch size, clients, or requests per second
  // Row fields the model has no input for yet (docs/model.md §6.8): listed
  // so the lead sees what a merge must wire here.
  std::vector<std::string> not_yet_used;
};

// The ONE mapping from a figure's row to model inputs. Today:
// - weights: params_b (the row's, else the model's) at the weights dtype's
//   bytes (bf16 2, fp8/int8 1, int4 0.5) over tensor_parallel: the engine
//   is one GPU's share (params and weights / tp, KV heads / tp rounded up),
//   which is how a TP engine is written until tensor parallelism exists
//   (no all-reduce time);
// - KV cache: kv_dtype's bytes (LlmEngine::dtype_bytes; int, so int4 KV is
//   not representable);
// - prefill runs at the GPU's dense BF16 peak whatever weights_dtype says
//   (FP8 compute is not modelled);
// - max_num_seqs: a batch row's batch; vLLM's default (256) for vLLM
//   offline rows; otherwise unbounded (the KV cache bounds the batch, as
//   TensorRT-LLM's and SGLang's memory-sized batches);
// - scheduling (chunked prefill, multi-step, eager admission), per-step and
//   per-request overheads and length distributions are not used yet.
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
  const double kv_bytes = DtypeBytes(row.at("kv_dtype"));
  EXPECT_GT(weight_bytes, 0) << row.at("id") << ": weights_dtype";
  EXPECT_GE(kv_bytes, 1) << row.at("id") << ": kv_dtype";
  constexpr double kGib = 1024.0 * 1024.0 * 1024.0;
  in.engine.params_billion = params_b / tp;
  in.engine.weights_gib = params_b * 1e9 * weight_bytes / tp / kGib;
  in.engine.layers = shape.layers;
  in.engine.kv_heads = static_cast<int>(std::ceil(shape.kv_heads / tp));
  in.engine.head_dim = shape.head_dim;
  in.engine.dtype_bytes = static_cast<int>(kv_bytes);
  in.input_tokens = std::stod(row.at("input_tokens"));
  in.output_tokens = std::stod(row.at("output_tokens"));
  in.engine.prompt_tokens = Distribution::Constant(in.input_tokens);
  in.engine.output_tokens = Distribution::Constant(in.output_tokens);
  in.load_kind = row.at("load_kind");
  in.load = row.at("load").empty() ? 0 : std::stod(row.at("load"));
  if (in.load_kind == "batch") {
    in.engine.max_num_seqs = static_cast<int>(in.load);
  } else if (row.at("engine") != "vLLM") {
    in.engine.max_num_seqs = 1 << 20;
  }
  in.device = {gpu->relative_speed, 1, gpu->memory_bandwidth_gb_s, 1};
  in.gpu_memory_mib = gpu->memory_mib;
  if (in.tensor_parallel > 1) in.not_yet_used.push_back("tp all-reduces");
  if (row.at("weights_dtype") == "fp8") in.not_yet_used.push_back("fp8 compute");
  if (!row.at("scheduling").empty() && row.at("scheduling") != "not_stated") {
    in.not_yet_used.push_back("scheduling " + row.at("scheduling"));
  }
  if (row.at("length_dist") != "fixed") {
    in.not_yet_used.push_back("length_dist " + row.at("length_dist"));
  }
  return in;
}

// Milliseconds to the first token of a static batch of `batch` prompts:
// their prefill compute plus the steps it is chunked over (each reads the
// weights), as §6.8's TTFT with no batch decoding; batch 1 is
// LlmServingLatency's lone request.
inline double StaticBatchTtftMs(const LlmFigureInputs& in, double batch) {
  const double tokens = batch * in.input_tokens;
  const double chunks =
      std::ceil(tokens / static_cast<double>(in.engine.max_num_batched_tokens));
  return LlmPrefillMs(in.engine, in.device, in.params, tokens) +
         chunks * LlmDecodeStepMs(in.engine, in.device, in.params, 0,
                                  in.input_tokens);
}

// One decode step of `batch` sequences at the mean context P + O/2.
inline double DecodeStepMs(const LlmFigureInputs& in, double batch) {
  return LlmDecodeStepMs(in.engine, in.device, in.params, batch,
                         in.input_tokens + in.output_tokens / 2);
}

// Sequences the engine runs at once on one GPU's memory.
inline int64_t SaturatedBatch(const LlmFigureInputs& in) {
  return in.engine.MaxConcurrentSeqs(
      in.engine.KvCapacityTokens(in.gpu_memory_mib));
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
// - offline: the saturated batch B (KV cache, max_num_seqs) in steady
//   state, each request costing its prefill and O decode-step shares:
//   output tok/s = B · O / (B · prefill(P) + O · step(B));
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
    const double b = static_cast<double>(SaturatedBatch(in));
    if (b > 0) {
      tpot = DecodeStepMs(in, b);
      const double ms =
          b * LlmPrefillMs(in.engine, in.device, in.params, in.input_tokens) +
          o * tpot;
      out_tok_s = b * o / (ms / 1000);
      req_s = b / (ms / 1000);
    }
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
