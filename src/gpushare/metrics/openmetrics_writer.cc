#include "gpushare/metrics/openmetrics_writer.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>
#include <vector>

#include "gpushare/metrics/gpu_uuid.h"
#include "gpushare/metrics/openmetrics_text.h"

namespace gpushare {
namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

// One series of a device family: a label set and the samples it covers
// (indexes into device_samples, in time order).
struct DeviceSeries {
  std::string labels;
  std::vector<int> samples;
};

class Writer {
 public:
  Writer(const SimulationResult& result, int64_t start_unix_s)
      : r_(result), out_(start_unix_s) {}

  std::string Write() {
    IndexDevices();
    DeviceFamilies();
    DeviceStateFamilies();
    MigDriftFamily();
    PodShareFamily();
    NodeAllocatableFamily();
    PoolFamilies();
    PodFamilies();
    return out_.Finish();
  }

 private:
  // Labels of device `d`, with those of `holding` when it is >= 0; `keep`
  // owns the label values made here.
  LabelList DeviceLabels(int d, int holding, std::deque<std::string>* keep) {
    const DeviceInfo& info = r_.devices[d];
    keep->push_back(std::to_string(info.gpu));
    keep->push_back(FakeGpuUuid(info.node, info.gpu));
    keep->push_back("nvidia" + std::to_string(info.gpu));
    LabelList labels = {{"gpu", (*keep)[0]},
                        {"UUID", (*keep)[1]},
                        {"device", (*keep)[2]},
                        {"modelName", info.model}};
    if (info.mig_instance >= 0) {
      keep->push_back(std::to_string(info.mig_instance));
      labels.emplace_back("GPU_I_PROFILE", info.profile);
      labels.emplace_back("GPU_I_ID", (*keep)[3]);
    }
    labels.emplace_back("Hostname", info.node);
    if (holding >= 0) {
      const DeviceHolding& h = r_.device_holdings[holding];
      const PodSummary& pod = Pod(h.pod);
      // dcgm-exporter's pod label is the pod's own name; an imported pod's
      // record is named "namespace/name".
      std::string_view name = r_.text(pod.name);
      const std::string& ns = r_.text(pod.namespace_name);
      if (!ns.empty() && name.size() > ns.size() && name[ns.size()] == '/' &&
          name.substr(0, ns.size()) == ns) {
        name.remove_prefix(ns.size() + 1);
      }
      labels.emplace_back("container", name);
      labels.emplace_back("namespace", ns);
      labels.emplace_back("pod", name);
      if (h.replica >= 0) {
        keep->push_back(std::to_string(h.replica));
        labels.emplace_back("vgpu", keep->back());
      }
    }
    labels.emplace_back("pool", info.pool);
    return labels;
  }

  std::string DeviceLabelText(int d, int holding) {
    std::deque<std::string> keep;
    return FormatLabels(DeviceLabels(d, holding, &keep));
  }

  // Groups the device samples by device and splits each device's samples
  // into series: the times no pod held it, then one series per holding.
  void IndexDevices() {
    const int devices = static_cast<int>(r_.devices.size());
    by_device_.assign(devices, {});
    for (size_t i = 0; i < r_.device_samples.size(); ++i) {
      by_device_[r_.device_samples[i].device].push_back(static_cast<int>(i));
    }
    std::vector<std::vector<int>> holdings(devices);
    for (size_t h = 0; h < r_.device_holdings.size(); ++h) {
      holdings[r_.device_holdings[h].device].push_back(static_cast<int>(h));
    }
    series_.assign(devices, {});
    for (int d = 0; d < devices; ++d) {
      const std::vector<int>& samples = by_device_[d];
      std::vector<bool> held(samples.size(), false);
      std::vector<DeviceSeries> pods;
      for (int h : holdings[d]) {
        const DeviceHolding& holding = r_.device_holdings[h];
        const double end = holding.end_s < 0 ? kForever : holding.end_s;
        DeviceSeries s;
        for (size_t k = 0; k < samples.size(); ++k) {
          const double t = r_.device_samples[samples[k]].time_s;
          if (t >= holding.start_s && t < end) {
            s.samples.push_back(samples[k]);
            held[k] = true;
          }
        }
        if (s.samples.empty()) continue;
        s.labels = DeviceLabelText(d, h);
        pods.push_back(std::move(s));
      }
      DeviceSeries idle;
      for (size_t k = 0; k < samples.size(); ++k) {
        if (!held[k]) idle.samples.push_back(samples[k]);
      }
      if (!idle.samples.empty()) {
        idle.labels = DeviceLabelText(d, -1);
        series_[d].push_back(std::move(idle));
      }
      for (DeviceSeries& s : pods) series_[d].push_back(std::move(s));
    }
  }

