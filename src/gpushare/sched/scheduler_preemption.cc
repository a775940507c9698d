// Preemption in Scheduler (scheduler.h), as kube-scheduler's
// framework/preemption and plugins/defaultpreemption: which nodes may be
// candidates, the dry runs that find the fewest victims of lower priority
// on a node (VictimDryRun on the node's real state; CountingDryRun as
// arithmetic where only NodeResourcesFit and GpuDeviceFit over NVIDIA
// device-plugin devices filter), and the nomination of the node chosen.
//
// Contract: Preempt() fills a failed cycle's result with the victims it
// marks terminating and the node nominated for the preemptor (a gang's
// member preempts for its gang: scheduler_gang_preemption.cc); an eligible
// preemptor that finds no candidate loses its nomination. No node where
// victims still terminate, or where a pod of equal or higher priority is
// nominated, is a candidate; WakePreemptorsFor() retries waiting heads that
// may preempt once the last victim on a node is gone.

#include <algorithm>
#include <limits>

#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sched/default_preemption.h"
#include "gpushare/sched/node_reservation.h"
#include "gpushare/sched/scheduler.h"

namespace gpushare {

void Scheduler::WakePreemptorsFor(int node) {
  wake_scratch_.clear();
  for (size_t w = 0; w < tracked_.size(); ++w) {
    for (uint64_t word = tracked_[w]; word != 0; word &= word - 1) {
      wake_scratch_.push_back(static_cast<int>(w * 64) +
                              __builtin_ctzll(word));
    }
  }
  for (int shape : wake_scratch_) {
    Group& group = groups_[shape];
    if (group.waiting.empty() || group.retrying >= 0) continue;
    const PodId head = group.waiting.begin()->id;
    const PodState& s = pods_[head];
    if (MayPreempt(*s.pod) && s.pending_victims == 0 &&
        MayBeCandidate(head, node)) {
      ActivateHead(group);
    }
  }
}

bool Scheduler::MayBeCandidate(PodId id, int node) {
  const PodState& s = pods_[id];
  if (node >= static_cast<int>(node_pods_.size()) ||
      terminating_on_node_[node] > 0 ||
      !StaticFits(s.constraints, *s.pod)[node] ||
      NomineesApply(*s.pod, node)) {
    return false;
  }
  for (const BoundPod& b : node_pods_[node]) {
    if (b.victim.priority < s.pod->priority && !b.never_victim) return true;
  }
  return false;
}

bool Scheduler::MayPreempt(const Pod& pod) const {
  return preemption_ &&
         pod.preemption_policy == PreemptionPolicy::kPreemptLowerPriority &&
         !bound_priorities_.empty() &&
         bound_priorities_.begin()->first < pod.priority;
}

// The dry run on one node's real state: a victim's requests and devices
// leave and come back exactly (DevicePlugin::Reacquire).
class Scheduler::VictimDryRun : public PreemptionDryRun {
 public:
  VictimDryRun(Scheduler& scheduler, PodId preemptor, int node)
      : scheduler_(scheduler), preemptor_(preemptor), node_(node) {}
  void Remove(const PreemptionVictim& victim) override {
    const PodState& v = scheduler_.pods_[victim.id];
    Node& node = scheduler_.cluster_.nodes()[node_];
    if (node.devices() != nullptr && !v.allocation.grants.empty()) {
      node.devices()->Release(v.allocation);
    }
    UnreservePod(node, *v.pod);
  }
  void AddBack(const PreemptionVictim& victim) override {
    const PodState& v = scheduler_.pods_[victim.id];
    Node& node = scheduler_.cluster_.nodes()[node_];
    if (node.devices() != nullptr && !v.allocation.grants.empty()) {
      node.devices()->Reacquire(v.allocation);
    }
    ReservePod(node, *v.pod);
  }
  bool PreemptorFits() override {
    // The static filters passed (a potential node) and Preempt() ran the
    // dynamic filters' PreFilter for the preemptor.
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    for (FilterPlugin* f : scheduler_.dynamic_filters_) {
      if (!f->Filter(pod, node, nullptr)) return false;
    }
    return true;
  }
  // NodeResourcesFit's arithmetic, when it is a filter: the preemptor's
  // requests within what is free once `removed` are gone and `added` back.
  bool MayFitWithout(const std::vector<PreemptionVictim>& victims) override {
    if (!scheduler_.resources_fit_filter_) return true;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const ResourceRegistry& registry = scheduler_.cluster_.resources();
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (registry.IgnoredByScheduler(id)) continue;
      int64_t freed = 0;
      for (const PreemptionVictim& v : victims) {
        freed += scheduler_.pods_[v.id].pod->requests.Get(id);
      }
      if (quantity > node.Allocatable(id) - node.Requested(id) + freed) {
        return false;
      }
    }
    return true;
  }
  bool MayFitWith(const PreemptionVictim& victim) override {
    if (!scheduler_.resources_fit_filter_) return true;
    const Node& node = scheduler_.cluster_.nodes()[node_];
    const Pod& pod = *scheduler_.pods_[preemptor_].pod;
    const ResourceList& back = scheduler_.pods_[victim.id].pod->requests;
    if (node.pod_count() + 2 > node.max_pods()) return false;
    const ResourceRegistry& registry = scheduler_.cluster_.resources();
    for (const auto& [id, quantity] : pod.requests.items()) {
      if (registry.IgnoredByScheduler(id)) continue;
      if (quantity + back.Get(id) > node.Allocatable(id) - node.Requested(id)) {
        return false;
      }
    }
    return true;
  }

