// ClusterAutoscaler's loop: templates, scale-up (filter, estimate, expand),
// NotTriggerScaleUp notes and scale-down (see cluster_autoscaler.h).

#include "gpushare/sim/cluster_autoscaler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "gpushare/sim/autoscaler_fit.h"

namespace gpushare {
// Named, not anonymous: unity builds merge translation units.
namespace ca_internal {

constexpr double kEps = 1e-9;

// A node in CA's simulation: what is free on it and how many more pods fit.
struct SimNode {
  int node = -1;
  ResourceList free;
  int pods_free = 0;
};

bool FitsSimNode(const ResourceList& requests, const SimNode& node,
                 const ResourceRegistry& registry,
                 std::vector<std::string>* reasons) {
  bool fits = RequestsFit(requests, node.free, registry, reasons);
  if (node.pods_free <= 0) {
    fits = false;
    if (reasons != nullptr) reasons->push_back("Too many pods");
  }
  return fits;
}

void PlaceOn(const ResourceList& requests, SimNode* node) {
  node->free = SubtractResources(node->free, requests);
  --node->pods_free;
}

// First node of `nodes` (skipping `except` and `removed`) the pod fits on.
SimNode* FirstFit(const ResourceList& requests, std::vector<SimNode>* nodes,
                  const ResourceRegistry& registry, int except = -1,
                  const std::set<int>* removed = nullptr) {
  for (SimNode& node : *nodes) {
    if (node.node >= 0 && node.node == except) continue;
    if (removed != nullptr && removed->count(node.node) > 0) continue;
    if (FitsSimNode(requests, node, registry, nullptr)) return &node;
  }
  return nullptr;
}

// One pending pod and, per group it may run on, its requests there.
struct PodCandidate {
  PodIndex pod = -1;
  bool uses_claims = false;
  std::map<int, ResourceList> requests_by_group;  // snapshot group index
};

// A node's utilization as CA computes it (simulator/utilization/info.go
// Calculate): GPU nodes count nvidia.com/gpu only (0 when the node has none
// allocatable: CA's "unready GPU" branch); others the larger of cpu and
// memory (memory on a tie).
struct Utilization {
  double value = 0;
  std::string what;
};

Utilization NodeUtilization(const AutoscalerGroupView& group,
                            const AutoscalerNodeView& node,
                            const ResourceRegistry& registry) {
  if (group.model != nullptr) {
    const ResourceId gpu = registry.Find(kNvidiaGpu);
    const int64_t allocatable = gpu >= 0 ? node.allocatable.Get(gpu) : 0;
    if (allocatable == 0) {
      return {0, "no nvidia.com/gpu allocatable, GPU utilization counted 0"};
    }
    const int64_t requested = node.requested.Get(gpu);
    const double value = static_cast<double>(requested) / allocatable;
    return {value,
            fmt::format("nvidia.com/gpu requested {} of {} ({:.0f} %)",
                        static_cast<long long>(requested),
                        static_cast<long long>(allocatable), value * 100)};
  }
  auto share = [&](ResourceId id) {
    const int64_t allocatable = node.allocatable.Get(id);
    return allocatable > 0
               ? static_cast<double>(node.requested.Get(id)) / allocatable
               : 0.0;
  };
  const double cpu = share(ResourceRegistry::kCpuId);
  const double memory = share(ResourceRegistry::kMemoryId);
  const ResourceId id =
      cpu > memory ? ResourceRegistry::kCpuId : ResourceRegistry::kMemoryId;
  const double value = std::max(cpu, memory);
  return {value,
          fmt::format("{} requested {} of {} ({:.0f} %)", registry.Name(id),
                      static_cast<long long>(node.requested.Get(id)),
                      static_cast<long long>(node.allocatable.Get(id)),
                      value * 100)};
}

// The provider's template (cloudprovider TemplateNodeInfo): the instance's
// cpu, memory and physical GPUs, then what the node group declares.
ResourceList ProviderTemplate(const AutoscalerGroupView& group,
                              const ResourceRegistry& registry) {
  const NodePoolSpec& spec = *group.spec;
  const ClusterAutoscalerSettings& ca = spec.autoscaling.cluster_autoscaler;
  ResourceList out;
  out.Set(ResourceRegistry::kCpuId, spec.cpu_milli);
  out.Set(ResourceRegistry::kMemoryId, spec.memory_mib);
  const ResourceId gpu = registry.Find(kNvidiaGpu);
  if (group.model != nullptr && gpu >= 0) out.Set(gpu, spec.gpus_per_node);
  for (const auto& [name, quantity] : ca.template_resources) {
    const ResourceId id = registry.Find(name);
    if (id >= 0) out.Set(id, quantity);
  }
  if (ca.template_resource_slices) {
    for (const auto& [id, quantity] : group.ready_node_allocatable.items()) {
      if (registry.KindOf(id) == ResourceRegistry::Kind::kDraClassKind) {
        out.Set(id, quantity);
      }
    }
  }
  return out;
}

// The first node of the group CA takes as a template
// (mixed_nodeinfos_processor.go isNodeGoodTemplateCandidate: ready for more
// than a minute and schedulable), or null.
const AutoscalerNodeView* GoodTemplateNode(const AutoscalerGroupView& group,
                                           double now_s) {
  for (const AutoscalerNodeView& node : group.nodes) {
    if (node.state == AutoscalerNodeView::State::kReady &&
        now_s - node.state_since_s > kCaTemplateStabilizationS &&
        !node.allocatable.empty()) {
      return &node;
    }
  }
  return nullptr;
}

int GroupSize(const AutoscalerGroupView& group) {
  int size = 0;
  for (const AutoscalerNodeView& node : group.nodes) {
    if (node.state != AutoscalerNodeView::State::kDeleting) ++size;
  }
  return size;
}

const ClusterAutoscalerSettings& Settings(const AutoscalerGroupView& group) {
  return group.spec->autoscaling.cluster_autoscaler;
}

// The pending pods CA considers, in snapshot order.
std::vector<PodCandidate> Candidates(const AutoscalerSnapshot& snapshot,
                                     const std::map<int, int>& group_of_pool,
                                     double new_pod_delay_s) {
  std::vector<PodCandidate> out;
  std::map<PodIndex, size_t> position;
  for (const AutoscalerPendingPod& pending : snapshot.pending) {
    const auto group = group_of_pool.find(pending.pool);
    if (group == group_of_pool.end()) continue;
    if (snapshot.now_s - pending.pending_since_s < new_pod_delay_s - kEps) {
      continue;
    }
    auto [it, added] = position.emplace(pending.pod, out.size());
    if (added) out.push_back({pending.pod, pending.uses_resource_claims, {}});
    PodCandidate& candidate = out[it->second];
    candidate.uses_claims =
        candidate.uses_claims || pending.uses_resource_claims;
    candidate.requests_by_group[group->second] = pending.requests;
  }
  return out;
}

// A scale-up option (expander.Option): a group, its node count, its pods.
struct Option {
  int group = -1;
  int nodes = 0;
  std::vector<PodIndex> pods;
  ResourceList pod_requests;  // their sum, for least-waste
};

}  // namespace ca_internal

ClusterAutoscaler::ClusterAutoscaler(std::vector<int> pools,
                                     ClusterAutoscalerSettings global, Rng rng)
    : pools_(pools.begin(), pools.end()),
      global_(std::move(global)),
      rng_(rng) {}

bool ClusterAutoscaler::Manages(int pool) const {
  return pools_.count(pool) > 0;
}

double ClusterAutoscaler::NextDecisionS(double now_s) const {
  const double interval = global_.scan_interval_s;
  return (std::floor(now_s / interval + ca_internal::kEps) + 1) * interval;
}

ResourceList ClusterAutoscaler::TemplateFor(
    const AutoscalerGroupView& group,
    const AutoscalerSnapshot& snapshot) const {
  const ResourceRegistry& registry = *snapshot.resources;
  if (const AutoscalerNodeView* node =
          ca_internal::GoodTemplateNode(group, snapshot.now_s)) {
    return AdvertisedAllocatable(node->allocatable, registry);
  }
  const auto cached = template_cache_.find(group.pool);
  if (cached != template_cache_.end()) return cached->second;
  return ca_internal::ProviderTemplate(group, registry);
}

void ClusterAutoscaler::UpdateTemplateCache(
    const AutoscalerSnapshot& snapshot) {
  for (const AutoscalerGroupView& group : snapshot.groups) {
    if (!Manages(group.pool)) continue;
    if (const AutoscalerNodeView* node =
            ca_internal::GoodTemplateNode(group, snapshot.now_s)) {
      template_cache_[group.pool] =
          AdvertisedAllocatable(node->allocatable, *snapshot.resources);
    }
  }
}

void ClusterAutoscaler::UpdateBackoffs(const AutoscalerSnapshot& snapshot) {
  const double now = snapshot.now_s;
  // utils/backoff/exponential_backoff.go RemoveStaleBackoffData.
  for (auto it = backoff_.begin(); it != backoff_.end();) {
    it = it->second.last_failure_s + kCaBackoffResetS < now ? backoff_.erase(it)
                                                            : std::next(it);
  }
  std::set<int> still_launching;
  for (const AutoscalerGroupView& group : snapshot.groups) {
    if (!Manages(group.pool)) continue;
    const double limit = ca_internal::Settings(group).max_node_provision_time_s;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state != AutoscalerNodeView::State::kLaunching) continue;
      if (now - node.state_since_s <= limit + ca_internal::kEps) continue;
      still_launching.insert(node.node);
      if (!timed_out_nodes_.insert(node.node).second) continue;
      // exponential_backoff.go Backoff: the first failure backs off the
      // initial duration; one after the backoff ran out doubles it (capped).
      Backoff& backoff = backoff_[group.pool];
      double duration = kCaInitialBackoffS;
      if (backoff.duration_s > 0 && backoff.until_s < now) {
        duration = std::min(2 * backoff.duration_s, kCaMaxBackoffS);
      }
      backoff = {now + duration, duration, now};
    }
  }
  for (auto it = timed_out_nodes_.begin(); it != timed_out_nodes_.end();) {
    it = still_launching.count(*it) > 0 ? std::next(it)
                                        : timed_out_nodes_.erase(it);
  }
}

