#include "gpushare/metrics/pod_summary.h"

#include <algorithm>

#include "gpushare/metrics/results.h"

namespace gpushare {

TextId PodTexts::Intern(std::string_view text) {
  const auto it = ids_.find(std::string(text));
  if (it != ids_.end()) return it->second;
  const TextId id = static_cast<TextId>(texts_.size());
  texts_.emplace_back(text);
  ids_.emplace(texts_.back(), id);
  return id;
}

const std::string& PodTexts::operator[](TextId id) const {
  static const std::string kEmpty;
  return id < 0 ? kEmpty : texts_[static_cast<size_t>(id)];
}

TextId PodTexts::Find(std::string_view text) const {
  const auto it = ids_.find(std::string(text));
  return it == ids_.end() ? kNoText : it->second;
}

PodSummary SummarizePod(int64_t index, const PodRecord& r, bool detail,
                        int eviction_warning_per_pod, PodTexts* texts,
                        std::vector<int>* devices) {
  PodSummary s;
  s.index = index;
  if (detail || r.running_in_dump ||
      r.preemptions > eviction_warning_per_pod) {
    s.name = texts->Intern(r.name);
  }
  s.namespace_name = texts->Intern(r.namespace_name);
  s.tenant = texts->Intern(r.tenant);
  s.workload_class = texts->Intern(r.workload_class);
  s.tenant_class = texts->Intern(r.tenant_class);
  s.cluster_queue = texts->Intern(r.cluster_queue);
  s.target_pool = texts->Intern(r.target_pool);
  s.pool = texts->Intern(r.pool);
  s.message = texts->Intern(r.message);
  s.outcome = r.outcome;
  s.has_devices = !r.devices.empty();
  s.running_in_dump = r.running_in_dump;
  s.latency_samples = r.latency_samples;
  s.slo_met_samples = r.slo_met_samples;
  s.neighbour_missed_samples = r.neighbour_missed_samples;
  s.oom_kills = r.oom_kills;
  s.fault_kills = r.fault_kills;
  s.preemptions = r.preemptions;
  if (detail) {
    s.devices_offset = static_cast<int64_t>(devices->size());
    s.devices_count = static_cast<int32_t>(r.devices.size());
    devices->insert(devices->end(), r.devices.begin(), r.devices.end());
  }
  s.kv_cache_tokens = r.kv_cache_tokens;
  s.max_concurrent_seqs = r.max_concurrent_seqs;
  s.arrival_s = r.arrival_s;
  s.start_s = r.start_s;
  s.end_s = r.end_s;
  s.wait_s = r.wait_s;
  s.admission_wait_s = r.admission_wait_s;
  s.work_s = r.work_s;
  s.gpus = r.gpus;
  s.lifetime_s = r.lifetime_s;
  s.alone_s = r.alone_s;
  s.slowdown = r.slowdown;
  s.gpu_hours = r.gpu_hours;
  s.cost = r.cost;
  s.wasted_gpu_hours = r.wasted_gpu_hours;
  s.p99_ms = r.p99_ms;
  s.slo_p99_ms = r.slo_p99_ms;
  s.slo_ttft_p99_ms = r.slo_ttft_p99_ms;
  s.slo_tpot_p99_ms = r.slo_tpot_p99_ms;
  s.ttft_p50_ms = r.ttft_p50_ms;
  s.ttft_p99_ms = r.ttft_p99_ms;
  s.tpot_p50_ms = r.tpot_p50_ms;
  s.tpot_p99_ms = r.tpot_p99_ms;
  s.lost_work_s = r.lost_work_s;
  s.lost_session_s = r.lost_session_s;
  s.eviction_down_s = r.eviction_down_s;
  return s;
}

}  // namespace gpushare

namespace gpushare {

std::optional<PodSummary> SimulationResult::FindPod(int64_t index) const {
  return pod_summaries.Find(index);
}

void SummarizePodRecords(SimulationResult* result) {
  result->pod_summaries.clear();
  result->pod_devices.clear();
  for (size_t i = 0; i < result->pod_records.size(); ++i) {
    const PodRecord& r = result->pod_records[i];
    if (r.outcome == PodOutcome::kNotArrived) continue;
    result->pod_summaries.push_back(SummarizePod(
        static_cast<int64_t>(i), r, true, result->eviction_warning_per_pod,
        &result->pod_texts, &result->pod_devices));
  }
}

SimulationResult WithPodSummaries(SimulationResult result) {
  SummarizePodRecords(&result);
  return result;
}

}  // namespace gpushare
