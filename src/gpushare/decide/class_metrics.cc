#include "gpushare/decide/class_metrics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpushare/base/quantile_summary.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

namespace {

// Of a PodRecord or a PodSummary (the same numbers).
template <typename Pod>
double Performance(const Pod& pod, double end_s) {
  if (pod.start_s < 0) return 0;  // never started
  if (pod.outcome == PodOutcome::kFailed ||
      pod.outcome == PodOutcome::kAdmissionFailed ||
      pod.outcome == PodOutcome::kUnschedulable) {
    return 0;
  }
  // Succeeded, Deleted, Running, or Pending again in a restart back-off.
  const bool service = pod.work_s <= 0;
  if (!service) {
    if (pod.outcome != PodOutcome::kSucceeded) return -1;
    const double turnaround = pod.end_s - pod.arrival_s;
    if (turnaround <= 0 || pod.alone_s <= 0) return 1;
    return std::min(1.0, pod.alone_s / turnaround);
  }
  const double end = pod.end_s >= 0 ? pod.end_s : end_s;
  // The time its evictions kept it down is waiting, not up.
  const double down = std::max(0.0, pod.eviction_down_s);
  const double up = std::max(0.0, end - pod.start_s - down);
  const double wait = std::max(0.0, pod.wait_s) + down;
  const double availability = up + wait > 0 ? up / (up + wait) : 1;
  const bool has_slo = pod.slo_p99_ms > 0 || pod.slo_ttft_p99_ms > 0 ||
                       pod.slo_tpot_p99_ms > 0;
  const double slo = has_slo && pod.latency_samples > 0
                         ? static_cast<double>(pod.slo_met_samples) /
                               pod.latency_samples
                         : 1;
  return availability * slo;
}

// `inference`: its workload class is kind inference.
template <typename Pod>
double LostGpuHours(const Pod& pod, bool inference, double end_s) {
  if (pod.outcome == PodOutcome::kUnschedulable ||
      pod.outcome == PodOutcome::kNotArrived) {
    return 0;
  }
  const bool never_started = pod.start_s < 0;
  const bool failed = pod.outcome == PodOutcome::kFailed ||
                      pod.outcome == PodOutcome::kAdmissionFailed;
  const double available = std::max(0.0, end_s - pod.arrival_s);
  double hours_s = 0;  // seconds of work lost, per GPU
  if (pod.work_s > 0) {
    hours_s = std::max(0.0, pod.lost_work_s);
    if (never_started || failed) hours_s += std::min(pod.work_s, available);
  } else {
    if (!inference) {
      hours_s = std::max(0.0, pod.lost_session_s);
    }
    const double life =
        pod.lifetime_s > 0 ? std::min(pod.lifetime_s, available) : available;
    if (never_started) {
      hours_s += life;
    } else if (failed) {
      const double up =
          pod.end_s >= pod.start_s ? pod.end_s - pod.start_s : 0.0;
      hours_s += std::max(0.0, life - up);
    }
  }
  return std::max(1.0, pod.gpus) * hours_s / 3600.0;
}

}  // namespace

double PodPerformance(const PodRecord& pod, double end_s) {
  return Performance(pod, end_s);
}

double PodPerformance(const PodSummary& pod, double end_s) {
  return Performance(pod, end_s);
}

double PodLostGpuHours(const PodRecord& pod, double end_s) {
  return LostGpuHours(
      pod, pod.workload_class == WorkloadClassName(WorkloadClass::kInference),
      end_s);
}

double PodLostGpuHours(const PodSummary& pod, const PodTexts& texts,
                       double end_s) {
  return LostGpuHours(
      pod,
      texts[pod.workload_class] == WorkloadClassName(WorkloadClass::kInference),
      end_s);
}

