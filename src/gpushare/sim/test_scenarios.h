// Tiny scenarios for tests (header-only; used by *_test.cc only): one pool
// of one node, and a class of identical batch jobs that all arrive at
// (almost) time 0, so that hand-computed expectations stay simple.

#ifndef GPUSHARE_SIM_TEST_SCENARIOS_H_
#define GPUSHARE_SIM_TEST_SCENARIOS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/metrics/collector.h"
#include "gpushare/scenario/scenario.h"
#include "gpushare/sim/simulation.h"

namespace gpushare::testing_scenarios {

// Runs `scenario` once with a Collector (`record_devices` as Collector's)
// on the built-in catalog; returns what it collected.
inline SimulationResult RunAndCollect(const Scenario& scenario,
                                      bool record_devices = false) {
  static const Catalog catalog = Catalog::Builtin();
  Simulation sim(scenario, catalog);
  Collector collector(sim, scenario.name, scenario.seed, record_devices);
  sim.Run(&collector);
  return collector.TakeResult();
}

// One pool "p" of one node with `gpus` GPUs of `model`; arrivals over the
// first second; samples every 10 s.
inline Scenario OnePool(const char* model, int gpus, SharingConfig sharing) {
  Scenario s;
  s.name = "tiny";
  NodePoolSpec pool;
  pool.name = "p";
  pool.gpu_model = model;
  pool.nodes = 1;
  pool.gpus_per_node = gpus;
  pool.sharing = std::move(sharing);
  s.pools.push_back(pool);
  s.workload.horizon_s = 1;
  s.sample_interval_s = 10;
  return s;
}

// `count` batch jobs named `name`-i: `gpus` GPUs, a footprint, `work_s` of
// work, duty 1 and SM demand 1, 1 CPU and 1 GiB; all arrive at (almost) 0.
inline WorkloadClassSpec Jobs(const std::string& name, int64_t count,
                              double gpus, double footprint_mib,
                              double work_s) {
  WorkloadClassSpec c;
  c.name = name;
  c.workload_class = WorkloadClass::kBatch;
  c.count = count;
  c.arrival_rate_per_s = 1e9;
  c.gpus = Distribution::Constant(gpus);
  c.gpu_memory_mib = Distribution::Constant(footprint_mib);
  c.sm_demand = Distribution::Constant(1.0);
  c.duty = Distribution::Constant(1.0);
  c.work_s = Distribution::Constant(work_s);
  c.cpu_milli = Distribution::Constant(1000);
  c.memory_mib = Distribution::Constant(1024);
  return c;
}

// A trace pod: a one-GPU batch job of `work_s` arriving at `arrival_s`
// (footprint 1000 MiB, duty and SM demand 1, 1 CPU and 1 GiB).
inline Pod TraceJob(const std::string& name, double arrival_s, double work_s,
                    int32_t priority = 0) {
  Pod pod;
  pod.name = name;
  pod.tenant_class = name;
  pod.arrival_s = arrival_s;
  pod.priority = priority;
  pod.needs.gpus = 1;
  pod.needs.gpu_memory_mib = 1000;
  pod.needs.sm_demand = 1;
  pod.needs.duty = 1;
  pod.needs.work_s = work_s;
  pod.cpu_milli = 1000;
  pod.memory_mib = 1024;
  return pod;
}

// OnePool of exclusive A100-40GB GPUs replaying `pods` as a trace.
inline Scenario ExclusiveWithPods(int gpus, std::vector<Pod> pods) {
  Scenario s = OnePool("A100-40GB", gpus, ExclusiveSharing());
  s.workload.trace.pods =
      std::make_shared<const std::vector<Pod>>(std::move(pods));
  return s;
}

}  // namespace gpushare::testing_scenarios

#endif  // GPUSHARE_SIM_TEST_SCENARIOS_H_
