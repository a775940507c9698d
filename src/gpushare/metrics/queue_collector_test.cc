// What the queue collector and the Collector say of a queue held at its
// quota: each pod's admission wait, and the samples at which the queue had
// workloads waiting, its GPU quota used up, and GPUs of its flavor idle.

#include "gpushare/metrics/queue_collector.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace queue_collector_test
}  // namespace gpushare
