// The state of a Simulation's autoscaled pools (sim/simulation_
// autoscaling.cc): not part of its interface.

#ifndef GPUSHARE_SIM_SIMULATION_ELASTIC_H_
#define GPUSHARE_SIM_SIMULATION_ELASTIC_H_

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpushare/base/rng.h"
#include "gpushare/sim/autoscaler.h"
#include "gpushare/sim/elastic_pool_stats.h"

namespace gpushare::simulation_internal {

// One node slot of an autoscaled pool.
struct ElasticNode {
  // kBooting: launched, billed, not in the cluster yet; kKubeletReady: in
  // the cluster, GPUs not allocatable yet; kReady; kDraining: cordoned,
  // its pods evicted, removed when they are gone.
  enum class Stage { kAbsent, kBooting, kKubeletReady, kReady, kDraining };
  Stage stage = Stage::kAbsent;
  double since_s = 0;
  double launched_s = 0;
  uint64_t version = 0;  // of its lifecycle events
  std::string instance_type;
  bool spot = false;
  double price_per_hour = 0;
  // Past the provision time and not ready: its autoscaler's next decision
  // sees it so, then it goes.
  bool overdue = false;
};

// Node lifecycle events (EventKind::kNodeStage, b).
enum ElasticStep {
  kStepKubeletReady = 0,
  kStepReady = 1,
  kStepGiveUp = 2,
  kStepRemove = 3,      // a drain's deadline: the node goes
  kStepSpotNotice = 4,  // the provider reclaims a spot node
};

// A pending pod that failed a cycle and targets an autoscaled pool.
struct ElasticPending {
  double first_failed_s = 0;
  std::string message;
  bool scaled_for = false;  // a scale-up was made for it
};

struct ElasticRun {
  // By autoscaler: its provider, its pools, whether a decision is queued.
  std::vector<std::unique_ptr<Autoscaler>> autoscalers;
  std::vector<AutoscalerProvider> providers;
  std::vector<std::vector<int>> autoscaler_pools;
  std::vector<uint8_t> decision_queued;
  // By pool: its index in `stats` (-1: a fixed pool), its autoscaler, the
  // end of its back-off, its node price.
  std::vector<int> slot;
  std::vector<int> autoscaler_of;
  std::vector<double> backoff_until;
  std::vector<double> price_per_node_hour;
  std::vector<ElasticPoolStats> stats;
  std::vector<ElasticNode> nodes;  // by node (fixed pools' stay kAbsent)
  std::map<int, ElasticPending> pending;  // by pod
  // (By pod, when it last entered kube-scheduler's queue — arrival, or its
  // controller's new pod after an eviction — is LivePod::elastic_queued_s.)
  // By pool: the scheduler's last
  // message for a pod of it (pods of one shape wait as one group, and only
  // its head goes through cycles).
  std::vector<std::string> pool_message;
  // Per stats slot: the waits of pods a scale-up was made for, and the
  // distinct pods of each no-scale-up reason.
  std::vector<std::vector<double>> waits;
  std::vector<std::map<std::pair<std::string, std::string>, std::set<int>>>
      notes;
  int in_flight = 0;  // nodes launching or draining
  double last_activity_s = 0;
  double quiet_window_s = 0;
  Rng spot_rng{0};
};

}  // namespace gpushare::simulation_internal

#endif  // GPUSHARE_SIM_SIMULATION_ELASTIC_H_
