// Simulation's side of Kueue and KAI-Scheduler's queues (docs/model.md
// §4.3): workloads are created when their pods arrive, wait in their queue
// (a ClusterQueue or a KAI leaf queue), and reach kube-scheduler only once
// admitted.

#include <fmt/format.h>

#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/io/input_error.h"
#include "gpushare/sched/kai/kai_queues.h"
#include "gpushare/sched/kueue/kueue.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {
namespace {

// Whether some node of pool `pool` carries all of `labels` and the pod's
// own selector agrees with them.
bool FlavorFits(const Cluster& cluster, int pool, const Labels& labels,
                const Labels& selector) {
  for (const auto& [key, value] : labels) {
    auto it = selector.find(key);
    if (it != selector.end() && it->second != value) return false;
  }
  const NodePool& p = cluster.pools()[pool];
  for (int n = p.first_node; n < p.first_node + p.node_count; ++n) {
    if (MatchesSelector(labels, cluster.nodes()[n].labels())) return true;
  }
  return false;
}

// What a pod's requests count against Kueue's quota: as they are, except
// that a DRA claim's devices (the bookkeeping name of their DeviceClass,
// kDraClassResourcePrefix) count under the resource its DeviceClass
// mapping names, one per device (kubernetes-sigs/kueue pkg/dra/claims.go,
// GetResourceRequestsForResourceClaimTemplates). A class no mapping names is
// refused as Kueue refuses the workload ("DeviceClass ... is not mapped in
// DRA configuration"), and so is a pod that shares a claim by name.
void AddKueueQuotaRequests(const Pod& pod, const KueueConfig& config,
                           ResourceRegistry& registry, ResourceList* out) {
  // Kueue marks a workload whose pods name a ResourceClaim (not a template)
  // inadmissible (pkg/controller/core/workload_controller.go handleDRA,
  // workload.HasResourceClaim): it would never run.
  if (!pod.dra_claim.empty()) {
    throw InputError(fmt::format(
        "class '{}': its pods share ResourceClaims by name "
        "(dra_claim.pods_per_claim > 1), which Kueue does not admit "
        "(Kueue: \"KueueDRAIntegration feature does not support use of "
        "resource claims\"; it would leave them pending for ever): use a "
        "claim per pod (pods_per_claim: 1) or a class outside Kueue",
        pod.tenant_class));
  }
  for (const auto& [id, quantity] : pod.requests.items()) {
    // The MiB a memory-mode claim asks are the simulator's bookkeeping of
    // the device's capacity, not a resource the pod requests: Kueue counts
    // the claim's devices (capacity-based quota is not modelled).
    if (registry.Name(id) == kDraMemoryResource) continue;
    if (registry.KindOf(id) != ResourceRegistry::Kind::kDraClassKind) {
      out->Add(id, quantity);
      continue;
    }
    const std::string device_class =
        registry.Name(id).substr(kDraClassResourcePrefix.size());
    const DeviceClassMappingSpec* found = config.MappingOf(device_class);
    if (found == nullptr) {
      throw InputError(fmt::format(
          "class '{}': its pods claim devices of DeviceClass {} through DRA, "
          "which no entry of queues.device_class_mappings maps to a quota "
          "resource (Kueue: \"DeviceClass {} is not mapped in DRA "
          "configuration\"; it would leave them pending for ever)",
          pod.tenant_class, device_class, device_class));
    }
    out->Add(registry.Intern(found->name), quantity);
  }
}

}  // namespace

void Simulation::MakeQueueAdmission() {
  if (scenario_.queues.enabled()) {
    kueue_ = std::make_unique<Kueue>(scenario_.queues, cluster_->resources());
  } else if (scenario_.kai_queues.enabled()) {
    // KAI divides the GPU units its nodes advertise.
    int64_t units = 0;
    const ResourceRegistry& registry = cluster_->resources();
    for (const Node& node : cluster_->nodes()) {
      for (const auto& [id, quantity] : node.extended().items()) {
        units += GpuUnitsOf(registry.Name(id)) * quantity;
      }
    }
    kueue_ = std::make_unique<KaiQueues>(scenario_.kai_queues, registry, units);
  }
}

