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
  pods_ = BuildWorkload(scenario_.workload, scenario_.seed);
  for (size_t n = 0; n < cluster_->nodes().size(); ++n) {
    node_index_.emplace(cluster_->nodes()[n].name(), static_cast<int>(n));
  }
  target_pool_.resize(pods_.size(), -1);
  untranslatable_.resize(pods_.size());
  for (size_t i = 0; i < pods_.size(); ++i) {
    Pod& pod = pods_[i];
    auto bound_to = pod.node_name.empty() ? node_index_.end()
                                          : node_index_.find(pod.node_name);
    const int pool = bound_to != node_index_.end()
                         ? cluster_->nodes()[bound_to->second].pool()
                         : TargetPool(pod, *cluster_);
    target_pool_[i] = pool;
    if (pool < 0) {
      pod.requests.Set(ResourceRegistry::kCpuId, pod.cpu_milli);
      pod.requests.Set(ResourceRegistry::kMemoryId, pod.memory_mib);
      untranslatable_[i] =
          "no node pool admits it (node selector, affinity or taints)";
      continue;
    }
    untranslatable_[i] =
        TranslateRequests(pod, cluster_->pools()[pool], cluster_->resources(),
                          scenario_.translation);
    if (!pod.dra_unallocatable.empty()) {
      // Every node's DynamicResources Filter fails it (FitError's words).
      const size_t n = cluster_->nodes().size();
      untranslatable_[i] = fmt::format("0/{} nodes are available: {} {}.", n,
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
    if (!pod.dra_claim.empty()) NoteSharedClaim(pod, pool);
  }
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
        SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami}) {
    share_models_.push_back(MakeShareModel(s));
  }
  scheduler_ = std::make_unique<Scheduler>(*cluster_, scenario_.scheduler);
  scheduler_->OmitUnchangedMessages();  // Schedule() keeps what it needs
  BuildDomains();
  BuildGangs();
  BuildKueueWorkloads();
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

void Simulation::NoteSharedClaim(Pod& pod, int pool) {
  const NodePoolSpec& spec = cluster_->pools()[pool].spec;
  if (spec.devices != PoolDevices::kDra || spec.dra.extended_resource ||
      spec.sharing.mig_enabled || pod.requests.items().empty() ||
      pod.requests.items().back().first <= ResourceRegistry::kMemoryId) {
    // A variant of compare or plan moved the pool off DRA whole GPUs (the
    // scenario as written was checked at load): the pod asks for its own.
    pod.dra_claim.clear();
    return;
  }
  shared_claim_pools_.resize(cluster_->pools().size(), 0);
  shared_claim_pools_[static_cast<size_t>(pool)] = 1;
}

void Simulation::Run(SimulationObserver* observer) {
  observer_ = observer;
  runs_.assign(pods_.size(), PodRun());
  llm_memos_.clear();
  if (observer_) observer_->OnRunStart(*cluster_, pods_, domain_info_);
  for (size_t i = 0; i < pods_.size(); ++i) {
    events_.Push(pods_[i].arrival_s, EventKind::kArrival, static_cast<int>(i));
  }
  arrivals_left_ = static_cast<int64_t>(pods_.size());
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
  while (!events_.empty()) {
    const Event e = events_.Pop();
    if (e.time > horizon) {
      now = horizon;
      break;
    }
    // An event a later one replaced (a completion or deletion predicted
    // before the pod's rate or run changed, a gang's void timeout) does
    // nothing: it neither counts nor moves the clock, so the run ends at
    // its last real event.
    if (Stale(e)) continue;
    now = e.time;
    clock_ = now;
    ++event_count_;
    scheduler_->SetTime(now);
    switch (e.kind) {
      case EventKind::kArrival: {
        --arrivals_left_;
        ++active_pods_;
        PodRun& run = runs_[e.a];
        const Pod& pod = pods_[e.a];
        run.service = pod.needs.work_s <= 0 && pod.needs.lifetime_s > 0;
        run.lifetime_left = pod.needs.lifetime_s;
        if (observer_) observer_->OnArrival(now, e.a);
        if (!untranslatable_[e.a].empty()) {
          Finish(now, e.a, PodEnd::kUnschedulable, untranslatable_[e.a]);
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
        PodRun& run = runs_[e.a];
        if (run.phase != Phase::kRunning || run.version != e.version) break;
        // Work conservation: the pod did exactly the work it asked for.
        Advance(now, e.a);
        GS_CHECK(run.remaining <= 1e-6 * std::max(1.0, pods_[e.a].needs.work_s),
                 "a pod completed with work left");
        Finish(now, e.a, PodEnd::kSucceeded, "");
        Schedule(now);
        break;
      }
      case EventKind::kDeletion: {
        PodRun& run = runs_[e.a];
        if (run.phase == Phase::kDone || run.version != e.version) break;
        Finish(now, e.a, PodEnd::kDeleted, "");
        Schedule(now);
        break;
      }
      case EventKind::kRestart: {
        PodRun& run = runs_[e.a];
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
        PodRun& run = runs_[e.a];
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
  for (size_t p = 0; p < runs_.size(); ++p) {
    if (runs_[p].phase == Phase::kRunning) Advance(now, static_cast<int>(p));
  }
  if (elastic_) FinishElastic(now);
  if (observer_) observer_->OnFinish(now, event_count_, scheduler_->cycles());
}

bool Simulation::Stale(const Event& e) const {
  switch (e.kind) {
    case EventKind::kCompletion:
      return runs_[e.a].phase != Phase::kRunning ||
             runs_[e.a].version != e.version;
    case EventKind::kDeletion:
      return runs_[e.a].phase == Phase::kDone ||
             runs_[e.a].version != e.version;
    case EventKind::kGangTimeout:
      return gangs_[e.a].version != e.version;
    case EventKind::kGangCompletion:
      return gangs_[e.a].done || gangs_[e.a].version != e.version;
    case EventKind::kMigInstanceReady:
      return runs_[e.a].phase != Phase::kPreparing ||
             runs_[e.a].version != e.version;
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
  if (arrivals_left_ > 0) return true;
  // Pods that can still make progress (running, or in back-off). Pending
  // pods only move when something else happens (a GPU recovers, a device
  // plugin registers again), so they alone do not keep the sampler going
  // without a horizon.
  if (changes_due_ > 0 && active_pods_ > 0) return true;
  for (const PodRun& run : runs_) {
    if (run.phase == Phase::kRunning || run.phase == Phase::kBackoff ||
        run.phase == Phase::kTerminating || run.phase == Phase::kPreparing) {
      return true;
    }
  }
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
        if (observer_ && gang_of_[r.pod] < 0) {
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
  PodRun& run = runs_[r.pod];
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
  const int g = gang_of_[r.pod];
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
        if (runs_[m].phase == Phase::kPermit) StartBound(now, m);
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
