#include "gpushare/sim/simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/exec/latency_model.h"
#include "gpushare/io/check.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
namespace {

// Whether domains[k] is the first entry of its domain (a pod may hold two
// time-slicing replicas of one GPU).
bool FirstOccurrence(const std::vector<int>& domains, size_t k) {
  return std::find(domains.begin(), domains.begin() + k, domains[k]) ==
         domains.begin() + k;
}

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// A run without a horizon stops with an error after this many samples, the
// most a horizon may make (scenario_reader.cc): pods that run longer would
// grow the samples without bound.
constexpr double kMaxSamplesWithoutHorizon = 1e6;

// Wall seconds of `work_s` alone on a whole GPU of relative speed `speed`:
// the CPU phase (1 − u) is unchanged, the GPU phase u runs `speed` times as
// fast as on the reference GPU.
double AloneSeconds(const PodNeeds& needs, double speed) {
  const double u = std::clamp(needs.duty, 0.0, 1.0);
  return needs.work_s * ((1 - u) + u / speed);
}

// An inference pod's GPU duty follows from its load: λ requests per second
// of gpu_ms_per_request each on the reference GPU (capped at 1); other pods
// keep their own.
double InferenceDuty(const PodNeeds& needs) {
  if (needs.request_rate > 0 && needs.gpu_ms_per_request > 0) {
    return std::min(1.0, needs.request_rate * needs.gpu_ms_per_request / 1000);
  }
  return std::clamp(needs.duty, 0.0, 1.0);
}

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
    if (bound_to == node_index_.end()) {
      PinToTargetPool(pod, pool, *cluster_, cluster_->resources(),
                      scenario_.translation);
    }
  }
  for (SharingScheme s :
       {SharingScheme::kExclusive, SharingScheme::kTimeSlicing,
        SharingScheme::kMps, SharingScheme::kMig, SharingScheme::kHami}) {
    share_models_.push_back(MakeShareModel(s));
  }
  scheduler_ = std::make_unique<Scheduler>(*cluster_, scenario_.scheduler);
  BuildDomains();
  BuildGangs();
  BuildKueueWorkloads();
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

void Simulation::BuildGangs() {
  gang_of_.assign(pods_.size(), -1);
  std::unordered_map<std::string, int> index;
  for (size_t i = 0; i < pods_.size(); ++i) {
    const Pod& pod = pods_[i];
    if (pod.pod_group.empty()) continue;
    auto [it, added] =
        index.emplace(pod.pod_group, static_cast<int>(gangs_.size()));
    if (added) {
      if (pod.needs.work_s <= 0) {
        throw InputError("pod group '" + pod.pod_group +
                         "': gang members must be jobs (work_s > 0)");
      }
      GangRun g;
      g.min_member = pod.gang_min_member;
      g.timeout_s = pod.gang_timeout_s;
      g.work_s = pod.needs.work_s;
      gangs_.push_back(g);
    }
    gang_of_[i] = it->second;
    gangs_[it->second].members.push_back(static_cast<PodIndex>(i));
  }
}

void Simulation::BuildDomains() {
  const auto& nodes = cluster_->nodes();
  gpu_domain_.assign(nodes.size(), {});
  for (size_t n = 0; n < nodes.size(); ++n) {
    const Node& node = nodes[n];
    if (node.model() == nullptr) continue;
    const NodePool& pool = cluster_->pools()[node.pool()];
    const SharingScheme scheme = pool.spec.sharing.scheme();
    const ShareModel* model = share_models_[static_cast<int>(scheme)].get();
    for (int g = 0; g < node.gpus(); ++g) {
      gpu_domain_[n].push_back(static_cast<int>(domains_.size()));
      const bool mig = !pool.mig_layouts.empty();
      const int count = mig ? static_cast<int>(pool.mig_layouts[g].size()) : 1;
      for (int i = 0; i < count; ++i) {
        DomainRun d;
        d.info.node = static_cast<int>(n);
        d.info.gpu = g;
        d.model = model;
        d.spec.speed = node.model()->relative_speed;
        d.info.memory_mib = node.model()->memory_mib;
        d.info.time_shared =
            scheme == SharingScheme::kHami ||
            pool.spec.sharing.sharing == DeviceSharing::kTimeSlicing;
        if (mig) {
          const MigProfile& p =
              node.model()->mig->profiles[pool.mig_layouts[g][i].profile];
          d.info.mig_instance = i;
          d.info.profile = p.name;
          d.info.memory_mib = p.memory_mib;
          d.spec.sm_fraction = static_cast<double>(p.sms) /
                               static_cast<double>(node.model()->sms);
          d.info.gpu_equivalents = d.spec.sm_fraction;
        }
        domains_.push_back(d);
        domain_info_.push_back(d.info);
      }
    }
  }
}

