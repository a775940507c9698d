// What the queue collector and the Collector say of a queue held at its
// quota: each pod's admission wait, and the samples at which the queue had
// workloads waiting, its GPU quota used up, and room for its pods on its
// flavor's nodes (idle GPUs, free replicas, free MIG instances).

#include "gpushare/metrics/queue_collector.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "gpushare/scenario/scenario_reader.h"
#include "gpushare/sim/test_scenarios.h"

namespace gpushare {
namespace queue_collector_test {
namespace {

// Two nodes of one A100 each; a ClusterQueue of 1 GPU; two 1-GPU jobs of
// 1000 s arrive at once. The first is admitted at once and runs; the
// second waits for the quota, with the other GPU idle, until the first
// ends, then starts at once: its whole wait is admission wait.
constexpr char kOneGpuOfQuota[] = R"(name: one-gpu-of-quota
seed: 1
horizon_s: 5000
sample_interval_s: 100
cluster:
  pools:
    - {name: gpu, gpu: A100-80GB, nodes: 2, gpus_per_node: 1, cpu: 32,
       memory_gib: 256, sharing: {scheme: exclusive}}
queues:
  cluster_queues:
    - name: team
      resource_groups:
        - flavors:
            - name: gpu
              resources:
                - {name: cpu, nominal_quota: 64}
                - {name: memory, nominal_quota: 512Gi}
                - {name: nvidia.com/gpu, nominal_quota: 1}
  local_queues:
    - {name: team, namespace: team, cluster_queue: team}
workload:
  horizon_s: 1
  classes:
    - {name: jobs, class: batch, tenants: [team], queue: team, count: 2,
       gpus: 1, gpu_memory_mib: 10000, sm_demand: 1, duty: 1, work_s: 1000,
       cpu_milli: 1000, memory_mib: 1024}
)";

TEST(QueueCollectorTest, AQueueAtItsQuotaBesideAnIdleGpu) {
  static const Catalog catalog = Catalog::Builtin();
  const Scenario s = ReadScenarioYaml(kOneGpuOfQuota, "q.yaml", catalog);
  const SimulationResult r = testing_scenarios::RunAndCollect(s);
  ASSERT_EQ(r.pod_records.size(), 2u);
  const PodRecord* first = &r.pod_records[0];
  const PodRecord* second = &r.pod_records[1];
  if (first->start_s > second->start_s) std::swap(first, second);
  EXPECT_NEAR(first->admission_wait_s, 0, 1e-9);
  EXPECT_NEAR(first->wait_s, 0, 1e-9);
  // Admitted when the first ended, started at once.
  EXPECT_GT(second->admission_wait_s, 900);
  EXPECT_NEAR(second->admission_wait_s, first->end_s - second->arrival_s,
              1e-6);
  EXPECT_NEAR(second->wait_s, second->admission_wait_s, 1e-6);
  ASSERT_EQ(r.queues.size(), 1u);
  const QueueSummary& q = r.queues[0];
  // Every sample while the first ran (not the one at 0, before the jobs
  // arrived): 1 of 1 GPU used, one workload waiting, the other node's GPU
  // idle.
  int64_t expected = 0;
  for (const PoolSample& p : r.pools[0].samples) {
    if (p.time_s >= first->start_s && p.time_s < first->end_s) {
      ++expected;
      EXPECT_EQ(p.idle_gpus, 1) << p.time_s;
    }
  }
  EXPECT_EQ(q.samples, static_cast<int64_t>(r.pools[0].samples.size()));
  EXPECT_GT(expected, 5);
  EXPECT_EQ(q.idle_at_quota_samples, expected);
  EXPECT_DOUBLE_EQ(q.mean_idle_gpus_at_quota, 1);
}

// A queue held at its quota of shared devices while no GPU is idle (issue
// 54, point 7): the free units are what its pods ask for.
//
// Time-slicing: one node of 2 A100s x4 replicas (8 nvidia.com/gpu); a quota
// of 2 replicas; four 1-replica notebooks of 1000 s arrive at once. Two are
// admitted; `distributed` puts them on GPU 0 and GPU 1, so no GPU is idle,
// but 8 − 2 = 6 replicas are free while the other two wait. Each runs alone
// on its GPU: the first two end at 1000 s.
//
// MIG: one A100-40GB as two 3g.20gb instances; a quota of 1 instance; two
// 1-instance jobs. One runs on instance 0, the other waits while it runs:
// 1 instance free on a GPU that is not idle.
std::string SharedQuotaScenario(const std::string& sharing,
                                const std::string& resource, int gpus,
                                int quota, int jobs) {
  return fmt::format(R"(name: shared-quota
seed: 1
horizon_s: 5000
sample_interval_s: 100
cluster:
  pools:
    - {{name: gpu, gpu: A100-40GB, nodes: 1, gpus_per_node: {}, cpu: 64,
       memory_gib: 256, sharing: {}}}
queues:
  cluster_queues:
    - name: team
      resource_groups:
        - flavors:
            - name: gpu
              resources:
                - {{name: cpu, nominal_quota: 64}}
                - {{name: memory, nominal_quota: 512Gi}}
                - {{name: {}, nominal_quota: {}}}
  local_queues:
    - {{name: team, namespace: team, cluster_queue: team}}
workload:
  horizon_s: 1
  classes:
    - {{name: notebooks, class: dev, tenants: [team], queue: team, count: {},
       gpus: 1, gpu_memory_mib: 10000, sm_demand: 1, duty: 1, work_s: 1000,
       cpu_milli: 1000, memory_mib: 1024}}
)",
                     gpus, sharing, resource, quota, jobs);
}

// The samples while the first admitted pod ran: the queue is at its quota
// with workloads waiting at each of them.
int64_t SamplesWhileFirstRan(const SimulationResult& r) {
  double start = 1e18, end = 0;
  for (const PodRecord& p : r.pod_records) {
    if (p.start_s >= 0 && p.start_s < start) {
      start = p.start_s;
      end = p.end_s;
    }
  }
  int64_t n = 0;
  for (const PoolSample& p : r.pools[0].samples) {
    n += p.time_s >= start && p.time_s < end ? 1 : 0;
  }
  return n;
}

TEST(QueueCollectorTest, FreeReplicasAndInstancesCountAsRoomAtQuota) {
  static const Catalog catalog = Catalog::Builtin();
  const Scenario ts = ReadScenarioYaml(
      SharedQuotaScenario("{scheme: time-slicing, replicas: 4}",
                          "nvidia.com/gpu", 2, 2, 4),
      "ts.yaml", catalog);
  const SimulationResult r = testing_scenarios::RunAndCollect(ts);
  ASSERT_EQ(r.succeeded, 4);
  ASSERT_EQ(r.queues.size(), 1u);
  const QueueSummary& q = r.queues[0];
  const int64_t expected = SamplesWhileFirstRan(r);
  EXPECT_GT(expected, 5);
  for (const PoolSample& p : r.pools[0].samples) {
    // A GPU without a pod: never while the first two ran.
    if (p.time_s >= 100 && p.time_s < 1000) {
      EXPECT_EQ(p.idle_gpus, 0) << p.time_s;
    }
  }
  EXPECT_EQ(q.idle_at_quota_samples, expected);
  EXPECT_DOUBLE_EQ(q.mean_free_at_quota, 6);
  EXPECT_DOUBLE_EQ(q.mean_idle_gpus_at_quota, 0);
  EXPECT_EQ(q.free_at_quota_resource, "nvidia.com/gpu");

  const Scenario mig = ReadScenarioYaml(
      SharedQuotaScenario(
          "{scheme: mig, mig_strategy: mixed, mig_config: all-3g.20gb}",
          "nvidia.com/mig-3g.20gb", 1, 1, 2),
      "mig.yaml", catalog);
  const SimulationResult m = testing_scenarios::RunAndCollect(mig);
  // The first runs 1000 s / 0.389 (42 of 108 SMs) = 2571 s; the second
  // starts then.
  ASSERT_EQ(m.pod_records.size(), 2u);
  ASSERT_GE(m.succeeded, 1);
  const QueueSummary& mq = m.queues[0];
  EXPECT_EQ(mq.idle_at_quota_samples, SamplesWhileFirstRan(m));
  EXPECT_GT(mq.idle_at_quota_samples, 5);
  EXPECT_DOUBLE_EQ(mq.mean_free_at_quota, 1);
  EXPECT_DOUBLE_EQ(mq.mean_idle_gpus_at_quota, 0);
  EXPECT_EQ(mq.free_at_quota_resource, "nvidia.com/mig-3g.20gb");
}

}  // namespace
}  // namespace queue_collector_test
}  // namespace gpushare
