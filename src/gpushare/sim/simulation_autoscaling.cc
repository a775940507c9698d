// Autoscaled pools of Simulation (simulation.h; docs/model.md, "Elastic
// node pools"): one Autoscaler per provider that a pool names decides at its
// times from a snapshot of its pools; the simulation carries its decisions
// out. A launched node is billed at once, joins the cluster when kubelet is
// Ready (node_boot_s, no GPU allocatable yet) and offers its GPUs when the
// GPU stack is up (gpu_stack_ready_s, + mig_reconfigure_s on MIG pools, +
// hami_register_s on HAMi pools); under cluster-autoscaler a node not ready
// within max_node_provision_time_s is given up and its group backs off. A
// scale-down cordons the node (the provider's NoSchedule taint), evicts its
// pods (their controller creates them again, as after a preemption; each
// gets its grace period, at most the provider's cap) and removes the node
// when they are gone, or at the cap. Karpenter spot nodes are reclaimed at
// the configured rate (a seeded Poisson process per node) after the spot
// notice.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpushare/io/input_error.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/simulation_elastic.h"
#include "gpushare/sim/simulation_internal.h"

namespace gpushare {

using simulation_internal::ElasticNode;
using simulation_internal::ElasticPending;
using simulation_internal::ElasticRun;
using simulation_internal::kInfinity;

namespace {

using Stage = ElasticNode::Stage;

const char* ProviderName(AutoscalerProvider provider) {
  return provider == AutoscalerProvider::kKarpenter ? "karpenter"
                                                    : "cluster-autoscaler";
}

bool Billed(const ElasticNode& n) { return n.stage != Stage::kAbsent; }

double Quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t k = static_cast<size_t>(
      std::ceil(q * static_cast<double>(v.size())) - 1);
  return v[std::min(k, v.size() - 1)];
}

}  // namespace

void Simulation::SetAutoscalerFactory(AutoscalerFactory factory) {
  autoscaler_factory_ = std::move(factory);
}

const ElasticPoolStats* Simulation::elastic_stats(int pool) const {
  if (!elastic_ || pool < 0 ||
      pool >= static_cast<int>(elastic_->slot.size()) ||
      elastic_->slot[pool] < 0) {
    return nullptr;
  }
  return &elastic_->stats[elastic_->slot[pool]];
}

void Simulation::BuildElastic() {
  for (const NodePool& p : cluster_->pools()) {
    if (p.spec.autoscaling.provider != AutoscalerProvider::kNone) {
      elastic_ = std::make_unique<ElasticRun>();
      return;
    }
  }
}

