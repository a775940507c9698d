// The large scenario of the macro benchmarks (BM_Run, BM_Compare): 100,000
// pods of many sizes on 1,000 nodes x 8 GPUs of one pool shared as
// `sharing`.

#ifndef GPUSHARE_BENCH_BIG_SCENARIO_H_
#define GPUSHARE_BENCH_BIG_SCENARIO_H_

#include "gpushare/scenario/scenario.h"

namespace gpushare {

inline Scenario BigScenario(SharingConfig sharing, const char* model) {
  Scenario s;
  s.name = "bench";
  s.seed = 7;
  NodePoolSpec pool;
  pool.name = "pool";
  pool.gpu_model = model;
  pool.nodes = 1000;
  pool.gpus_per_node = 8;
  pool.sharing = std::move(sharing);
  s.pools.push_back(pool);
  WorkloadClassSpec c;
  c.name = "mixed";
  c.count = 100000;
  // 100,000 pods in about 3 hours; pods of ~10 min on average keep about
  // 6,000 of them running: the 8,000 GPUs are loaded at about 75 % under
  // exclusive GPUs (less when shared), with short queues at peaks.
  c.arrival_rate_per_s = 10;
  c.gpus = Distribution::Choice({{0.5, 3}, {1, 1}});
  c.gpu_memory_mib = Distribution::Uniform(2000, 9000);
  c.sm_demand = Distribution::Uniform(0.1, 0.9);
  c.duty = Distribution::Uniform(0.3, 1.0);
  c.work_s = Distribution::Exponential(600);
  c.cpu_milli = Distribution::Constant(2000);
  c.memory_mib = Distribution::Constant(8192);
  // Many workloads of many sizes (request_sizing: per_pod), as in
  // bench/scenarios/run-100k.yaml.
  c.request_per_pod = true;
  s.workload.classes.push_back(c);
  // The arrivals' window (count / rate); a count's arrivals fall within
  // the workload's horizon.
  s.workload.horizon_s = 10000;
  s.sample_interval_s = 300;
  return s;
}

}  // namespace gpushare

#endif  // GPUSHARE_BENCH_BIG_SCENARIO_H_
