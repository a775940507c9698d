// ElasticPoolStats: what one autoscaled pool did over a run (its node count
// over time, the node-hours and cost of the elastic run, the scale-ups and
// scale-downs, the pods that waited for a scale-up, and the scale-ups its
// autoscaler did not make, with why).
//
// Contract: plain values filled by the Simulation (sim/simulation_
// autoscaling.cc) and copied into the run's results (metrics/results.h).
// Node-hours count each node from its launch (billing starts) to its
// removal or the end of the run; cost is node-hours at the node's price
// (its instance type's, spot or on-demand, else the pool's GPUs at the
// catalog's price plus licence). Waits run from when a pod entered
// kube-scheduler's queue (its arrival, or its controller's new pod after an
// eviction) to its bind, for the pods that bound to a node launched in the
// run that became ready after they were queued.

#ifndef GPUSHARE_SIM_ELASTIC_POOL_STATS_H_
#define GPUSHARE_SIM_ELASTIC_POOL_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace gpushare {

struct ElasticPoolStats {
  std::string provider;  // "cluster-autoscaler" or "karpenter"
  int min_nodes = 0;
  int max_nodes = 0;
  int start_nodes = 0;
  // At each sample: the nodes launched and not yet removed (billed), and
  // those of them whose GPUs are allocatable (ready).
  struct Sample {
    double time_s = 0;
    int nodes = 0;
    int ready = 0;
  };
  std::vector<Sample> samples;
  int peak_nodes = 0;
  double node_hours = 0;
  double gpu_hours = 0;
  double cost = 0;
  int64_t nodes_launched = 0;    // by scale-ups
  int64_t nodes_removed = 0;     // by scale-downs (drained)
  int64_t nodes_given_up = 0;    // not ready within the provision time
  int64_t spot_interruptions = 0;
  int64_t pods_evicted = 0;      // by drains
  // The pods that waited for a scale-up (above) and their waits.
  int64_t pods_waited = 0;
  double wait_mean_s = 0;
  double wait_p99_s = 0;
  // Pods the autoscaler did not scale up for, by reason (distinct pods).
  struct NoScaleUp {
    std::string reason;
    std::string upstream;  // e.g. "Project-HAMi/HAMi#1099"; "" for none
    int64_t pods = 0;
  };
  std::vector<NoScaleUp> no_scale_up;
};

}  // namespace gpushare

#endif  // GPUSHARE_SIM_ELASTIC_POOL_STATS_H_
