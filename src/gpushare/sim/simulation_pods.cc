// Pods of Simulation (simulation.h) from bind to end: starting on their
// execution domains (out-of-memory when the footprint does not fit),
// progress rates recomputed when a domain's residents change, failures and
// restarts in place (CrashLoopBackOff), evictions by preemption and their
// grace period, and the end of a pod (succeeded, deleted, failed for good).

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sim/simulation.h"
#include "gpushare/sim/simulation_internal.h"
#include "gpushare/workload/engine_memory_fraction.h"
#include "gpushare/workload/llm_engine.h"

namespace gpushare {

using simulation_internal::AloneSeconds;
using simulation_internal::FirstOccurrence;
using simulation_internal::InferenceDuty;
using simulation_internal::kInfinity;

void Simulation::StartBound(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  if (has_dynamic_mig_ && mig_lifecycles_[run.node]) {
    // kubelet prepares its claim: the driver makes its MIG instances first.
    if (!run.mig_created) run.mig_ready_s = CreateMigInstances(now, p);
    if (run.mig_ready_s > now) {
      run.phase = Phase::kPreparing;
      events_.Push(run.mig_ready_s, EventKind::kMigInstanceReady, p, -1,
                   ++run.version);
      return;
    }
  }
  const Pod& pod = PodOf(p);
  const Node& node = cluster_->nodes()[run.node];
  const double speed =
      node.model() != nullptr ? node.model()->relative_speed : 1.0;
  if (observer_) {
    observer_->OnStart(now, p, run.node, AloneSeconds(pod.needs, speed));
  }
  StartOrFail(now, p);
}

void Simulation::StartOrFail(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  const Pod& pod = PodOf(p);
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
  const std::string collision = RankCollision(p);
  if (!collision.empty()) {
    Fail(now, p, PodFailure::kStartError, collision);
    return;
  }
  // Memory: the grant's limit, then what is left on the device (time-slicing
  // has no isolation: the pod that allocates last fails). Two replicas of
  // one GPU held by a pod the cluster already runs (exempt above) are one
  // device to its process: its memory and its context are there once.
  const auto& grants = scheduler_->AllocationOf(p).grants;
  auto limit_of = [&](size_t k) {
    return k < grants.size() ? grants[k].memory_mib
                             : domains_[run.domains[k]].info.memory_mib;
  };
  int64_t footprint = pod.needs.gpu_memory_mib;
  if (pod.llm_engine != nullptr && !run.domains.empty()) {
    // An LLM engine pre-allocates its share of the memory it sees (the
    // least of its devices'), then fails at once if no KV block is left.
    int64_t visible = limit_of(0);
    for (size_t k = 1; k < run.domains.size(); ++k) {
      visible = std::min(visible, limit_of(k));
    }
    const LlmEngine& engine = *pod.llm_engine;
    const std::string refusal = TensorParallelRefusal(p);
    if (!refusal.empty()) {
      Fail(now, p, PodFailure::kStartError, refusal);
      return;
    }
    // `auto`: the share its emitted pod patch sets (the class's request
    // over the GPU on a time-sliced pool), else its kind's default.
    double utilization = engine.gpu_memory_utilization;
    if (engine.memory_utilization_auto) {
      const DomainInfo& info = domains_[run.domains[0]].info;
      const bool time_sliced =
          cluster_->pools()[cluster_->nodes()[info.node].pool()]
              .spec.sharing.sharing == DeviceSharing::kTimeSlicing;
      utilization = AutoGpuMemoryUtilization(
          time_sliced, engine.gpu_memory_utilization,
          pod.template_request.set() ? pod.template_request.gpu_memory_mib
                                     : pod.needs.gpu_memory_mib,
          visible);
    }
    footprint = engine.FootprintMib(visible, utilization);
    const int64_t kv_tokens = engine.KvCapacityTokens(visible, utilization);
    run.llm_max_seqs = EngineMaxSeqs(p, kv_tokens);
    run.llm_duty = EngineDuty(pod, run, domains_[run.domains[0]]);
    if (observer_) {
      observer_->OnEngineStart(now, p, kv_tokens, run.llm_max_seqs);
    }
    if (kv_tokens <= 0) {
      Fail(now, p, PodFailure::kOutOfMemory,
           fmt::format("engine failed at start: no available memory for the "
                       "cache blocks ({} MiB pre-allocated of {} MiB seen, "
                       "{:.6g} GiB of weights and {:.6g} GiB reserved)",
                       footprint, visible, engine.weights_gib,
                       engine.activation_reserve_gib));
      return;
    }
  }
  for (size_t k = 0; k < run.domains.size(); ++k) {
    const DomainRun& d = domains_[run.domains[k]];
    if (!FirstOccurrence(run.domains, k)) continue;
    const int64_t limit = limit_of(k);
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
  run.fb_mib = footprint;
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
    domains_[run.domains[k]].fb_used_mib += run.fb_mib;
  }
  if (run.service) {
    events_.Push(now + run.lifetime_left, EventKind::kDeletion, p, -1,
                 run.version);
  }
  if (run.domains.empty()) {
    // A pod without GPUs runs at its reference rate.
    run.rate = 1;
    if (GangOf(p) >= 0) {
      SyncGang(now, GangOf(p));
    } else {
      Reschedule(now, p);
    }
    return;
  }
  for (int d : run.domains) Recompute(now, d);
}

void Simulation::Stop(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  if (!run.resident) return;
  Advance(now, p);
  run.resident = false;
  for (size_t k = 0; k < run.domains.size(); ++k) {
    if (!FirstOccurrence(run.domains, k)) continue;
    DomainRun& dom = domains_[run.domains[k]];
    dom.residents.erase(
        std::find(dom.residents.begin(), dom.residents.end(), p));
    dom.fb_used_mib -= run.fb_mib;
  }
  for (int d : run.domains) Recompute(now, d);
  if (GangOf(p) >= 0) SyncGang(now, GangOf(p));
}

void Simulation::Fail(double now, PodIndex p, PodFailure why,
                      const std::string& message) {
  PodRun& run = RunOf(p);
  const double lost = Interrupt(now, p);
  ++run.version;
  if (observer_) observer_->OnFailure(now, p, why, message, lost);
  if (PodOf(p).restart_policy == RestartPolicy::kNever ||
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
  PodRun& run = RunOf(p);
  const bool was_running = run.resident;
  const int g = GangOf(p);
  int running_members = 0;
  if (g >= 0 && was_running) {
    for (PodIndex m : gangs_[g].members) {
      running_members += RunOrGone(m).resident;
    }
  }
  Stop(now, p);
  if (!was_running || run.service) return 0;
  const Pod& pod = PodOf(p);
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
  PodRun& run = RunOf(p);
  if (run.phase == Phase::kPermit) --gangs_[GangOf(p)].waiting;
  if (run.service && run.resident) {
    run.lifetime_left =
        std::max(0.0, run.lifetime_left - (now - run.started_at));
  }
  const double lost = Interrupt(now, p);
  // Its completion, deletion or restart events are void.
  ++run.version;
  run.phase = Phase::kTerminating;
  if (observer_) observer_->OnPreempted(now, p, preemptor, lost);
  events_.Push(now + PodOf(p).termination_grace_period_s,
               EventKind::kTerminated, p, -1, run.version);
}

void Simulation::Terminated(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  ReleaseDevices(now, p);
  WakeDormantGangs();
  run.domains.clear();
  run.node = -1;
  ++run.version;
  if (run.service && run.lifetime_left <= 0) {
    run.phase = Phase::kDone;
    --active_pods_;
    if (observer_) observer_->OnEnd(now, p, PodEnd::kDeleted, "");
    KueuePodDone(p);
    Ended(p);
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
  scheduler_->Enqueue(p, PodOf(p));
}

void Simulation::Finish(double now, PodIndex p, PodEnd how,
                        const std::string& message) {
  PodRun& run = RunOf(p);
  Stop(now, p);
  if (run.node >= 0 && scheduler_->IsBound(p)) ReleaseDevices(now, p);
  run.phase = Phase::kDone;
  ++run.version;
  --active_pods_;
  if (observer_) observer_->OnEnd(now, p, how, message);
  KueuePodDone(p);
  Ended(p);
  WakeDormantGangs();
  const int g = GangOf(p);
  if (how == PodEnd::kFailed && g >= 0 && gangs_[g].admitted &&
      !gangs_[g].done) {
    FinishGang(now, g, false,
               "PodGroup " + PodOf(p).pod_group + ": member " +
                   PodOf(p).name + " failed");
  }
}

void Simulation::Advance(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  if (!run.service) {
    run.remaining =
        std::max(0.0, run.remaining - run.rate * (now - run.last_update));
  }
  run.last_update = now;
}

void Simulation::Reschedule(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  if (run.service || run.rate <= 0) return;  // services end by deletion
  ++run.version;
  events_.Push(now + run.remaining / run.rate, EventKind::kCompletion, p, -1,
               run.version);
}

std::string Simulation::TensorParallelRefusal(PodIndex p) const {
  const PodRun& run = RunOf(p);
  const int n = PodOf(p).llm_engine->tensor_parallel;
  if (n <= 1) return "";
  for (int d : run.domains) {
    const DomainInfo& info = domains_[d].info;
    if (info.mig_instance < 0) continue;
    // docs/model.md §6.8: no P2P between MIG instances, and a CUDA process
    // enumerates one of them.
    return fmt::format(
        "engine failed at start: tensor_parallel {} across MIG instances "
        "(here {} of GPU {}): MIG instances have no peer-to-peer access and "
        "a CUDA process sees one MIG instance, so the engine cannot start "
        "its {} workers",
        n, info.profile, info.gpu, n);
  }
  if (static_cast<int>(run.domains.size()) != n) {
    return fmt::format(
        "engine failed at start: tensor_parallel {} needs {} GPUs, the pod "
        "holds {}",
        n, n, run.domains.size());
  }
  return "";
}

std::string Simulation::RankCollision(PodIndex p) const {
  const PodRun& run = RunOf(p);
  const Pod& pod = PodOf(p);
  if (pod.running_in_dump) return "";
  for (size_t k = 1; k < run.domains.size(); ++k) {
    if (FirstOccurrence(run.domains, k)) continue;
    const size_t first = static_cast<size_t>(
        std::find(run.domains.begin(), run.domains.end(), run.domains[k]) -
        run.domains.begin());
    const DomainInfo& info = domains_[run.domains[k]].info;
    const std::string device =
        info.mig_instance >= 0
            ? fmt::format("MIG instance {} of GPU {}", info.profile, info.gpu)
            : fmt::format("GPU {}", info.gpu);
    return fmt::format(
        "NCCL error: Duplicate GPU detected : rank {} and rank {} both on {} "
        "of {} (the device plugin gave the pod {} replicas of it; its "
        "container sees the device once)",
        k, first, device, cluster_->nodes()[info.node].name(),
        std::count(run.domains.begin(), run.domains.end(), run.domains[k]));
  }
  return "";
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
    const PodRun& run = RunOf(p);
    const auto& grants = scheduler_->AllocationOf(p).grants;
    for (size_t k = 0; k < run.domains.size() && k < grants.size(); ++k) {
      if (run.domains[k] == domain) return &grants[k];
    }
    return nullptr;
  };
  for (PodIndex p : d.residents) {
    const Pod& pod = PodOf(p);
    Resident r;
    r.duty = ResidentDuty(p);
    r.sm_demand = std::clamp(pod.needs.sm_demand, 0.0, 1.0);
    const DeviceGrant* g = grants_of(p);
    r.cores_percent = g != nullptr ? g->cores_percent : 100;
    scratch_residents_.push_back(r);
  }
  d.model->ComputeRates(d.spec, scratch_residents_, *d.params, &d.rates);
  for (size_t k = 0; k < d.residents.size(); ++k) {
    const PodIndex p = d.residents[k];
    PodRun& run = RunOf(p);
    Advance(now, p);
    for (size_t j = 0; j < run.domains.size(); ++j) {
      if (run.domains[j] == domain) run.domain_rates[j] = d.rates.rates[k];
    }
    run.rate =
        *std::min_element(run.domain_rates.begin(), run.domain_rates.end()) *
        run.comm_factor;
    if (GangOf(p) >= 0) {
      // Its gang's pace may change (SyncGang below).
      const int g = GangOf(p);
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

}  // namespace gpushare
