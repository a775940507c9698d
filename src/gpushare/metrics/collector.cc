#include "gpushare/metrics/collector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "gpushare/base/quantile_summary.h"
#include "gpushare/cluster/gpu_share.h"
#include "gpushare/cluster/memory_isolation.h"

namespace gpushare {

const char* PodOutcomeName(PodOutcome outcome) {
  switch (outcome) {
    case PodOutcome::kSucceeded:
      return "Succeeded";
    case PodOutcome::kDeleted:
      return "Deleted";
    case PodOutcome::kFailed:
      return "Failed";
    case PodOutcome::kUnschedulable:
      return "Unschedulable";
    case PodOutcome::kPending:
      return "Pending";
    case PodOutcome::kRunning:
      return "Running";
    case PodOutcome::kAdmissionFailed:
      return "AdmissionFailed";
    case PodOutcome::kNotArrived:
      return "NotArrived";
  }
  return "";
}

Collector::Collector(const Simulation& simulation, std::string scenario,
                     uint64_t seed, CollectorOptions options)
    : simulation_(simulation),
      options_(options),
      record_devices_(options.record_devices),
      patrol_(simulation.scenario().patrol) {
  result_.scenario = std::move(scenario);
  result_.seed = seed;
  result_.eviction_warning_per_pod =
      simulation.scenario().model.eviction_warning_per_pod;
  result_.quantiles = {simulation.scenario().model.quantile_exact_limit,
                       simulation.scenario().model.quantile_relative_accuracy};
}

void Collector::OnRunStart(const Cluster& cluster, int64_t pod_count,
                           const std::vector<DomainInfo>& domains) {
  patrol_.SetSimulation(&simulation_);
  patrol_.OnRunStart(cluster, pod_count, domains);
  result_.pods = pod_count;
  queues_.Start(simulation_.admission(), simulation_, cluster,
                result_.quantiles);
  if (simulation_.admission() != nullptr) {
    result_.queue_system = simulation_.admission()->system_name();
  }
  live_.clear();
  if (options_.keep_pod_records) {
    result_.pod_records.assign(static_cast<size_t>(pod_count), {});
  }
  for (const NodePool& pool : cluster.pools()) {
    PoolSummary s;
    s.name = pool.spec.name;
    s.scheme = std::string(SharingSchemeName(pool.spec.sharing.scheme()));
    s.dra = pool.spec.devices == PoolDevices::kDra;
    if (pool.spec.devices == PoolDevices::kDra) {
      s.label = PoolSharingLabel(pool.spec, pool.model);
    }
    s.model = pool.model ? pool.model->name : "";
    // An autoscaled pool: the nodes at the start, not its slots.
    s.nodes = pool.spec.autoscaling.provider != AutoscalerProvider::kNone
                  ? pool.spec.nodes
                  : pool.node_count;
    s.gpus = s.nodes * pool.spec.gpus_per_node;
    s.memory_isolated = PoolIsolatesMemory(pool.spec);
    result_.pools.push_back(s);
  }
  // Devices are the domains, in order: node → GPU → its first device (a MIG
  // instance adds its index).
  gpu_domain_.assign(cluster.nodes().size(), {});
  // Each domain's GPU, numbered densely in domain order, and its pool.
  std::vector<std::vector<int>> gpu_index(cluster.nodes().size());
  domain_gpu_.clear();
  gpu_pool_.clear();
  for (const DomainInfo& d : domains) {
    const Node& node = cluster.nodes()[d.node];
    std::vector<int>& first = gpu_domain_[d.node];
    if (static_cast<int>(first.size()) <= d.gpu) first.resize(d.gpu + 1, -1);
    if (first[d.gpu] < 0) first[d.gpu] = static_cast<int>(result_.devices.size());
    std::vector<int>& index = gpu_index[d.node];
    if (static_cast<int>(index.size()) <= d.gpu) index.resize(d.gpu + 1, -1);
    if (index[d.gpu] < 0) {
      index[d.gpu] = static_cast<int>(gpu_pool_.size());
      gpu_pool_.push_back(node.pool());
    }
    domain_gpu_.push_back(index[d.gpu]);
    DeviceInfo info;
    info.node = node.name();
    info.pool = cluster.pools()[node.pool()].spec.name;
    info.gpu = d.gpu;
    info.mig_instance = d.mig_instance;
    info.profile = d.profile;
    info.model = node.model() ? node.model()->name : "";
    info.memory_mib = d.memory_mib;
    result_.devices.push_back(info);
    device_pool_.push_back(node.pool());
  }
  if (record_devices_) RecordLayout(cluster);
}

PodRecord Collector::NewRecord(PodIndex i, const Pod& pod) const {
  const Cluster& cluster = simulation_.cluster();
  PodRecord r;
  r.name = pod.name;
  r.workload_class = std::string(WorkloadClassName(pod.workload_class));
  r.tenant_class = pod.tenant_class;
  r.tenant = pod.tenant;
  r.namespace_name = pod.namespace_name;
  r.pod_group = pod.pod_group;
  if (const QueueAdmission* queues = simulation_.admission();
      queues != nullptr && !pod.queue_name.empty()) {
    const int q = queues->QueueOf(pod.namespace_name, pod.queue_name);
    if (q >= 0) r.cluster_queue = queues->queue_name(q);
  }
  const int target = simulation_.target_pool(i);
  if (target >= 0) r.target_pool = cluster.pools()[target].spec.name;
  r.arrival_s = pod.arrival_s;
  r.work_s = pod.needs.work_s;
  r.gpus = pod.needs.gpus;
  r.lifetime_s = pod.needs.lifetime_s;
  r.slo_p99_ms = pod.needs.slo_p99_ms;
  r.slo_ttft_p99_ms = pod.needs.slo_ttft_p99_ms;
  r.slo_tpot_p99_ms = pod.needs.slo_tpot_p99_ms;
  r.requests = pod.requests.ToString(cluster.resources());
  r.running_in_dump = pod.running_in_dump;
  return r;
}

void Collector::OnArrival(double /*t*/, PodIndex pod) {
  const Pod& p = simulation_.pod(pod);
  Live& live = live_[pod];
  live.record = NewRecord(pod, p);
  if (!p.dra_claim.empty()) {
    live.claim_pods = simulation_.claim_pod_count(p.dra_claim);
  }
}

void Collector::OnNotArrived(PodIndex pod) {
  // Never created: its record says so, and it goes out at once.
  Live& live = live_[pod];
  live.record = NewRecord(pod, simulation_.pod(pod));
  live.record.outcome = PodOutcome::kNotArrived;
  Retire(0, pod, &live);
}

Collector::Live* Collector::Find(PodIndex pod) {
  const auto it = live_.find(pod);
  return it == live_.end() ? nullptr : &it->second;
}

void Collector::RecordLayout(const Cluster& cluster) {
  // Extended resources by name, so that their order does not depend on the
  // order they were interned in.
  std::map<std::string, int> names;
  for (const Node& node : cluster.nodes()) {
    for (const auto& [id, quantity] : node.extended().items()) {
      names.emplace(cluster.resources().Name(id), id);
    }
  }
  std::map<int, int> index_of_id;
  for (const auto& [name, id] : names) {
    index_of_id[id] = static_cast<int>(result_.extended_resources.size());
    result_.extended_resources.push_back(name);
  }
  node_resources_.assign(cluster.nodes().size(), {});
  for (size_t n = 0; n < cluster.nodes().size(); ++n) {
    const Node& node = cluster.nodes()[n];
    result_.nodes.push_back(
        {node.name(), cluster.pools()[node.pool()].spec.name});
    for (const auto& [id, quantity] : node.extended().items()) {
      node_resources_[n].emplace_back(index_of_id[id], id);
    }
    std::sort(node_resources_[n].begin(), node_resources_[n].end());
  }
}

void Collector::OnUnschedulable(double /*t*/, PodIndex pod,
                                const std::string& message) {
  if (Live* live = Find(pod)) live->record.message = message;
}

void Collector::OnStart(double t, PodIndex pod, int node, double alone_s) {
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  const Cluster& cluster = simulation_.cluster();
  r.node = cluster.nodes()[node].name();
  r.pool = cluster.pools()[cluster.nodes()[node].pool()].spec.name;
  r.devices.clear();
  for (const DeviceGrant& g : simulation_.allocation(pod).grants) {
    const std::vector<int>& first = gpu_domain_[node];
    if (g.gpu < 0 || g.gpu >= static_cast<int>(first.size())) continue;
    r.devices.push_back(first[g.gpu] + std::max(0, g.instance));
  }
  if (r.start_s < 0) {
    r.start_s = t;
    r.wait_s = t - r.arrival_s;
    live->pool = cluster.nodes()[node].pool();
    r.gpu_share = AllocationGpuEquivalents(simulation_.allocation(pod),
                                           cluster.pools()[live->pool]);
    // The pods that share a claim by name share its devices, as replicas
    // share a GPU.
    if (live->claim_pods > 1) r.gpu_share /= live->claim_pods;
  }
  if (live->hold_start < 0) live->hold_start = t;
  if (live->evicted_at >= 0) {
    r.eviction_down_s += t - live->evicted_at;
    live->evicted_at = -1;
  }
  r.alone_s = alone_s;
  r.outcome = PodOutcome::kRunning;
  r.message.clear();
  live->attempt_start = t;
  if (r.work_s <= 0) live->session_start = t;
  if (record_devices_ && live->first_holding < 0) {
    live->first_holding = static_cast<int>(result_.device_holdings.size());
    for (const DeviceGrant& g : simulation_.allocation(pod).grants) {
      const int domain =
          gpu_domain_[node][g.gpu] + (g.instance >= 0 ? g.instance : 0);
      result_.device_holdings.push_back({pod, domain, g.replica, t, -1});
    }
  }
}

void Collector::OnEngineStart(double /*t*/, PodIndex pod, int64_t kv_tokens,
                              int64_t max_seqs) {
  Live* live = Find(pod);
  if (live == nullptr) return;
  live->record.kv_cache_tokens = std::max<int64_t>(0, kv_tokens);
  live->record.max_concurrent_seqs = max_seqs;
}

void Collector::OnFailure(double t, PodIndex pod, PodFailure why,
                          const std::string& message, double lost_work_s) {
  result_.lost_work_s += lost_work_s;
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  r.lost_work_s += lost_work_s;
  EndSession(t, live);
  if (why == PodFailure::kOutOfMemory) {
    ++r.oom_kills;
    ++result_.oom_kills;
  } else if (why == PodFailure::kStartError) {
    // Neither an OOM kill nor a fault: the pod's own start failed (it
    // ends Failed after its restarts, with this message).
  } else {
    ++r.fault_kills;
    ++result_.fault_kills;
  }
  r.message = message;
}

void Collector::OnRestart(double t, PodIndex pod) {
  Live* live = Find(pod);
  if (live == nullptr) return;
  ++live->record.restarts;
  live->attempt_start = t;
  if (live->record.work_s <= 0) live->session_start = t;
}

void Collector::EndSession(double t, Live* live) {
  if (live->session_start < 0) return;
  live->record.lost_session_s += t - live->session_start;
  live->session_start = -1;
}

void Collector::OnPreempted(double t, PodIndex pod, PodIndex preemptor,
                            double lost_work_s) {
  result_.preemption_events.push_back({t, pod, preemptor});
  ++result_.preemptions;
  result_.lost_work_s += lost_work_s;
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  ++r.preemptions;
  r.lost_work_s += lost_work_s;
  EndSession(t, live);
  const Live* by = Find(preemptor);
  // The preemptor is pending, so alive.
  r.message = "preempted by " + (by != nullptr ? by->record.name : "");
  // Up time lost from now until it starts again (not for a gang member
  // evicted while held at Permit before it ever ran).
  if (live->evicted_at < 0 && r.start_s >= 0) live->evicted_at = t;
  // Terminating, then waiting again: no longer running.
  r.outcome = PodOutcome::kPending;
}

void Collector::OnWorkloadAdmitted(double t, int cluster_queue,
                                   std::span<const PodIndex> pods,
                                   bool borrowed) {
  queues_.Admitted(t, cluster_queue, pods, borrowed);
  for (const PodIndex p : pods) {
    Live* live = Find(p);
    if (live == nullptr) continue;
    PodRecord& r = live->record;
    if (r.admission_wait_s < 0) r.admission_wait_s = t - r.arrival_s;
  }
}

void Collector::OnWorkloadEvicted(double t, int cluster_queue,
                                  int preemptor_queue,
                                  std::string_view reason,
                                  std::span<const PodIndex> /*pods*/) {
  queues_.Evicted(t, cluster_queue, preemptor_queue, reason);
}

void Collector::OnEvicted(double t, PodIndex pod, const std::string& reason,
                          double lost_work_s) {
  patrol_.OnEvicted(t, pod, reason, lost_work_s);
  result_.lost_work_s += lost_work_s;
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  r.lost_work_s += lost_work_s;
  EndSession(t, live);
  r.message = reason;
  if (live->evicted_at < 0 && r.start_s >= 0) live->evicted_at = t;
  r.outcome = PodOutcome::kPending;
}

void Collector::OnRequeued(double t, PodIndex pod) {
  Live* live = Find(pod);
  if (live == nullptr) return;
  live->record.outcome = PodOutcome::kPending;
  if (live->hold_start >= 0) {
    live->held_s += t - live->hold_start;
    live->hold_start = -1;
  }
  if (record_devices_ && live->first_holding >= 0) {
    for (size_t h = live->first_holding;
         h < result_.device_holdings.size() &&
         result_.device_holdings[h].pod == pod;
         ++h) {
      result_.device_holdings[h].end_s = t;
    }
    live->first_holding = -1;  // its next binding starts new holdings
  }
}

void Collector::OnGangTimeout(double /*t*/, PodIndex pod) {
  ++result_.gang_timeouts;
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  r.message = "PodGroup " + r.pod_group +
              ": fewer than minMember members bound within its timeout";
}

void Collector::OnEnd(double t, PodIndex pod, PodEnd how,
                      const std::string& message) {
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  r.end_s = t;
  if (!message.empty()) r.message = message;
  if (live->evicted_at >= 0) {
    r.eviction_down_s += t - live->evicted_at;
    live->evicted_at = -1;
  }
  if (record_devices_ && live->first_holding >= 0) {
    for (size_t h = live->first_holding;
         h < result_.device_holdings.size() &&
         result_.device_holdings[h].pod == pod;
         ++h) {
      result_.device_holdings[h].end_s = t;
    }
  }
  switch (how) {
    case PodEnd::kSucceeded:
      r.outcome = PodOutcome::kSucceeded;
      ++result_.succeeded;
      result_.completed_work_s += r.work_s;
      r.run_s = t - live->attempt_start;
      if (r.alone_s > 0) r.slowdown = r.run_s / r.alone_s;
      break;
    case PodEnd::kDeleted:
      r.outcome = PodOutcome::kDeleted;
      ++result_.succeeded;
      r.run_s = t - live->attempt_start;
      break;
    case PodEnd::kFailed:
      r.outcome = PodOutcome::kFailed;
      ++result_.failed;
      break;
    case PodEnd::kAdmissionFailed:
      r.outcome = PodOutcome::kAdmissionFailed;
      ++result_.failed;
      break;
    case PodEnd::kUnschedulable:
      r.outcome = PodOutcome::kUnschedulable;
      ++result_.unschedulable;
      break;
  }
  Retire(t, pod, live);
}

void Collector::Retire(double t, PodIndex pod, Live* live) {
  PodRecord& r = live->record;
  if (r.latency_samples > 0) {
    r.slo_attainment =
        static_cast<double>(r.slo_met_samples) / r.latency_samples;
  }
  if (r.outcome == PodOutcome::kRunning && r.start_s >= 0) {
    r.run_s = t - r.start_s;
  }
  // Evicted and not started again by the end of the run.
  if (live->evicted_at >= 0) {
    r.eviction_down_s += t - live->evicted_at;
    live->evicted_at = -1;
  }
  // Devices held from first start to the end (or to now when still bound).
  if (r.start_s >= 0 && r.gpu_share > 0) {
    const double end = r.end_s >= 0 ? r.end_s : t;
    const double held =
        live->held_s +
        (live->hold_start >= 0 ? std::max(0.0, end - live->hold_start) : 0);
    r.gpu_hours = r.gpu_share * held / 3600.0;
    if (r.outcome == PodOutcome::kFailed ||
        r.outcome == PodOutcome::kAdmissionFailed) {
      r.wasted_gpu_hours = r.gpu_hours;
    } else if (r.work_s > 0 && r.lost_work_s > 0) {
      r.wasted_gpu_hours =
          r.gpu_hours * r.lost_work_s / (r.work_s + r.lost_work_s);
    }
    const NodePool& pool = simulation_.cluster().pools()[live->pool];
    if (pool.model != nullptr) {
      r.cost = r.gpu_hours *
               (pool.model->price_per_hour + pool.spec.licence_per_gpu_hour);
    }
  }
  for (PodRecordSink* sink : sinks_) sink->Add(pod, r);
  result_.pod_summaries.push_back(
      SummarizePod(pod, r, options_.pod_detail,
                   result_.eviction_warning_per_pod, &result_.pod_texts,
                   &result_.pod_devices));
  if (options_.keep_pod_records) {
    result_.pod_records[pod] = std::move(r);
  }
  live_.erase(pod);
}

void Collector::OnFault(double /*t*/, int /*domain*/, int pods_killed) {
  ++result_.faults;
  result_.max_blast_radius =
      std::max(result_.max_blast_radius, static_cast<double>(pods_killed));
}

void Collector::OnLatency(double t, PodIndex pod, const Latency& latency) {
  patrol_.OnLatency(t, pod, latency);
  Live* live = Find(pod);
  if (live == nullptr) return;
  PodRecord& r = live->record;
  const bool met =
      MeetsSlos(latency, {r.slo_p99_ms, r.slo_ttft_p99_ms, r.slo_tpot_p99_ms});
  if (record_devices_) {
    result_.latency_samples.push_back(
        {t, pod,
         latency.saturated ? std::numeric_limits<double>::infinity()
                           : latency.p99_ms,
         met});
  }
  const int n = r.latency_samples - r.saturated_samples;
  ++r.latency_samples;
  if (met) {
    ++r.slo_met_samples;
  } else if (latency.alone_meets_slo) {
    ++r.neighbour_missed_samples;
  }
  if (latency.saturated) {
    ++r.saturated_samples;
    return;
  }
  r.p50_ms = n == 0 ? latency.p50_ms : (r.p50_ms * n + latency.p50_ms) / (n + 1);
  r.p99_ms = std::max(r.p99_ms, latency.p99_ms);
  if (latency.llm) {
    r.ttft_p50_ms = n == 0 ? latency.ttft_p50_ms
                           : (r.ttft_p50_ms * n + latency.ttft_p50_ms) / (n + 1);
    r.tpot_p50_ms = n == 0 ? latency.tpot_p50_ms
                           : (r.tpot_p50_ms * n + latency.tpot_p50_ms) / (n + 1);
    r.ttft_p99_ms = std::max(r.ttft_p99_ms, latency.ttft_p99_ms);
    r.tpot_p99_ms = std::max(r.tpot_p99_ms, latency.tpot_p99_ms);
  }
}

void Collector::OnSample(double t, const std::vector<DomainState>& domains,
                         int pending) {
  patrol_.OnSample(t, domains, pending);
  const auto& infos = simulation_.domains();
  std::vector<double> weight(result_.pools.size(), 0);
  std::vector<PoolSample> samples(result_.pools.size());
  // A GPU is idle when none of its devices holds a pod.
  std::vector<char> busy(gpu_pool_.size(), 0);
  // GPUs of empty slots of autoscaled pools are no GPUs (neither idle
  // nor sampled).
  std::vector<char> absent(gpu_pool_.size(), 0);
  for (size_t i = 0; i < domains.size(); ++i) {
    const DomainState& s = domains[i];
    if (s.absent) {
      absent[domain_gpu_[i]] = 1;
      continue;
    }
    if (s.allocated) busy[domain_gpu_[i]] = 1;
    const int pool = device_pool_[i];
    const double w = infos[i].gpu_equivalents;
    PoolSample& ps = samples[pool];
    weight[pool] += w;
    ps.gpu_util += w * s.gpu_util;
    ps.sm_active += w * s.sm_active;
    ps.fb_used_fraction +=
        w * static_cast<double>(s.fb_used_mib) /
        static_cast<double>(std::max<int64_t>(1, infos[i].memory_mib));
    ps.allocation += s.allocated ? w : 0;
    if (record_devices_) {
      result_.device_samples.push_back({t, static_cast<int>(i), s.gpu_util,
                                        s.sm_active, s.fb_used_mib,
                                        s.residents, s.down,
                                        s.mig_config_drift});
    }
  }
  if (record_devices_) {
    const Cluster& cluster = simulation_.cluster();
    for (size_t n = 0; n < node_resources_.size(); ++n) {
      if (!cluster.nodes()[n].exists()) continue;  // an empty slot
      for (const auto& [index, id] : node_resources_[n]) {
        result_.node_samples.push_back({t, static_cast<int>(n), index,
                                        cluster.nodes()[n].Allocatable(id)});
      }
    }
  }
  for (size_t g = 0; g < busy.size(); ++g) {
    if (!busy[g] && !absent[g]) ++samples[gpu_pool_[g]].idle_gpus;
  }
  std::vector<int> idle_gpus(samples.size(), 0);
  for (size_t p = 0; p < samples.size(); ++p) {
    idle_gpus[p] = samples[p].idle_gpus;
  }
  for (size_t p = 0; p < samples.size(); ++p) {
    PoolSample& ps = samples[p];
    ps.time_s = t;
    ps.pending = pending;
    if (weight[p] > 0) {
      ps.gpu_util /= weight[p];
      ps.sm_active /= weight[p];
      ps.fb_used_fraction /= weight[p];
      ps.allocation /= weight[p];
    }
    result_.pools[p].samples.push_back(ps);
  }
  queues_.Sample(idle_gpus);
}

void Collector::OnPodShare(double t, PodIndex pod, int domain,
                           double gpu_time_ratio) {
  patrol_.OnPodShare(t, pod, domain, gpu_time_ratio);
  if (record_devices_) {
    result_.pod_share_samples.push_back({t, pod, domain, gpu_time_ratio});
  }
}

void Collector::OnFinish(double t, int64_t events, int64_t cycles) {
  patrol_.OnFinish(t, events, cycles);
  result_.alerts = patrol_.alerts();
  result_.end_s = t;
  result_.events = events;
  result_.scheduling_cycles = cycles;
  const Cluster& cluster = simulation_.cluster();
  for (size_t p = 0; p < result_.pools.size(); ++p) {
    PoolSummary& s = result_.pools[p];
    s.gpu_hours = s.gpus * t / 3600.0;
    const GpuModel* model = cluster.pools()[p].model;
    s.cost = model ? s.gpu_hours * (model->price_per_hour +
                                    cluster.pools()[p].spec.licence_per_gpu_hour)
                   : 0;
    if (const ElasticPoolStats* elastic =
            simulation_.elastic_stats(static_cast<int>(p))) {
      // An autoscaled pool costs the nodes it had, while it had them.
      s.elastic = true;
      s.autoscaling = *elastic;
      s.gpu_hours = elastic->gpu_hours;
      s.cost = elastic->cost;
    }
    result_.cost += s.cost;
    if (!cluster.pools()[p].dynamic_mig_domains.empty()) {
      const Simulation::DynamicMigStats m =
          simulation_.dynamic_mig_stats(static_cast<int>(p));
      s.dynamic_mig = true;
      s.mig.instances_created = m.lifecycle.created;
      s.mig.instances_destroyed = m.lifecycle.destroyed;
      s.mig.mode_enables = m.lifecycle.mode_enables;
      s.mig.mode_disables = m.lifecycle.mode_disables;
      s.mig.creation_wait_s = m.lifecycle.creation_wait_s;
      s.mig.churn_per_hour =
          t > 0 ? static_cast<double>(m.lifecycle.created +
                                      m.lifecycle.destroyed) /
                      (t / 3600.0)
                : 0;
      s.mig.stranded_pending_mean =
          m.samples > 0 ? static_cast<double>(m.stranded_pod_samples) /
                              static_cast<double>(m.samples)
                        : 0;
      s.mig.stranded_pending_max = m.stranded_max;
    }
    if (!s.samples.empty()) {
      for (const PoolSample& ps : s.samples) {
        s.mean_gpu_util += ps.gpu_util;
        s.mean_sm_active += ps.sm_active;
        s.mean_allocation += ps.allocation;
      }
      const double n = static_cast<double>(s.samples.size());
      s.mean_gpu_util /= n;
      s.mean_sm_active /= n;
      s.mean_allocation /= n;
    }
  }
  // The pods alive at the end of the run, in pod order.
  std::vector<PodIndex> alive;
  alive.reserve(live_.size());
  for (const auto& [pod, live] : live_) alive.push_back(pod);
  std::sort(alive.begin(), alive.end());
  for (const PodIndex pod : alive) Retire(t, pod, &live_.at(pod));
  // Then every figure over pods, in pod order.
  result_.pod_summaries.Sort();
  int64_t latency_samples = 0;
  int64_t slo_met = 0;
  result_.pod_summaries.ForEach([&](const PodSummary& r) {
    if (r.latency_samples == 0) return;
    latency_samples += r.latency_samples;
    slo_met += r.slo_met_samples;
  });
  if (latency_samples > 0) {
    result_.slo_attainment = static_cast<double>(slo_met) / latency_samples;
  }
  QuantileSummary waits(result_.quantiles);
  double slowdown_sum = 0;
  int64_t slowdowns = 0;
  result_.pod_summaries.ForEach([&](const PodSummary& r) {
    if (r.wait_s >= 0) waits.Add(r.wait_s);
    if (r.slowdown > 0) {
      slowdown_sum += r.slowdown;
      ++slowdowns;
    }
  });
  if (!waits.empty()) {
    result_.mean_wait_s = waits.Mean();
    result_.p99_wait_s = waits.Quantile(0.99);
  } else {
    result_.mean_wait_s = result_.p99_wait_s = -1;  // no pod started
  }
  if (slowdowns > 0) result_.mean_slowdown = slowdown_sum / slowdowns;
  const double done = result_.completed_work_s + result_.lost_work_s;
  // Undefined (-1) when no job's work was done or lost: nothing ran.
  result_.goodput = done > 0 ? result_.completed_work_s / done : -1;
  if (t > 0) result_.throughput_per_h = result_.succeeded * 3600.0 / t;
  queues_.Finish(result_.pod_summaries, result_.pod_texts, &result_.queues);
}

}  // namespace gpushare