namespace {

// What one GPU-hour held in each pool costs once the pool's bill (idle
// included) is apportioned by use: bill / held GPU-hours; 0 for a pool
// nobody held.
std::unordered_map<std::string, double> ApportionedRates(
    const SimulationResult& result) {
  std::unordered_map<std::string, double> held;
  result.pod_summaries.ForEach([&](const PodSummary& p) {
    const std::string& pool = result.text(p.pool);
    if (!pool.empty()) held[pool] += p.gpu_hours;
  });
  std::unordered_map<std::string, double> rates;
  for (const PoolSummary& pool : result.pools) {
    const auto it = held.find(pool.name);
    rates[pool.name] =
        it != held.end() && it->second > 0 ? pool.cost / it->second : 0;
  }
  return rates;
}

// The metrics of the pods `selected` picks.
template <typename Selected>
ClassMetrics Compute(const SimulationResult& result, Selected selected) {
  const std::unordered_map<std::string, double> rates =
      ApportionedRates(result);
  std::unordered_map<std::string, bool> isolated;  // pool -> memory isolated
  for (const PoolSummary& pool : result.pools) {
    isolated[pool.name] = pool.memory_isolated;
  }
  ClassMetrics m;
  QuantileSummary waits(result.quantiles);
  double admission_wait_sum = 0;
  std::vector<std::string> queues;  // of its pods, first seen first
  double slowdown_sum = 0;
  int64_t slowdowns = 0;
  double p99_sum = 0;
  double slo_sum = 0;
  double ttft_sum = 0;
  double tpot_sum = 0;
  double slo_ttft_sum = 0;
  double slo_tpot_sum = 0;
  int engine_pods = 0;
  int64_t latency_pods = 0;
  int64_t latency_samples = 0;
  int64_t slo_met = 0;
  int64_t neighbour_missed = 0;
  double performance_sum = 0;
  int64_t performance_pods = 0;
  // Messages of pods not served: how many carry each, and which came first.
  std::map<std::string, std::pair<int64_t, int64_t>> causes;
  bool first = true;
  TextId workload_class = kNoText;  // of its first pod; kNoText if mixed
  const PodTexts& texts = result.pod_texts;
  result.pod_summaries.ForEach([&](const PodSummary& p) {
    // A pod the run ended before is not the class's yet (not pending).
    if (!selected(p) || p.outcome == PodOutcome::kNotArrived) return;
    if (first) {
      workload_class = p.workload_class;
      first = false;
    } else if (workload_class != p.workload_class) {
      workload_class = kNoText;
    }
    ++m.pods;
    switch (p.outcome) {
      case PodOutcome::kSucceeded:
      case PodOutcome::kDeleted:
      case PodOutcome::kRunning:
        ++m.served;
        break;
      case PodOutcome::kFailed:
      case PodOutcome::kAdmissionFailed:
        ++m.failed;
        break;
      case PodOutcome::kUnschedulable:
        ++m.cannot_run;
        break;
      case PodOutcome::kPending:
        if (p.start_s < 0) ++m.pending;
        break;
      case PodOutcome::kNotArrived:
        break;
    }
    if (p.work_s > 0) {
      ++m.jobs;
      if (p.outcome == PodOutcome::kRunning) ++m.jobs_unfinished;
    }
    const bool served = p.outcome == PodOutcome::kSucceeded ||
                        p.outcome == PodOutcome::kDeleted ||
                        p.outcome == PodOutcome::kRunning;
    if (!served && !texts[p.message].empty()) {
      auto [it, added] = causes.try_emplace(
          texts[p.message], 0, static_cast<int64_t>(causes.size()));
      ++it->second.first;
    }
    m.oom_kills += p.oom_kills;
    m.fault_kills += p.fault_kills;
    if (p.oom_kills + p.fault_kills > 0) ++m.killed;
    m.preemptions += p.preemptions;
    if (p.preemptions > 0) ++m.preempted;
    m.max_pod_preemptions =
        std::max<int64_t>(m.max_pod_preemptions, p.preemptions);
    if (p.oom_kills + p.fault_kills + p.preemptions > 0) ++m.disrupted;
    m.lost_work_s += p.lost_work_s;
    m.lost_gpu_hours += PodLostGpuHours(p, texts, result.end_s);
    if (p.gpus > 0 || p.has_devices) {
      const auto pool = isolated.find(
          texts[p.pool].empty() ? texts[p.target_pool] : texts[p.pool]);
      if (pool != isolated.end() && !pool->second) ++m.memory_unprotected;
    }
    m.eviction_down_s += p.eviction_down_s;
    if (p.wait_s >= 0) {
      waits.Add(p.wait_s);
      ++m.started;
      if (p.admission_wait_s > 0) {
        admission_wait_sum += std::min(p.admission_wait_s, p.wait_s);
      }
    }
    if (const std::string& queue = texts[p.cluster_queue]; !queue.empty()) {
      ++m.queued;
      if (std::find(queues.begin(), queues.end(), queue) == queues.end()) {
        queues.push_back(queue);
      }
    }
    if (p.outcome == PodOutcome::kSucceeded && p.slowdown > 0) {
      slowdown_sum += p.slowdown;
      ++slowdowns;
    }
    if (p.latency_samples > 0) {
      latency_samples += p.latency_samples;
      slo_met += p.slo_met_samples;
      neighbour_missed += p.neighbour_missed_samples;
      if (p.p99_ms >= 0) {
        p99_sum += p.p99_ms;
        slo_sum += p.slo_p99_ms;
        ++latency_pods;
      }
      if (p.ttft_p99_ms >= 0) {
        ttft_sum += p.ttft_p99_ms;
        tpot_sum += p.tpot_p99_ms;
        slo_ttft_sum += p.slo_ttft_p99_ms;
        slo_tpot_sum += p.slo_tpot_p99_ms;
        ++engine_pods;
      }
    }
    const double perf = PodPerformance(p, result.end_s);
    if (perf >= 0) {
      performance_sum += perf;
      ++performance_pods;
    }
    m.gpu_hours += p.gpu_hours;
    m.held_cost += p.cost;
    const auto rate = rates.find(texts[p.pool]);
    if (rate != rates.end()) {
      m.cost += p.gpu_hours * rate->second;
      m.wasted_cost += p.wasted_gpu_hours * rate->second;
    }
  });
  m.workload_class = texts[workload_class];
  if (!waits.empty()) {
    m.mean_wait_s = waits.Mean();
    m.p99_wait_s = waits.Quantile(0.99);
    m.mean_admission_wait_s =
        admission_wait_sum / static_cast<double>(waits.count());
    m.mean_scheduling_wait_s =
        std::max(0.0, m.mean_wait_s - m.mean_admission_wait_s);
  }
  if (!queues.empty()) m.cluster_queue = queues.front();
  for (const QueueSummary& q : result.queues) {
    if (q.samples <= 0 ||
        std::find(queues.begin(), queues.end(), q.name) == queues.end()) {
      continue;
    }
    const double share = static_cast<double>(q.idle_at_quota_samples) /
                         static_cast<double>(q.samples);
    if (share > m.queue_idle_at_quota_share) {
      m.queue_idle_at_quota_share = share;
      m.queue_free_at_quota = q.mean_free_at_quota;
      m.queue_free_resource = q.free_at_quota_resource;
    }
  }
  m.mean_slowdown = slowdowns > 0 ? slowdown_sum / slowdowns : -1;
  if (latency_pods > 0) {
    m.mean_p99_ms = p99_sum / latency_pods;
    m.mean_slo_p99_ms = slo_sum / latency_pods;
  }
  if (engine_pods > 0) {
    m.mean_ttft_p99_ms = ttft_sum / engine_pods;
    m.mean_tpot_p99_ms = tpot_sum / engine_pods;
    m.mean_slo_ttft_p99_ms = slo_ttft_sum / engine_pods;
    m.mean_slo_tpot_p99_ms = slo_tpot_sum / engine_pods;
  }
  if (latency_samples > 0) {
    m.slo_attainment = static_cast<double>(slo_met) / latency_samples;
    m.neighbour_miss_share =
        static_cast<double>(neighbour_missed) / latency_samples;
  }
  m.performance = performance_pods > 0 ? performance_sum / performance_pods : 0;
  m.cost_per_served_pod = m.served > 0 ? m.cost / m.served : 0;
  const std::pair<int64_t, int64_t>* most = nullptr;
  for (const auto& [message, tally] : causes) {
    if (most == nullptr || tally.first > most->first ||
        (tally.first == most->first && tally.second < most->second)) {
      most = &tally;
      m.unserved_cause = message;
    }
  }
  return m;
}

}  // namespace