void Simulation::StartElastic() {
  ElasticRun& e = *elastic_;
  e = ElasticRun();
  const auto& pools = cluster_->pools();
  const size_t n = pools.size();
  e.slot.assign(n, -1);
  e.autoscaler_of.assign(n, -1);
  e.backoff_until.assign(n, -kInfinity);
  e.price_per_node_hour.assign(n, 0);
  e.nodes.assign(cluster_->nodes().size(), ElasticNode());
  e.pool_message.assign(n, "");
  const ModelParams& m = scenario_.model;
  for (size_t p = 0; p < n; ++p) {
    const NodePool& pool = pools[p];
    const NodeGroupAutoscaling& as = pool.spec.autoscaling;
    if (as.provider == AutoscalerProvider::kNone) continue;
    e.slot[p] = static_cast<int>(e.stats.size());
    ElasticPoolStats& s = e.stats.emplace_back();
    s.provider = ProviderName(as.provider);
    s.min_nodes = as.min_nodes;
    s.max_nodes = as.max_nodes;
    s.start_nodes = pool.spec.nodes;
    e.price_per_node_hour[p] =
        pool.model != nullptr
            ? pool.spec.gpus_per_node *
                  (pool.model->price_per_hour + pool.spec.licence_per_gpu_hour)
            : 0;
    size_t a = 0;
    while (a < e.providers.size() && e.providers[a] != as.provider) ++a;
    if (a == e.providers.size()) {
      e.providers.push_back(as.provider);
      e.autoscaler_pools.emplace_back();
    }
    e.autoscaler_pools[a].push_back(static_cast<int>(p));
    e.autoscaler_of[p] = static_cast<int>(a);
    for (int i = 0; i < pool.node_count; ++i) {
      const int node = pool.first_node + i;
      if (i < pool.spec.nodes) {
        ElasticNode& en = e.nodes[node];
        en.stage = Stage::kReady;
        en.price_per_hour = e.price_per_node_hour[p];
      }
    }
    // How long pods may wait for this group's autoscaler to act before a
    // run without a horizon ends (a scan or a batch, its delays, a
    // back-off), with a minute to spare.
    const ClusterAutoscalerSettings& ca = as.cluster_autoscaler;
    const KarpenterSettings& k = as.karpenter;
    const double act =
        as.provider == AutoscalerProvider::kKarpenter
            ? 2 * k.batch_max_duration_s + k.consolidate_after_s
            : 2 * ca.scan_interval_s + ca.new_pod_scale_up_delay_s;
    e.quiet_window_s = std::max(e.quiet_window_s,
                                act + m.node_group_backoff_s + 60);
  }
  e.stats.shrink_to_fit();
  e.waits.assign(e.stats.size(), {});
  e.notes.assign(e.stats.size(), {});
  for (size_t a = 0; a < e.providers.size(); ++a) {
    const Rng rng = Rng(scenario_.seed).Fork(0xA5CA1E00 + a);
    std::unique_ptr<Autoscaler> autoscaler;
    if (autoscaler_factory_) {
      autoscaler = autoscaler_factory_(e.providers[a], *cluster_,
                                       e.autoscaler_pools[a], rng);
    } else {
      autoscaler =
          MakeAutoscaler(e.providers[a], *cluster_, e.autoscaler_pools[a], rng);
    }
    if (!autoscaler) {
      throw InputError(fmt::format(
          "scenario '{}': pool '{}' autoscales with {}, whose model this "
          "build does not have",
          scenario_.name, pools[e.autoscaler_pools[a][0]].spec.name,
          ProviderName(e.providers[a])));
    }
    e.autoscalers.push_back(std::move(autoscaler));
    e.decision_queued.push_back(1);
    events_.Push(e.autoscalers.back()->NextDecisionS(0),
                 EventKind::kAutoscalerDecision, static_cast<int>(a));
  }
  e.spot_rng = Rng(scenario_.seed).Fork(0x5B075B07);
}

bool Simulation::ElasticStale(const Event& ev) const {
  return !elastic_ || elastic_->nodes[ev.a].version != ev.version;
}

bool Simulation::ElasticWorkLeft() const {
  const ElasticRun& e = *elastic_;
  if (e.in_flight > 0) return true;
  return !e.pending.empty() && clock_ - e.last_activity_s <= e.quiet_window_s;
}

void Simulation::ElasticUnschedulable(double now, PodIndex p,
                                      const std::string& message,
                                      bool unchanged) {
  ElasticRun& e = *elastic_;
  const int pool = target_pool(p);
  if (pool < 0 || e.slot[pool] < 0) return;
  auto [it, added] = e.pending.try_emplace(p);
  if (added) {
    it->second.first_failed_s = std::max(live_[p].elastic_queued_s, 0.0);
    e.last_activity_s = std::max(e.last_activity_s, now);
  }
  if (!unchanged || added) it->second.message = message;
  if (!unchanged) e.pool_message[pool] = message;
  const int a = e.autoscaler_of[pool];
  if (!e.decision_queued[a]) {
    // Its autoscaler went quiet (nothing left to do): it looks again.
    e.decision_queued[a] = 1;
    events_.Push(e.autoscalers[a]->NextDecisionS(now),
                 EventKind::kAutoscalerDecision, a);
  }
}

void Simulation::ElasticQueued(double now, PodIndex p) {
  live_[p].elastic_queued_s = now;
}

void Simulation::ElasticBound(double now, PodIndex p) {
  ElasticRun& e = *elastic_;
  // It waited for a scale-up when it binds to a node launched in the run
  // (nodes of the start have version 0) that became ready after it was
  // queued: one launched for it, or in flight when it came.
  const int node = scheduler_->NodeOf(p);
  if (node >= 0 && node < static_cast<int>(e.nodes.size())) {
    const ElasticNode& en = e.nodes[node];
    const int slot = e.slot[cluster_->nodes()[node].pool()];
    if (slot >= 0 && en.version > 0 && en.stage == Stage::kReady &&
        en.since_s > live_[p].elastic_queued_s) {
      e.waits[slot].push_back(now - live_[p].elastic_queued_s);
    }
  }
  e.pending.erase(p);
}

