// Sampling in Simulation (simulation.h): every sample_interval_s, each
// execution domain's utilisation, SM activity and memory as DCGM reports
// them, and the p50/p99 latency of every running inference pod
// (exec/latency_model.h), or for a pod running an LLM engine its TTFT,
// TPOT and request latency (exec/llm_serving_latency.h).

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpushare/exec/latency_model.h"
#include "gpushare/exec/llm_serving_latency.h"
#include "gpushare/io/check.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/simulation_internal.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

using simulation_internal::InferenceDuty;

void Simulation::SampleLatency(double now) {
  const double switch_ms = scenario_.model.context_switch_us / 1000;
  live_.ForEachLive([&](int64_t index) {
    const auto p = static_cast<PodIndex>(index);
    const PodRun& run = RunOf(p);
    const Pod& pod = PodOf(p);
    if (run.phase != Phase::kRunning || !run.resident ||
        pod.needs.request_rate <= 0 || run.domains.empty()) {
      return;
    }
    // The slowest of its domains serves its requests.
    LatencyInputs in;
    in.request_rate = pod.needs.request_rate;
    in.gpu_ms_per_request = pod.needs.gpu_ms_per_request;
    in.time_slice_ms = domains_[run.domains[0]].params->time_slice_ms;
    in.context_switch_ms = switch_ms;
    const double u = ResidentDuty(static_cast<PodIndex>(p));
    double worst = -1;
    const DomainRun* worst_domain = nullptr;
    for (size_t k = 0; k < run.domains.size(); ++k) {
      const DomainRun& d = domains_[run.domains[k]];
      const double g = GpuPhaseSpeed(d.spec.sm_fraction,
                                     std::clamp(pod.needs.sm_demand, 0.0, 1.0));
      const double speed = d.spec.speed * g;
      const double alone = 1 / ((1 - u) + u / speed);
      const double share = std::min(1.0, run.domain_rates[k] / alone);
      int contexts = 1;
      const SharingScheme scheme =
          cluster_->pools()[cluster_->nodes()[d.info.node].pool()]
              .spec.sharing.scheme();
      if (scheme != SharingScheme::kMps) {
        contexts = 0;
        for (PodIndex q : d.residents) {
          contexts += ResidentDuty(q) > 0 ? 1 : 0;
        }
        contexts = std::max(contexts, 1);
      }
      if (worst < 0 || share * speed < worst) {
        worst = share * speed;
        in.gpu_speed = speed;
        in.time_share = share;
        in.contexts = contexts;
        worst_domain = &d;
      }
    }
    Latency latency;
    if (pod.llm_engine != nullptr && worst_domain != nullptr) {
      latency =
          EngineLatency(pod, run, *worst_domain, in, EngineMemo::kShared);
      latency.alone_meets_slo = MeetsSlos(
          EngineLatency(pod, run, *worst_domain, in, EngineMemo::kAlone),
          {pod.needs.slo_p99_ms, pod.needs.slo_ttft_p99_ms,
           pod.needs.slo_tpot_p99_ms});
      observer_->OnLatency(now, static_cast<PodIndex>(p), latency);
      return;
    }
    latency = InferenceLatency(in);
    LatencyInputs alone = in;
    alone.time_share = 1;
    alone.contexts = 1;
    latency.alone_meets_slo =
        MeetsSlo(InferenceLatency(alone), pod.needs.slo_p99_ms);
    observer_->OnLatency(now, static_cast<PodIndex>(p), latency);
  });
}

double Simulation::ResidentDuty(PodIndex p) const {
  const double engine = RunOf(p).llm_duty;
  return engine >= 0 ? engine : InferenceDuty(PodOf(p).needs);
}

double Simulation::EngineDuty(const Pod& pod, const PodRun& run,
                              const DomainRun& domain) const {
  LatencyInputs alone;
  alone.time_slice_ms = domain.params->time_slice_ms;
  const double busy =
      EngineLatency(pod, run, domain, alone, EngineMemo::kDuty).utilization;
  // The duty u whose GPU share alone, a = (u/S) / ((1 − u) + u/S) with
  // S = s·g (docs/model.md §6.1), is the engine's busy fraction.
  const double speed =
      domain.spec.speed *
      GpuPhaseSpeed(domain.spec.sm_fraction,
                    std::clamp(pod.needs.sm_demand, 0.0, 1.0));
  if (!(busy < 1)) return 1;
  if (!(busy > 0)) return 0;
  return busy * speed / (1 - busy + busy * speed);
}

