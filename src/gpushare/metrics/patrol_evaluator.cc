#include "gpushare/metrics/patrol_evaluator.h"

#include <algorithm>

#include <fmt/format.h>

#include "gpushare/exec/latency_model.h"

namespace gpushare {
namespace {

// Resources the DevicePluginStalled rule sums (its regex
// nvidia_com_(gpu|gpu_shared|mig_.*) on kube-state-metrics' names).
bool IsGpuResource(const std::string& name) {
  return name == kNvidiaGpu || name == kNvidiaGpuShared ||
         name.rfind("nvidia.com/mig-", 0) == 0;
}

// Half a microsecond: samples `for_s` apart count as held despite rounding.
constexpr double kTimeSlack = 5e-7;

}  // namespace

void PatrolEvaluator::OnRunStart(const Cluster& cluster,
                                 int64_t /*pod_count*/,
                                 const std::vector<DomainInfo>& domains) {
  cluster_ = &cluster;
  domains_ = domains;
  const auto& nodes = cluster.nodes();
  node_domains_.assign(nodes.size(), {});
  for (size_t d = 0; d < domains.size(); ++d) {
    node_domains_[domains[d].node].push_back(static_cast<int>(d));
  }
  node_gpu_resources_.assign(nodes.size(), {});
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (const auto& [id, quantity] : nodes[n].extended().items()) {
      if (quantity > 0 && IsGpuResource(cluster.resources().Name(id))) {
        node_gpu_resources_[n].push_back(id);
      }
    }
  }
  noisy_.assign(domains.size(), Hold());
  drift_.assign(domains.size(), Hold());
  stalled_.assign(nodes.size(), Hold());
}

template <typename Make>
void PatrolEvaluator::Evaluate(Hold& hold, double t, bool condition,
                               double value, Make make) {
  if (!condition) {
    if (hold.firing >= 0) alerts_[hold.firing].resolved_s = t;
    hold = Hold();
    return;
  }
  if (hold.since < 0) hold.since = t;
  if (hold.firing >= 0) {
    PatrolAlert& a = alerts_[hold.firing];
    a.value = std::max(a.value, value);
    return;
  }
  if (t - hold.since + kTimeSlack < rules_.for_s) return;
  PatrolAlert a;
  make(a);
  a.active_s = hold.since;
  a.fired_s = t;
  a.value = value;
  hold.firing = static_cast<int>(alerts_.size());
  alerts_.push_back(std::move(a));
}

void PatrolEvaluator::OnSample(double t,
                               const std::vector<DomainState>& domains,
                               int pending) {
  EvaluateNoisyNeighbours(open_sample_);
  open_sample_ = t;
  const auto& nodes = cluster_->nodes();
  // MigConfigDrift: one series per MIG GPU (its first instance's device).
  for (size_t d = 0; d < domains_.size(); ++d) {
    const DomainInfo& info = domains_[d];
    if (info.mig_instance != 0) continue;
    bool drift = false;
    for (size_t i = d; i < domains_.size() && domains_[i].node == info.node &&
                       domains_[i].gpu == info.gpu;
         ++i) {
      drift = drift || domains[i].mig_config_drift;
    }
    Evaluate(drift_[d], t, drift, 1, [&](PatrolAlert& a) {
      a.name = "MigConfigDrift";
      a.severity = "warning";
      a.node = nodes[info.node].name();
      a.gpu = info.gpu;
      a.description = fmt::format(
          "The MIG layout of GPU {} on {} differs from the node's "
          "nvidia.com/mig.config (its instances were lost in a GPU reset).",
          info.gpu, a.node);
    });
  }
  // DevicePluginStalled.
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (node_gpu_resources_[n].empty()) continue;
    int64_t advertised = 0;
    for (ResourceId id : node_gpu_resources_[n]) {
      advertised += nodes[n].Allocatable(id);
    }
    bool healthy = true;
    bool drift = false;
    for (int d : node_domains_[n]) {
      healthy = healthy && !domains[d].down;
      drift = drift || domains[d].mig_config_drift;
    }
    // A drifted MIG layout advertises nothing either: MigConfigDrift says why.
    const bool stalled = advertised == 0 && healthy && !drift && pending > 0;
    Evaluate(stalled_[n], t, stalled, pending, [&](PatrolAlert& a) {
      a.name = "DevicePluginStalled";
      a.severity = "critical";
      a.node = nodes[n].name();
      a.description = fmt::format(
          "Node {} advertises no GPUs although its GPUs are healthy, and pods "
          "are pending.",
          a.node);
    });
  }
}

void PatrolEvaluator::OnPodShare(double t, PodIndex pod, int domain,
                                 double gpu_time_ratio) {
  if (t == open_sample_) {
    shares_.push_back(
        {pod, domain, gpu_time_ratio, simulation_->pod(pod).name});
  }
}

void PatrolEvaluator::OnLatency(double t, PodIndex pod,
                                const Latency& latency) {
  if (t != open_sample_) return;
  const PodNeeds& needs = simulation_->pod(pod).needs;
  if (!MeetsSlos(latency, {needs.slo_p99_ms, needs.slo_ttft_p99_ms,
                           needs.slo_tpot_p99_ms})) {
    missed_slo_.push_back(pod);
  }
}

void PatrolEvaluator::EvaluateNoisyNeighbours(double t) {
  if (t < 0) return;
  std::sort(missed_slo_.begin(), missed_slo_.end());
  // Per device: the pod with the largest share, and whether a pod at or
  // below the threshold misses its SLO. Shares come grouped by device.
  std::vector<bool>& seen = seen_scratch_;
  seen.assign(domains_.size(), false);
  size_t i = 0;
  while (i < shares_.size()) {
    const int device = shares_[i].domain;
    size_t end = i;
    const Share* top = nullptr;
    bool victim = false;
    for (; end < shares_.size() && shares_[end].domain == device; ++end) {
      const Share& s = shares_[end];
      if (top == nullptr || s.ratio > top->ratio) top = &s;
      if (s.ratio <= rules_.noisy_neighbour_share &&
          std::binary_search(missed_slo_.begin(), missed_slo_.end(), s.pod)) {
        victim = true;
      }
    }
    seen[device] = true;
    const bool noisy =
        victim && top->ratio > rules_.noisy_neighbour_share;
    Evaluate(noisy_[device], t, noisy, top->ratio, [&](PatrolAlert& a) {
      const DomainInfo& info = domains_[device];
      a.name = "GpuNoisyNeighbour";
      a.severity = "warning";
      a.node = cluster_->nodes()[info.node].name();
      a.gpu = info.gpu;
      a.device = device;
      a.pod = top->name;
      a.description = fmt::format(
          "Pod {} holds {:.0f} % of GPU {}{} on {} while a pod sharing it "
          "misses its p99 latency SLO.",
          a.pod, 100 * top->ratio, info.gpu,
          info.mig_instance >= 0 ? " MIG " + info.profile : "", a.node);
    });
    i = end;
  }
  // Devices without shares at this sample (no residents): condition false.
  for (size_t d = 0; d < domains_.size(); ++d) {
    if (!seen[d] && noisy_[d].since >= 0) {
      Evaluate(noisy_[d], t, false, 0, [](PatrolAlert&) {});
    }
  }
  shares_.clear();
  missed_slo_.clear();
}

void PatrolEvaluator::OnFinish(double /*t*/, int64_t /*events*/,
                               int64_t /*cycles*/) {
  EvaluateNoisyNeighbours(open_sample_);
  open_sample_ = -1;
}

}  // namespace gpushare