AutoscalerSnapshot Simulation::ElasticSnapshot(double now, int a) const {
  const ElasticRun& e = *elastic_;
  AutoscalerSnapshot snap;
  snap.now_s = now;
  snap.resources = &cluster_->resources();
  const ResourceRegistry& registry = cluster_->resources();
  std::vector<int> group_of(cluster_->pools().size(), -1);
  for (int pool : e.autoscaler_pools[a]) {
    const NodePool& np = cluster_->pools()[pool];
    group_of[pool] = static_cast<int>(snap.groups.size());
    AutoscalerGroupView& g = snap.groups.emplace_back();
    g.pool = pool;
    g.spec = &np.spec;
    g.model = np.model;
    const Node& model_node = cluster_->nodes()[np.first_node];
    g.ready_node_allocatable.Set(ResourceRegistry::kCpuId, np.spec.cpu_milli);
    g.ready_node_allocatable.Set(ResourceRegistry::kMemoryId,
                                 np.spec.memory_mib);
    for (const auto& [id, q] : model_node.extended().items()) {
      g.ready_node_allocatable.Set(id, q);
    }
    g.price_per_node_hour = e.price_per_node_hour[pool];
  }
  // node -> its view's place, for the bound pods below.
  std::vector<std::pair<int, int>> view_of(cluster_->nodes().size(), {-1, -1});
  for (size_t gi = 0; gi < snap.groups.size(); ++gi) {
    AutoscalerGroupView& g = snap.groups[gi];
    const NodePool& np = cluster_->pools()[g.pool];
    for (int i = 0; i < np.node_count; ++i) {
      const int node = np.first_node + i;
      const ElasticNode& en = e.nodes[node];
      if (!Billed(en)) continue;
      AutoscalerNodeView& v = g.nodes.emplace_back();
      v.node = node;
      v.state = en.stage == Stage::kReady      ? AutoscalerNodeView::State::kReady
                : en.stage == Stage::kDraining ? AutoscalerNodeView::State::kDeleting
                                               : AutoscalerNodeView::State::kLaunching;
      // Launching since the launch, whatever its bring-up step.
      v.state_since_s = v.state == AutoscalerNodeView::State::kLaunching
                            ? en.launched_s
                            : en.since_s;
      v.instance_type = en.instance_type;
      v.spot = en.spot;
      const Node& nd = cluster_->nodes()[node];
      if (en.stage == Stage::kReady || en.stage == Stage::kDraining) {
        for (ResourceId id = 0; id < registry.size(); ++id) {
          if (nd.Allocatable(id) != 0) v.allocatable.Set(id, nd.Allocatable(id));
        }
      }
      for (ResourceId id = 0; id < registry.size(); ++id) {
        if (nd.Requested(id) != 0) v.requested.Set(id, nd.Requested(id));
      }
      view_of[node] = {static_cast<int>(gi),
                       static_cast<int>(g.nodes.size()) - 1};
    }
  }
  live_.ForEachLive([&](int64_t p) {
    const PodRun& run = live_[p].run;
    if (run.node < 0 || run.phase == Phase::kDone) return;
    const auto [gi, vi] = view_of[run.node];
    if (gi < 0) return;
    AutoscalerBoundPod& b = snap.groups[gi].nodes[vi].pods.emplace_back();
    b.pod = static_cast<PodIndex>(p);
    b.requests = live_[p].pod.requests;
    // Every simulated pod has a controller (its class), and no
    // PodDisruptionBudget is modelled: a pod is evictable unless it is
    // already terminating.
    b.evictable = run.phase != Phase::kTerminating;
  });
  for (const auto& [p, info] : e.pending) {
    if (!live_.live(p)) continue;
    const int pool = target_pool(p);
    if (RunOf(p).phase != Phase::kPending || group_of[pool] < 0) continue;
    AutoscalerPendingPod& pp = snap.pending.emplace_back();
    pp.pod = p;
    pp.pool = pool;
    pp.requests = PodOf(p).requests;
    pp.pending_since_s = info.first_failed_s;
    pp.unschedulable_message = info.message;
    pp.uses_resource_claims =
        cluster_->pools()[pool].spec.devices == PoolDevices::kDra;
  }
  return snap;
}