void Simulation::Run(SimulationObserver* observer) {
  observer_ = observer;
  runs_.assign(pods_.size(), PodRun());
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
        Terminated(now, e.a);
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
      case EventKind::kBackoffExpiry:
        backoff_event_s_ = kInfinity;
        scheduler_->ExpireBackoffs();
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
    case EventKind::kBackoffExpiry:
      // Only the one pending at the earliest back-off end is live (an
      // earlier one pushed later replaced it; a copy at the same time
      // found it handled).
      return e.time != backoff_event_s_;
    default:
      return false;
  }
}

void Simulation::SampleLatency(double now) {
  const double switch_ms = scenario_.model.context_switch_us / 1000;
  for (size_t p = 0; p < runs_.size(); ++p) {
    const PodRun& run = runs_[p];
    const Pod& pod = pods_[p];
    if (run.phase != Phase::kRunning || !run.resident ||
        pod.needs.request_rate <= 0 || run.domains.empty()) {
      continue;
    }
    // The slowest of its domains serves its requests.
    LatencyInputs in;
    in.request_rate = pod.needs.request_rate;
    in.gpu_ms_per_request = pod.needs.gpu_ms_per_request;
    in.time_slice_ms = scenario_.model.time_slice_ms;
    in.context_switch_ms = switch_ms;
    const double u = InferenceDuty(pod.needs);
    double worst = -1;
    for (size_t k = 0; k < run.domains.size(); ++k) {
      const DomainRun& d = domains_[run.domains[k]];
      const double g = GpuPhaseSpeed(d.spec.sm_fraction,
                                     std::clamp(pod.needs.sm_demand, 0.0, 1.0));
      const double speed = d.spec.speed * g;
      const double alone = 1 / ((1 - u) + u / speed);
      const double share = std::min(1.0, run.domain_rates[k] / alone);
      int contexts = 1;
      const SharingScheme scheme =
          cluster_->pools()[cluster_->nodes()[d.info.node].pool()]
              .spec.sharing.scheme();
      if (scheme != SharingScheme::kMps) {
        contexts = 0;
        for (PodIndex q : d.residents) {
          contexts += InferenceDuty(pods_[q].needs) > 0 ? 1 : 0;
        }
        contexts = std::max(contexts, 1);
      }
      if (worst < 0 || share * speed < worst) {
        worst = share * speed;
        in.gpu_speed = speed;
        in.time_share = share;
        in.contexts = contexts;
      }
    }
    Latency latency = InferenceLatency(in);
    LatencyInputs alone = in;
    alone.time_share = 1;
    alone.contexts = 1;
    latency.alone_meets_slo =
        MeetsSlo(InferenceLatency(alone), pod.needs.slo_p99_ms);
    observer_->OnLatency(now, static_cast<PodIndex>(p), latency);
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
        run.phase == Phase::kTerminating) {
      return true;
    }
  }
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
        if (observer_) observer_->OnUnschedulable(now, r.pod, r.message);
        for (PodIndex victim : r.victims) Preempted(now, victim, r.pod);
        break;
      case ScheduleResult::Outcome::kAdmissionFailed:
        Finish(now, r.pod, PodEnd::kAdmissionFailed, r.message);
        break;
    }
  }
}

