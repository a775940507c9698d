#include "gpushare/sim/simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/exec/latency_model.h"
#include "gpushare/io/check.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sim/simulation_elastic.h"
#include "gpushare/sim/simulation_internal.h"

namespace gpushare {

using simulation_internal::kInfinity;

namespace {

// A run without a horizon stops with an error after this many samples, the
// most a horizon may make (scenario/scenario_reader.cc): pods that run
// longer would grow the samples without bound.
constexpr double kMaxSamplesWithoutHorizon = 1e6;

}  // namespace

Simulation::Simulation(const Scenario& scenario, const Catalog& catalog)
    : scenario_(scenario), rng_(Rng(scenario.seed).Fork(0xFA017)) {
  scenario_.model.Validate();
  cluster_ = std::make_unique<Cluster>(catalog);
  for (const NodePoolSpec& spec : scenario_.pools) cluster_->AddPool(spec);
  scenario_.workload.Validate();
  for (size_t n = 0; n < cluster_->nodes().size(); ++n) {
    node_index_.emplace(cluster_->nodes()[n].name(), static_cast<int>(n));
  }
  stream_ = std::make_unique<WorkloadStream>(scenario_.workload, scenario_.seed);
  pod_total_ = stream_->total();
  std::vector<std::pair<PodIndex, LivePod>> queued;
  ScanWorkload(&queued);
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
        SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami}) {
    share_models_.push_back(MakeShareModel(s));
  }
  scheduler_ = std::make_unique<Scheduler>(*cluster_, scenario_.scheduler);
  scheduler_->OmitUnchangedMessages();  // Schedule() keeps what it needs
  BuildDomains();
  MakeQueueAdmission();
  if (kueue_) {
    std::vector<std::string> first_class;
    for (const auto& [i, live] : queued) {
      AddToKueueWorkload(i, live, &first_class);
    }
    CheckKueueWorkloads(first_class);
  }
  queued.clear();
  BuildElastic();
  for (const FaultSpec& f : scenario_.faults) {
    if (f.pool.empty()) continue;
    bool found = false;
    for (const NodePool& p : cluster_->pools()) found |= p.spec.name == f.pool;
    if (!found)
      throw InputError("fault names unknown node pool '" + f.pool + "'");
  }
  stalls_.assign(cluster_->nodes().size(), 0);
  for (const DevicePluginStallSpec& stall : scenario_.device_plugin_stalls) {
    int node = -1;
    for (const NodePool& p : cluster_->pools()) {
      if (p.spec.name == stall.pool && stall.node < p.node_count) {
        node = p.first_node + stall.node;
      }
    }
    if (node < 0) {
      throw InputError(fmt::format(
          "device plugin stall names node {} of pool '{}', which the cluster "
          "does not have",
          stall.node, stall.pool));
    }
    stall_nodes_.push_back(node);
  }
}

Simulation::~Simulation() = default;

void Simulation::PreparePod(LivePod* live) const {
  Pod& pod = live->pod;
  auto bound_to = pod.node_name.empty() ? node_index_.end()
                                        : node_index_.find(pod.node_name);
  const int pool = bound_to != node_index_.end()
                       ? cluster_->nodes()[bound_to->second].pool()
                       : TargetPool(pod, *cluster_);
  live->target_pool = pool;
  if (pool < 0) {
    pod.requests.Set(ResourceRegistry::kCpuId, pod.cpu_milli);
    pod.requests.Set(ResourceRegistry::kMemoryId, pod.memory_mib);
    live->untranslatable =
        "no node pool admits it (node selector, affinity or taints)";
    return;
  }
  live->untranslatable =
      TranslateRequests(pod, cluster_->pools()[pool], cluster_->resources(),
                        scenario_.translation);
  if (!pod.dra_unallocatable.empty()) {
    // Every node's DynamicResources Filter fails it (FitError's words).
    const size_t n = cluster_->nodes().size();
    live->untranslatable = fmt::format("0/{} nodes are available: {} {}.", n,
                                       n, pod.dra_unallocatable);
  }
  if (bound_to == node_index_.end()) {
    PinToTargetPool(pod, pool, *cluster_, cluster_->resources(),
                    scenario_.translation);
    if (!pod.dra_gpu_models.empty()) {
      // Its claims select some GPU models: nodes of other models fail
      // their DynamicResources Filter.
      std::vector<std::string> allowed;
      for (const NodePool& p : cluster_->pools()) {
        if (PoolHasAllowedModel(pod, p)) allowed.push_back(p.spec.name);
      }
      RequireNodePools(allowed, &pod.required_affinity);
    }
  }
  if (!pod.dra_claim.empty() && !KeepsSharedClaim(pod, pool)) {
    pod.dra_claim.clear();
  }
}