void Simulation::ElasticDecision(double now, int a) {
  ElasticRun& e = *elastic_;
  e.decision_queued[a] = 0;
  // Pods that left the queue another way (deleted, failed) are forgotten;
  // every pod waiting for one of its pools is pending for it, those that
  // wait in a group behind its head (no cycle of their own) too, with the
  // head's message.
  for (auto it = e.pending.begin(); it != e.pending.end();) {
    if (RunOrGone(it->first).phase != Phase::kPending) {
      it = e.pending.erase(it);
    } else {
      ++it;
    }
  }
  live_.ForEachLive([&](int64_t p) {
    const int pool = live_[p].target_pool;
    if (live_[p].run.phase != Phase::kPending || pool < 0 ||
        e.autoscaler_of[pool] != a || e.pending.count(static_cast<int>(p))) {
      return;
    }
    ElasticPending& info = e.pending[static_cast<int>(p)];
    info.first_failed_s = live_[p].elastic_queued_s;
    info.message = e.pool_message[pool];
  });
  // A drained node whose pods are all gone goes now.
  for (int pool : e.autoscaler_pools[a]) {
    const NodePool& np = cluster_->pools()[pool];
    for (int i = 0; i < np.node_count; ++i) {
      const int node = np.first_node + i;
      if (e.nodes[node].stage == Stage::kDraining) ElasticPodGone(now, node);
    }
  }
  const AutoscalerDecision d = e.autoscalers[a]->Decide(ElasticSnapshot(now, a));
  auto ours = [&](int pool) {
    return pool >= 0 && pool < static_cast<int>(e.autoscaler_of.size()) &&
           e.autoscaler_of[pool] == a;
  };
  // Nodes past their provision time, which it has now seen: given up, and
  // the group backs off.
  for (int pool : e.autoscaler_pools[a]) {
    const NodePool& np = cluster_->pools()[pool];
    for (int i = 0; i < np.node_count; ++i) {
      const int node = np.first_node + i;
      if (!e.nodes[node].overdue) continue;
      ++e.stats[e.slot[pool]].nodes_given_up;
      e.backoff_until[pool] = now + scenario_.model.node_group_backoff_s;
      RemoveNode(now, node);
    }
  }
  for (const ScaleUpAction& up : d.scale_ups) {
    if (!ours(up.pool) || now < e.backoff_until[up.pool]) continue;
    int launched = 0;
    for (int k = 0; k < up.nodes; ++k) {
      if (!LaunchNode(now, up.pool, up.instance_type, up.spot)) break;
      ++launched;
    }
    if (launched == 0) continue;
    e.last_activity_s = now;
    for (PodIndex p : up.for_pods) {
      auto it = e.pending.find(p);
      if (it != e.pending.end()) it->second.scaled_for = true;
    }
  }
  for (const ScaleDownAction& down : d.scale_downs) {
    if (down.node < 0 ||
        down.node >= static_cast<int>(cluster_->nodes().size())) {
      continue;
    }
    const int pool = cluster_->nodes()[down.node].pool();
    const Stage stage = e.nodes[down.node].stage;
    if (!ours(pool) ||
        (stage != Stage::kReady && stage != Stage::kKubeletReady)) {
      continue;
    }
    // Never below min: nodes not already leaving.
    const NodePool& np = cluster_->pools()[pool];
    int staying = 0;
    for (int i = 0; i < np.node_count; ++i) {
      const Stage s = e.nodes[np.first_node + i].stage;
      staying += s != Stage::kAbsent && s != Stage::kDraining;
    }
    if (staying <= np.spec.autoscaling.min_nodes) continue;
    const NodeGroupAutoscaling& as = np.spec.autoscaling;
    const double cap = as.provider == AutoscalerProvider::kClusterAutoscaler
                           ? as.cluster_autoscaler.max_graceful_termination_s
                           : kInfinity;
    ++e.stats[e.slot[pool]].nodes_removed;
    DrainNode(now, down.node, cap,
              down.reason.empty() ? "scale-down" : down.reason);
    e.last_activity_s = now;
  }
  for (const NoScaleUpNote& note : d.no_scale_up) {
    if (!ours(note.pool)) continue;
    e.notes[e.slot[note.pool]][{note.reason, note.upstream}].insert(note.pod);
  }
  if (WorkLeft()) {
    e.decision_queued[a] = 1;
    events_.Push(e.autoscalers[a]->NextDecisionS(now),
                 EventKind::kAutoscalerDecision, a);
  }
}