  void DeviceFamily(std::string_view name, std::string_view help,
                    const std::function<double(const DeviceSample&)>& value) {
    if (r_.device_samples.empty()) return;
    out_.BeginFamily(name, MetricType::kGauge, "", help);
    for (const std::vector<DeviceSeries>& device : series_) {
      for (const DeviceSeries& s : device) {
        for (int i : s.samples) {
          const DeviceSample& sample = r_.device_samples[i];
          out_.Sample(s.labels, value(sample), sample.time_s);
        }
      }
    }
  }

  void DeviceFamilies() {
    DeviceFamily("DCGM_FI_DEV_GPU_UTIL",
                 "GPU utilization (in %): share of time a kernel ran.",
                 [](const DeviceSample& s) { return 100 * s.gpu_util; });
    DeviceFamily("DCGM_FI_PROF_SM_ACTIVE",
                 "Ratio of cycles an SM has at least one warp assigned, "
                 "averaged over the device's SMs (0-1).",
                 [](const DeviceSample& s) { return s.sm_active; });
    DeviceFamily("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).",
                 [](const DeviceSample& s) {
                   return static_cast<double>(s.fb_used_mib);
                 });
    DeviceFamily("DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).",
                 [this](const DeviceSample& s) {
                   return static_cast<double>(std::max<int64_t>(
                       0, r_.devices[s.device].memory_mib - s.fb_used_mib));
                 });
  }

  // A gauge per device without pod labels.
  void PlainDeviceFamily(
      std::string_view name, std::string_view help,
      const std::function<double(const DeviceSample&)>& value) {
    if (r_.device_samples.empty()) return;
    out_.BeginFamily(name, MetricType::kGauge, "", help);
    for (size_t d = 0; d < by_device_.size(); ++d) {
      if (by_device_[d].empty()) continue;
      const std::string labels = DeviceLabelText(static_cast<int>(d), -1);
      for (int i : by_device_[d]) {
        const DeviceSample& s = r_.device_samples[i];
        out_.Sample(labels, value(s), s.time_s);
      }
    }
  }

  void DeviceStateFamilies() {
    PlainDeviceFamily("gpushare_device_pods",
                      "Pods running on the GPU or MIG instance.",
                      [](const DeviceSample& s) { return s.pods; });
    PlainDeviceFamily("gpushare_device_healthy",
                      "1 while the GPU or MIG instance works, 0 from a "
                      "fault until it recovers.",
                      [](const DeviceSample& s) { return s.down ? 0 : 1; });
  }

  // Per MIG-partitioned GPU: 1 while any of its instances reports drift.
  void MigDriftFamily() {
    std::map<std::pair<std::string, int>, std::vector<int>> gpus;
    std::vector<std::pair<std::string, int>> order;
    for (size_t d = 0; d < r_.devices.size(); ++d) {
      const DeviceInfo& info = r_.devices[d];
      if (info.mig_instance < 0 || by_device_[d].empty()) continue;
      auto [it, added] = gpus.try_emplace({info.node, info.gpu});
      if (added) order.push_back(it->first);
      it->second.push_back(static_cast<int>(d));
    }
    if (order.empty()) return;
    out_.BeginFamily("gpushare_mig_config_drift", MetricType::kGauge, "",
                     "1 while the GPU's MIG layout differs from the one its "
                     "node's nvidia.com/mig.config label names.");
    for (const auto& key : order) {
      const std::vector<int>& devices = gpus[key];
      const DeviceInfo& info = r_.devices[devices[0]];
      const std::string gpu = std::to_string(info.gpu);
      const std::string uuid = FakeGpuUuid(info.node, info.gpu);
      const std::string device = "nvidia" + gpu;
      const std::string labels = FormatLabels({{"gpu", gpu},
                                               {"UUID", uuid},
                                               {"device", device},
                                               {"modelName", info.model},
                                               {"Hostname", info.node},
                                               {"pool", info.pool}});
      // Every device is sampled at every sample time: the k-th samples of
      // the GPU's instances are simultaneous.
      const std::vector<int>& first = by_device_[devices[0]];
      for (size_t k = 0; k < first.size(); ++k) {
        bool drift = false;
        for (int d : devices) {
          drift = drift || r_.device_samples[by_device_[d][k]].mig_config_drift;
        }
        out_.Sample(labels, drift ? 1 : 0, r_.device_samples[first[k]].time_s);
      }
    }
  }