void Simulation::ScanWorkload(
    std::vector<std::pair<PodIndex, LivePod>>* queued) {
  const bool queues =
      scenario_.queues.enabled() || scenario_.kai_queues.enabled();
  WorkloadStream stream(scenario_.workload, scenario_.seed);
  LivePod live;
  for (PodIndex i = 0; !stream.done(); ++i) {
    live = LivePod();
    stream.Next(&live.pod);
    PreparePod(&live);
    const Pod& pod = live.pod;
    if (!pod.dra_claim.empty()) {
      ++claim_pods_[pod.dra_claim];
      shared_claim_pools_.resize(cluster_->pools().size(), 0);
      shared_claim_pools_[static_cast<size_t>(live.target_pool)] = 1;
    }
    AddToGang(i, pod);
    if (queues && !pod.queue_name.empty() && live.untranslatable.empty()) {
      queued->emplace_back(i, std::move(live));
    }
  }
}

PodIndex Simulation::TakeArrival() {
  const auto index = static_cast<PodIndex>(live_.size());
  LivePod& live = live_.Add();
  const double before = stream_->next_arrival_s();
  stream_->Next(&live.pod);
  GS_CHECK(live.pod.arrival_s == before, "the workload stream skipped a pod");
  PreparePod(&live);
  return index;
}

void Simulation::Ended(PodIndex p) {
  const int g = GangOf(p);
  if (g >= 0) --gangs_[g].unended;
  ended_.push_back(p);
}

void Simulation::ReleaseIfDone(PodIndex p) {
  if (!live_.live(p) || live_[p].run.phase != Phase::kDone) return;
  const int g = GangOf(p);
  if (g >= 0 && gangs_[g].unended > 0) return;
  const int w = KueueWorkloadOf(p);
  if (w >= 0 && kueue_workloads_[w].live > 0) return;
  const int32_t memo = live_[p].run.llm_memo;
  if (memo >= 0) {
    llm_memos_[static_cast<size_t>(memo)] = EngineMemos();
    llm_memos_free_.push_back(memo);
  }
  if (g >= 0) gang_messages_.erase(p);
  scheduler_->Drop(p);
  live_.Release(p);
}

void Simulation::ReleaseEnded() {
  for (const PodIndex p : ended_) {
    const int g = GangOf(p);
    const int w = KueueWorkloadOf(p);
    if (g < 0 && w < 0) {
      ReleaseIfDone(p);
      continue;
    }
    // A group's pods go together, once all of them have ended.
    if (g >= 0) {
      for (const PodIndex m : gangs_[g].members) ReleaseIfDone(m);
    }
    if (w >= 0) {
      for (const PodIndex m : kueue_workloads_[w].pods) ReleaseIfDone(m);
    }
  }
  ended_.clear();
}

bool Simulation::KeepsSharedClaim(const Pod& pod, int pool) const {
  const NodePoolSpec& spec = cluster_->pools()[pool].spec;
  // A variant of compare or plan moved the pool off DRA whole GPUs (the
  // scenario as written was checked at load): the pod asks for its own.
  return !(spec.devices != PoolDevices::kDra || spec.dra.extended_resource ||
           spec.sharing.mig_enabled || pod.requests.items().empty() ||
           pod.requests.items().back().first <= ResourceRegistry::kMemoryId);
}

void Simulation::ScanPods(
    const std::function<void(PodIndex, const Pod&)>& f) const {
  WorkloadStream stream(scenario_.workload, scenario_.seed);
  LivePod live;
  for (PodIndex i = 0; !stream.done(); ++i) {
    live = LivePod();
    stream.Next(&live.pod);
    PreparePod(&live);
    f(i, live.pod);
  }
}