bool Simulation::LaunchNode(double now, int pool, const std::string& type,
                            bool spot) {
  ElasticRun& e = *elastic_;
  const NodePool& np = cluster_->pools()[pool];
  int node = -1;
  for (int i = 0; i < np.node_count && node < 0; ++i) {
    if (!Billed(e.nodes[np.first_node + i])) node = np.first_node + i;
  }
  if (node < 0) return false;  // at max
  const NodeGroupAutoscaling& as = np.spec.autoscaling;
  ElasticNode& en = e.nodes[node];
  const uint64_t version = en.version + 1;
  en = ElasticNode();
  en.version = version;
  en.stage = Stage::kBooting;
  en.since_s = now;
  en.launched_s = now;
  en.instance_type = type;
  en.spot = spot;
  en.price_per_hour = e.price_per_node_hour[pool];
  for (const KarpenterInstanceType& t : as.karpenter.instance_types) {
    if (t.name == type) {
      en.price_per_hour = spot && t.spot_price_per_hour > 0
                              ? t.spot_price_per_hour
                              : t.price_per_hour;
    }
  }
  ++e.in_flight;
  ++e.stats[e.slot[pool]].nodes_launched;
  const ModelParams& m = scenario_.model;
  events_.Push(now + m.node_boot_s, EventKind::kNodeStage, node,
               simulation_internal::kStepKubeletReady, version);
  const double ready_s = now + ElasticBringUpS(pool);
  if (as.provider == AutoscalerProvider::kClusterAutoscaler &&
      ready_s - now > as.cluster_autoscaler.max_node_provision_time_s) {
    events_.Push(now + as.cluster_autoscaler.max_node_provision_time_s,
                 EventKind::kNodeStage, node, simulation_internal::kStepGiveUp,
                 version);
  }
  const double rate = as.karpenter.spot_interruptions_per_node_hour;
  if (spot && rate > 0) {
    const double u = e.spot_rng.Uniform01();
    events_.Push(now - std::log1p(-u) * 3600 / rate, EventKind::kNodeStage,
                 node, simulation_internal::kStepSpotNotice, version);
  }
  return true;
}

double Simulation::ElasticBringUpS(int pool) const {
  const NodePool& np = cluster_->pools()[pool];
  const ModelParams& m = scenario_.model;
  double s = m.node_boot_s;
  if (np.spec.gpus_per_node > 0) {
    s += m.gpu_stack_ready_s;
    if (np.spec.sharing.mig_enabled) s += m.mig_reconfigure_s;
    if (np.spec.sharing.sharing == DeviceSharing::kHami) s += m.hami_register_s;
  }
  return s;
}