 private:
  Scheduler& scheduler_;
  PodId preemptor_;
  int node_;
};

// The dry run as arithmetic on the preemptor's resources, for nodes whose
// filters are only NodeResourcesFit and GpuDeviceFit over NVIDIA
// device-plugin devices: NodeResourcesFit compares each request with
// allocatable − requested and the pod count with maxPods, and the plugin's
// Fits() is a count of free healthy devices per resource
// (NvidiaDevicePlugin::FreeDevices), so removing a victim adds its requests,
// a pod slot and its grants on healthy devices. The same answers as the
// real dry run, without touching the node.
class Scheduler::CountingDryRun : public PreemptionDryRun {
 public:
  CountingDryRun(const Scheduler& scheduler, const Pod& preemptor)
      : scheduler_(scheduler),
        check_resources_(scheduler.resources_fit_filter_),
        check_devices_(scheduler.device_fit_filter_) {
    for (const auto& [id, quantity] : preemptor.requests.items()) {
      Need n;
      n.id = id;
      n.quantity = quantity;
      n.extended = id > ResourceRegistry::kMemoryId;
      any_extended_ = any_extended_ || n.extended;
      needs_.push_back(n);
    }
  }
  // Starts the dry run on `node` with its `evictable` pods.
  void Reset(const Node& node, const std::vector<const BoundPod*>& evictable) {
    const Scheduler& scheduler = scheduler_;
    const NvidiaDevicePlugin* devices =
        node.devices() != nullptr ? node.devices()->AsNvidia() : nullptr;
    for (Need& n : needs_) {
      n.node_free = node.Allocatable(n.id) - node.Requested(n.id);
      n.device_free =
          n.extended && devices != nullptr ? devices->FreeDevices(n.id) : 0;
    }
    pod_slots_ = node.max_pods() - node.pod_count();
    const size_t k = needs_.size();
    freed_.assign(evictable.size() * k * 2, 0);
    const bool all_healthy = devices != nullptr && devices->AllHealthy();
    for (size_t v = 0; v < evictable.size(); ++v) {
      const BoundPod& b = *evictable[v];
      for (size_t i = 0; i < k; ++i) {
        const int64_t request =
            b.request_count >= 0
                ? b.Request(needs_[i].id)
                : scheduler.pods_[b.victim.id].pod->requests.Get(needs_[i].id);
        freed_[(v * k + i) * 2] = request;
        if (needs_[i].extended && devices != nullptr) {
          freed_[(v * k + i) * 2 + 1] =
              all_healthy
                  ? request
                  : devices->HealthyGrants(
                        scheduler.pods_[b.victim.id].allocation, needs_[i].id);
        }
      }
    }
  }
  // Whether the arithmetic is exact for `preemptor` on `node`.
  static bool Applies(const Scheduler& scheduler, const Pod& preemptor,
                      const Node& node) {
    if (!scheduler.profile_.reuse_node_results ||
        !scheduler.only_fit_filters_) {
      return false;
    }
    const ResourceRegistry& registry = scheduler.cluster_.resources();
    bool extended = false;
    for (const auto& [id, quantity] : preemptor.requests.items()) {
      if (registry.IgnoredByScheduler(id)) return false;
      extended = extended || id > ResourceRegistry::kMemoryId;
    }
    if (!extended || !scheduler.device_fit_filter_) return true;
    return node.devices() != nullptr && node.devices()->AsNvidia() != nullptr;
  }
  void Remove(const PreemptionVictim& victim) override { Apply(victim, 1); }
  void AddBack(const PreemptionVictim& victim) override { Apply(victim, -1); }
  bool PreemptorFits() override {
    if (check_resources_) {
      if (pod_slots_ < 1) return false;
      for (const Need& n : needs_) {
        if (n.quantity > n.node_free) return false;
      }
    }
    if (check_devices_ && any_extended_) {
      for (const Need& n : needs_) {
        if (n.extended && n.quantity > n.device_free) return false;
      }
    }
    return true;
  }

