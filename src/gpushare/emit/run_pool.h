// The pool a pod runs on in the simulation of the scenario the emitters
// write for (sim/simulation.cc, Simulation's constructor), so that a
// class's patch and its DRA claim template come from the pool its pods ran
// on in that run (docs/emit.md, "DRA pools").
//
// Contract: RunPools::Of() is the pool of the node a pod is bound to
// (Pod::node_name: a pod Running in a kubectl import keeps its node) when
// the cluster has that node, else TargetPool() (workload/
// request_translator.h: the first pool that admits it, the claims' class and
// models first) — as the simulation places it. -1 when no pool admits it.

#ifndef GPUSHARE_EMIT_RUN_POOL_H_
#define GPUSHARE_EMIT_RUN_POOL_H_

#include <string>
#include <unordered_map>

#include "gpushare/cluster/cluster.h"
#include "gpushare/workload/pod.h"

namespace gpushare {

class RunPools {
 public:
  explicit RunPools(const Cluster& cluster);
  int Of(const Pod& pod) const;

 private:
  const Cluster& cluster_;
  std::unordered_map<std::string, int> node_pool_;
};

}  // namespace gpushare

#endif  // GPUSHARE_EMIT_RUN_POOL_H_