  void PodShareFamily() {
    if (r_.pod_share_samples.empty()) return;
    // Series by (device, pod), points in time order.
    std::map<std::pair<int, int>, std::vector<int>> series;
    for (size_t i = 0; i < r_.pod_share_samples.size(); ++i) {
      const PodShareSample& s = r_.pod_share_samples[i];
      series[{s.device, s.pod}].push_back(static_cast<int>(i));
    }
    out_.BeginFamily("gpushare_pod_gpu_time_ratio", MetricType::kGauge,
                     "ratio",
                     "Share of the GPU's (or MIG instance's) time the pod's "
                     "context holds (time-slicing, vGPU).");
    for (const auto& [key, points] : series) {
      std::deque<std::string> keep;
      LabelList labels = DeviceLabels(key.first, -1, &keep);
      const PodSummary& pod = Pod(key.second);
      labels.insert(labels.end() - 1,
                    {{"container", r_.text(pod.name)},
                     {"namespace", r_.text(pod.namespace_name)},
                     {"pod", r_.text(pod.name)}});
      const std::string text = FormatLabels(labels);
      for (int i : points) {
        const PodShareSample& s = r_.pod_share_samples[i];
        out_.Sample(text, s.gpu_time_ratio, s.time_s);
      }
    }
  }

  void NodeAllocatableFamily() {
    if (r_.node_samples.empty()) return;
    const size_t resources = r_.extended_resources.size();
    std::vector<std::vector<int>> series(r_.nodes.size() * resources);
    for (size_t i = 0; i < r_.node_samples.size(); ++i) {
      const NodeResourceSample& s = r_.node_samples[i];
      series[s.node * resources + s.resource].push_back(static_cast<int>(i));
    }
    out_.BeginFamily("kube_node_status_allocatable", MetricType::kGauge, "",
                     "The allocatable for different resources of a node "
                     "that are available for scheduling (kube-state-metrics; "
                     "here the device plugin's extended resources).");
    for (size_t k = 0; k < series.size(); ++k) {
      if (series[k].empty()) continue;
      const NodeInfo& node = r_.nodes[k / resources];
      // kube-state-metrics' form of a resource name: nvidia.com/gpu ->
      // nvidia_com_gpu.
      std::string resource = r_.extended_resources[k % resources];
      for (char& c : resource) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_';
        if (!keep) c = '_';
      }
      const std::string labels = FormatLabels({{"node", node.name},
                                               {"resource", resource},
                                               {"unit", "integer"},
                                               {"pool", node.pool}});
      for (int i : series[k]) {
        const NodeResourceSample& s = r_.node_samples[i];
        out_.Sample(labels, static_cast<double>(s.allocatable), s.time_s);
      }
    }
  }

  void PoolFamily(std::string_view name, std::string_view unit,
                  std::string_view help,
                  const std::function<double(const PoolSample&)>& value) {
    out_.BeginFamily(name, MetricType::kGauge, unit, help);
    for (const PoolSummary& pool : r_.pools) {
      const std::string labels = FormatLabels(
          {{"pool", pool.name}, {"scheme", pool.scheme}, {"modelName", pool.model}});
      for (const PoolSample& s : pool.samples) {
        out_.Sample(labels, value(s), s.time_s);
      }
    }
  }