 private:
  struct Need {
    ResourceId id = -1;
    int64_t quantity = 0;
    bool extended = false;
    int64_t node_free = 0;    // allocatable − requested
    int64_t device_free = 0;  // free healthy devices (-1: not served)
  };
  void Apply(const PreemptionVictim& victim, int64_t sign) {
    pod_slots_ += sign;
    const size_t k = needs_.size();
    for (size_t i = 0; i < k; ++i) {
      const size_t at = (static_cast<size_t>(victim.index) * k + i) * 2;
      needs_[i].node_free += sign * freed_[at];
      needs_[i].device_free += sign * freed_[at + 1];
    }
  }

  const Scheduler& scheduler_;
  bool check_resources_;
  bool check_devices_;
  bool any_extended_ = false;
  std::vector<Need> needs_;
  int64_t pod_slots_ = 0;
  // Per evictable pod and need: its request, its grants on healthy devices.
  std::vector<int64_t> freed_;
};

void Scheduler::Preempt(PodId id, ScheduleResult* result) {
  PodState& s = pods_[id];
  const Pod& pod = *s.pod;
  // kube's PodEligibleToPreemptOthers: not while its victims terminate (it
  // keeps its nomination).
  if (!MayPreempt(pod) || s.pending_victims > 0) return;
  if (!pod.pod_group.empty() && pod.gang_min_member > 1) {
    const std::vector<PodId> members = GangPreemptors(id);
    if (members.size() != 1) {
      if (members.empty() || !PreemptForGang(members, result)) {
        ClearNomination(id, /*freed=*/true);
      }
      return;
    }
  }
  const int chosen = FindPreemptionCandidate(id, {}, /*allow_fit=*/false);
  if (chosen < 0) {
    // No candidate: its nominatedNodeName is cleared
    // (NewPostFilterResultWithNominatedNode("")).
    ClearNomination(id, /*freed=*/true);
    return;
  }
  CommitPreemption(id, candidates_scratch_[chosen], result);
}

