// Karpenter's batching, provisioning and consolidation (see karpenter.h).

#include "gpushare/sim/karpenter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "gpushare/sim/autoscaler_fit.h"

namespace gpushare {
// Named, not anonymous: unity builds merge translation units.
namespace karpenter_internal {

constexpr double kEps = 1e-9;

// An instance type as Karpenter's cloud provider describes it.
struct Type {
  std::string name;
  int gpus = 0;
  double on_demand = 0;
  double spot_price = 0;  // 0: not offered as spot
  ResourceList capacity;
};

// One managed NodePool in a provisioning round.
struct Pool {
  int group = -1;
  std::vector<Type> types;
  bool spot = false;
  int max_pods = 0;
  std::map<ResourceId, int64_t> remaining;  // limited resources left
  int nodes_remaining = 0;
};

double LaunchPrice(const Type& type, bool spot) {
  return spot && type.spot_price > 0 ? type.spot_price : type.on_demand;
}

// The NodePool's instance types: those listed, else one of the pool's node
// shape at its price. Capacity: cpu and memory of the shape scaled by the
// type's GPUs over the shape's, nvidia.com/gpu = the physical GPUs.
std::vector<Type> InstanceTypes(const AutoscalerGroupView& group,
                                const ResourceRegistry& registry) {
  const NodePoolSpec& spec = *group.spec;
  std::vector<KarpenterInstanceType> listed =
      spec.autoscaling.karpenter.instance_types;
  if (listed.empty()) {
    listed.push_back(
        {spec.name, spec.gpus_per_node, group.price_per_node_hour, 0});
  }
  const ResourceId gpu = registry.Find(kNvidiaGpu);
  std::vector<Type> out;
  for (const KarpenterInstanceType& t : listed) {
    const double ratio = spec.gpus_per_node > 0 && t.gpus > 0
                             ? static_cast<double>(t.gpus) / spec.gpus_per_node
                             : 1.0;
    Type type{t.name, t.gpus, t.price_per_hour, t.spot_price_per_hour, {}};
    type.capacity.Set(ResourceRegistry::kCpuId,
                      std::llround(spec.cpu_milli * ratio));
    type.capacity.Set(ResourceRegistry::kMemoryId,
                      std::llround(spec.memory_mib * ratio));
    if (gpu >= 0 && t.gpus > 0) type.capacity.Set(gpu, t.gpus);
    out.push_back(std::move(type));
  }
  return out;
}

// The type a node was launched as; a node without one (the pool's first
// nodes) is of the type with the pool's GPU count, else the first.
const Type& TypeOf(const std::vector<Type>& types, const NodePoolSpec& spec,
                   const std::string& name) {
  for (const Type& type : types) {
    if (type.name == name) return type;
  }
  for (const Type& type : types) {
    if (type.gpus == spec.gpus_per_node) return type;
  }
  return types.front();
}

double NodePrice(const std::vector<Type>& types, const NodePoolSpec& spec,
                 const AutoscalerNodeView& node) {
  return LaunchPrice(TypeOf(types, spec, node.instance_type), node.spot);
}

// A node (existing or launching) in the scheduling simulation.
struct Bin {
  int node = -1;
  int pool = -1;  // index into the round's pools
  ResourceList free;
  int pods_free = 0;
};

bool FitsBin(const ResourceList& requests, const Bin& bin,
             const ResourceRegistry& registry) {
  return bin.pods_free > 0 &&
         RequestsFit(requests, bin.free, registry, nullptr);
}

void PlaceIn(const ResourceList& requests, Bin* bin) {
  bin->free = SubtractResources(bin->free, requests);
  --bin->pods_free;
}

// A NodeClaim opened in this round (scheduling/nodeclaim.go).
struct Claim {
  int pool = -1;
  std::vector<int> options;  // instance types (indices) that hold its pods
  ResourceList used;
  int pods = 0;
  std::vector<PodIndex> for_pods;
};

std::vector<int> OptionsHolding(const Pool& pool,
                                const std::vector<int>& options,
                                const ResourceList& used, int pods,
                                const ResourceRegistry& registry) {
  std::vector<int> out;
  if (pods > pool.max_pods) return out;
  for (int o : options) {
    if (RequestsFit(used, pool.types[o].capacity, registry, nullptr)) {
      out.push_back(o);
    }
  }
  return out;
}

// The cheapest option (first listed on a tie).
int Cheapest(const Pool& pool, const std::vector<int>& options) {
  int best = options.front();
  for (int o : options) {
    if (LaunchPrice(pool.types[o], pool.spot) <
        LaunchPrice(pool.types[best], pool.spot)) {
      best = o;
    }
  }
  return best;
}

// resources.String: the quantities as JSON, keys sorted, with the pod count.
std::string Quantities(const ResourceList& requests, int pods,
                       const ResourceRegistry& registry) {
  std::map<std::string, std::string> fields;
  for (const auto& [id, quantity] : requests.items()) {
    const long long q = quantity;
    fields[registry.Name(id)] =
        id == ResourceRegistry::kCpuId      ? fmt::format("{}m", q)
        : id == ResourceRegistry::kMemoryId ? fmt::format("{}Mi", q)
                                            : fmt::format("{}", q);
  }
  fields["pods"] = std::to_string(pods);
  std::string out = "{";
  for (const auto& [name, value] : fields) {
    out += (out.size() > 1 ? "," : "") + ("\"" + name + "\":\"" + value + "\"");
  }
  return out + "}";
}

// One pending pod and, per pool it may run on (round order), its requests.
struct PodCandidate {
  PodIndex pod = -1;
  bool uses_claims = false;
  std::vector<std::pair<int, ResourceList>> by_pool;
  const ResourceList* Requests(int pool) const {
    for (const auto& [p, requests] : by_pool) {
      if (p == pool) return &requests;
    }
    return nullptr;
  }
};

std::vector<PodCandidate> Candidates(const AutoscalerSnapshot& snapshot,
                                     const std::map<int, int>& pool_of_group) {
  std::map<int, int> pool_of_spec_pool;
  for (const auto& [g, p] : pool_of_group) {
    pool_of_spec_pool[snapshot.groups[g].pool] = p;
  }
  std::vector<PodCandidate> out;
  std::map<PodIndex, size_t> position;
  for (const AutoscalerPendingPod& pending : snapshot.pending) {
    const auto pool = pool_of_spec_pool.find(pending.pool);
    if (pool == pool_of_spec_pool.end()) continue;
    auto [it, added] = position.emplace(pending.pod, out.size());
    if (added) out.push_back({pending.pod, false, {}});
    PodCandidate& candidate = out[it->second];
    candidate.uses_claims =
        candidate.uses_claims || pending.uses_resource_claims;
    candidate.by_pool.emplace_back(pool->second, pending.requests);
  }
  for (PodCandidate& candidate : out) {
    std::stable_sort(
        candidate.by_pool.begin(), candidate.by_pool.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  return out;
}

}  // namespace karpenter_internal

Karpenter::Karpenter(std::vector<int> pools, const KarpenterSettings& global,
                     Rng rng)
    : pools_(pools.begin(), pools.end()),
      rng_(rng),
      batch_idle_s_(global.batch_idle_duration_s),
      batch_max_s_(global.batch_max_duration_s) {}

double Karpenter::NextDecisionS(double now_s) const {
  double next = std::max(next_consolidation_s_, now_s + 1e-6);
  if (batch_open_) {
    const double end = std::min(last_trigger_s_ + batch_idle_s_,
                                batch_start_s_ + batch_max_s_);
    next = std::min(next, std::max(end, now_s + 1e-6));
  }
  return next;
}

AutoscalerDecision Karpenter::Decide(const AutoscalerSnapshot& snapshot) {
  using State = AutoscalerNodeView::State;
  const double now = snapshot.now_s;
  // provisioning/batcher.go Trigger: pod and node events.
  bool trigger = false;
  std::set<PodIndex> pending;
  for (const AutoscalerPendingPod& pod : snapshot.pending) {
    if (!Manages(pod.pool)) continue;
    pending.insert(pod.pod);
    trigger = trigger || pending_seen_.count(pod.pod) == 0;
  }
  std::set<int> live;
  std::map<int, std::pair<std::vector<PodIndex>, double>> events;
  for (const AutoscalerGroupView& group : snapshot.groups) {
    if (!Manages(group.pool)) continue;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state != State::kDeleting) live.insert(node.node);
      if (node.state != State::kReady) continue;
      // The NodeClaim's lastPodEventTime (else its initialization).
      std::vector<PodIndex> pods;
      for (const AutoscalerBoundPod& pod : node.pods) pods.push_back(pod.pod);
      std::sort(pods.begin(), pods.end());
      const auto previous = pod_events_.find(node.node);
      const double since = previous == pod_events_.end() ? node.state_since_s
                           : previous->second.first == pods
                               ? previous->second.second
                               : now;
      events[node.node] = {std::move(pods), since};
    }
  }
  for (int node : live_nodes_) trigger = trigger || live.count(node) == 0;
  pending_seen_ = std::move(pending);
  live_nodes_ = std::move(live);
  pod_events_ = std::move(events);
  if (trigger) {
    if (!batch_open_) batch_start_s_ = now;
    batch_open_ = true;
    last_trigger_s_ = now;
  }