Latency Simulation::EngineLatency(const Pod& pod, const PodRun& run,
                                  const DomainRun& domain,
                                  const LatencyInputs& in,
                                  EngineMemo memo) const {
  const bool alone = memo != EngineMemo::kShared;
  LlmDevice device;
  device.relative_speed = domain.spec.speed;
  device.sm_fraction = domain.spec.sm_fraction;
  device.bandwidth_gb_s = domain.bandwidth_gb_s;
  device.share = alone ? 1.0 : in.time_share;
  const GpuModel* gpu = cluster_->nodes()[domain.info.node].model();
  if (gpu != nullptr) {
    device.fp8_tflops = gpu->fp8_tflops;
    device.link_gb_s = gpu->interconnect_gb_s;
  }
  LlmServingInputs serving;
  serving.request_rate = pod.needs.request_rate;
  serving.max_seqs = run.llm_max_seqs;
  serving.contexts = alone ? 1 : in.contexts;
  serving.time_slice_ms = in.time_slice_ms;
  serving.context_switch_ms = in.context_switch_ms;
  // LlmServingLatency's value, computed again only when an input changed
  // since the memo's last call (sim/llm_latency_memo.h).
  LlmLatency l;
  if (run.llm_memo >= 0) {
    EngineMemos& m = llm_memos_[static_cast<size_t>(run.llm_memo)];
    LlmLatencyMemo& which = memo == EngineMemo::kShared  ? m.shared
                            : memo == EngineMemo::kAlone ? m.alone
                                                         : m.duty;
    l = which.Get(*pod.llm_engine, device, *domain.params, serving);
  } else {
    l = LlmServingLatency(*pod.llm_engine, device, *domain.params, serving);
  }
  Latency out;
  out.llm = true;
  out.p50_ms = l.p50_ms;
  out.p99_ms = l.p99_ms;
  out.utilization = l.busy;  // the share of time its device is busy
  out.saturated = l.saturated;
  out.ttft_p50_ms = l.ttft_p50_ms;
  out.ttft_p99_ms = l.ttft_p99_ms;
  out.tpot_p50_ms = l.tpot_p50_ms;
  out.tpot_p99_ms = l.tpot_p99_ms;
  return out;
}

int64_t Simulation::EngineMaxSeqs(PodIndex p, int64_t kv_tokens) {
  PodRun& run = RunOf(p);
  if (run.llm_memo < 0) {
    if (!llm_memos_free_.empty()) {
      run.llm_memo = llm_memos_free_.back();
      llm_memos_free_.pop_back();
    } else {
      run.llm_memo = static_cast<int32_t>(llm_memos_.size());
      llm_memos_.emplace_back();
    }
  }
  EngineMemos& m = llm_memos_[static_cast<size_t>(run.llm_memo)];
  if (m.kv_tokens != kv_tokens) {
    m.max_seqs = PodOf(p).llm_engine->MaxConcurrentSeqs(kv_tokens);
    m.kv_tokens = kv_tokens;
  }
  return m.max_seqs;
}

void Simulation::Sample(double now) {
  if (observer_ == nullptr) return;
  std::vector<DomainState> states(domains_.size());
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainRun& d = domains_[i];
    DomainState& s = states[i];
    s.residents = static_cast<int>(d.residents.size());
    s.gpu_util = d.residents.empty() ? 0 : d.rates.gpu_util;
    // DCGM reports a MIG instance's SM activity against its own SMs; the
    // share models give it against the whole GPU's.
    s.sm_active =
        d.residents.empty() ? 0 : d.rates.sm_active / d.spec.sm_fraction;
    s.fb_used_mib = d.fb_used_mib;
    s.allocated = d.holders > 0;
    s.down = d.down_until > now;
    s.mig_config_drift = d.layout_lost && !s.down;
  }
  int pending = 0;
  live_.ForEachLive([&](int64_t p) {
    const Phase phase = live_[p].run.phase;
    pending += phase == Phase::kPending || phase == Phase::kPermit ||
               phase == Phase::kGangDormant || phase == Phase::kQueued;
  });
  if (has_dynamic_mig_) SampleMigFragmentation();
  if (elastic_) SampleElastic(now, &states);
  observer_->OnSample(now, states, pending);
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainRun& d = domains_[i];
    if (!d.info.time_shared) continue;
    for (size_t k = 0; k < d.residents.size() && k < d.rates.time_shares.size();
         ++k) {
      observer_->OnPodShare(now, d.residents[k], static_cast<int>(i),
                            d.rates.time_shares[k]);
    }
  }
  SampleLatency(now);
}

}  // namespace gpushare