void Simulation::AddToKueueWorkload(PodIndex i, const LivePod& live,
                                    std::vector<std::string>* first_class) {
  const Pod& pod = live.pod;
  if (pod.queue_name.empty() || !live.untranslatable.empty()) return;
  const int cq = kueue_->QueueOf(pod.namespace_name, pod.queue_name);
  if (cq < 0 && scenario_.kai_queues.enabled()) {
    throw InputError(fmt::format(
        "pod {} names queue '{}' (label {}), which is not a leaf queue of "
        "kai_queues",
        pod.name, pod.queue_name, kKaiQueueLabel));
  }
  if (cq < 0) {
    throw InputError(fmt::format(
        "pod {} names LocalQueue '{}' (label {}), which namespace '{}' "
        "does not have",
        pod.name, pod.queue_name, kKueueQueueNameLabel, pod.namespace_name));
  }
  if (kueue_workload_of_.empty()) {
    kueue_workload_of_.assign(static_cast<size_t>(pod_total_), -1);
  }
  const int g = GangOf(i);
  if (g >= 0 && kueue_workload_of_gang_.size() < gangs_.size()) {
    kueue_workload_of_gang_.resize(gangs_.size(), -1);
  }
  int w = g >= 0 ? kueue_workload_of_gang_[static_cast<size_t>(g)] : -1;
  if (w < 0) {
    w = static_cast<int>(kueue_workloads_.size());
    kueue_workloads_.emplace_back();
    first_class->push_back(pod.tenant_class);
    KueueWorkloadRun& run = kueue_workloads_.back();
    run.spec.queue = cq;
    run.spec.priority = pod.priority;
    run.base_selector = pod.node_selector;
    run.spec.flavor_ok.resize(kueue_->flavor_count());
    for (int f = 0; f < kueue_->flavor_count(); ++f) {
      run.spec.flavor_ok[f] =
          FlavorFits(*cluster_, live.target_pool,
                     kueue_->flavor_node_labels(f), pod.node_selector);
    }
    if (g >= 0) kueue_workload_of_gang_[static_cast<size_t>(g)] = w;
  }
  KueueWorkloadRun& run = kueue_workloads_[w];
  run.pods.push_back(i);
  ++run.arrivals_left;
  ++run.live;
  if (scenario_.queues.enabled()) {
    AddKueueQuotaRequests(pod, scenario_.queues, cluster_->resources(),
                          &run.spec.requests);
  } else {
    for (const auto& [id, quantity] : pod.requests.items()) {
      run.spec.requests.Add(id, quantity);
    }
  }
  kueue_workload_of_[static_cast<size_t>(i)] = w;
}

void Simulation::CheckKueueWorkloads(
    const std::vector<std::string>& first_class) {
  for (size_t w = 0; w < kueue_workloads_.size(); ++w) {
    const KueueWorkloadRun& run = kueue_workloads_[w];
    const std::string missing =
        kueue_->UncoveredResource(run.spec.queue, run.spec.requests);
    if (!missing.empty()) {
      throw InputError(fmt::format(
          "class '{}': its pods request {}, which no resource group of "
          "ClusterQueue '{}' covers (Kueue would leave them pending for "
          "ever); add {} to the queue's resources",
          first_class[w], missing, kueue_->queue_name(run.spec.queue),
          missing));
    }
  }
}

bool Simulation::KueueArrival(double now, PodIndex p) {
  if (!kueue_ || KueueWorkloadOf(p) < 0) return false;
  KueueWorkloadRun& run = kueue_workloads_[KueueWorkloadOf(p)];
  RunOf(p).phase = Phase::kQueued;
  if (--run.arrivals_left > 0) return true;
  run.spec.creation_s = now;
  run.id = kueue_->Add(run.spec);
  kueue_run_of_.resize(run.id + 1, -1);
  kueue_run_of_[run.id] = KueueWorkloadOf(p);
  const Pod& pod = PodOf(p);
  if (!pod.node_name.empty() && node_index_.count(pod.node_name) > 0) {
    // Already running (kubectl import): Kueue had admitted it.
    kueue_->AdmitRunning(run.id, now);
    return false;
  }
  kueue_dirty_ = true;
  return true;
}

