#include "gpushare/metrics/json_writer.h"

#include "gpushare/metrics/elastic_json.h"

namespace gpushare {

nlohmann::json PodRecordJson(const PodRecord& p) {
  using nlohmann::json;
  json pod({{"name", p.name},
             {"class", p.workload_class},
             {"tenant_class", p.tenant_class},
             {"tenant", p.tenant},
             {"pod_group", p.pod_group},
             {"cluster_queue", p.cluster_queue},
             {"target_pool", p.target_pool},
             {"pool", p.pool},
             {"node", p.node},
             {"devices", p.devices},
             {"requests", p.requests},
             {"arrival_s", p.arrival_s},
             {"start_s", p.start_s},
             {"end_s", p.end_s},
             {"wait_s", p.wait_s},
             {"admission_wait_s", p.admission_wait_s},
             {"work_s", p.work_s},
             {"run_s", p.run_s},
             {"alone_s", p.alone_s},
             {"slowdown", p.slowdown},
             {"gpu_share", p.gpu_share},
             {"gpu_hours", p.gpu_hours},
             {"cost", p.cost},
             {"wasted_gpu_hours", p.wasted_gpu_hours},
             {"restarts", p.restarts},
             {"oom_kills", p.oom_kills},
             {"fault_kills", p.fault_kills},
             {"preemptions", p.preemptions},
             {"lost_work_s", p.lost_work_s},
             {"eviction_down_s", p.eviction_down_s},
             {"latency_samples", p.latency_samples},
             {"saturated_samples", p.saturated_samples},
             {"p50_ms", p.p50_ms},
             {"p99_ms", p.p99_ms},
             {"slo_p99_ms", p.slo_p99_ms},
             {"slo_attainment", p.slo_attainment},
             {"neighbour_missed_samples", p.neighbour_missed_samples},
             {"outcome", PodOutcomeName(p.outcome)},
             {"message", p.message}});
  if (p.kv_cache_tokens >= 0) {
    // Pods running an LLM engine only (docs/output.md).
    pod["kv_cache_tokens"] = p.kv_cache_tokens;
    pod["max_concurrent_seqs"] = p.max_concurrent_seqs;
    pod["ttft_p50_ms"] = p.ttft_p50_ms;
    pod["ttft_p99_ms"] = p.ttft_p99_ms;
    pod["tpot_p50_ms"] = p.tpot_p50_ms;
    pod["tpot_p99_ms"] = p.tpot_p99_ms;
    pod["slo_ttft_p99_ms"] = p.slo_ttft_p99_ms;
    pod["slo_tpot_p99_ms"] = p.slo_tpot_p99_ms;
  }
  return pod;
}

nlohmann::json ResultToJson(const SimulationResult& r) {
  using nlohmann::json;
  json out;
  out["schema"] = "gpushare-sim/run/v1";
  out["scenario"] = r.scenario;
  out["seed"] = r.seed;
  out["end_s"] = r.end_s;
  out["pods"] = r.pods;
  out["succeeded"] = r.succeeded;
  out["failed"] = r.failed;
  out["unschedulable"] = r.unschedulable;
  out["oom_kills"] = r.oom_kills;
  out["fault_kills"] = r.fault_kills;
  out["preemptions"] = r.preemptions;
  out["eviction_warning_per_pod"] = r.eviction_warning_per_pod;
  out["gang_timeouts"] = r.gang_timeouts;
  out["faults"] = r.faults;
  out["max_blast_radius"] = r.max_blast_radius;
  out["mean_wait_s"] = r.mean_wait_s;
  out["p99_wait_s"] = r.p99_wait_s;
  out["mean_slowdown"] = r.mean_slowdown;
  out["throughput_per_h"] = r.throughput_per_h;
  out["completed_work_s"] = r.completed_work_s;
  out["lost_work_s"] = r.lost_work_s;
  out["goodput"] = r.goodput;
  out["slo_attainment"] = r.slo_attainment;
  out["cost"] = r.cost;
  out["events"] = r.events;
  out["scheduling_cycles"] = r.scheduling_cycles;
  json pools = json::array();
  for (const PoolSummary& p : r.pools) {
    json series = json::array();
    for (const PoolSample& s : p.samples) {
      series.push_back({{"time_s", s.time_s},
                        {"gpu_util", s.gpu_util},
                        {"sm_active", s.sm_active},
                        {"fb_used_fraction", s.fb_used_fraction},
                        {"allocation", s.allocation},
                        {"pending", s.pending},
                        {"idle_gpus", s.idle_gpus}});
    }
    json pool = {{"name", p.name},
                 {"scheme", p.scheme},
                 {"model", p.model},
                 {"nodes", p.nodes},
                 {"gpus", p.gpus},
                 {"gpu_hours", p.gpu_hours},
                 {"cost", p.cost},
                 {"mean_gpu_util", p.mean_gpu_util},
                 {"mean_sm_active", p.mean_sm_active},
                 {"mean_allocation", p.mean_allocation},
                 {"samples", series}};
    if (!p.label.empty()) pool["label"] = p.label;
    // Only DRA pools say how they hand out GPUs, so the JSON of scenarios
    // without them is what it was.
    if (p.dra) pool["devices"] = "dra";
    if (p.dynamic_mig) {
      pool["dynamic_mig"] = {
          {"instances_created", p.mig.instances_created},
          {"instances_destroyed", p.mig.instances_destroyed},
          {"mode_enables", p.mig.mode_enables},
          {"mode_disables", p.mig.mode_disables},
          {"creation_wait_s", p.mig.creation_wait_s},
          {"churn_per_hour", p.mig.churn_per_hour},
          {"stranded_pending_mean", p.mig.stranded_pending_mean},
          {"stranded_pending_max", p.mig.stranded_pending_max}};
    }
    // Only autoscaled pools have it (the JSON of other scenarios is what
    // it was).
    if (p.elastic) pool["autoscaling"] = ElasticPoolJson(p.autoscaling);
    pools.push_back(std::move(pool));
  }
  out["pools"] = pools;
  json pods = json::array();
  for (const PodRecord& p : r.pod_records) pods.push_back(PodRecordJson(p));
  out["pod_records"] = pods;
  json queues = json::array();
  for (const QueueSummary& q : r.queues) {
    json quotas = json::array();
    for (const QueueQuota& k : q.quotas) {
      quotas.push_back({{"flavor", k.flavor},
                        {"resource", k.resource},
                        {"nominal_quota", k.nominal},
                        {"borrowing_limit", k.borrowing_limit},
                        {"lending_limit", k.lending_limit},
                        {"mean_used", k.mean_used},
                        {"peak_used", k.peak_used},
                        {"mean_borrowed", k.mean_borrowed},
                        {"peak_borrowed", k.peak_borrowed},
                        {"used", k.used}});
      if (!k.fair_share.empty()) {
        quotas.back()["mean_fair_share"] = k.mean_fair_share;
        quotas.back()["fair_share_deviation"] = k.fair_share_deviation;
        quotas.back()["fair_share"] = k.fair_share;
      }
    }
    json by_reason = json::object();
    for (const auto& [reason, n] : q.preempted_by_reason) by_reason[reason] = n;
    queues.push_back({{"name", q.name},
                      {"cohort", q.cohort},
                      {"queueing_strategy", q.queueing_strategy},
                      {"workloads", q.workloads},
                      {"admissions", q.admissions},
                      {"borrowing_admissions", q.borrowing_admissions},
                      {"evictions", q.evictions},
                      {"preempted_by_reason", by_reason},
                      {"pending_at_end", q.pending_at_end},
                      {"mean_admission_wait_s", q.mean_admission_wait_s},
                      {"p99_admission_wait_s", q.p99_admission_wait_s},
                      {"pod_preemptions", q.pod_preemptions},
                      {"lost_work_s", q.lost_work_s},
                      {"quotas", quotas},
                      {"pending_active", q.pending_active},
                      {"pending_inadmissible", q.pending_inadmissible},
                      {"samples", q.samples},
                      {"idle_at_quota_samples", q.idle_at_quota_samples},
                      {"mean_idle_gpus_at_quota", q.mean_idle_gpus_at_quota},
                      {"mean_free_at_quota", q.mean_free_at_quota},
                      {"free_at_quota_resource", q.free_at_quota_resource}});
  }
  out["queue_system"] = r.queue_system;
  out["queues"] = queues;
  json alerts = json::array();
  for (const PatrolAlert& a : r.alerts) {
    alerts.push_back({{"alert", a.name},
                      {"severity", a.severity},
                      {"node", a.node},
                      {"gpu", a.gpu},
                      {"device", a.device},
                      {"pod", a.pod},
                      {"active_s", a.active_s},
                      {"fired_s", a.fired_s},
                      {"resolved_s", a.resolved_s},
                      {"value", a.value},
                      {"description", a.description}});
  }
  out["alerts"] = alerts;
  return out;
}

std::string ResultToJsonText(const SimulationResult& result) {
  return ResultToJson(result).dump(1) + "\n";
}

std::string PodRecordJsonText(const PodRecord& pod) {
  // dump(1) of the record, then indented by two levels as the elements of
  // the document's top-level "pod_records" array are (a string holds no
  // raw line break).
  std::string text = "  ";
  for (const char c : PodRecordJson(pod).dump(1)) {
    text += c;
    if (c == '\n') text += "  ";
  }
  return text;
}

void AddResultJson(const nlohmann::json& document, const std::string& path,
                   const PodOutputSpool* pods, OutputBatch* batch) {
  std::string text = document.dump(1) + "\n";
  const std::string empty = "\n \"pod_records\": [],";
  const size_t at = text.find(empty);
  if (pods == nullptr || pods->rows() == 0 || at == std::string::npos) {
    batch->Add(path, std::move(text));
    return;
  }
  const size_t tail = at + empty.size() - 2;  // from "],"
  std::string head = text.substr(0, tail) + "\n";
  std::string rest = "\n " + text.substr(tail);
  batch->AddProduced(path, [pods, head = std::move(head),
                            rest = std::move(rest)](const OutputWriter& write) {
    write(head);
    pods->WriteRows(write, ",\n");
    write(rest);
  });
}

}  // namespace gpushare