  void PoolFamilies() {
    if (r_.pools.empty() || r_.pools[0].samples.empty()) return;
    PoolFamily("gpushare_pool_gpu_util_ratio", "ratio",
               "Pool mean of DCGM_FI_DEV_GPU_UTIL / 100, weighted by "
               "GPU-equivalents.",
               [](const PoolSample& s) { return s.gpu_util; });
    PoolFamily("gpushare_pool_sm_active_ratio", "ratio",
               "Pool mean of DCGM_FI_PROF_SM_ACTIVE, weighted by "
               "GPU-equivalents.",
               [](const PoolSample& s) { return s.sm_active; });
    PoolFamily("gpushare_pool_fb_used_ratio", "ratio",
               "Pool mean of framebuffer used / framebuffer size.",
               [](const PoolSample& s) { return s.fb_used_fraction; });
    PoolFamily("gpushare_pool_allocation_ratio", "ratio",
               "Share of the pool's GPU-equivalents held by pods.",
               [](const PoolSample& s) { return s.allocation; });
    SucceededFamily();
    PreemptionFamily();
    KueueFamilies();
    out_.BeginFamily("gpushare_pending_pods", MetricType::kGauge, "",
                     "Pods in the scheduling queue (arrived, not bound), "
                     "cluster-wide.");
    for (const PoolSample& s : r_.pools[0].samples) {
      out_.Sample("", s.pending, s.time_s);
    }
  }

  // Pods of each pool that succeeded (or were deleted at the end of their
  // lifetime) by each sample time.
  void SucceededFamily() {
    out_.BeginFamily("gpushare_pods_succeeded", MetricType::kCounter, "",
                     "Pods of the pool that completed (jobs) or ended "
                     "their lifetime (services).");
    for (const PoolSummary& pool : r_.pools) {
      std::vector<double> ends;
      r_.pod_summaries.ForEach([&](const PodSummary& p) {
        const bool done = p.outcome == PodOutcome::kSucceeded ||
                          p.outcome == PodOutcome::kDeleted;
        if (done && r_.text(p.pool) == pool.name) ends.push_back(p.end_s);
      });
      std::sort(ends.begin(), ends.end());
      const std::string labels = FormatLabels({{"pool", pool.name}});
      size_t count = 0;
      for (const PoolSample& s : pool.samples) {
        while (count < ends.size() && ends[count] <= s.time_s) ++count;
        out_.Sample(labels, static_cast<double>(count), s.time_s);
      }
    }
  }

  // Evictions by priority preemption per tenant class of the victims, by
  // each sample time (only when any happened).
  void PreemptionFamily() {
    if (r_.preemption_events.empty()) return;
    out_.BeginFamily("gpushare_preemptions", MetricType::kCounter, "",
                     "Pods of the tenant class evicted by DefaultPreemption "
                     "or Kueue (each eviction counts).");
    std::map<std::string, std::vector<double>> by_class;
    r_.pod_summaries.ForEach([&](const PodSummary& p) {
      by_class[r_.text(p.tenant_class)];
    });
    for (const SimulationResult::Preemption& e : r_.preemption_events) {
      by_class[r_.text(Pod(e.pod).tenant_class)].push_back(e.time_s);
    }
    for (const auto& [tenant_class, times] : by_class) {
      const std::string labels = FormatLabels({{"tenant_class", tenant_class}});
      size_t count = 0;
      for (const PoolSample& s : r_.pools[0].samples) {
        while (count < times.size() && times[count] <= s.time_s) ++count;
        out_.Sample(labels, static_cast<double>(count), s.time_s);
      }
    }
  }

  // A counter of `times` (sorted) at each sample time.
  void CountAtSamples(const std::string& labels,
                      const std::vector<double>& times) {
    size_t count = 0;
    for (const PoolSample& s : r_.pools[0].samples) {
      while (count < times.size() && times[count] <= s.time_s) ++count;
      out_.Sample(labels, static_cast<double>(count), s.time_s);
    }
  }