void Simulation::Run(SimulationObserver* observer) {
  GS_CHECK(live_.size() == 0, "Simulation::Run is called once");
  observer_ = observer;
  llm_memos_.clear();
  if (observer_) observer_->OnRunStart(*cluster_, pod_total_, domain_info_);
  for (size_t f = 0; f < scenario_.faults.size(); ++f) {
    const FaultSpec& spec = scenario_.faults[f];
    if (spec.at_s >= 0) {
      events_.Push(spec.at_s, EventKind::kFault, -1, static_cast<int>(f));
    } else {
      ScheduleNextFault(0, static_cast<int>(f));
    }
  }
  for (size_t i = 0; i < stall_nodes_.size(); ++i) {
    const DevicePluginStallSpec& stall = scenario_.device_plugin_stalls[i];
    events_.Push(stall.at_s, EventKind::kStallStart, stall_nodes_[i]);
    if (stall.duration_s > 0) {
      ++changes_due_;
      events_.Push(stall.at_s + stall.duration_s, EventKind::kStallEnd,
                   stall_nodes_[i]);
    }
  }
  if (elastic_) StartElastic();
  events_.Push(0, EventKind::kSample);
  const double horizon =
      scenario_.horizon_s > 0 ? scenario_.horizon_s : kInfinity;
  double now = 0;
  for (;;) {
    // Pods ended by the last event are released now: nothing refers to
    // them any more.
    if (!ended_.empty()) ReleaseEnded();
    // The next arrival comes from the stream, before the events queued for
    // the same time (as if all arrivals had been queued first, in order).
    const bool arrival =
        !stream_->done() &&
        (events_.empty() || stream_->next_arrival_s() <= events_.top().time);
    if (!arrival && events_.empty()) break;
    Event e;
    if (arrival) {
      e.time = stream_->next_arrival_s();
      e.kind = EventKind::kArrival;
    } else {
      e = events_.Pop();
    }
    if (e.time > horizon) {
      now = horizon;
      break;
    }
    // An event a later one replaced (a completion or deletion predicted
    // before the pod's rate or run changed, a gang's void timeout) does
    // nothing: it neither counts nor moves the clock, so the run ends at
    // its last real event.
    if (!arrival && Stale(e)) continue;
    if (arrival) e.a = TakeArrival();
    now = e.time;
    clock_ = now;
    ++event_count_;
    scheduler_->SetTime(now);
    switch (e.kind) {
      case EventKind::kArrival: {
        ++active_pods_;
        PodRun& run = RunOf(e.a);
        const Pod& pod = PodOf(e.a);
        run.service = pod.needs.work_s <= 0 && pod.needs.lifetime_s > 0;
        run.lifetime_left = pod.needs.lifetime_s;
        if (observer_) observer_->OnArrival(now, e.a);
        if (!live_[e.a].untranslatable.empty()) {
          const std::string why = live_[e.a].untranslatable;
          Finish(now, e.a, PodEnd::kUnschedulable, why);
          break;
        }
        if (KueueArrival(now, e.a)) {
          // Suspended until Kueue admits its workload.
          Schedule(now);
          break;
        }
        auto bound_to = pod.node_name.empty() ? node_index_.end()
                                              : node_index_.find(pod.node_name);
        if (bound_to != node_index_.end()) {
          // Already running on its node (kubectl import): kubelet admits it.
          run.phase = Phase::kPending;
          const ScheduleResult r = scheduler_->Bind(e.a, pod, bound_to->second);
          if (r.outcome == ScheduleResult::Outcome::kBound) {
            OnBound(now, r);
          } else {
            Finish(now, e.a, PodEnd::kAdmissionFailed, r.message);
          }
          break;
        }
        run.phase = Phase::kPending;
        if (elastic_) ElasticQueued(now, e.a);
        scheduler_->Enqueue(e.a, pod);
        Schedule(now);
        break;
      }
      case EventKind::kCompletion: {
        PodRun& run = RunOf(e.a);
        if (run.phase != Phase::kRunning || run.version != e.version) break;
        // Work conservation: the pod did exactly the work it asked for.
        Advance(now, e.a);
        GS_CHECK(run.remaining <= 1e-6 * std::max(1.0, PodOf(e.a).needs.work_s),
                 "a pod completed with work left");
        Finish(now, e.a, PodEnd::kSucceeded, "");
        Schedule(now);
        break;
      }
      case EventKind::kDeletion: {
        PodRun& run = RunOf(e.a);
        if (run.phase == Phase::kDone || run.version != e.version) break;
        Finish(now, e.a, PodEnd::kDeleted, "");
        Schedule(now);
        break;
      }
      case EventKind::kRestart: {
        if (!live_.live(e.a)) break;  // it ended for good meanwhile
        PodRun& run = RunOf(e.a);
        if (run.phase != Phase::kBackoff || run.version != e.version) break;
        if (observer_) observer_->OnRestart(now, e.a);
        StartOrFail(now, e.a);
        Schedule(now);
        break;
      }
      case EventKind::kFault:
        Fault(now, e.a, e.b);
        Schedule(now);
        break;
      case EventKind::kRecovery:
        --changes_due_;
        Recover(now, e.a);
        WakeDormantGangs();
        Schedule(now);
        break;
      case EventKind::kMigReapply:
        --changes_due_;
        ReapplyMigLayout(now, e.a);
        WakeDormantGangs();
        Schedule(now);
        break;
      case EventKind::kTerminated: {
        if (!live_.live(e.a)) break;  // it ended for good meanwhile
        PodRun& run = RunOf(e.a);
        if (run.phase != Phase::kTerminating || run.version != e.version) break;
        const int node = run.node;
        Terminated(now, e.a);
        if (elastic_) {
          ElasticQueued(now, e.a);  // its controller's new pod
          ElasticPodGone(now, node);
        }
        Schedule(now);
        break;
      }
      case EventKind::kGangTimeout:
        if (gangs_[e.a].version != e.version) break;
        GangTimeout(now, e.a);
        Schedule(now);
        break;
      case EventKind::kGangCompletion: {
        GangRun& gang = gangs_[e.a];
        if (gang.done || gang.version != e.version) break;
        SyncGang(now, e.a);
        GS_CHECK(gang.remaining <= 1e-6 * std::max(1.0, gang.work_s),
                 "a gang completed with work left");
        FinishGang(now, e.a, true, "");
        Schedule(now);
        break;
      }
      case EventKind::kStallStart:
        StallDevicePlugin(e.a, true);
        break;
      case EventKind::kStallEnd:
        --changes_due_;
        StallDevicePlugin(e.a, false);
        WakeDormantGangs();
        Schedule(now);
        break;
      case EventKind::kSample:
        if (elastic_) RecordElasticSample(now);
        Sample(now);
        if (WorkLeft()) {
          if (scenario_.horizon_s <= 0 &&
              now >= kMaxSamplesWithoutHorizon * scenario_.sample_interval_s) {
            throw InputError(fmt::format(
                "scenario '{}': horizon_s is 0 (run until every pod has "
                "finished), but pods are still running after 1,000,000 "
                "samples ({:g} s at sample_interval_s {:g}); set horizon_s "
                "(at most 10^9 s) to stop the run there",
                scenario_.name, now, scenario_.sample_interval_s));
          }
          events_.Push(now + scenario_.sample_interval_s, EventKind::kSample);
        }
        break;
      case EventKind::kMigInstanceReady:
        StartBound(now, e.a);
        Schedule(now);
        break;
      case EventKind::kBackoffExpiry:
        backoff_event_s_ = kInfinity;
        scheduler_->ExpireBackoffs();
        Schedule(now);
        break;
      case EventKind::kAutoscalerDecision:
        ElasticDecision(now, e.a);
        Schedule(now);
        break;
      case EventKind::kNodeStage:
        ElasticNodeStep(now, e.a, e.b);
        Schedule(now);
        break;
    }
    if (scenario_.scheduler.pod_initial_backoff_s > 0) {
      // One pending event at the earliest end of a back-off.
      const double expiry = scheduler_->NextBackoffExpiry();
      if (expiry < backoff_event_s_) {
        events_.Push(expiry, EventKind::kBackoffExpiry);
        backoff_event_s_ = expiry;
      }
    }
  }
  // Close the books of pods still running at the end.
  live_.ForEachLive([&](int64_t p) {
    if (live_[p].run.phase == Phase::kRunning) {
      Advance(now, static_cast<PodIndex>(p));
    }
  });
  // Pods whose arrival comes after the end of the run: each is drawn, told
  // and released.
  while (!stream_->done()) {
    const PodIndex p = TakeArrival();
    if (observer_) observer_->OnNotArrived(p);
    live_.Release(p);
    scheduler_->Drop(p);
  }
  if (elastic_) FinishElastic(now);
  if (observer_) observer_->OnFinish(now, event_count_, scheduler_->cycles());
}