int Scheduler::FindPreemptionCandidate(PodId id,
                                       const std::vector<PodId>& excluded,
                                       bool allow_fit) {
  PodState& s = pods_[id];
  const Pod& pod = *s.pod;
  const int num_nodes = static_cast<int>(cluster_.nodes().size());
  const std::vector<uint8_t>& static_fits = StaticFits(s.constraints, pod);
  // Potential nodes: those the static filters pass (the others fail as
  // UnschedulableAndUnresolvable, which no eviction can change).
  int potential = 0;
  for (int n = 0; n < num_nodes; ++n) potential += static_fits[n];
  if (potential == 0) return -1;
  const int wanted = NumPreemptionCandidates(
      potential, profile_.min_candidate_nodes_percentage,
      profile_.min_candidate_nodes_absolute);
  int skip = static_cast<int>(preemption_rng_.Below(potential));
  int start = 0;
  while (start < num_nodes && (!static_fits[start] || skip-- > 0)) ++start;
  // Candidates reuse their entries (and the victims' capacity).
  num_candidates_ = 0;
  std::vector<PreemptionVictim>& victims = victims_scratch_;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  CountingDryRun counting(*this, pod);
  auto add_candidate = [&](int node) -> PreemptionCandidate& {
    if (num_candidates_ == candidates_scratch_.size()) {
      candidates_scratch_.emplace_back();
    }
    PreemptionCandidate& c = candidates_scratch_[num_candidates_++];
    c.node = node;
    c.victims.clear();
    return c;
  };
  for (int i = 0; i < num_nodes && static_cast<int>(num_candidates_) < wanted;
       ++i) {
    const int n = (start + i) % num_nodes;
    if (!static_fits[n] || n >= static_cast<int>(node_pods_.size()) ||
        terminating_on_node_[n] > 0 || NomineesApply(pod, n)) {
      continue;
    }
    evictable_scratch_.clear();
    evictable_pods_.clear();
    for (const BoundPod& b : node_pods_[n]) {
      const PreemptionVictim& v = b.victim;
      if (v.priority < pod.priority && !b.never_victim &&
          std::find(excluded.begin(), excluded.end(), v.id) ==
              excluded.end()) {
        evictable_scratch_.push_back(
            {v.id, v.priority, v.start,
             static_cast<int>(evictable_scratch_.size())});
        evictable_pods_.push_back(&b);
      }
    }
    if (evictable_scratch_.empty()) {
      // A gang's later member may fit where nothing needs to go.
      if (allow_fit && FitsNode(pod, s.constraints, n)) add_candidate(n);
      continue;
    }
    bool found = false;
    const Node& node = cluster_.nodes()[n];
    if (CountingDryRun::Applies(*this, pod, node)) {
      counting.Reset(node, evictable_pods_);
      found = SelectVictimsOnNode(pod.priority, evictable_scratch_, counting,
                                  &victims, &potential_scratch_);
    } else {
      VictimDryRun dry_run(*this, id, n);
      found = SelectVictimsOnNode(pod.priority, evictable_scratch_, dry_run,
                                  &victims, &potential_scratch_);
      // The node is as it was, but its version moved: refresh the copies.
      UpdateFreeNodes(n, ResourceList());
    }
    if (found) {
      PreemptionCandidate& c = add_candidate(n);
      c.victims.assign(victims.begin(), victims.end());
    }
  }
  if (num_candidates_ == 0) return -1;
  return PickCandidate(std::span<const PreemptionCandidate>(
      candidates_scratch_.data(), num_candidates_));
}

void Scheduler::CommitPreemption(PodId preemptor, const PreemptionCandidate& c,
                                 ScheduleResult* result) {
  PodState& s = pods_[preemptor];
  // prepareCandidate: pods of lower priority nominated to the node may no
  // longer fit there; their nomination is cleared and they are retried.
  if (HasNominees(c.node)) {
    std::vector<PodId> lower;
    for (PodId q : nominees_[c.node]) {
      if (q != preemptor && pods_[q].pod->priority < s.pod->priority) {
        lower.push_back(q);
      }
    }
    for (PodId q : lower) {
      ClearNomination(q, /*freed=*/false);
      ready_nominees_.push_back({q, pods_[q].seq});
    }
  }
  Nominate(preemptor, c.node);
  s.pending_victims = static_cast<int>(c.victims.size());
  s.preemption = next_preemption_++;
  if (c.victims.empty()) ready_nominees_.push_back({preemptor, s.seq});
  if (preemptor == result->pod) result->nominated_node = c.node;
  for (const PreemptionVictim& v : c.victims) {
    PodState& vs = pods_[v.id];
    vs.terminating = true;
    vs.preemptor = preemptor;
    vs.preemptor_preemption = s.preemption;
    ++terminating_on_node_[c.node];
    result->victims.push_back(v.id);
    result->victim_preemptors.push_back(preemptor);
  }
  preemptions_ += static_cast<int64_t>(c.victims.size());
}

}  // namespace gpushare