  AutoscalerDecision decision;
  if (batch_open_ &&
      (now - last_trigger_s_ >= batch_idle_s_ - karpenter_internal::kEps ||
       now - batch_start_s_ >= batch_max_s_ - karpenter_internal::kEps)) {
    batch_open_ = false;
    Provision(snapshot, &decision);
  }
  if (now >= next_consolidation_s_ - karpenter_internal::kEps) {
    Consolidate(snapshot, &decision);
    next_consolidation_s_ = now + kKarpenterConsolidationPeriodS;
  }
  return decision;
}

namespace karpenter_internal {

// The round's view of each managed NodePool: types, limits left
// (limits - what its nodes count: what they advertise once ready, their
// type's capacity before), nodes left under max_nodes.
std::vector<Pool> BuildPools(const AutoscalerSnapshot& snapshot,
                             const std::set<int>& managed,
                             std::map<int, int>* pool_of_group) {
  const ResourceRegistry& registry = *snapshot.resources;
  std::vector<Pool> pools;
  for (size_t g = 0; g < snapshot.groups.size(); ++g) {
    const AutoscalerGroupView& group = snapshot.groups[g];
    if (managed.count(group.pool) == 0) continue;
    const NodePoolSpec& spec = *group.spec;
    const KarpenterSettings& settings = spec.autoscaling.karpenter;
    Pool pool;
    pool.group = static_cast<int>(g);
    pool.types = InstanceTypes(group, registry);
    pool.spot = settings.spot;
    pool.max_pods = spec.max_pods;
    for (const auto& [name, limit] : settings.limits) {
      const ResourceId id = registry.Find(name);
      if (id >= 0) pool.remaining[id] = limit;
    }
    int live = 0;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state == AutoscalerNodeView::State::kDeleting) continue;
      ++live;
      const ResourceList counted =
          node.state == AutoscalerNodeView::State::kReady
              ? AdvertisedAllocatable(node.allocatable, registry)
              : TypeOf(pool.types, spec, node.instance_type).capacity;
      for (auto& [id, left] : pool.remaining) left -= counted.Get(id);
    }
    pool.nodes_remaining = spec.autoscaling.max_nodes - live;
    (*pool_of_group)[static_cast<int>(g)] = static_cast<int>(pools.size());
    pools.push_back(std::move(pool));
  }
  return pools;
}

