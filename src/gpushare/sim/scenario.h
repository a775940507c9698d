// Scenario: everything one simulation run needs, as a scenario file says it
// (format: docs/scenario.md; reader: sim/scenario_reader.h).
//
// Contract: plain values. The cluster is a list of node pools (each with its
// GPU model, count and sharing configuration), the workload a generator
// spec, the scheduler a profile, the model its parameters; faults are
// injected at fixed times or at a rate; the run stops at `horizon_s` of
// simulated time (0: when every pod has finished) and samples device
// metrics every `sample_interval_s`.

#ifndef GPUSHARE_SIM_SCENARIO_H_
#define GPUSHARE_SIM_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/sched/profile.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/request_translator.h"

namespace gpushare {

// A GPU fault (an Xid error that takes the GPU down until it is reset).
struct FaultSpec {
  std::string pool;          // node pool; empty: any
  double at_s = -1;          // a fault at this time (>= 0) ...
  int node = -1;             // ... on this node index of the pool (-1: drawn)
  int gpu = -1;              // ... and GPU (-1: drawn)
  double rate_per_gpu_hour = 0;  // ... or faults at this rate per GPU
  double recovery_s = 600;   // GPU unusable for this long after a fault
};

struct Scenario {
  std::string name = "scenario";
  std::string file;  // where it was read from ("" for built-in)
  std::vector<NodePoolSpec> pools;
  WorkloadSpec workload;
  SchedulerProfile scheduler;
  ModelParams model;
  TranslationOptions translation;
  std::vector<FaultSpec> faults;
  uint64_t seed = 1;
  double horizon_s = 0;           // 0: run until all pods finish
  double sample_interval_s = 60;  // DCGM sampling period
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_SCENARIO_H_
