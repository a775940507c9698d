#include "gpushare/metrics/queue_collector.h"

#include <algorithm>
#include <cmath>

#include "gpushare/base/quantile_summary.h"

namespace gpushare {

namespace {

// A resource that counts GPUs or their shares: the device plugins' and
// HAMi's (nvidia.com/...), KAI's GPU units.
bool IsQuotaGpuResource(const std::string& resource) {
  return resource == "gpu" || resource.rfind("nvidia.com/", 0) == 0;
}

}  // namespace

void QueueCollector::Start(const QueueAdmission* queues,
                           const Simulation& simulation,
                           const Cluster& cluster,
                           QuantileOptions quantiles) {
  queues_in_ = queues;
  cluster_ = &cluster;
  if (queues_in_ == nullptr) return;
  // The pools some node of which a flavor's labels select (KAI: every pool
  // with GPUs).
  const auto pools_of = [&](int flavor) {
    std::vector<int> out;
    for (size_t p = 0; p < cluster.pools().size(); ++p) {
      const NodePool& pool = cluster.pools()[p];
      if (pool.spec.gpus_per_node == 0) continue;
      bool selected = flavor < 0;
      for (int n = pool.first_node;
           !selected && n < pool.first_node + pool.node_count; ++n) {
        selected = MatchesSelector(queues_in_->flavor_node_labels(flavor),
                                   cluster.nodes()[n].labels());
      }
      if (selected) out.push_back(static_cast<int>(p));
    }
    return out;
  };
  // Per queue: the pods' requests of its quotas' resources, the least
  // asked of each (one pass over the workload).
  std::vector<std::vector<ResourceId>> quota_ids(
      static_cast<size_t>(queues_in_->queue_count()));
  std::vector<std::vector<int64_t>> least(quota_ids.size());
  for (int q = 0; q < queues_in_->queue_count(); ++q) {
    for (const QueueQuotaInfo& info : queues_in_->queue_quotas(q)) {
      const bool gpu = IsQuotaGpuResource(info.resource) &&
                       !pools_of(info.flavor_index).empty();
      quota_ids[q].push_back(gpu ? cluster.resources().Find(info.resource)
                                 : -1);
      least[q].push_back(0);
    }
  }
  admitted_once_.assign(static_cast<size_t>(simulation.pod_count()), false);
  arrival_s_.resize(static_cast<size_t>(simulation.pod_count()));
  simulation.ScanPods([&](PodIndex i, const Pod& pod) {
    arrival_s_[static_cast<size_t>(i)] = pod.arrival_s;
    if (pod.queue_name.empty()) return;
    const int q = queues_in_->QueueOf(pod.namespace_name, pod.queue_name);
    if (q < 0) return;
    for (size_t k = 0; k < quota_ids[q].size(); ++k) {
      const ResourceId id = quota_ids[q][k];
      if (id < 0) continue;
      const int64_t asked = pod.requests.Get(id);
      int64_t& unit = least[q][k];
      if (asked > 0 && (unit == 0 || asked < unit)) unit = asked;
    }
  });
  for (int q = 0; q < queues_in_->queue_count(); ++q) {
    QueueSummary s;
    s.name = queues_in_->queue_name(q);
    s.cohort = queues_in_->queue_parent(q);
    s.queueing_strategy = queues_in_->queue_strategy(q);
    std::vector<double> scales;
    std::vector<std::vector<int>> gpu_pools;
    std::vector<double> caps;
    for (const QueueQuotaInfo& info : queues_in_->queue_quotas(q)) {
      gpu_pools.push_back(IsQuotaGpuResource(info.resource)
                              ? pools_of(info.flavor_index)
                              : std::vector<int>{});
      // What holds it: Kueue's nominal quota (borrowing needs quota the
      // cohort lends); KAI's limit (KAI allocates above the deserved quota
      // whenever units are free; no limit, no cap).
      double cap = info.quota;
      if (info.flavor_index < 0) {
        cap = info.borrowing_limit && info.quota >= 0
                  ? info.quota + *info.borrowing_limit
                  : -1;
      }
      const double scale = info.resource == "cpu"      ? 1e-3
                           : info.resource == "memory" ? 1048576.0
                                                       : 1;
      QueueQuota quota;
      quota.flavor = info.flavor;
      quota.resource = info.resource;
      quota.nominal = info.quota * scale;
      if (info.borrowing_limit) {
        quota.borrowing_limit = *info.borrowing_limit * scale;
      }
      if (info.lending_limit) {
        quota.lending_limit = *info.lending_limit * scale;
      }
      s.quotas.push_back(std::move(quota));
      scales.push_back(scale);
      caps.push_back(cap < 0 ? -1 : cap * scale);
    }
    // The unit a quota's free capacity is counted in: the resource as the
    // nodes advertise it, per the least any pod of the queue asks of it.
    std::vector<ResourceId> ids;
    std::vector<int64_t> units;
    for (size_t k = 0; k < gpu_pools.size(); ++k) {
      const ResourceId id = gpu_pools[k].empty() ? -1 : quota_ids[q][k];
      const int64_t unit = id >= 0 ? least[q][k] : 0;
      ids.push_back(unit > 0 ? id : -1);
      units.push_back(unit);
    }
    quota_resources_.push_back(std::move(ids));
    quota_units_.push_back(std::move(units));
    scale_.push_back(std::move(scales));
    gpu_quota_pools_.push_back(std::move(gpu_pools));
    quota_caps_.push_back(std::move(caps));
    queues_.push_back(std::move(s));
  }
  idle_gpus_sum_.assign(queues_.size(), 0);
  free_sum_.assign(queues_.size(), 0);
  waits_.assign(queues_.size(), QuantileSummary(quantiles));
}

void QueueCollector::Admitted(double t, int queue, std::span<const int> pods,
                              bool borrowed) {
  QueueSummary& s = queues_[queue];
  ++s.admissions;
  s.admitted_at.push_back(t);
  if (borrowed) ++s.borrowing_admissions;
  const int first = pods.front();
  if (!admitted_once_[first]) {
    admitted_once_[first] = true;
    waits_[queue].Add(t - arrival_s_[first]);
  }
}

void QueueCollector::Evicted(double t, int queue, int preemptor_queue,
                             std::string_view reason) {
  ++queues_[queue].evictions;
  queues_[queue].evicted_at.push_back(t);
  auto& by = queues_[preemptor_queue].preempted_by_reason;
  const std::string name(reason);
  auto it = std::find_if(by.begin(), by.end(),
                         [&](const auto& e) { return e.first == name; });
  if (it == by.end()) {
    by.push_back({name, 1});
  } else {
    ++it->second;
  }
}

int64_t QueueCollector::FreeUnits(int q, int k, int idle_gpus) const {
  const ResourceId id = quota_resources_[q][k];
  if (id < 0) return idle_gpus;  // KAI's GPU units, or nobody asks it
  int64_t free = 0;
  for (int p : gpu_quota_pools_[q][k]) {
    const NodePool& pool = cluster_->pools()[p];
    for (int n = pool.first_node; n < pool.first_node + pool.node_count; ++n) {
      const Node& node = cluster_->nodes()[n];
      free += std::max<int64_t>(0, node.Allocatable(id) - node.Requested(id));
    }
  }
  return free / quota_units_[q][k];
}

void QueueCollector::Sample(const std::vector<int>& idle_gpus) {
  if (queues_in_ == nullptr) return;
  for (size_t q = 0; q < queues_.size(); ++q) {
    QueueSummary& s = queues_[q];
    const int qi = static_cast<int>(q);
    // The most idle GPUs, and the most free units of the quota's resource
    // (Start), among the flavors where it is at its quota.
    int idle_at_quota = 0;
    int64_t free_at_quota = 0;
    std::string free_resource;
    for (size_t k = 0; k < s.quotas.size(); ++k) {
      const int ki = static_cast<int>(k);
      const double used =
          static_cast<double>(queues_in_->QuotaUsed(qi, ki)) * scale_[q][k];
      s.quotas[k].used.push_back(used);
      const double fair = queues_in_->FairShare(qi, ki);
      if (fair >= 0) s.quotas[k].fair_share.push_back(fair * scale_[q][k]);
      if (gpu_quota_pools_[q][k].empty() || quota_caps_[q][k] < 0 ||
          used < quota_caps_[q][k]) {
        continue;
      }
      int idle = 0;
      for (int p : gpu_quota_pools_[q][k]) idle += idle_gpus[p];
      idle_at_quota = std::max(idle_at_quota, idle);
      const int64_t free = FreeUnits(qi, ki, idle);
      if (free > free_at_quota) {
        free_at_quota = free;
        free_resource = quota_resources_[q][k] >= 0
                            ? s.quotas[k].resource
                            : std::string("whole GPUs");
      }
    }
    s.pending_active.push_back(queues_in_->PendingActive(qi));
    s.pending_inadmissible.push_back(queues_in_->PendingInadmissible(qi));
    ++s.samples;
    if (free_at_quota > 0 &&
        s.pending_active.back() + s.pending_inadmissible.back() > 0) {
      ++s.idle_at_quota_samples;
      idle_gpus_sum_[q] += idle_at_quota;
      free_sum_[q] += static_cast<double>(free_at_quota);
      if (s.free_at_quota_resource.empty()) {
        s.free_at_quota_resource = free_resource;
      }
    }
  }
}

void QueueCollector::Finish(const PodSummaryStore& pods,
                            const PodTexts& texts,
                            std::vector<QueueSummary>* out) {
  out->clear();
  if (queues_in_ == nullptr) return;
  using State = QueueAdmission::State;
  for (int w = 0; w < queues_in_->workload_count(); ++w) {
    QueueSummary& s = queues_[queues_in_->queue_of(w)];
    ++s.workloads;
    const State state = queues_in_->state(w);
    s.pending_at_end += state == State::kPending || state == State::kInadmissible;
  }
  for (size_t q = 0; q < queues_.size(); ++q) {
    QueueSummary& s = queues_[q];
    for (QueueQuota& quota : s.quotas) {
      if (quota.used.empty()) continue;
      double used = 0;
      double borrowed = 0;
      for (double u : quota.used) {
        // Above the quota (none above KAI's unlimited quota, -1).
        const double over =
            quota.nominal < 0 ? 0 : std::max(0.0, u - quota.nominal);
        used += u;
        borrowed += over;
        quota.peak_used = std::max(quota.peak_used, u);
        quota.peak_borrowed = std::max(quota.peak_borrowed, over);
      }
      const double n = static_cast<double>(quota.used.size());
      quota.mean_used = used / n;
      quota.mean_borrowed = borrowed / n;
      if (quota.fair_share.size() == quota.used.size()) {
        double fair = 0;
        double deviation = 0;
        for (size_t i = 0; i < quota.used.size(); ++i) {
          fair += quota.fair_share[i];
          deviation += std::abs(quota.used[i] - quota.fair_share[i]);
        }
        quota.mean_fair_share = fair / n;
        quota.fair_share_deviation = deviation / n;
      }
    }
    if (s.idle_at_quota_samples > 0) {
      s.mean_idle_gpus_at_quota =
          idle_gpus_sum_[q] / static_cast<double>(s.idle_at_quota_samples);
      s.mean_free_at_quota =
          free_sum_[q] / static_cast<double>(s.idle_at_quota_samples);
    }
    if (!waits_[q].empty()) {
      s.mean_admission_wait_s = waits_[q].Mean();
      s.p99_admission_wait_s = waits_[q].Quantile(0.99);
    }
  }
  pods.ForEach([&](const PodSummary& p) {
    const std::string& queue = texts[p.cluster_queue];
    if (queue.empty()) return;
    for (QueueSummary& s : queues_) {
      if (s.name != queue) continue;
      s.pod_preemptions += p.preemptions;
      s.lost_work_s += p.lost_work_s;
    }
  });
  *out = queues_;
}

}  // namespace gpushare