// The round's existing nodes: ready ones (what they advertise less what is
// bound), then launching ones (their type's capacity) — scheduler.go
// sortExistingNodes puts initialized nodes first.
std::vector<Bin> ExistingBins(const AutoscalerSnapshot& snapshot,
                              const std::vector<Pool>& pools) {
  const ResourceRegistry& registry = *snapshot.resources;
  std::vector<Bin> bins;
  for (auto state : {AutoscalerNodeView::State::kReady,
                     AutoscalerNodeView::State::kLaunching}) {
    for (size_t p = 0; p < pools.size(); ++p) {
      const AutoscalerGroupView& group = snapshot.groups[pools[p].group];
      for (const AutoscalerNodeView& node : group.nodes) {
        if (node.state != state) continue;
        const ResourceList free =
            state == AutoscalerNodeView::State::kReady
                ? SubtractResources(
                      AdvertisedAllocatable(node.allocatable, registry),
                      node.requested)
                : TypeOf(pools[p].types, *group.spec, node.instance_type)
                      .capacity;
        bins.push_back(
            {node.node, static_cast<int>(p), free,
             pools[p].max_pods - static_cast<int>(node.pods.size())});
      }
    }
  }
  return bins;
}

}  // namespace karpenter_internal

void Karpenter::Provision(const AutoscalerSnapshot& snapshot,
                          AutoscalerDecision* decision) {
  using karpenter_internal::Bin;
  using karpenter_internal::Claim;
  using karpenter_internal::Pool;
  const ResourceRegistry& registry = *snapshot.resources;
  std::map<int, int> pool_of_group;
  std::vector<Pool> pools =
      karpenter_internal::BuildPools(snapshot, pools_, &pool_of_group);
  std::vector<Bin> bins = karpenter_internal::ExistingBins(snapshot, pools);
  std::vector<karpenter_internal::PodCandidate> pods =
      karpenter_internal::Candidates(snapshot, pool_of_group);
  // scheduling/queue.go byCPUAndMemoryDescending.
  std::stable_sort(pods.begin(), pods.end(), [](const auto& a, const auto& b) {
    const ResourceList& l = a.by_pool.front().second;
    const ResourceList& r = b.by_pool.front().second;
    const int64_t lc = l.Get(ResourceRegistry::kCpuId);
    const int64_t rc = r.Get(ResourceRegistry::kCpuId);
    if (lc != rc) return lc > rc;
    return l.Get(ResourceRegistry::kMemoryId) >
           r.Get(ResourceRegistry::kMemoryId);
  });

  std::vector<Claim> claims;
  for (const karpenter_internal::PodCandidate& pod : pods) {
    const int first_pool = pod.by_pool.front().first;
    auto note = [&](const std::string& error, const std::string& upstream) {
      decision->no_scale_up.push_back(
          {pod.pod, snapshot.groups[pools[first_pool].group].pool,
           "Failed to schedule pod, " + error, upstream});
    };
    // scheduler.go add: DRA pods are refused while --ignore-dra-requests.
    if (pod.uses_claims) {
      note(
          "pod has Dynamic Resource Allocation requirements that are not yet "
          "supported by Karpenter",
          "");
      continue;
    }
    bool placed = false;
    for (Bin& bin : bins) {  // addToExistingNode
      const ResourceList* requests = pod.Requests(bin.pool);
      if (requests == nullptr ||
          !karpenter_internal::FitsBin(*requests, bin, registry)) {
        continue;
      }
      karpenter_internal::PlaceIn(*requests, &bin);
      placed = true;
      break;
    }
    if (placed) continue;
    std::vector<size_t> order(claims.size());  // addToInflightNode
    for (size_t c = 0; c < claims.size(); ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return claims[a].pods < claims[b].pods;
    });
    for (size_t c : order) {
      Claim& claim = claims[c];
      const ResourceList* requests = pod.Requests(claim.pool);
      if (requests == nullptr) continue;
      const ResourceList used = AddResources(claim.used, *requests);
      std::vector<int> options = karpenter_internal::OptionsHolding(
          pools[claim.pool], claim.options, used, claim.pods + 1, registry);
      if (options.empty()) continue;
      claim.options = std::move(options);
      claim.used = used;
      ++claim.pods;
      claim.for_pods.push_back(pod.pod);
      placed = true;
      break;
    }
    if (placed) continue;
    std::string errors;  // addToNewNodeClaim, one error per NodePool
    std::string upstream;
    for (const auto& [p, requests] : pod.by_pool) {
      Pool& pool = pools[p];
      std::string error;
      std::vector<int> within;
      for (int o = 0; o < static_cast<int>(pool.types.size()); ++o) {
        bool fits = true;
        for (const auto& [id, left] : pool.remaining) {
          fits = fits && pool.types[o].capacity.Get(id) <= left;
        }
        if (fits) within.push_back(o);
      }
      std::vector<int> options;
      if (pool.nodes_remaining <= 0) {
        error = "node limits have been exhausted for nodepool";
      } else if (within.empty()) {
        error = "all available instance types exceed limits for nodepool";
      } else {
        options = karpenter_internal::OptionsHolding(pool, within, requests, 1,
                                                     registry);
        if (options.empty()) {
          error = "no instance type has enough resources, resources=" +
                  karpenter_internal::Quantities(requests, 1, registry);
          const AutoscalerGroupView& group = snapshot.groups[pool.group];
          const ResourceId gpu = registry.Find(kNvidiaGpu);
          int max_gpus = 0;
          for (const auto& type : pool.types)
            max_gpus = std::max(max_gpus, type.gpus);
          for (const auto& [id, quantity] : requests.items()) {
            bool anywhere = false;
            for (const auto& type : pool.types) {
              anywhere = anywhere || type.capacity.Get(id) > 0;
            }
            if (!anywhere && upstream.empty()) {
              upstream = "aws/karpenter-provider-aws#1900";
            }
          }
          if (upstream.empty() && gpu >= 0 && requests.Get(gpu) > max_gpus &&
              requests.Get(gpu) <= group.ready_node_allocatable.Get(gpu)) {
            upstream = "kubernetes-sigs/karpenter#729";
          }
        }
      }
      if (options.empty()) {
        errors += (errors.empty() ? "" : "; ") + error;
        continue;
      }
      claims.push_back({p, options, requests, 1, {pod.pod}});
      --pool.nodes_remaining;
      for (auto& [id, left] : pool.remaining) {  // subtractMax
        int64_t largest = 0;
        for (int o : options) {
          largest = std::max(largest, pool.types[o].capacity.Get(id));
        }
        left -= largest;
      }
      placed = true;
      break;
    }
    if (!placed) note(errors, upstream);
  }
  for (const Claim& claim : claims) {
    const Pool& pool = pools[claim.pool];
    const karpenter_internal::Type& type =
        pool.types[karpenter_internal::Cheapest(pool, claim.options)];
    ScaleUpAction action;
    action.pool = snapshot.groups[pool.group].pool;
    action.nodes = 1;
    action.instance_type = type.name;
    action.spot = pool.spot && type.spot_price > 0;
    action.for_pods = claim.for_pods;
    decision->scale_ups.push_back(std::move(action));
  }
}