ClassMetrics ComputeClassMetrics(const SimulationResult& result,
                                 const std::string& tenant_class) {
  const TextId id = result.pod_texts.Find(tenant_class);
  ClassMetrics m = Compute(result, [&](const PodSummary& p) {
    return tenant_class.empty() || (id != kNoText && p.tenant_class == id);
  });
  m.tenant_class = tenant_class;
  return m;
}

ClassMetrics ComputePoolMetrics(const SimulationResult& result,
                                const std::string& pool) {
  const TextId id = result.pod_texts.Find(pool);
  return Compute(result, [&](const PodSummary& p) {
    return id != kNoText && p.target_pool == id;
  });
}

bool IsQuotaBound(const ClassMetrics& m) {
  return m.started > 0 && m.mean_wait_s > 0 &&
         m.mean_admission_wait_s > 0.5 * m.mean_wait_s &&
         m.queue_idle_at_quota_share > 0;
}

ClassMetrics MeanClassMetrics(const std::vector<ClassMetrics>& runs) {
  ClassMetrics m;
  if (runs.empty()) return m;
  m.tenant_class = runs.front().tenant_class;
  m.workload_class = runs.front().workload_class;
  for (const ClassMetrics& r : runs) {
    if (r.unserved_cause.empty()) continue;
    m.unserved_cause = r.unserved_cause;
    break;
  }
  const double n = static_cast<double>(runs.size());
  const auto count = [&](int64_t ClassMetrics::*field) {
    double sum = 0;
    for (const ClassMetrics& r : runs) sum += static_cast<double>(r.*field);
    return static_cast<int64_t>(std::llround(sum / n));
  };
  const auto mean = [&](double ClassMetrics::*field) {
    double sum = 0;
    for (const ClassMetrics& r : runs) sum += r.*field;
    return sum / n;
  };
  // Over the runs that have the figure (>= 0); -1 when none has it.
  const auto mean_present = [&](double ClassMetrics::*field) {
    double sum = 0;
    int present = 0;
    for (const ClassMetrics& r : runs) {
      if (r.*field < 0) continue;
      sum += r.*field;
      ++present;
    }
    return present > 0 ? sum / present : -1.0;
  };
  m.pods = count(&ClassMetrics::pods);
  m.served = count(&ClassMetrics::served);
  m.failed = count(&ClassMetrics::failed);
  m.cannot_run = count(&ClassMetrics::cannot_run);
  m.pending = count(&ClassMetrics::pending);
  m.jobs = count(&ClassMetrics::jobs);
  m.jobs_unfinished = count(&ClassMetrics::jobs_unfinished);
  m.killed = count(&ClassMetrics::killed);
  m.oom_kills = count(&ClassMetrics::oom_kills);
  m.fault_kills = count(&ClassMetrics::fault_kills);
  m.preempted = count(&ClassMetrics::preempted);
  m.preemptions = count(&ClassMetrics::preemptions);
  m.disrupted = count(&ClassMetrics::disrupted);
  for (const ClassMetrics& r : runs) {
    m.max_pod_preemptions =
        std::max(m.max_pod_preemptions, r.max_pod_preemptions);
  }
  m.lost_work_s = mean(&ClassMetrics::lost_work_s);
  m.lost_gpu_hours = mean(&ClassMetrics::lost_gpu_hours);
  m.memory_unprotected = count(&ClassMetrics::memory_unprotected);
  m.eviction_down_s = mean(&ClassMetrics::eviction_down_s);
  m.started = count(&ClassMetrics::started);
  // Over the runs where a pod started; 0 when none did.
  const auto mean_wait = [&](double ClassMetrics::*field) {
    double sum = 0;
    int runs_started = 0;
    for (const ClassMetrics& r : runs) {
      if (r.started == 0) continue;
      sum += r.*field;
      ++runs_started;
    }
    return runs_started > 0 ? sum / runs_started : 0.0;
  };
  m.mean_wait_s = mean_wait(&ClassMetrics::mean_wait_s);
  m.p99_wait_s = mean_wait(&ClassMetrics::p99_wait_s);
  m.queued = count(&ClassMetrics::queued);
  m.mean_admission_wait_s = mean_wait(&ClassMetrics::mean_admission_wait_s);
  m.mean_scheduling_wait_s = mean_wait(&ClassMetrics::mean_scheduling_wait_s);
  m.cluster_queue = runs.front().cluster_queue;
  m.queue_idle_at_quota_share = mean(&ClassMetrics::queue_idle_at_quota_share);
  m.queue_free_at_quota = mean(&ClassMetrics::queue_free_at_quota);
  for (const ClassMetrics& r : runs) {
    if (r.queue_free_resource.empty()) continue;
    m.queue_free_resource = r.queue_free_resource;
    break;
  }
  m.mean_slowdown = mean_present(&ClassMetrics::mean_slowdown);
  m.mean_p99_ms = mean_present(&ClassMetrics::mean_p99_ms);
  m.mean_slo_p99_ms = mean_present(&ClassMetrics::mean_slo_p99_ms);
  m.mean_ttft_p99_ms = mean_present(&ClassMetrics::mean_ttft_p99_ms);
  m.mean_tpot_p99_ms = mean_present(&ClassMetrics::mean_tpot_p99_ms);
  m.mean_slo_ttft_p99_ms = mean_present(&ClassMetrics::mean_slo_ttft_p99_ms);
  m.mean_slo_tpot_p99_ms = mean_present(&ClassMetrics::mean_slo_tpot_p99_ms);
  m.slo_attainment = mean_present(&ClassMetrics::slo_attainment);
  m.neighbour_miss_share = mean_present(&ClassMetrics::neighbour_miss_share);
  m.performance = mean(&ClassMetrics::performance);
  m.gpu_hours = mean(&ClassMetrics::gpu_hours);
  m.cost = mean(&ClassMetrics::cost);
  m.held_cost = mean(&ClassMetrics::held_cost);
  m.wasted_cost = mean(&ClassMetrics::wasted_cost);
  double served = 0;
  for (const ClassMetrics& r : runs) served += static_cast<double>(r.served);
  m.cost_per_served_pod = served > 0 ? m.cost * n / served : 0;
  return m;
}

}  // namespace gpushare