void Simulation::OnBound(double now, const ScheduleResult& r) {
  PodRun& run = runs_[r.pod];
  run.node = r.node;
  run.domains.clear();
  for (const DeviceGrant& g : scheduler_->AllocationOf(r.pod).grants) {
    const int domain =
        gpu_domain_[r.node][g.gpu] + (g.instance >= 0 ? g.instance : 0);
    run.domains.push_back(domain);
    ++domains_[domain].holders;
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

void Simulation::StartBound(double now, PodIndex p) {
  const PodRun& run = runs_[p];
  const Pod& pod = pods_[p];
  const Node& node = cluster_->nodes()[run.node];
  const double speed =
      node.model() != nullptr ? node.model()->relative_speed : 1.0;
  if (observer_) {
    observer_->OnStart(now, p, run.node, AloneSeconds(pod.needs, speed));
  }
  StartOrFail(now, p);
}

void Simulation::SyncGang(double now, int g) {
  GangRun& gang = gangs_[g];
  if (!gang.admitted || gang.done) return;
  gang.remaining =
      std::max(0.0, gang.remaining - gang.rate * (now - gang.last_update));
  gang.last_update = now;
  int running = 0;
  double rate = kInfinity;
  for (PodIndex m : gang.members) {
    const PodRun& run = runs_[m];
    if (run.phase != Phase::kRunning || !run.resident) continue;
    ++running;
    rate = std::min(rate, run.rate);
  }
  // A synchronous job: no progress unless minMember members run, then at
  // the pace of the slowest.
  gang.rate = running >= gang.min_member ? rate : 0;
  ++gang.version;
  if (gang.rate > 0) {
    events_.Push(now + gang.remaining / gang.rate, EventKind::kGangCompletion,
                 g, -1, gang.version);
  }
}

void Simulation::GangTimeout(double now, int g) {
  GangRun& gang = gangs_[g];
  if (gang.admitted) return;
  gang.waiting = 0;
  for (PodIndex m : gang.members) {
    PodRun& run = runs_[m];
    if (run.phase != Phase::kPermit) continue;
    for (int d : run.domains) --domains_[d].holders;
    scheduler_->Release(m);
    run.domains.clear();
    run.node = -1;
    run.phase = Phase::kGangDormant;
    if (observer_) observer_->OnGangTimeout(now, m);
  }
  dormant_gangs_.push_back(g);
}

void Simulation::WakeDormantGangs() {
  if (dormant_gangs_.empty()) return;
  std::vector<int> gangs;
  gangs.swap(dormant_gangs_);
  for (int g : gangs) {
    for (PodIndex m : gangs_[g].members) {
      if (runs_[m].phase != Phase::kGangDormant) continue;
      runs_[m].phase = Phase::kPending;
      scheduler_->Enqueue(m, pods_[m]);
    }
  }
}

void Simulation::FinishGang(double now, int g, bool succeeded,
                            const std::string& message) {
  GangRun& gang = gangs_[g];
  gang.done = true;
  // Done, or failed: the job's controller ends every member still there.
  const PodEnd others = succeeded ? PodEnd::kDeleted : PodEnd::kFailed;
  for (PodIndex m : gang.members) {
    PodRun& run = runs_[m];
    switch (run.phase) {
      case Phase::kRunning:
      case Phase::kBackoff:
        run.remaining = 0;
        Finish(now, m, succeeded ? PodEnd::kSucceeded : PodEnd::kFailed,
               message);
        break;
      case Phase::kPending:
        scheduler_->Forget(m);
        Finish(now, m, others, message);
        break;
      case Phase::kTerminating:
      case Phase::kPermit:
      case Phase::kGangDormant:
        Finish(now, m, others, message);
        break;
      default:
        break;
    }
  }
}

void Simulation::StartOrFail(double now, PodIndex p) {
  PodRun& run = runs_[p];
  const Pod& pod = pods_[p];
  // A restart on a GPU that is still down waits for its recovery.
  double ready = now;
  for (int d : run.domains) ready = std::max(ready, domains_[d].down_until);
  for (int d : run.domains) {
    if (domains_[d].layout_lost && ready <= now) {
      // kubelet cannot create its container: the MIG device it was given no
      // longer exists (CreateContainerError); it never runs again.
      const DomainInfo& info = domains_[d].info;
      Finish(now, p, PodEnd::kFailed,
             fmt::format("MIG device {} on {} GPU {} no longer exists (a GPU "
                         "reset destroyed its instances)",
                         info.profile, cluster_->nodes()[info.node].name(),
                         info.gpu));
      return;
    }
  }
  if (ready > now) {
    run.phase = Phase::kBackoff;
    events_.Push(ready, EventKind::kRestart, p, -1, ++run.version);
    return;
  }
  // Memory: the grant's limit, then what is left on the device (time-slicing
  // has no isolation: the pod that allocates last fails). Two replicas of
  // one GPU (the device plugin may hand out both) are one device to the
  // pod's process: its memory and its context are there once.
  const int64_t footprint = pod.needs.gpu_memory_mib;
  const auto& grants = scheduler_->AllocationOf(p).grants;
  for (size_t k = 0; k < run.domains.size(); ++k) {
    const DomainRun& d = domains_[run.domains[k]];
    if (!FirstOccurrence(run.domains, k)) continue;
    const int64_t limit =
        k < grants.size() ? grants[k].memory_mib : d.info.memory_mib;
    if (footprint > limit) {
      Fail(now, p, PodFailure::kOutOfMemory,
           fmt::format("CUDA out of memory: footprint {} MiB over its limit of "
                       "{} MiB",
                       footprint, limit));
      return;
    }
    if (d.fb_used_mib + footprint > d.info.memory_mib) {
      Fail(now, p, PodFailure::kOutOfMemory,
           fmt::format("CUDA out of memory: {} MiB in use of {} MiB, "
                       "allocating {} MiB (no memory isolation)",
                       d.fb_used_mib, d.info.memory_mib, footprint));
      return;
    }
  }
  run.phase = Phase::kRunning;
  run.resident = true;
  run.remaining = run.service ? kInfinity : pod.needs.work_s - run.checkpointed;
  run.last_update = now;
  run.started_at = now;
  run.rate = 0;
  run.domain_rates.assign(run.domains.size(), 1.0);
  run.comm_factor = MigCommFactor(run.domains);
  ++run.version;
  for (size_t k = 0; k < run.domains.size(); ++k) {
    if (!FirstOccurrence(run.domains, k)) continue;
    domains_[run.domains[k]].residents.push_back(p);
    domains_[run.domains[k]].fb_used_mib += footprint;
  }
  if (run.service) {
    events_.Push(now + run.lifetime_left, EventKind::kDeletion, p, -1,
                 run.version);
  }
  if (run.domains.empty()) {
    // A pod without GPUs runs at its reference rate.
    run.rate = 1;
    if (gang_of_[p] >= 0) {
      SyncGang(now, gang_of_[p]);
    } else {
      Reschedule(now, p);
    }
    return;
  }
  for (int d : run.domains) Recompute(now, d);
}

void Simulation::Stop(double now, PodIndex p) {
  PodRun& run = runs_[p];
  if (!run.resident) return;
  Advance(now, p);
  run.resident = false;
  for (size_t k = 0; k < run.domains.size(); ++k) {
    if (!FirstOccurrence(run.domains, k)) continue;
    DomainRun& dom = domains_[run.domains[k]];
    dom.residents.erase(
        std::find(dom.residents.begin(), dom.residents.end(), p));
    dom.fb_used_mib -= pods_[p].needs.gpu_memory_mib;
  }
  for (int d : run.domains) Recompute(now, d);
  if (gang_of_[p] >= 0) SyncGang(now, gang_of_[p]);
}

void Simulation::Fail(double now, PodIndex p, PodFailure why,
                      const std::string& message) {
  PodRun& run = runs_[p];
  const double lost = Interrupt(now, p);
  ++run.version;
  if (observer_) observer_->OnFailure(now, p, why, message, lost);
  if (pods_[p].restart_policy == RestartPolicy::kNever ||
      run.restarts >= scenario_.model.max_restarts) {
    Finish(now, p, PodEnd::kFailed, message);
    return;
  }
  const double backoff = std::min(
      scenario_.model.restart_backoff_max_s,
      scenario_.model.restart_backoff_initial_s * std::pow(2.0, run.restarts));
  ++run.restarts;
  run.phase = Phase::kBackoff;
  events_.Push(now + backoff, EventKind::kRestart, p, -1, run.version);
}

double Simulation::Interrupt(double now, PodIndex p) {
  PodRun& run = runs_[p];
  const bool was_running = run.resident;
  const int g = gang_of_[p];
  int running_members = 0;
  if (g >= 0 && was_running) {
    for (PodIndex m : gangs_[g].members) running_members += runs_[m].resident;
  }
  Stop(now, p);
  if (!was_running || run.service) return 0;
  const Pod& pod = pods_[p];
  const double interval = pod.checkpoint_interval_s;
  if (g >= 0) {
    // The whole job goes back to its last checkpoint; every member that
    // was running loses that work.
    GangRun& gang = gangs_[g];
    if (!gang.admitted || gang.done) return 0;
    const double progress = gang.work_s - gang.remaining;
    if (interval > 0) {
      gang.checkpointed = std::max(gang.checkpointed,
                                   std::floor(progress / interval) * interval);
    }
    const double lost = std::max(0.0, progress - gang.checkpointed);
    gang.remaining = gang.work_s - gang.checkpointed;
    SyncGang(now, g);
    return lost * running_members;
  }
  const double progress = pod.needs.work_s - run.remaining;
  if (interval > 0) {
    run.checkpointed =
        std::max(run.checkpointed, std::floor(progress / interval) * interval);
  }
  return std::max(0.0, progress - run.checkpointed);
}

void Simulation::Preempted(double now, PodIndex p, PodIndex preemptor) {
  PodRun& run = runs_[p];
  if (run.phase == Phase::kPermit) --gangs_[gang_of_[p]].waiting;
  if (run.service && run.resident) {
    run.lifetime_left =
        std::max(0.0, run.lifetime_left - (now - run.started_at));
  }
  const double lost = Interrupt(now, p);
  // Its completion, deletion or restart events are void.
  ++run.version;
  run.phase = Phase::kTerminating;
  if (observer_) observer_->OnPreempted(now, p, preemptor, lost);
  events_.Push(now + pods_[p].termination_grace_period_s,
               EventKind::kTerminated, p, -1, run.version);
}

void Simulation::Terminated(double now, PodIndex p) {
  PodRun& run = runs_[p];
  for (int d : run.domains) --domains_[d].holders;
  scheduler_->Release(p);
  WakeDormantGangs();
  run.domains.clear();
  run.node = -1;
  ++run.version;
  if (run.service && run.lifetime_left <= 0) {
    run.phase = Phase::kDone;
    --active_pods_;
    if (observer_) observer_->OnEnd(now, p, PodEnd::kDeleted, "");
    KueuePodDone(p);
    return;
  }
  if (run.kueue_evicted) {
    // Kueue suspended its workload: it waits for admission again.
    if (observer_) observer_->OnRequeued(now, p);
    KueueEvictedPodGone(p);
    return;
  }
  // Its controller (Job, Deployment) creates it again: it waits anew.
  run.phase = Phase::kPending;
  if (observer_) observer_->OnRequeued(now, p);
  scheduler_->Enqueue(p, pods_[p]);
}

void Simulation::Finish(double now, PodIndex p, PodEnd how,
                        const std::string& message) {
  PodRun& run = runs_[p];
  Stop(now, p);
  if (run.node >= 0 && scheduler_->IsBound(p)) {
    for (int d : run.domains) --domains_[d].holders;
    scheduler_->Release(p);
  }
  run.phase = Phase::kDone;
  ++run.version;
  --active_pods_;
  if (observer_) observer_->OnEnd(now, p, how, message);
  KueuePodDone(p);
  WakeDormantGangs();
  const int g = gang_of_.empty() ? -1 : gang_of_[p];
  if (how == PodEnd::kFailed && g >= 0 && gangs_[g].admitted &&
      !gangs_[g].done) {
    FinishGang(now, g, false,
               "PodGroup " + pods_[p].pod_group + ": member " + pods_[p].name +
                   " failed");
  }
}

void Simulation::Advance(double now, PodIndex p) {
  PodRun& run = runs_[p];
  if (!run.service) {
    run.remaining =
        std::max(0.0, run.remaining - run.rate * (now - run.last_update));
  }
  run.last_update = now;
}

void Simulation::Reschedule(double now, PodIndex p) {
  PodRun& run = runs_[p];
  if (run.service || run.rate <= 0) return;  // services end by deletion
  ++run.version;
  events_.Push(now + run.remaining / run.rate, EventKind::kCompletion, p, -1,
               run.version);
}

double Simulation::MigCommFactor(const std::vector<int>& domains) const {
  int instances = 0;
  for (size_t k = 0; k < domains.size(); ++k) {
    if (FirstOccurrence(domains, k) &&
        domains_[domains[k]].info.mig_instance >= 0) {
      ++instances;
    }
  }
  if (instances < 2) return 1;
  const ModelParams& m = scenario_.model;
  return 1.0 / (1.0 + m.multi_gpu_comm_share * (m.mig_comm_slowdown - 1.0));
}

void Simulation::Recompute(double now, int domain) {
  DomainRun& d = domains_[domain];
  scratch_residents_.clear();
  const auto& grants_of = [&](PodIndex p) -> const DeviceGrant* {
    const PodRun& run = runs_[p];
    const auto& grants = scheduler_->AllocationOf(p).grants;
    for (size_t k = 0; k < run.domains.size() && k < grants.size(); ++k) {
      if (run.domains[k] == domain) return &grants[k];
    }
    return nullptr;
  };
  for (PodIndex p : d.residents) {
    const Pod& pod = pods_[p];
    Resident r;
    r.duty = InferenceDuty(pod.needs);
    r.sm_demand = std::clamp(pod.needs.sm_demand, 0.0, 1.0);
    const DeviceGrant* g = grants_of(p);
    r.cores_percent = g != nullptr ? g->cores_percent : 100;
    scratch_residents_.push_back(r);
  }
  d.model->ComputeRates(d.spec, scratch_residents_, scenario_.model, &d.rates);
  for (size_t k = 0; k < d.residents.size(); ++k) {
    const PodIndex p = d.residents[k];
    PodRun& run = runs_[p];
    Advance(now, p);
    for (size_t j = 0; j < run.domains.size(); ++j) {
      if (run.domains[j] == domain) run.domain_rates[j] = d.rates.rates[k];
    }
    run.rate =
        *std::min_element(run.domain_rates.begin(), run.domain_rates.end()) *
        run.comm_factor;
    if (gang_of_[p] >= 0) {
      // Its gang's pace may change (SyncGang below).
      const int g = gang_of_[p];
      if (std::find(dirty_gangs_.begin(), dirty_gangs_.end(), g) ==
          dirty_gangs_.end()) {
        dirty_gangs_.push_back(g);
      }
    } else if (!run.service) {
      ++run.version;
      if (run.rate > 0) {
        events_.Push(now + run.remaining / run.rate, EventKind::kCompletion, p,
                     -1, run.version);
      }
    }
  }
  if (!dirty_gangs_.empty()) {
    std::vector<int> gangs;
    gangs.swap(dirty_gangs_);
    for (int g : gangs) SyncGang(now, g);
  }
}

void Simulation::Fault(double now, int domain, int spec_index) {
  const FaultSpec& spec = scenario_.faults[spec_index];
  // The process goes on while there is work this fault did not create: its
  // own recovery must not keep it alive, or pods that can never fit (a gang
  // larger than its pool) would see faults for ever.
  const bool more_faults = spec.at_s < 0 && WorkLeft();
  // Candidate domains: the pool's (and node's, GPU's) domains.
  std::vector<int> candidates;
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainInfo& info = domains_[i].info;
    const Node& node = cluster_->nodes()[info.node];
    const NodePool& pool = cluster_->pools()[node.pool()];
    if (!spec.pool.empty() && pool.spec.name != spec.pool) continue;
    if (spec.node >= 0 && info.node != pool.first_node + spec.node) continue;
    if (spec.gpu >= 0 && info.gpu != spec.gpu) continue;
    if (domains_[i].layout_lost) continue;  // no instance there to fail
    candidates.push_back(static_cast<int>(i));
  }
  if (domain < 0 && !candidates.empty()) {
    domain = candidates[rng_.Below(candidates.size())];
  }
  if (domain >= 0 && spec.reset) {
    ResetGpu(now, domain, spec);
  } else if (domain >= 0) {
    // Without MIG the whole GPU is one domain; with MIG the fault stays in
    // the instance drawn.
    DomainRun& d = domains_[domain];
    // The device plugin reports the device Unhealthy first, so that nothing
    // freed by the victims lands on it.
    SetHealthy(domain, false);
    const std::vector<PodIndex> victims = d.residents;
    for (PodIndex p : victims) {
      Fail(now, p, PodFailure::kGpuFault,
           fmt::format("GPU fault (Xid) on {} GPU {}{}",
                       cluster_->nodes()[d.info.node].name(), d.info.gpu,
                       d.info.mig_instance >= 0
                           ? fmt::format(" MIG {}", d.info.profile)
                           : ""));
    }
    d.down_until = now + spec.recovery_s;
    ++changes_due_;
    events_.Push(d.down_until, EventKind::kRecovery, domain);
    if (observer_) {
      observer_->OnFault(now, domain, static_cast<int>(victims.size()));
    }
  }
  if (more_faults) ScheduleNextFault(now, spec_index);
}

std::pair<int, int> Simulation::GpuDomains(int domain) const {
  const DomainInfo& info = domains_[domain].info;
  const int first = gpu_domain_[info.node][info.gpu];
  int end = first + 1;
  while (end < static_cast<int>(domains_.size()) &&
         domains_[end].info.node == info.node &&
         domains_[end].info.gpu == info.gpu) {
    ++end;
  }
  return {first, end};
}

void Simulation::ResetGpu(double now, int domain, const FaultSpec& spec) {
  const auto [first, end] = GpuDomains(domain);
  const DomainInfo& info = domains_[domain].info;
  std::vector<PodIndex> victims;
  for (int i = first; i < end; ++i) {
    SetHealthy(i, false);
    for (PodIndex p : domains_[i].residents) {
      // A pod on several instances of the GPU dies once.
      if (std::find(victims.begin(), victims.end(), p) == victims.end()) {
        victims.push_back(p);
      }
    }
  }
  const std::string message =
      fmt::format("GPU fault (Xid) on {} GPU {}, recovered by a GPU reset",
                  cluster_->nodes()[info.node].name(), info.gpu);
  for (PodIndex p : victims) Fail(now, p, PodFailure::kGpuFault, message);
  for (int i = first; i < end; ++i) {
    DomainRun& d = domains_[i];
    d.down_until = now + spec.recovery_s;
    if (d.info.mig_instance >= 0) {
      // GPU and compute instances do not survive a reset.
      d.layout_lost = true;
      d.mig_reapply_s = spec.mig_reapply_s;
    }
    ++changes_due_;
    events_.Push(d.down_until, EventKind::kRecovery, i);
  }
  if (observer_) {
    observer_->OnFault(now, domain, static_cast<int>(victims.size()));
  }
}

void Simulation::Recover(double now, int domain) {
  DomainRun& d = domains_[domain];
  // A later fault of the same domain keeps it down longer.
  if (d.down_until > now) return;
  d.down_until = -1;
  if (!d.layout_lost) {
    SetHealthy(domain, true);
    return;
  }
  // Back from a reset without its instances: mig-manager starts recreating
  // the layout `mig_reapply_s` later (or never), which takes
  // `mig_reconfigure_s`.
  if (d.mig_reapply_s >= 0 && GpuDomains(domain).first == domain) {
    ++changes_due_;
    events_.Push(now + d.mig_reapply_s + scenario_.model.mig_reconfigure_s,
                 EventKind::kMigReapply, domain);
  }
}

void Simulation::ReapplyMigLayout(double now, int first) {
  const auto [begin, end] = GpuDomains(first);
  for (int i = begin; i < end; ++i) {
    DomainRun& d = domains_[i];
    if (!d.layout_lost) continue;
    d.layout_lost = false;
    d.mig_reapply_s = -1;
    // A reset during the wait keeps the GPU down: its recovery follows.
    if (d.down_until <= now) SetHealthy(i, true);
  }
}

void Simulation::StallDevicePlugin(int node, bool stalled) {
  const bool was_registered = stalls_[node] == 0;
  stalls_[node] += stalled ? 1 : -1;
  const bool registered = stalls_[node] == 0;
  if (registered == was_registered) return;
  cluster_->nodes()[node].SetDevicePluginRegistered(registered);
  scheduler_->DevicesChanged(node, registered);
}

void Simulation::SetHealthy(int domain, bool healthy) {
  const DomainInfo& info = domains_[domain].info;
  DevicePlugin* devices = cluster_->nodes()[info.node].devices();
  if (devices == nullptr) return;
  devices->SetHealthy(info.gpu, info.mig_instance, healthy);
  scheduler_->DevicesChanged(info.node, healthy);
}

void Simulation::ScheduleNextFault(double now, int spec_index) {
  // Faults at a rate per GPU form a Poisson process over the pool's GPUs.
  const FaultSpec& spec = scenario_.faults[spec_index];
  if (spec.rate_per_gpu_hour <= 0) return;
  int gpus = 0;
  for (const NodePool& p : cluster_->pools()) {
    if (spec.pool.empty() || p.spec.name == spec.pool) {
      gpus += p.node_count * p.spec.gpus_per_node;
    }
  }
  const double rate = spec.rate_per_gpu_hour * gpus / 3600.0;
  if (rate <= 0) return;
  events_.Push(now - std::log(1 - rng_.Uniform01()) / rate, EventKind::kFault,
               -1, spec_index);
}

void Simulation::Sample(double now) {
  if (observer_ == nullptr) return;
  std::vector<DomainState> states(domains_.size());
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainRun& d = domains_[i];
    DomainState& s = states[i];
    s.residents = static_cast<int>(d.residents.size());
    s.gpu_util = d.residents.empty() ? 0 : d.rates.gpu_util;
    // DCGM reports a MIG instance's SM activity against its own SMs; the
    // share models give it against the whole GPU's.
    s.sm_active =
        d.residents.empty() ? 0 : d.rates.sm_active / d.spec.sm_fraction;
    s.fb_used_mib = d.fb_used_mib;
    s.allocated = d.holders > 0;
    s.down = d.down_until > now;
    s.mig_config_drift = d.layout_lost && !s.down;
  }
  int pending = 0;
  for (const PodRun& run : runs_) {
    pending += run.phase == Phase::kPending || run.phase == Phase::kPermit ||
               run.phase == Phase::kGangDormant || run.phase == Phase::kQueued;
  }
  observer_->OnSample(now, states, pending);
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainRun& d = domains_[i];
    if (!d.info.time_shared) continue;
    for (size_t k = 0; k < d.residents.size() && k < d.rates.time_shares.size();
         ++k) {
      observer_->OnPodShare(now, d.residents[k], static_cast<int>(i),
                            d.rates.time_shares[k]);
    }
  }
  SampleLatency(now);
}

}  // namespace gpushare