void Karpenter::Consolidate(const AutoscalerSnapshot& snapshot,
                            AutoscalerDecision* decision) {
  using karpenter_internal::Bin;
  using State = AutoscalerNodeView::State;
  const ResourceRegistry& registry = *snapshot.resources;
  const double now = snapshot.now_s;
  std::map<int, int> pool_of_group;
  std::vector<karpenter_internal::Pool> pools =
      karpenter_internal::BuildPools(snapshot, pools_, &pool_of_group);
  const std::vector<karpenter_internal::PodCandidate> pending =
      karpenter_internal::Candidates(snapshot, pool_of_group);

  // Per pool: candidates (ready, consolidatable, not nominated for a pending
  // pod) and the disruption budget (nodepool.go GetAllowedDisruptions:
  // percentages round up; less the nodes being deleted).
  struct Candidate {
    int pool = -1;
    const AutoscalerNodeView* node = nullptr;
    double idle_for_s = 0;
  };
  std::vector<Candidate> candidates;
  std::vector<int> budget(pools.size(), 0);
  std::vector<int> size(pools.size(), 0);
  std::vector<Bin> bins = karpenter_internal::ExistingBins(snapshot, pools);
  std::map<int, size_t> bin_of_node;
  for (size_t b = 0; b < bins.size(); ++b) bin_of_node[bins[b].node] = b;
  for (size_t p = 0; p < pools.size(); ++p) {
    const AutoscalerGroupView& group = snapshot.groups[pools[p].group];
    const KarpenterSettings& settings = group.spec->autoscaling.karpenter;
    int deleting = 0;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state == State::kDeleting) ++deleting;
    }
    size[p] = static_cast<int>(group.nodes.size()) - deleting;
    budget[p] = static_cast<int>(std::ceil(settings.disruption_budget_fraction *
                                               group.nodes.size() -
                                           karpenter_internal::kEps)) -
                deleting;
    for (const AutoscalerNodeView& node : group.nodes) {
      if (node.state != State::kReady) continue;
      const auto event = pod_events_.find(node.node);
      const double idle =
          now - (event != pod_events_.end() ? event->second.second
                                            : node.state_since_s);
      if (idle < settings.consolidate_after_s - karpenter_internal::kEps)
        continue;
      bool nominated = false;
      const auto bin = bin_of_node.find(node.node);
      for (const auto& pod : pending) {
        if (bin == bin_of_node.end() || nominated) break;
        const ResourceList* requests = pod.Requests(static_cast<int>(p));
        nominated =
            !pod.uses_claims && requests != nullptr &&
            karpenter_internal::FitsBin(*requests, bins[bin->second], registry);
      }
      if (!nominated) candidates.push_back({static_cast<int>(p), &node, idle});
    }
  }

  // emptiness.go: every empty candidate within budget, in one command.
  bool acted = false;
  for (const Candidate& c : candidates) {
    if (!c.node->pods.empty() || budget[c.pool] <= 0) continue;
    const NodePoolSpec& spec = *snapshot.groups[pools[c.pool].group].spec;
    if (size[c.pool] <= spec.autoscaling.min_nodes) continue;
    --budget[c.pool];
    --size[c.pool];
    acted = true;
    decision->scale_downs.push_back(
        {c.node->node,
         fmt::format("empty for {:.0f} s (consolidateAfter {:.0f} s)",
                     c.idle_for_s,
                     spec.autoscaling.karpenter.consolidate_after_s)});
  }
  if (acted) return;

  // singlenodeconsolidation.go: WhenEmptyOrUnderutilized pools, candidates
  // by price per pod (savings over disruption), first valid command wins.
  std::vector<const Candidate*> order;
  for (const Candidate& c : candidates) {
    const NodePoolSpec& spec = *snapshot.groups[pools[c.pool].group].spec;
    if (!c.node->pods.empty() &&
        spec.autoscaling.karpenter.consolidate_when_underutilized) {
      order.push_back(&c);
    }
  }
  auto ratio = [&](const Candidate* c) {
    const NodePoolSpec& spec = *snapshot.groups[pools[c->pool].group].spec;
    return karpenter_internal::NodePrice(pools[c->pool].types, spec, *c->node) /
           static_cast<double>(c->node->pods.size());
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const Candidate* a, const Candidate* b) {
                     return ratio(a) > ratio(b);
                   });
  for (const Candidate* c : order) {
    const karpenter_internal::Pool& pool = pools[c->pool];
    const NodePoolSpec& spec = *snapshot.groups[pool.group].spec;
    if (budget[c->pool] <= 0 || size[c->pool] <= spec.autoscaling.min_nodes) {
      continue;
    }
    bool evictable = true;
    for (const AutoscalerBoundPod& pod : c->node->pods) {
      evictable = evictable && pod.evictable;
    }
    if (!evictable) continue;
    // Where its pods would go: the pool's other nodes, first fit; the
    // trial placements are undone before the next candidate.
    std::vector<std::pair<Bin*, const ResourceList*>> placed;
    ResourceList leftover;
    std::vector<PodIndex> leftover_pods;
    for (const AutoscalerBoundPod& pod : c->node->pods) {
      Bin* to = nullptr;
      for (Bin& bin : bins) {
        if (bin.pool == c->pool && bin.node != c->node->node &&
            karpenter_internal::FitsBin(pod.requests, bin, registry)) {
          to = &bin;
          break;
        }
      }
      if (to != nullptr) {
        karpenter_internal::PlaceIn(pod.requests, to);
        placed.emplace_back(to, &pod.requests);
      } else {
        leftover = AddResources(leftover, pod.requests);
        leftover_pods.push_back(pod.pod);
      }
    }
    for (const auto& [to, requests] : placed) {
      to->free = AddResources(to->free, *requests);
      ++to->pods_free;
    }
    const double price =
        karpenter_internal::NodePrice(pool.types, spec, *c->node);
    if (leftover_pods.empty()) {
      decision->scale_downs.push_back(
          {c->node->node,
           fmt::format(
               "underutilized: its {} pods fit on other nodes (consolidation "
               "delete, ${:.2f}/h saved)",
               static_cast<int>(c->node->pods.size()), price)});
      return;
    }
    if (c->node->spot) continue;  // spot-to-spot consolidation is off
    std::vector<int> all(pool.types.size());
    for (size_t o = 0; o < all.size(); ++o) all[o] = static_cast<int>(o);
    const std::vector<int> options = karpenter_internal::OptionsHolding(
        pool, all, leftover, static_cast<int>(leftover_pods.size()), registry);
    if (options.empty()) continue;
    const karpenter_internal::Type& cheapest =
        pool.types[karpenter_internal::Cheapest(pool, options)];
    const double replacement =
        karpenter_internal::LaunchPrice(cheapest, pool.spot);
    if (replacement >= price) continue;
    ScaleUpAction action;
    action.pool = snapshot.groups[pool.group].pool;
    action.nodes = 1;
    action.instance_type = cheapest.name;
    action.spot = pool.spot && cheapest.spot_price > 0;
    action.for_pods = leftover_pods;
    decision->scale_ups.push_back(std::move(action));
    decision->scale_downs.push_back(
        {c->node->node,
         fmt::format("underutilized: replaced by {} (${:.2f}/h < ${:.2f}/h)",
                     cheapest.name, replacement, price)});
    return;
  }
}

}  // namespace gpushare