bool ClusterAutoscaler::InBackoff(int pool, double now_s) const {
  const auto it = backoff_.find(pool);
  return it != backoff_.end() && it->second.until_s > now_s;
}

AutoscalerDecision ClusterAutoscaler::Decide(
    const AutoscalerSnapshot& snapshot) {
  AutoscalerDecision decision;
  UpdateBackoffs(snapshot);
  UpdateTemplateCache(snapshot);
  // static_autoscaler.go RunOnce: a loop that scaled up does not scale down.
  if (!ScaleUp(snapshot, &decision)) ScaleDown(snapshot, &decision);
  return decision;
}

bool ClusterAutoscaler::ScaleUp(const AutoscalerSnapshot& snapshot,
                                AutoscalerDecision* decision) {
  using ca_internal::Option;
  using ca_internal::SimNode;
  const ResourceRegistry& registry = *snapshot.resources;
  const double now = snapshot.now_s;
  const std::vector<AutoscalerGroupView>& groups = snapshot.groups;

  std::map<int, int> group_of_pool;
  std::vector<ResourceList> templates(groups.size());
  std::vector<bool> provider_template_without_slices(groups.size(), false);
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!Manages(groups[g].pool)) continue;
    group_of_pool[groups[g].pool] = static_cast<int>(g);
    templates[g] = TemplateFor(groups[g], snapshot);
    provider_template_without_slices[g] =
        ca_internal::GoodTemplateNode(groups[g], now) == nullptr &&
        template_cache_.count(groups[g].pool) == 0 &&
        !ca_internal::Settings(groups[g]).template_resource_slices;
  }
  std::vector<ca_internal::PodCandidate> pods = ca_internal::Candidates(
      snapshot, group_of_pool, global_.new_pod_scale_up_delay_s);
  if (pods.empty()) return false;

  // core/podlistprocessor/filter_out_schedulable.go: pods that fit the free
  // space of ready nodes, or of upcoming nodes (launching, each a copy of
  // the template; clusterstate GetUpcomingNodes), are left to the scheduler.
  std::vector<std::vector<SimNode>> existing(groups.size());
  for (const auto& [pool, g] : group_of_pool) {
    const int max_pods = groups[g].spec->max_pods;
    for (const AutoscalerNodeView& node : groups[g].nodes) {
      if (node.state == AutoscalerNodeView::State::kReady) {
        existing[g].push_back(
            {node.node,
             SubtractResources(
                 AdvertisedAllocatable(node.allocatable, registry),
                 node.requested),
             max_pods - static_cast<int>(node.pods.size())});
      }
    }
    const double limit =
        ca_internal::Settings(groups[g]).max_node_provision_time_s;
    for (const AutoscalerNodeView& node : groups[g].nodes) {
      if (node.state == AutoscalerNodeView::State::kLaunching &&
          now - node.state_since_s <= limit + ca_internal::kEps) {
        existing[g].push_back({node.node, templates[g], max_pods});
      }
    }
  }
  std::vector<bool> schedulable(pods.size(), false);
  for (size_t i = 0; i < pods.size(); ++i) {
    for (const auto& [g, requests] : pods[i].requests_by_group) {
      SimNode* node = ca_internal::FirstFit(requests, &existing[g], registry);
      if (node == nullptr) continue;
      ca_internal::PlaceOn(requests, node);
      schedulable[i] = true;
      break;
    }
  }

  // core/scaleup/orchestrator/orchestrator.go ScaleUp: per group, skip it
  // (skippedreasons.go) or check each pod against its template and estimate
  // (estimator/binpacking_estimator.go Estimate).
  std::vector<std::map<std::string, int>> reasons(pods.size());
  std::vector<Option> options;
  for (const auto& [pool, g] : group_of_pool) {
    const AutoscalerGroupView& group = groups[g];
    const int size = ca_internal::GroupSize(group);
    std::string skipped;
    if (size >= group.spec->autoscaling.max_nodes) {
      skipped = "max node group size reached";
    } else if (InBackoff(group.pool, now)) {
      skipped = "in backoff after failed scale-up";
    }
    std::vector<size_t> fitting;
    for (size_t i = 0; i < pods.size(); ++i) {
      if (schedulable[i]) continue;
      if (!skipped.empty()) {
        ++reasons[i][skipped];
        continue;
      }
      const auto requests = pods[i].requests_by_group.find(g);
      if (requests == pods[i].requests_by_group.end()) {
        ++reasons[i]["node(s) didn't match Pod's node affinity/selector"];
        continue;
      }
      std::vector<std::string> failed;
      const SimNode empty{-1, templates[g], group.spec->max_pods};
      if (ca_internal::FitsSimNode(requests->second, empty, registry,
                                   &failed)) {
        fitting.push_back(i);
      } else {
        for (const std::string& reason : failed) ++reasons[i][reason];
      }
    }
    if (!skipped.empty() || fitting.empty()) continue;
    // estimator/decreasing_pod_orderer.go: larger cpu + memory share of the
    // template first.
    // (A copy of the binding: clang before 16 does not capture one.)
    auto score = [&, g = g](size_t i) {
      const ResourceList& r = pods[i].requests_by_group.at(g);
      double s = 0;
      for (ResourceId id :
           {ResourceRegistry::kCpuId, ResourceRegistry::kMemoryId}) {
        if (templates[g].Get(id) > 0) {
          s += static_cast<double>(r.Get(id)) / templates[g].Get(id);
        }
      }
      return s;
    };
    std::stable_sort(fitting.begin(), fitting.end(),
                     [&](size_t a, size_t b) { return score(a) > score(b); });
    const int limit = group.spec->autoscaling.max_nodes - size;
    std::vector<SimNode> bins;
    Option option;
    option.group = static_cast<int>(g);
    for (size_t i : fitting) {
      const ResourceList& requests = pods[i].requests_by_group.at(g);
      SimNode* bin = ca_internal::FirstFit(requests, &bins, registry);
      if (bin == nullptr && static_cast<int>(bins.size()) < limit) {
        bins.push_back({-1, templates[g], group.spec->max_pods});
        bin = &bins.back();
      }
      if (bin == nullptr) continue;
      ca_internal::PlaceOn(requests, bin);
      option.pods.push_back(pods[i].pod);
      option.pod_requests = AddResources(option.pod_requests, requests);
    }
    option.nodes = static_cast<int>(bins.size());
    if (option.nodes > 0) options.push_back(std::move(option));
  }

  if (options.empty()) {
    // processors/status/eventing_scale_up_processor.go: NotTriggerScaleUp,
    // only in a loop without a scale-up.
    for (size_t i = 0; i < pods.size(); ++i) {
      if (schedulable[i]) continue;
      NoScaleUpNote note;
      note.pod = pods[i].pod;
      note.pool = groups[pods[i].requests_by_group.begin()->first].pool;
      std::string message;
      bool extender = false;
      bool claims = false;
      for (const auto& [reason, count] : reasons[i]) {
        message += (message.empty() ? "" : ", ") + std::to_string(count) + " " +
                   reason;
        const std::string prefix = "Insufficient ";
        if (reason.rfind(prefix, 0) == 0) {
          const ResourceId id = registry.Find(reason.substr(prefix.size()));
          extender = extender || (id >= 0 && registry.IgnoredByScheduler(id));
        }
        claims = claims || reason == "cannot allocate all claims";
      }
      bool from_zero_without_slices = false;
      for (const auto& [g, requests] : pods[i].requests_by_group) {
        from_zero_without_slices =
            from_zero_without_slices || provider_template_without_slices[g];
      }
      note.reason = "pod didn't trigger scale-up: " + message;
      if (extender) {
        note.upstream = "Project-HAMi/HAMi#1099";
      } else if (claims && pods[i].uses_claims && from_zero_without_slices) {
        note.upstream = "kubernetes/autoscaler#10277";
      }
      decision->no_scale_up.push_back(std::move(note));
    }
    return false;
  }

  // expander/*: keep the best options, break ties at random.
  std::vector<size_t> best;
  auto keep = [&](auto value, bool higher_is_better) {
    std::vector<size_t> kept;
    double best_value = 0;
    for (size_t o = 0; o < options.size(); ++o) {
      const double v = value(options[o]);
      const bool better =
          kept.empty() || (higher_is_better ? v > best_value : v < best_value);
      if (better) {
        kept.assign(1, o);
        best_value = v;
      } else if (v == best_value) {
        kept.push_back(o);
      }
    }
    return kept;
  };
  switch (global_.expander) {
    case CaExpander::kRandom:
      for (size_t o = 0; o < options.size(); ++o) best.push_back(o);
      break;
    case CaExpander::kMostPods:  // expander/mostpods
      best = keep([](const Option& o) { return double(o.pods.size()); }, true);
      break;
    case CaExpander::kLeastWaste:  // expander/waste: idle cpu + memory share
      best = keep(
          [&](const Option& o) {
            double waste = 0;
            for (ResourceId id :
                 {ResourceRegistry::kCpuId, ResourceRegistry::kMemoryId}) {
              const double available =
                  double(templates[o.group].Get(id)) * o.nodes;
              if (available > 0) {
                waste += (available - o.pod_requests.Get(id)) / available;
              }
            }
            return waste;
          },
          false);
      break;
    case CaExpander::kPrice:  // expander/price: node cost per pod helped
      best = keep(
          [&](const Option& o) {
            return groups[o.group].price_per_node_hour * o.nodes /
                   double(o.pods.size());
          },
          false);
      break;
    case CaExpander::kPriority:  // expander/priority
      best = keep(
          [&](const Option& o) {
            return double(ca_internal::Settings(groups[o.group]).priority);
          },
          true);
      break;
  }
  const Option& chosen =
      options[best.size() > 1 ? best[rng_.Below(best.size())] : best[0]];
  ScaleUpAction action;
  action.pool = groups[chosen.group].pool;
  action.nodes = chosen.nodes;
  action.for_pods = chosen.pods;
  decision->scale_ups.push_back(std::move(action));
  last_scale_up_s_ = now;
  return true;
}

