#include "gpushare/metrics/queue_collector.h"

#include <algorithm>

#include "gpushare/base/statistics.h"

namespace gpushare {

void QueueCollector::Start(const Kueue* kueue, const ResourceRegistry& registry,
                           const std::vector<Pod>& pods) {
  kueue_ = kueue;
  if (kueue_ == nullptr) return;
  const auto& pairs = kueue_->flavor_resources();
  for (const Kueue::FlavorResource& fr : pairs) {
    const std::string& name = registry.Name(fr.resource);
    scale_.push_back(name == "cpu" ? 1e-3 : name == "memory" ? 1048576.0 : 1);
  }
  const QuotaBook& book = kueue_->book();
  for (int q = 0; q < kueue_->queue_count(); ++q) {
    QueueSummary s;
    const ClusterQueueSpec& spec = kueue_->queue(q);
    s.name = spec.name;
    s.cohort = spec.cohort;
    s.queueing_strategy =
        std::string(QueueingStrategyName(spec.queueing_strategy));
    std::vector<int> defined;
    for (size_t k = 0; k < pairs.size(); ++k) {
      const int fr = static_cast<int>(k);
      if (!book.Defines(q, fr)) continue;
      defined.push_back(fr);
      QueueQuota quota;
      quota.flavor = kueue_->flavor(pairs[k].flavor).name;
      quota.resource = registry.Name(pairs[k].resource);
      quota.nominal = static_cast<double>(book.Nominal(q, fr)) * scale_[k];
      if (book.BorrowingLimit(q, fr) != QuotaBook::kUnlimited) {
        quota.borrowing_limit =
            static_cast<double>(book.BorrowingLimit(q, fr)) * scale_[k];
      }
      if (!spec.cohort.empty()) {
        quota.lending_limit =
            static_cast<double>(book.LendingLimit(q, fr)) * scale_[k];
      }
      s.quotas.push_back(std::move(quota));
    }
    pairs_.push_back(std::move(defined));
    queues_.push_back(std::move(s));
  }
  waits_.assign(queues_.size(), {});
  admitted_once_.assign(pods.size(), false);
  arrival_s_.resize(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) arrival_s_[i] = pods[i].arrival_s;
}

void QueueCollector::Admitted(double t, int cluster_queue,
                              std::span<const int> pods, bool borrowed) {
  QueueSummary& s = queues_[cluster_queue];
  ++s.admissions;
  s.admitted_at.push_back(t);
  if (borrowed) ++s.borrowing_admissions;
  const int first = pods.front();
  if (!admitted_once_[first]) {
    admitted_once_[first] = true;
    waits_[cluster_queue].push_back(t - arrival_s_[first]);
  }
}

void QueueCollector::Evicted(double t, int cluster_queue, int preemptor_queue,
                             KueueEvictionReason reason) {
  ++queues_[cluster_queue].evictions;
  queues_[cluster_queue].evicted_at.push_back(t);
  auto& by = queues_[preemptor_queue].preempted_by_reason;
  const std::string name(KueueEvictionReasonName(reason));
  auto it = std::find_if(by.begin(), by.end(),
                         [&](const auto& e) { return e.first == name; });
  if (it == by.end()) {
    by.push_back({name, 1});
  } else {
    ++it->second;
  }
}

void QueueCollector::Sample() {
  if (kueue_ == nullptr) return;
  const QuotaBook& book = kueue_->book();
  for (size_t q = 0; q < queues_.size(); ++q) {
    QueueSummary& s = queues_[q];
    const int qi = static_cast<int>(q);
    for (size_t k = 0; k < pairs_[q].size(); ++k) {
      const int fr = pairs_[q][k];
      s.quotas[k].used.push_back(static_cast<double>(book.Usage(qi, fr)) *
                                 scale_[fr]);
    }
    s.pending_active.push_back(kueue_->PendingActive(qi));
    s.pending_inadmissible.push_back(kueue_->PendingInadmissible(qi));
  }
}

void QueueCollector::Finish(const std::vector<PodRecord>& pods,
                            std::vector<QueueSummary>* out) {
  out->clear();
  if (kueue_ == nullptr) return;
  for (int w = 0; w < kueue_->workload_count(); ++w) {
    QueueSummary& s = queues_[kueue_->cluster_queue_of(w)];
    ++s.workloads;
    const Kueue::State state = kueue_->state(w);
    s.pending_at_end +=
        state == Kueue::State::kPending || state == Kueue::State::kInadmissible;
  }
  for (size_t q = 0; q < queues_.size(); ++q) {
    QueueSummary& s = queues_[q];
    for (QueueQuota& quota : s.quotas) {
      if (quota.used.empty()) continue;
      double used = 0;
      double borrowed = 0;
      for (double u : quota.used) {
        used += u;
        borrowed += std::max(0.0, u - quota.nominal);
        quota.peak_used = std::max(quota.peak_used, u);
        quota.peak_borrowed =
            std::max(quota.peak_borrowed, std::max(0.0, u - quota.nominal));
      }
      const double n = static_cast<double>(quota.used.size());
      quota.mean_used = used / n;
      quota.mean_borrowed = borrowed / n;
    }
    if (!waits_[q].empty()) {
      s.mean_admission_wait_s = Mean(waits_[q]);
      s.p99_admission_wait_s = NearestRankPercentile(waits_[q], 0.99);
    }
  }
  for (const PodRecord& p : pods) {
    if (p.cluster_queue.empty()) continue;
    for (QueueSummary& s : queues_) {
      if (s.name != p.cluster_queue) continue;
      s.pod_preemptions += p.preemptions;
      s.lost_work_s += p.lost_work_s;
    }
  }
  *out = queues_;
}

}  // namespace gpushare