bool Simulation::Stale(const Event& e) const {
  switch (e.kind) {
    case EventKind::kCompletion:
    case EventKind::kDeletion:
    case EventKind::kMigInstanceReady:
      // The pod has ended for good and was released (it was done, which
      // makes these stale).
      if (!live_.live(e.a)) return true;
      break;
    default:
      break;
  }
  switch (e.kind) {
    case EventKind::kCompletion:
      return RunOf(e.a).phase != Phase::kRunning ||
             RunOf(e.a).version != e.version;
    case EventKind::kDeletion:
      return RunOf(e.a).phase == Phase::kDone ||
             RunOf(e.a).version != e.version;
    case EventKind::kGangTimeout:
      return gangs_[e.a].version != e.version;
    case EventKind::kGangCompletion:
      return gangs_[e.a].done || gangs_[e.a].version != e.version;
    case EventKind::kMigInstanceReady:
      return RunOf(e.a).phase != Phase::kPreparing ||
             RunOf(e.a).version != e.version;
    case EventKind::kNodeStage:
      return ElasticStale(e);
    case EventKind::kBackoffExpiry:
      // Only the one pending at the earliest back-off end is live (an
      // earlier one pushed later replaced it; a copy at the same time
      // found it handled).
      return e.time != backoff_event_s_;
    default:
      return false;
  }
}