void ClusterAutoscaler::ScaleDown(const AutoscalerSnapshot& snapshot,
                                  AutoscalerDecision* decision) {
  using ca_internal::SimNode;
  using State = AutoscalerNodeView::State;
  const ResourceRegistry& registry = *snapshot.resources;
  const double now = snapshot.now_s;

  // core/scaledown/planner/planner.go UpdateClusterState: which ready nodes
  // are unneeded now (eligibility/eligibility.go: utilization under the
  // threshold; simulator/cluster.go FindNodesToRemove: every pod movable to
  // the other nodes, a node found removable leaving the simulation with its
  // pods placed elsewhere).
  struct Unneeded {
    int group = -1;
    int node = -1;
    bool empty = false;
    double since_s = 0;
    std::string why;
  };
  std::vector<Unneeded> unneeded;
  std::map<int, double> since;
  for (size_t g = 0; g < snapshot.groups.size(); ++g) {
    const AutoscalerGroupView& group = snapshot.groups[g];
    if (!Manages(group.pool)) continue;
    const ClusterAutoscalerSettings& settings = ca_internal::Settings(group);
    const double threshold = group.model != nullptr
                                 ? settings.scale_down_gpu_utilization_threshold
                                 : settings.scale_down_utilization_threshold;
    std::vector<SimNode> destinations;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state != State::kReady) continue;
      destinations.push_back(
          {node.node,
           SubtractResources(AdvertisedAllocatable(node.allocatable, registry),
                             node.requested),
           group.spec->max_pods - static_cast<int>(node.pods.size())});
    }
    std::set<int> removed;
    int non_empty_considered = 0;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state != State::kReady) continue;
      const ca_internal::Utilization utilization =
          ca_internal::NodeUtilization(group, node, registry);
      if (utilization.value >= threshold) continue;
      // --scale-down-non-empty-candidates-count: non-empty nodes simulated
      // per loop.
      if (!node.pods.empty() &&
          non_empty_considered++ >= kCaScaleDownNonEmptyCandidates) {
        continue;
      }
      bool movable = true;
      std::vector<std::pair<SimNode*, const ResourceList*>> placed;
      for (const AutoscalerBoundPod& pod : node.pods) {
        SimNode* to = pod.evictable
                          ? ca_internal::FirstFit(pod.requests, &destinations,
                                                  registry, node.node, &removed)
                          : nullptr;
        if (to == nullptr) {
          movable = false;
          break;
        }
        ca_internal::PlaceOn(pod.requests, to);
        placed.emplace_back(to, &pod.requests);
      }
      if (!movable) {  // undo the trial placements
        for (const auto& [to, requests] : placed) {
          to->free = AddResources(to->free, *requests);
          ++to->pods_free;
        }
        continue;
      }
      removed.insert(node.node);
      const auto previous = unneeded_since_s_.find(node.node);
      const double from =
          previous != unneeded_since_s_.end() ? previous->second : now;
      since[node.node] = from;
      unneeded.push_back(
          {static_cast<int>(g), node.node, node.pods.empty(), from,
           fmt::format(
               "{} < {:.0f} % threshold, {}", utilization.what, threshold * 100,
               node.pods.empty() ? "empty" : "its pods fit on other nodes")});
    }
  }
  unneeded_since_s_ = std::move(since);

  // static_autoscaler.go isScaleDownInCooldown: --scale-down-delay-after-add.
  if (last_scale_up_s_.has_value() &&
      now - *last_scale_up_s_ <
          global_.scale_down_delay_after_add_s - ca_internal::kEps) {
    return;
  }
  // core/scaledown/actuation: empty nodes at once up to
  // --max-scale-down-parallelism, nodes that need a drain up to
  // --max-drain-parallelism, counting the deletions already under way.
  int deleting = 0;
  int draining = 0;
  std::vector<int> size(snapshot.groups.size(), 0);
  for (size_t g = 0; g < snapshot.groups.size(); ++g) {
    if (!Manages(snapshot.groups[g].pool)) continue;
    size[g] = ca_internal::GroupSize(snapshot.groups[g]);
    for (const AutoscalerNodeView& node : snapshot.groups[g].nodes) {
      if (node.state != State::kDeleting) continue;
      ++deleting;
      if (!node.pods.empty()) ++draining;
    }
  }
  int budget = kCaMaxScaleDownParallelism - deleting;
  int drain_budget = kCaMaxDrainParallelism - draining;
  for (bool empty_pass : {true, false}) {
    for (const Unneeded& candidate : unneeded) {
      if (candidate.empty != empty_pass || budget <= 0) continue;
      if (!empty_pass && drain_budget <= 0) continue;
      const AutoscalerGroupView& group = snapshot.groups[candidate.group];
      const double unneeded_for = now - candidate.since_s;
      if (unneeded_for <
          ca_internal::Settings(group).scale_down_unneeded_time_s -
              ca_internal::kEps) {
        continue;
      }
      if (size[candidate.group] <= group.spec->autoscaling.min_nodes) continue;
      --size[candidate.group];
      --budget;
      if (!empty_pass) --drain_budget;
      decision->scale_downs.push_back(
          {candidate.node, fmt::format("unneeded for {:.0f} s ({})",
                                       unneeded_for, candidate.why)});
    }
  }
}

}  // namespace gpushare