void Simulation::ElasticNodeStep(double now, int node, int step) {
  ElasticRun& e = *elastic_;
  ElasticNode& en = e.nodes[node];
  Node& nd = cluster_->nodes()[node];
  const int pool = nd.pool();
  switch (step) {
    case simulation_internal::kStepKubeletReady: {
      if (en.stage != Stage::kBooting) return;
      en.stage = Stage::kKubeletReady;
      en.since_s = now;
      nd.SetExists(true);
      if (nd.gpus() > 0) {
        // kubelet is Ready before the GPU stack: no GPU allocatable.
        nd.SetDevicePluginRegistered(false);
        scheduler_->DevicesChanged(node, false);
      }
      scheduler_->NodeChanged(node);
      const double ready_s = en.launched_s + ElasticBringUpS(pool);
      if (ready_s > now) {
        events_.Push(ready_s, EventKind::kNodeStage, node,
                     simulation_internal::kStepReady, en.version);
        return;
      }
      [[fallthrough]];
    }
    case simulation_internal::kStepReady:
      if (en.stage != Stage::kKubeletReady) return;
      en.stage = Stage::kReady;
      en.since_s = now;
      --e.in_flight;
      e.last_activity_s = now;
      if (nd.gpus() > 0) {
        nd.SetDevicePluginRegistered(true);
        scheduler_->DevicesChanged(node, true);
      }
      WakeDormantGangs();
      return;
    case simulation_internal::kStepGiveUp:
      if (en.stage != Stage::kBooting && en.stage != Stage::kKubeletReady) {
        return;
      }
      en.overdue = true;  // ElasticDecision gives it up
      return;
    case simulation_internal::kStepRemove:
      if (en.stage == Stage::kDraining) RemoveNode(now, node);
      return;
    case simulation_internal::kStepSpotNotice:
      if (en.stage == Stage::kAbsent || en.stage == Stage::kDraining) return;
      ++e.stats[e.slot[pool]].spot_interruptions;
      if (en.stage == Stage::kBooting) {
        RemoveNode(now, node);
        return;
      }
      DrainNode(now, node, scenario_.model.spot_interruption_notice_s,
                "spot interruption");
      return;
    default:
      return;
  }
}

void Simulation::DrainNode(double now, int node, double cap_s,
                           const std::string& why) {
  ElasticRun& e = *elastic_;
  ElasticNode& en = e.nodes[node];
  if (en.stage == Stage::kKubeletReady) --e.in_flight;  // was launching
  en.stage = Stage::kDraining;
  en.since_s = now;
  ++e.in_flight;
  Node& nd = cluster_->nodes()[node];
  const NodePool& np = cluster_->pools()[nd.pool()];
  // Cordoned: cluster-autoscaler's and Karpenter's NoSchedule taints
  // (kubernetes/autoscaler utils/taints ToBeDeletedTaint; Karpenter's
  // karpenter.sh/disrupted).
  std::vector<Taint> taints = nd.taints();
  taints.push_back({np.spec.autoscaling.provider == AutoscalerProvider::kKarpenter
                        ? "karpenter.sh/disrupted"
                        : "ToBeDeletedByClusterAutoscaler",
                    "", TaintEffect::kNoSchedule});
  nd.SetTaints(std::move(taints));
  scheduler_->NodeChanged(node);
  double deadline = 0;
  bool busy = false;
  const std::string reason =
      fmt::format("evicted: node {} is drained ({})", nd.name(), why);
  live_.ForEachLive([&](int64_t p) {
    PodRun& run = live_[p].run;
    if (run.node != node || run.phase == Phase::kDone) return;
    busy = true;
    const double grace =
        std::min(cap_s, live_[p].pod.termination_grace_period_s);
    if (run.phase == Phase::kTerminating) {
      deadline = std::max(deadline, grace);
      return;
    }
    EvictForDrain(now, static_cast<PodIndex>(p), grace, reason);
    ++e.stats[e.slot[nd.pool()]].pods_evicted;
    deadline = std::max(deadline, grace);
  });
  if (!busy) {
    RemoveNode(now, node);
    return;
  }
  events_.Push(now + deadline, EventKind::kNodeStage, node,
               simulation_internal::kStepRemove, en.version);
}

void Simulation::EvictForDrain(double now, PodIndex p, double grace_s,
                               const std::string& reason) {
  PodRun& run = RunOf(p);
  if (run.phase == Phase::kPermit) --gangs_[GangOf(p)].waiting;
  if (run.service && run.resident) {
    run.lifetime_left =
        std::max(0.0, run.lifetime_left - (now - run.started_at));
  }
  const double lost = Interrupt(now, p);
  ++run.version;  // its completion, deletion or restart events are void
  run.phase = Phase::kTerminating;
  if (observer_) observer_->OnEvicted(now, p, reason, lost);
  events_.Push(now + grace_s, EventKind::kTerminated, p, -1, run.version);
}

void Simulation::ElasticPodGone(double now, int node) {
  if (node < 0 || elastic_->nodes[node].stage != Stage::kDraining) return;
  bool busy = false;
  live_.ForEachLive([&](int64_t p) {
    const PodRun& run = live_[p].run;
    busy |= run.node == node && run.phase != Phase::kDone;
  });
  if (!busy) RemoveNode(now, node);
}

