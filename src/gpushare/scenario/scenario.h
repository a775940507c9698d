// Scenario: everything one simulation run needs, as a scenario file says it
// (format: docs/scenario.md; reader: scenario/scenario_reader.h).
//
// Contract: plain values. The cluster is a list of node pools (each with its
// GPU model, count and sharing configuration), the workload a generator
// spec, the scheduler a profile, the model its parameters; faults are
// injected at fixed times or at a rate, device-plugin stalls at fixed times;
// `patrol` holds the thresholds of the patrol alerts; `platform` the
// software the emitted files are written for; the run stops at `horizon_s` of
// simulated time (0: when every pod has finished) and samples device
// metrics every `sample_interval_s`.

#ifndef GPUSHARE_SCENARIO_SCENARIO_H_
#define GPUSHARE_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/exec/model_params.h"
#include "gpushare/scenario/platform.h"
#include "gpushare/sched/kai/kai_config.h"
#include "gpushare/sched/kueue/kueue_config.h"
#include "gpushare/sched/profile.h"
#include "gpushare/workload/generator.h"
#include "gpushare/workload/priority_class.h"
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
  // Recovery needs a GPU reset (nvidia-smi --gpu-reset, or a reboot): it
  // takes the whole GPU — every MIG instance and its pods — and, under MIG,
  // destroys the GPU's GPU and compute instances: the layout is lost until
  // mig-manager, starting `mig_reapply_s` after the GPU is back (-1: never
  // within the run), has recreated it (ModelParams::mig_reconfigure_s).
  bool reset = false;
  double mig_reapply_s = -1;
};

// The device plugin of one node stops serving (its kubelet registration is
// lost: a crashed, hung or paused plugin). The node advertises none of its
// GPU resources while its GPUs stay healthy; running pods keep running; new
// GPU pods cannot land there until it registers again.
struct DevicePluginStallSpec {
  std::string pool;
  int node = 0;              // node index within the pool
  double at_s = 0;
  double duration_s = -1;    // -1: until the end of the run
};

// The patrol alerts' thresholds (emit prometheus-rules writes the defaults).
struct PatrolRules {
  // An alert fires once its condition has held this long (Prometheus `for`).
  double for_s = 300;
  // GpuNoisyNeighbour: one pod holds more than this share of a device's
  // time while a pod sharing it misses its latency SLO.
  double noisy_neighbour_share = 0.5;
};

struct Scenario {
  std::string name = "scenario";
  std::string file;  // where it was read from ("" for built-in)
  std::vector<NodePoolSpec> pools;
  // What the cluster import converted or skipped (DRA objects of a kubectl
  // list), said in the reports (report/scenario_notes.h).
  std::vector<std::string> cluster_import_notes;
  std::vector<PriorityClass> priority_classes;  // the classes' PriorityClasses
  KueueConfig queues;  // Kueue's objects; none: every pod goes straight on
  KaiConfig kai_queues;  // or KAI-Scheduler's queues (never both)
  WorkloadSpec workload;
  SchedulerProfile scheduler;
  ModelParams model;
  TranslationOptions translation;
  std::vector<FaultSpec> faults;
  std::vector<DevicePluginStallSpec> device_plugin_stalls;
  PatrolRules patrol;
  // The cluster's Kubernetes version and Helm releases (emitters only).
  PlatformSpec platform;
  uint64_t seed = 1;
  double horizon_s = 0;           // 0: run until all pods finish
  double sample_interval_s = 60;  // DCGM sampling period
};

}  // namespace gpushare

#endif  // GPUSHARE_SCENARIO_SCENARIO_H_