bool Simulation::WorkLeft() const {
  if (!stream_->done()) return true;
  // Pods that can still make progress (running, or in back-off). Pending
  // pods only move when something else happens (a GPU recovers, a device
  // plugin registers again), so they alone do not keep the sampler going
  // without a horizon.
  if (changes_due_ > 0 && active_pods_ > 0) return true;
  bool progressing = false;
  live_.ForEachLive([&](int64_t p) {
    const Phase phase = live_[p].run.phase;
    progressing |= phase == Phase::kRunning || phase == Phase::kBackoff ||
                   phase == Phase::kTerminating || phase == Phase::kPreparing;
  });
  if (progressing) return true;
  if (elastic_ && ElasticWorkLeft()) return true;
  return scenario_.horizon_s > 0 && active_pods_ > 0;
}

void Simulation::Schedule(double now) {
  // Workloads evicted at an earlier time may be admitted now.
  if (kueue_ && kueue_->HasDeferred()) kueue_dirty_ = true;
  for (;;) {
    if (kueue_dirty_) RunKueue(now);
    if (!scheduler_->HasActive()) break;
    const ScheduleResult r = scheduler_->ScheduleOne();
    switch (r.outcome) {
      case ScheduleResult::Outcome::kBound:
        OnBound(now, r);
        break;
      case ScheduleResult::Outcome::kUnschedulable:
        // A waiting pod's message that did not change is not reported
        // again, but a gang member's is (its gang's timeout may have
        // replaced it meanwhile); the scheduler omits unchanged messages.
        if (elastic_) {
          ElasticUnschedulable(now, r.pod, r.message, r.message_unchanged);
        }
        if (observer_ && GangOf(r.pod) < 0) {
          if (!r.message_unchanged) {
            observer_->OnUnschedulable(now, r.pod, r.message);
          }
        } else if (observer_) {
          std::string& last = gang_messages_[r.pod];
          if (!r.message_unchanged) last = r.message;
          observer_->OnUnschedulable(now, r.pod, last);
        }
        for (size_t k = 0; k < r.victims.size(); ++k) {
          Preempted(now, r.victims[k], r.victim_preemptors[k]);
        }
        break;
      case ScheduleResult::Outcome::kAdmissionFailed:
        Finish(now, r.pod, PodEnd::kAdmissionFailed, r.message);
        break;
    }
  }
}

void Simulation::OnBound(double now, const ScheduleResult& r) {
  if (elastic_) ElasticBound(now, r.pod);
  PodRun& run = RunOf(r.pod);
  run.node = r.node;
  run.domains.clear();
  for (const DeviceGrant& g : scheduler_->AllocationOf(r.pod).grants) {
    const int domain =
        gpu_domain_[r.node][g.gpu] + (g.instance >= 0 ? g.instance : 0);
    run.domains.push_back(domain);
    ++domains_[domain].holders;
  }
  if (has_dynamic_mig_ && mig_lifecycles_[r.node]) {
    run.mig_created = false;
    for (const DeviceGrant& g : scheduler_->AllocationOf(r.pod).grants) {
      RefreshDynamicMigWeights(r.node, g.gpu);
    }
  }
  const int g = GangOf(r.pod);
  if (g >= 0 && !gangs_[g].admitted) {
    // Coscheduling's Permit: held until minMember of its group are bound.
    GangRun& gang = gangs_[g];
    run.phase = Phase::kPermit;
    ++gang.waiting;
    if (gang.waiting >= gang.min_member) {
      gang.admitted = true;
      ++gang.version;  // the timeout is void
      gang.waiting = 0;
      gang.remaining = gang.work_s - gang.checkpointed;
      gang.last_update = now;
      gang.rate = 0;
      for (PodIndex m : gang.members) {
        if (RunOrGone(m).phase == Phase::kPermit) StartBound(now, m);
      }
    } else if (gang.waiting == 1) {
      events_.Push(now + gang.timeout_s, EventKind::kGangTimeout, g, -1,
                   ++gang.version);
    }
    return;
  }
  StartBound(now, r.pod);
}

}  // namespace gpushare
