// InferenceLatency: request latency (p50/p99) of an inference pod.
//
// Plugs into the execution model of share_model.h (docs/model.md §6): the
// share model says how fast a pod's GPU phases run on its domain (s·v·g) and
// which fraction x / a of the GPU time it wants it gets; this file turns that
// into the latency of the pod's requests over a sampling interval.
//
// Model (times in ms, rates per second):
//
//   service time alone     S  = gpu_ms_per_request / gpu_speed
//   service rate           μ  = time_share · 1000 / S
//   utilization            ρ  = λ / μ = λ · S / (1000 · time_share)
//
// Requests arrive as a Poisson stream (rate λ) and are served one at a time
// with exponential service (M/M/1). If ρ ≥ 1 (including μ = 0 with λ > 0)
// the queue is saturated: latency grows without bound, p50 = p99 = +inf.
// Otherwise the sojourn time (wait + service) is exponential with rate
// μ − λ, so its q-quantile is
//
//   sojourn(q) = −ln(1 − q) / (μ − λ) s = −ln(1 − q) · (S / time_share)
//                                          / (1 − ρ) ms
//
// Time-slicing wait: with k = contexts ≥ 2 contexts taking turns on the
// domain (time-slicing, HAMi), a request may arrive while the other k − 1
// contexts hold their slices. That wait is modelled as uniform on [0, W],
//
//   W = (k − 1) · (time_slice_ms + context_switch_ms)
//
// and its q-quantile q · W is added to the sojourn quantile:
//
//   latency(q) = sojourn(q) + q · W          (W = 0 when k ≤ 1)
//
// Adding the quantiles of two independent parts overstates the quantile of
// their sum at high q, and a context does not always use its whole slice:
// this is an upper-bound style approximation of the tail. `time_share`
// should come from the share model (x / a), which already carries
// time-slicing's capacity loss η; W is only the per-request turn wait.
//
//   p50 = latency(0.5), p99 = latency(0.99), utilization = ρ.
//
// Edges, inputs out of range:
//   - λ = 0 (no requests): the pod is idle; p50 = p99 = S + q · W with the
//     matching q (a lone request at full speed plus its turn wait),
//     utilization 0, not saturated. This is not the λ → 0 limit of the
//     M/M/1 quantiles (−ln(1 − q) · S / time_share + q · W).
//   - gpu_ms_per_request = 0 (no GPU work): no queue and no turn wait;
//     p50 = p99 = 0, utilization 0.
//   - GPU work with gpu_speed = 0 or time_share = 0: μ = 0, so saturated
//     when λ > 0 (utilization +inf); with λ = 0, p50 = p99 = S (+inf when
//     gpu_speed = 0).
//   - Negative or NaN values of λ, gpu_ms_per_request, gpu_speed,
//     time_share, time_slice_ms and context_switch_ms are taken as 0;
//     time_share above 1 is taken as 1; contexts below 1 as 1.
//
// Contract: InferenceLatency() is a pure, deterministic function of its
// inputs; no allocation. MeetsSlo() is true when there is no objective
// (slo_p99_ms ≤ 0 or NaN), false when saturated, else p99 ≤ slo_p99_ms (the
// boundary meets it).

#ifndef GPUSHARE_EXEC_LATENCY_MODEL_H_
#define GPUSHARE_EXEC_LATENCY_MODEL_H_

namespace gpushare {

// One inference pod's situation during a sampling interval.
struct LatencyInputs {
  double request_rate = 0;        // λ, requests per second (Poisson arrivals)
  double gpu_ms_per_request = 0;  // GPU time per request alone on the
                                  // reference GPU (A100 = speed 1)
  double gpu_speed = 1;           // the pod's GPU-phase speed on its domain
                                  // relative to the reference alone (s·v·g of
                                  // share_model.h)
  double time_share = 1;          // x / a: the fraction of the GPU time it
                                  // wants that it gets (1 when uncontended)
  int contexts = 1;               // contexts taking turns on the domain
                                  // (time-slicing, HAMi); 1 when isolated
                                  // (exclusive, MIG, MPS)
  double time_slice_ms = 1.024;   // ModelParams
  double context_switch_ms = 0.2;
};

struct Latency {
  double p50_ms = 0;
  double p99_ms = 0;
  double utilization = 0;  // ρ of its queue
  bool saturated = false;  // ρ >= 1: latency grows without bound
                           // (p50 = p99 = +inf)
  // Whether the pod would meet its SLO on the same device with no
  // co-runner (time share 1, one context): a sample that misses the SLO
  // while this holds was missed because of its neighbours. Set by the
  // simulation; InferenceLatency leaves it false.
  bool alone_meets_slo = false;
  // A pod running an LLM engine (exec/llm_serving_latency.h): p50/p99 are
  // its whole requests', and these its time to first token and time per
  // output token. Zero for other pods.
  bool llm = false;
  double ttft_p50_ms = 0;
  double ttft_p99_ms = 0;
  double tpot_p50_ms = 0;
  double tpot_p99_ms = 0;
};

// A pod's latency objectives (<= 0: none): p99 of its requests, and for an
// LLM engine p99 of TTFT and of TPOT.
struct LatencySlos {
  double p99_ms = 0;
  double ttft_p99_ms = 0;
  double tpot_p99_ms = 0;
};

Latency InferenceLatency(const LatencyInputs& in);

// Whether `latency` meets a p99 objective (slo_p99_ms <= 0: no objective,
// always met).
bool MeetsSlo(const Latency& latency, double slo_p99_ms);
// Whether `latency` meets every objective of `slos` (TTFT and TPOT count
// only for an LLM engine's latency, Latency::llm).
bool MeetsSlos(const Latency& latency, const LatencySlos& slos);

}  // namespace gpushare

#endif  // GPUSHARE_EXEC_LATENCY_MODEL_H_
