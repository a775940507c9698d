#include "gpushare/metrics/csv_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "gpushare/io/csv_field.h"

namespace gpushare {
namespace {

std::string Field(const std::string& s) { return CsvField(s); }

// Shortest round-trip form, as in the JSON output.
std::string Num(double v) { return fmt::format("{}", v); }

// Pod `index`'s name (kept with per-pod detail).
const std::string& PodName(const SimulationResult& r, int64_t index) {
  const std::optional<PodSummary> p = r.FindPod(index);
  return r.text(p.has_value() ? p->name : kNoText);
}

}  // namespace

std::string PodsCsvHeader() {
  return
      "name,class,tenant_class,tenant,pod_group,cluster_queue,target_pool,"
      "pool,node,devices,requests,"
      "arrival_s,start_s,"
      "end_s,wait_s,admission_wait_s,work_s,run_s,alone_s,slowdown,gpu_share,"
      "gpu_hours,cost,"
      "wasted_gpu_hours,restarts,oom_kills,fault_kills,preemptions,lost_work_s,"
      "eviction_down_s,latency_samples,saturated_samples,p50_ms,p99_ms,slo_p99_"
      "ms,"
      "slo_attainment,neighbour_missed_samples,outcome,message\n";
}

std::string PodCsvRow(const PodRecord& p) {
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{"
      "},"
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
      Field(p.name), Field(p.workload_class), Field(p.tenant_class),
      Field(p.tenant), Field(p.pod_group), Field(p.cluster_queue),
      Field(p.target_pool), Field(p.pool), Field(p.node),
      fmt::format("{}", fmt::join(p.devices, ";")), Field(p.requests),
      Num(p.arrival_s), Num(p.start_s), Num(p.end_s), Num(p.wait_s),
      Num(p.admission_wait_s), Num(p.work_s), Num(p.run_s), Num(p.alone_s),
      Num(p.slowdown), Num(p.gpu_share), Num(p.gpu_hours), Num(p.cost),
      Num(p.wasted_gpu_hours), p.restarts, p.oom_kills, p.fault_kills,
      p.preemptions, Num(p.lost_work_s), Num(p.eviction_down_s),
      p.latency_samples, p.saturated_samples, Num(p.p50_ms), Num(p.p99_ms),
      Num(p.slo_p99_ms), Num(p.slo_attainment), p.neighbour_missed_samples,
    PodOutcomeName(p.outcome), Field(p.message));
}

std::string PodsCsv(const SimulationResult& r) {
  std::string out = PodsCsvHeader();
  for (const PodRecord& p : r.pod_records) out += PodCsvRow(p);
  return out;
}

std::string PoolsCsv(const SimulationResult& r) {
  std::string out =
      "pool,time_s,gpu_util,sm_active,fb_used_fraction,allocation,pending,"
      "idle_gpus\n";
  for (const PoolSummary& p : r.pools) {
    for (const PoolSample& s : p.samples) {
      out += fmt::format("{},{},{},{},{},{},{},{}\n", Field(p.name),
                         Num(s.time_s), Num(s.gpu_util), Num(s.sm_active),
                         Num(s.fb_used_fraction), Num(s.allocation), s.pending,
                         s.idle_gpus);
    }
  }
  return out;
}

std::string DevicesCsv(const SimulationResult& r) {
  std::string out =
      "device,pool,node,gpu,mig_instance,profile,model,memory_mib\n";
  for (size_t i = 0; i < r.devices.size(); ++i) {
    const DeviceInfo& d = r.devices[i];
    out += fmt::format("{},{},{},{},{},{},{},{}\n", i, Field(d.pool),
                       Field(d.node), d.gpu, d.mig_instance, Field(d.profile),
                       Field(d.model), d.memory_mib);
  }
  return out;
}

std::string DeviceSamplesCsv(const SimulationResult& r) {
  std::string out =
      "time_s,device,DCGM_FI_DEV_GPU_UTIL,DCGM_FI_PROF_SM_ACTIVE,"
      "DCGM_FI_DEV_FB_USED,pods\n";
  for (const DeviceSample& s : r.device_samples) {
    out += fmt::format("{},{},{},{},{},{}\n", Num(s.time_s), s.device,
                       Num(100 * s.gpu_util), Num(s.sm_active), s.fb_used_mib,
                       s.pods);
  }
  return out;
}

std::string PodSharesCsv(const SimulationResult& r) {
  std::string out = "time_s,pod,device,gpu_time_ratio\n";
  for (const PodShareSample& s : r.pod_share_samples) {
    out += fmt::format("{},{},{},{}\n", Num(s.time_s),
                       Field(PodName(r, s.pod)), s.device,
                       Num(s.gpu_time_ratio));
  }
  return out;
}

std::string AlertsCsv(const SimulationResult& r) {
  std::string out =
      "alert,severity,node,gpu,device,pod,active_s,fired_s,resolved_s,value,"
      "description\n";
  for (const PatrolAlert& a : r.alerts) {
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{}\n", a.name, a.severity,
                       Field(a.node), a.gpu, a.device, Field(a.pod),
                       Num(a.active_s), Num(a.fired_s), Num(a.resolved_s),
                       Num(a.value), Field(a.description));
  }
  return out;
}

std::string QueuesCsv(const SimulationResult& r) {
  std::string out =
      "cluster_queue,cohort,flavor,resource,time_s,used,nominal_quota,"
      "borrowed,fair_share\n";
  const std::vector<PoolSample>* times =
      r.pools.empty() ? nullptr : &r.pools[0].samples;
  for (const QueueSummary& q : r.queues) {
    for (const QueueQuota& k : q.quotas) {
      for (size_t i = 0; i < k.used.size(); ++i) {
        const double t =
            times != nullptr && i < times->size() ? (*times)[i].time_s : -1;
        // KAI's quota -1 is unlimited: nothing is above it.
        const double over =
            k.nominal < 0 ? 0 : std::max(0.0, k.used[i] - k.nominal);
        out += fmt::format(
            "{},{},{},{},{},{},{},{},{}\n", Field(q.name), Field(q.cohort),
            Field(k.flavor), Field(k.resource), Num(t), Num(k.used[i]),
            Num(k.nominal), Num(over),
            i < k.fair_share.size() ? Num(k.fair_share[i]) : std::string());
      }
    }
  }
  return out;
}

std::vector<std::string> ResultCsvFileNames() {
  return {"pods.csv",       "pools.csv",  "devices.csv", "device_samples.csv",
          "pod_shares.csv", "alerts.csv", "queues.csv"};
}

void AddResultCsv(const SimulationResult& result, const std::string& directory,
                  OutputBatch* batch, const PodOutputSpool* pods) {
  using Writer = std::string (*)(const SimulationResult&);
  const Writer writers[] = {PodsCsv,          PoolsCsv,     DevicesCsv,
                            DeviceSamplesCsv, PodSharesCsv, AlertsCsv,
                            QueuesCsv};
  const std::vector<std::string> names = ResultCsvFileNames();
  batch->AddDirectory(directory);
  for (size_t i = 0; i < names.size(); ++i) {
    if (i == 0 && pods != nullptr) {
      batch->AddProduced(directory + "/" + names[i],
                         [pods](const OutputWriter& write) {
                           write(PodsCsvHeader());
                           pods->WriteRows(write, "");
                         });
      continue;
    }
    batch->Add(directory + "/" + names[i], writers[i](result));
  }
}

}  // namespace gpushare