  // Kueue's own metric names (kueue_*), one point per sample.
  // KAI-Scheduler's queue metric names (queue_*; docs/metrics/METRICS.md
  // of kai-scheduler), one point per sample, in GPU units.
  void KaiFamilies() {
    const auto& samples = r_.pools[0].samples;
    using Series = const std::vector<double> QueueQuota::*;
    for (const auto& [name, series, help] :
         {std::tuple<const char*, Series, const char*>{
              "queue_allocated_gpus", &QueueQuota::used,
              "GPU units allocated to the queue (its subtree)."},
          {"queue_fair_share_gpu", &QueueQuota::fair_share,
           "The queue's fair share of the cluster's GPU units."}}) {
      out_.BeginFamily(name, MetricType::kGauge, "", help);
      for (const QueueSummary& q : r_.queues) {
        for (const QueueQuota& k : q.quotas) {
          const std::string labels = FormatLabels({{"queue_name", q.name}});
          const std::vector<double>& v = k.*series;
          for (size_t i = 0; i < v.size() && i < samples.size(); ++i) {
            out_.Sample(labels, v[i], samples[i].time_s);
          }
        }
      }
    }
    out_.BeginFamily("queue_deserved_gpus", MetricType::kGauge, "",
                     "The queue's deserved GPU quota (-1 unlimited).");
    for (const QueueSummary& q : r_.queues) {
      for (const QueueQuota& k : q.quotas) {
        const std::string labels = FormatLabels({{"queue_name", q.name}});
        for (const PoolSample& s : samples) {
          out_.Sample(labels, k.nominal, s.time_s);
        }
      }
    }
  }

  // Kueue's own metric names (kueue_*), one point per sample; for KAI its
  // queue_* names.
  void KueueFamilies() {
    if (r_.queues.empty()) return;
    if (r_.queue_system == "KAI-Scheduler") {
      KaiFamilies();
      return;
    }
    const auto& samples = r_.pools[0].samples;
    out_.BeginFamily("kueue_admitted_workloads", MetricType::kCounter, "",
                     "Workloads admitted by the ClusterQueue.");
    for (const QueueSummary& q : r_.queues) {
      CountAtSamples(FormatLabels({{"cluster_queue", q.name}}), q.admitted_at);
    }
    out_.BeginFamily("kueue_evicted_workloads", MetricType::kCounter, "",
                     "Workloads of the ClusterQueue evicted (reason "
                     "Preempted: by Kueue's preemption).");
    for (const QueueSummary& q : r_.queues) {
      CountAtSamples(
          FormatLabels({{"cluster_queue", q.name}, {"reason", "Preempted"}}),
          q.evicted_at);
    }
    out_.BeginFamily("kueue_pending_workloads", MetricType::kGauge, "",
                     "Workloads waiting in the ClusterQueue, by status "
                     "(active: to be tried; inadmissible: until quota is "
                     "released).");
    for (const QueueSummary& q : r_.queues) {
      for (const auto& [status, series] :
           {std::pair{"active", &q.pending_active},
            std::pair{"inadmissible", &q.pending_inadmissible}}) {
        const std::string labels =
            FormatLabels({{"cluster_queue", q.name}, {"status", status}});
        for (size_t i = 0; i < series->size() && i < samples.size(); ++i) {
          out_.Sample(labels, static_cast<double>((*series)[i]),
                      samples[i].time_s);
        }
      }
    }
    auto quota_labels = [](const QueueSummary& q, const QueueQuota& k) {
      return FormatLabels({{"cohort", q.cohort},
                           {"cluster_queue", q.name},
                           {"flavor", k.flavor},
                           {"resource", k.resource}});
    };
    out_.BeginFamily("kueue_cluster_queue_resource_usage", MetricType::kGauge,
                     "",
                     "Quota the ClusterQueue's admitted workloads hold, per "
                     "flavor and resource (cpu in cores, memory in bytes).");
    for (const QueueSummary& q : r_.queues) {
      for (const QueueQuota& k : q.quotas) {
        const std::string labels = quota_labels(q, k);
        for (size_t i = 0; i < k.used.size() && i < samples.size(); ++i) {
          out_.Sample(labels, k.used[i], samples[i].time_s);
        }
      }
    }
    using Limit = double QueueQuota::*;
    for (const auto& [name, member, help] :
         {std::tuple<const char*, Limit, const char*>{
              "kueue_cluster_queue_nominal_quota", &QueueQuota::nominal,
              "The ClusterQueue's nominal quota per flavor and resource."},
          {"kueue_cluster_queue_borrowing_limit",
           &QueueQuota::borrowing_limit,
           "The ClusterQueue's borrowing limit per flavor and resource."},
          {"kueue_cluster_queue_lending_limit", &QueueQuota::lending_limit,
           "The ClusterQueue's lending limit per flavor and resource."}}) {
      bool any = false;
      for (const QueueSummary& q : r_.queues) {
        for (const QueueQuota& k : q.quotas) any |= k.*member >= 0;
      }
      if (!any) continue;
      out_.BeginFamily(name, MetricType::kGauge, "", help);
      for (const QueueSummary& q : r_.queues) {
        for (const QueueQuota& k : q.quotas) {
          if (k.*member < 0) continue;
          const std::string labels = quota_labels(q, k);
          for (const PoolSample& s : samples) {
            out_.Sample(labels, k.*member, s.time_s);
          }
        }
      }
    }
  }