void Simulation::RunKueue(double now) {
  while (kueue_dirty_) {
    kueue_dirty_ = false;
    QueueAdmission::Decisions d;
    kueue_->Schedule(now, &d);
    ReportKueueWaits(now, d.waiting);
    for (const QueueAdmission::Eviction& e : d.evictions) {
      EvictWorkload(now, kueue_run_of_[e.victim], kueue_run_of_[e.preemptor]);
      if (observer_) {
        const KueueWorkloadRun& v = kueue_workloads_[kueue_run_of_[e.victim]];
        observer_->OnWorkloadEvicted(now, v.spec.queue,
                                     kueue_->queue_of(e.preemptor),
                                     e.reason, v.pods);
      }
    }
    for (int id : d.admitted) {
      KueueWorkloadRun& run = kueue_workloads_[kueue_run_of_[id]];
      run.reported.clear();
      if (observer_) {
        observer_->OnWorkloadAdmitted(now, run.spec.queue, run.pods,
                                      kueue_->borrowed(id));
      }
      for (PodIndex p : run.pods) {
        if (RunOrGone(p).phase != Phase::kQueued) continue;
        // Kueue's flavor assignment becomes the pods' node selector.
        Pod& pod = PodOf(p);
        pod.node_selector = run.base_selector;
        for (const auto& [key, value] : kueue_->node_labels(id)) {
          pod.node_selector[key] = value;
        }
        RunOf(p).phase = Phase::kPending;
        scheduler_->Enqueue(p, pod);
      }
    }
  }
}

void Simulation::ReportKueueWaits(double now, const std::vector<int>& ids) {
  // Why the workloads tried and left waiting wait (when that changed).
  if (observer_) {
    for (int id : ids) {
      KueueWorkloadRun& run = kueue_workloads_[kueue_run_of_[id]];
      const QueueAdmission::State s = kueue_->state(run.id);
      if (s != QueueAdmission::State::kPending && s != QueueAdmission::State::kInadmissible) {
        continue;
      }
      const std::string& why = kueue_->message(run.id);
      if (why.empty() || why == run.reported) continue;
      run.reported = why;
      for (PodIndex p : run.pods) {
        if (RunOrGone(p).phase == Phase::kQueued) {
          observer_->OnUnschedulable(
              now, p, fmt::format("{}: {}", kueue_->system_name(), why));
        }
      }
    }
  }
}

void Simulation::EvictWorkload(double now, int w, int preemptor) {
  KueueWorkloadRun& run = kueue_workloads_[w];
  const PodIndex by = kueue_workloads_[preemptor].pods.front();
  run.evicting = 0;
  for (PodIndex p : run.pods) {
    const Phase phase = RunOrGone(p).phase;
    if (phase == Phase::kWaiting || phase == Phase::kDone) continue;
    PodRun& r = RunOf(p);
    switch (phase) {
      case Phase::kRunning:
      case Phase::kPermit:
      case Phase::kPreparing:
      case Phase::kBackoff:
        r.kueue_evicted = true;
        ++run.evicting;
        Preempted(now, p, by);
        break;
      case Phase::kTerminating:
        r.kueue_evicted = true;
        ++run.evicting;
        break;
      case Phase::kPending:
        scheduler_->Forget(p);
        r.phase = Phase::kQueued;
        break;
      case Phase::kGangDormant:
        r.phase = Phase::kQueued;
        break;
      default:
        break;
    }
  }
  if (run.evicting == 0) {
    KueueEvictedPodGone(-1 - w);
  }
}

void Simulation::KueueEvictedPodGone(PodIndex p) {
  // p < 0: workload -1 - p, none of whose pods held anything.
  const int w = p >= 0 ? KueueWorkloadOf(p) : -1 - p;
  KueueWorkloadRun& run = kueue_workloads_[w];
  if (p >= 0) {
    RunOf(p).kueue_evicted = false;
    RunOf(p).phase = Phase::kQueued;
    if (--run.evicting > 0) return;
  }
  const int g = GangOf(run.pods.front());
  if (g >= 0) {
    // The whole PodGroup went: Coscheduling starts over when it is
    // admitted again.
    GangRun& gang = gangs_[g];
    gang.admitted = false;
    gang.waiting = 0;
    gang.rate = 0;
    ++gang.version;
  }
  kueue_->EvictionDone(run.id, clock_);
  kueue_dirty_ = true;
}

void Simulation::KueuePodDone(PodIndex p) {
  if (!kueue_ || KueueWorkloadOf(p) < 0) return;
  KueueWorkloadRun& run = kueue_workloads_[KueueWorkloadOf(p)];
  // A pod ended while its workload's eviction waited for it.
  const bool was_evicted = RunOf(p).kueue_evicted;
  RunOf(p).kueue_evicted = false;
  if (was_evicted) --run.evicting;
  if (--run.live > 0) {
    if (was_evicted && run.evicting == 0) {
      KueueEvictedPodGone(-1 - KueueWorkloadOf(p));
    }
    return;
  }
  if (run.id < 0) return;
  kueue_->Finished(run.id);
  kueue_dirty_ = true;
}

}  // namespace gpushare