void Simulation::RemoveNode(double now, int node) {
  ElasticRun& e = *elastic_;
  ElasticNode& en = e.nodes[node];
  live_.ForEachLive([&](int64_t p) {
    PodRun& run = live_[p].run;
    if (run.node != node || run.phase == Phase::kDone) return;
    // Past the grace cap: killed; its controller creates it again.
    if (run.phase != Phase::kTerminating) {
      EvictForDrain(now, static_cast<PodIndex>(p), 0,
                    "evicted: node " + cluster_->nodes()[node].name() +
                        " removed");
    }
    Terminated(now, static_cast<PodIndex>(p));
    live_[p].elastic_queued_s = now;
  });
  Node& nd = cluster_->nodes()[node];
  const int pool = nd.pool();
  ElasticPoolStats& s = e.stats[e.slot[pool]];
  const double hours = (now - en.launched_s) / 3600;
  s.node_hours += hours;
  s.gpu_hours += hours * nd.gpus();
  s.cost += hours * en.price_per_hour;
  if (en.stage != Stage::kReady) --e.in_flight;
  const uint64_t version = en.version + 1;
  en = ElasticNode();
  en.version = version;
  e.last_activity_s = now;
  nd.SetTaints(cluster_->pools()[pool].spec.taints);
  nd.SetExists(false);
  nd.SetDevicePluginRegistered(true);
  scheduler_->DevicesChanged(node, false);
  scheduler_->NodeChanged(node);
}

void Simulation::SampleElastic(double now, std::vector<DomainState>* states) {
  ElasticRun& e = *elastic_;
  for (size_t d = 0; d < domains_.size(); ++d) {
    if (!Billed(e.nodes[domains_[d].info.node]) &&
        e.slot[cluster_->nodes()[domains_[d].info.node].pool()] >= 0) {
      (*states)[d].absent = true;
    }
  }
  (void)now;
}

void Simulation::RecordElasticSample(double now) {
  ElasticRun& e = *elastic_;
  for (size_t pool = 0; pool < e.slot.size(); ++pool) {
    if (e.slot[pool] < 0) continue;
    ElasticPoolStats& s = e.stats[e.slot[pool]];
    const NodePool& np = cluster_->pools()[pool];
    ElasticPoolStats::Sample sample;
    sample.time_s = now;
    for (int i = 0; i < np.node_count; ++i) {
      const ElasticNode& en = e.nodes[np.first_node + i];
      sample.nodes += Billed(en);
      sample.ready += en.stage == Stage::kReady;
    }
    s.peak_nodes = std::max(s.peak_nodes, sample.nodes);
    s.samples.push_back(sample);
  }
}

void Simulation::FinishElastic(double now) {
  ElasticRun& e = *elastic_;
  for (size_t node = 0; node < e.nodes.size(); ++node) {
    const ElasticNode& en = e.nodes[node];
    if (!Billed(en)) continue;
    const Node& nd = cluster_->nodes()[node];
    ElasticPoolStats& s = e.stats[e.slot[nd.pool()]];
    const double hours = (now - en.launched_s) / 3600;
    s.node_hours += hours;
    s.gpu_hours += hours * nd.gpus();
    s.cost += hours * en.price_per_hour;
  }
  for (size_t k = 0; k < e.stats.size(); ++k) {
    ElasticPoolStats& s = e.stats[k];
    const std::vector<double>& w = e.waits[k];
    s.pods_waited = static_cast<int64_t>(w.size());
    double sum = 0;
    for (double x : w) sum += x;
    s.wait_mean_s = w.empty() ? 0 : sum / static_cast<double>(w.size());
    s.wait_p99_s = Quantile(w, 0.99);
    s.no_scale_up.clear();
    for (const auto& [key, pods] : e.notes[k]) {
      s.no_scale_up.push_back(
          {key.first, key.second, static_cast<int64_t>(pods.size())});
    }
    std::stable_sort(s.no_scale_up.begin(), s.no_scale_up.end(),
                     [](const auto& x, const auto& y) { return x.pods > y.pods; });
  }
}

}  // namespace gpushare