  std::string PodLabels(const PodSummary& p) {
    return FormatLabels({{"namespace", r_.text(p.namespace_name)},
                         {"pod", r_.text(p.name)},
                         {"tenant", r_.text(p.tenant)},
                         {"tenant_class", r_.text(p.tenant_class)},
                         {"class", r_.text(p.workload_class)},
                         {"pool", r_.text(p.pool)}});
  }

  // The summary of pod `index` (every pod a series names has one).
  PodSummary Pod(int64_t index) const {
    return r_.FindPod(index).value_or(PodSummary{});
  }

  void PodFamilies() {
    bool any_started = false;
    r_.pod_summaries.ForEach(
        [&](const PodSummary& p) { any_started |= p.start_s >= 0; });
    if (any_started) {
      out_.BeginFamily("gpushare_pod_wait_seconds", MetricType::kGauge,
                       "seconds",
                       "Time from the pod's arrival to its first start (its "
                       "wait in the scheduling queue), at its start.");
      r_.pod_summaries.ForEach([&](const PodSummary& p) {
        if (p.start_s < 0) return;
        out_.Sample(PodLabels(p), p.wait_s, p.start_s);
      });
    }
    if (r_.latency_samples.empty()) return;
    size_t pods = 0;
    for (const PodLatencySample& s : r_.latency_samples) {
      pods = std::max(pods, static_cast<size_t>(s.pod) + 1);
    }
    std::vector<std::vector<int>> by_pod(pods);
    for (size_t i = 0; i < r_.latency_samples.size(); ++i) {
      by_pod[r_.latency_samples[i].pod].push_back(static_cast<int>(i));
    }
    std::vector<std::string> labels(by_pod.size());
    for (size_t p = 0; p < by_pod.size(); ++p) {
      if (!by_pod[p].empty()) labels[p] = PodLabels(Pod(p));
    }
    out_.BeginFamily("gpushare_pod_latency_p99_seconds", MetricType::kGauge,
                     "seconds",
                     "p99 request latency of an inference pod over the "
                     "sample interval (+Inf when its queue grows without "
                     "bound).");
    for (size_t p = 0; p < by_pod.size(); ++p) {
      for (int i : by_pod[p]) {
        const PodLatencySample& s = r_.latency_samples[i];
        out_.Sample(labels[p], s.p99_ms / 1000, s.time_s);
      }
    }
    out_.BeginFamily("gpushare_pod_slo_met", MetricType::kGauge, "",
                     "1 when the inference pod's p99 latency over the sample "
                     "interval met its SLO (always 1 without an SLO).");
    for (size_t p = 0; p < by_pod.size(); ++p) {
      for (int i : by_pod[p]) {
        const PodLatencySample& s = r_.latency_samples[i];
        out_.Sample(labels[p], s.slo_met ? 1 : 0, s.time_s);
      }
    }
  }

  const SimulationResult& r_;
  OpenMetricsText out_;
  std::vector<std::vector<int>> by_device_;
  std::vector<std::vector<DeviceSeries>> series_;
};

}  // namespace

std::string ResultToOpenMetrics(const SimulationResult& result,
                                int64_t start_unix_s) {
  return Writer(result, start_unix_s).Write();
}

}  // namespace gpushare
