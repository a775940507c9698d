// Scheduler (scheduler.h): its construction from a profile, pod shapes (the
// requests and constraints that decide a fit, interned once), and the node
// indexes its scans read (free-node bitsets per resource, HAMi fit
// summaries, node versions), with the invariant checks. The queue, the
// cycle, preemption, a gang's preemption and nominated pods are in
// scheduling_queue.cc, scheduling_cycle.cc, scheduler_preemption.cc,
// scheduler_gang_preemption.cc and scheduler_nomination.cc.

#include "gpushare/sched/scheduler.h"

#include <algorithm>
#include <charconv>
#include <limits>

#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sched/fit_error.h"
#include "gpushare/sched/plugin_registry.h"
#include "gpushare/sched/plugins/gpu_device_fit.h"
#include "gpushare/sched/plugins/node_resources_fit.h"

namespace gpushare {
namespace {

void PutNumber(std::string& key, int64_t v) {
  char buffer[24];
  const std::to_chars_result r =
      std::to_chars(buffer, buffer + sizeof(buffer), v);
  key.append(buffer, r.ptr);
}

// Length-prefixed, so that no string can forge another key.
void Put(std::string& key, std::string_view s) {
  PutNumber(key, static_cast<int64_t>(s.size()));
  key += ':';
  key += s;
}

// The scheduling constraints a pod's static filters depend on, into `key`.
void ConstraintKey(const Pod& pod, std::string& key) {
  key = "s";
  for (const auto& [k, v] : pod.node_selector) {
    Put(key, k);
    Put(key, v);
  }
  key += "|a";
  for (const NodeSelectorTerm& term : pod.required_affinity) {
    key += '(';
    for (const auto& r : term.match_expressions) {
      Put(key, r.key);
      PutNumber(key, static_cast<int>(r.op));
      for (const std::string& v : r.values) Put(key, v);
      key += ';';
    }
    key += ')';
  }
  key += "|t";
  for (const Toleration& t : pod.tolerations) {
    Put(key, t.key);
    Put(key, t.value);
    PutNumber(key, static_cast<int>(t.op));
    if (t.any_effect) {
      key += '*';
    } else {
      PutNumber(key, static_cast<int>(t.effect));
    }
    key += ';';
  }
  if (!pod.dra_claim_node.empty()) {
    // Pinned by an allocated shared claim: the claim's node (the claim
    // itself is part of the shape: InternShape).
    key += "|c";
    Put(key, pod.dra_claim_node);
  }
}

}  // namespace
Scheduler::Scheduler(Cluster& cluster, SchedulerProfile profile)
    : cluster_(cluster),
      profile_(std::move(profile)),
      rng_(profile_.seed),
      preemption_rng_(Rng(profile_.seed).Fork(0x9EE3197)) {
  profile_.Validate();
  preemption_ = !profile_.post_filters.empty();
  auto get = [&](const std::string& name) -> Plugin* {
    for (const auto& p : plugins_) {
      if (p->Name() == name) return p.get();
    }
    plugins_.push_back(MakePlugin(name, profile_, cluster_.resources()));
    return plugins_.back().get();
  };
  for (const std::string& name : profile_.filters) {
    auto* filter = dynamic_cast<FilterPlugin*>(get(name));
    GS_CHECK(filter != nullptr, "filter plugin without Filter");
    filters_in_order_.push_back(filter);
    (filter->Static() ? static_filters_ : dynamic_filters_).push_back(filter);
    if (name == GpuDeviceFit::kName) device_fit_filter_ = true;
    if (name == NodeResourcesFit::kName) resources_fit_filter_ = true;
  }
  while (static_prefix_ < filters_in_order_.size() &&
         filters_in_order_[static_prefix_]->Static()) {
    ++static_prefix_;
  }
  only_fit_filters_ = true;
  for (const FilterPlugin* f : dynamic_filters_) {
    only_fit_filters_ =
        only_fit_filters_ && (f->Name() == GpuDeviceFit::kName ||
                              f->Name() == NodeResourcesFit::kName);
  }
  for (const auto& [name, weight] : profile_.scores) {
    auto* score = dynamic_cast<ScorePlugin*>(get(name));
    GS_CHECK(score != nullptr, "score plugin without Score");
    scores_.push_back({score, weight});
  }
  score_memo_.resize(scores_.size());
}

Scheduler::~Scheduler() = default;

int Scheduler::InternShape(const Pod& pod, int* constraints) {
  // Keys are built in one buffer: a known key allocates nothing.
  std::string& key = key_scratch_;
  ConstraintKey(pod, key);
  auto cit = constraint_ids_.find(key);
  if (cit == constraint_ids_.end()) {
    cit = constraint_ids_.emplace(key, static_cast<int>(constraint_ids_.size()))
              .first;
    static_fits_.emplace_back();
    static_fit_bits_.emplace_back();
    static_diagnoses_.emplace_back();
    sleepers_.emplace_back();
    sleeper_slot_.push_back(-1);
  }
  *constraints = cit->second;
  key += "|r";
  for (const auto& [id, quantity] : pod.requests.items()) {
    PutNumber(key, id);
    key += '=';
    PutNumber(key, quantity);
    key += ';';
  }
  if (!pod.dra_claim_node.empty()) {
    // A pinned pod waits with the pods of its own claim only (PreFilter's
    // "resourceclaim in use" is the claim's).
    key += "|c";
    Put(key, pod.dra_claim);
  }
  auto it = shape_ids_.find(key);
  if (it == shape_ids_.end()) {
    it = shape_ids_.emplace(key, static_cast<int>(shape_ids_.size())).first;
    groups_.emplace_back();
    WakeHint& hint = wake_hints_.emplace_back();
    hint.constraints = *constraints;
    hint.hami =
        device_fit_filter_ &&
        HamiFitNeed::Of(pod, cluster_.resources(), resources_fit_filter_,
                        only_fit_filters_, &hint.need);
    if (groups_.size() > tracked_.size() * 64) {
      tracked_.push_back(0);
      wake_deferred_.push_back(0);
    }
  }
  return it->second;
}

const std::vector<uint8_t>& Scheduler::StaticFits(int constraints,
                                                  const Pod& pod) {
  std::vector<uint8_t>& fits = static_fits_[constraints];
  const auto& nodes = cluster_.nodes();
  if (fits.size() != nodes.size()) {
    fits.resize(nodes.size());
    std::vector<uint64_t>& bits = static_fit_bits_[constraints];
    bits.assign((nodes.size() + 63) / 64, 0);
    for (FilterPlugin* f : static_filters_) f->PreFilter(pod);
    for (size_t n = 0; n < nodes.size(); ++n) {
      // A slot of an autoscaled pool without a node passes nothing.
      bool ok = nodes[n].exists();
      for (FilterPlugin* f : static_filters_) {
        if (!ok) break;
        if (!f->Filter(pod, nodes[n], nullptr)) {
          ok = false;
          break;
        }
      }
      // DynamicResources' Filter of an allocated shared claim: its node only.
      if (ok && !pod.dra_claim_node.empty()) {
        ok = nodes[n].name() == pod.dra_claim_node;
      }
      fits[n] = ok ? 1 : 0;
      bits[n / 64] |= uint64_t{ok} << (n % 64);
    }
  }
  return fits;
}

int Scheduler::ExistingNodes() const {
  int existing = 0;
  for (const Node& node : cluster_.nodes()) existing += node.exists();
  return existing;
}

bool Scheduler::FitsNode(const Pod& pod, int constraints, int node) {
  if (!StaticFits(constraints, pod)[node]) return false;
  for (FilterPlugin* f : dynamic_filters_) f->PreFilter(pod);
  return FitsNodePrepared(pod, constraints, node);
}

bool Scheduler::FitsNodePrepared(const Pod& pod, int constraints, int node) {
  if (!StaticFits(constraints, pod)[node]) return false;
  for (FilterPlugin* f : dynamic_filters_) {
    if (!f->Filter(pod, cluster_.nodes()[node], nullptr)) return false;
  }
  // RunFilterPluginsWithNominatedPods: it must pass with them too.
  return nominee_count_ == 0 || !NomineesApply(pod, node) ||
         FitsWithNominees(pod, node, nullptr);
}

ResourceId Scheduler::PivotResource(const Pod& pod) const {
  const ResourceRegistry& registry = cluster_.resources();
  for (const auto& [id, quantity] : pod.requests.items()) {
    if (id > ResourceRegistry::kMemoryId && quantity > 0 &&
        !registry.IgnoredByScheduler(id)) {
      return id;
    }
  }
  return -1;
}

const std::vector<uint64_t>& Scheduler::FreeNodes(ResourceId resource) {
  if (resource >= static_cast<int>(free_nodes_.size())) {
    free_nodes_.resize(resource + 1);
  }
  std::vector<uint64_t>& bits = free_nodes_[resource];
  const auto& nodes = cluster_.nodes();
  if (bits.size() * 64 < nodes.size()) {
    bits.assign((nodes.size() + 63) / 64, 0);
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (nodes[n].Allocatable(resource) > nodes[n].Requested(resource)) {
        bits[n / 64] |= uint64_t{1} << (n % 64);
      }
    }
  }
  return bits;
}

HamiFitSummary Scheduler::HamiSummaryOf(int node) const {
  return HamiFitSummary::Of(cluster_.nodes()[node], gpu_resource_);
}

const HamiFitSummary* Scheduler::HamiSummaries() {
  const auto& nodes = cluster_.nodes();
  const int num_nodes = static_cast<int>(nodes.size());
  if (hami_checked_nodes_ != num_nodes) {
    hami_checked_nodes_ = num_nodes;
    hami_summaries_.clear();
    has_hami_nodes_ =
        std::any_of(nodes.begin(), nodes.end(), [](const Node& n) {
          return n.devices() != nullptr && n.devices()->AsHami() != nullptr;
        });
  }
  if (!has_hami_nodes_) return nullptr;
  if (static_cast<int>(hami_summaries_.size()) != num_nodes) {
    // Once registered, an id stays; before, no node has the resource.
    gpu_resource_ = cluster_.resources().Find(kNvidiaGpu);
    hami_summaries_.resize(num_nodes);
    for (int n = 0; n < num_nodes; ++n) hami_summaries_[n] = HamiSummaryOf(n);
  }
  return hami_summaries_.data();
}

const uint64_t* Scheduler::NodeVersions() {
  const auto& nodes = cluster_.nodes();
  if (node_versions_.size() != nodes.size()) {
    node_versions_.resize(nodes.size());
    for (size_t n = 0; n < nodes.size(); ++n) {
      node_versions_[n] = nodes[n].version();
    }
  }
  return node_versions_.data();
}

void Scheduler::UpdateFreeNodes(int node, const ResourceList& requests) {
  if (node < static_cast<int>(hami_summaries_.size())) {
    hami_summaries_[node] = HamiSummaryOf(node);
  }
  const Node& n = cluster_.nodes()[node];
  if (node < static_cast<int>(node_versions_.size())) {
    node_versions_[node] = n.version();
  }
  if (change_log_.size() >=
      std::max<size_t>(size_t{1} << 20, 8 * cluster_.nodes().size())) {
    change_log_base_ += change_log_.size();
    change_log_.clear();
  }
  change_log_.push_back(node);
  for (const auto& [id, quantity] : requests.items()) {
    if (id >= static_cast<int>(free_nodes_.size()) || free_nodes_[id].empty()) {
      continue;  // not built yet: built whole on first use
    }
    uint64_t& word = free_nodes_[id][node / 64];
    const uint64_t bit = uint64_t{1} << (node % 64);
    if (n.Allocatable(id) > n.Requested(id)) {
      word |= bit;
    } else {
      word &= ~bit;
    }
  }
}

void Scheduler::CheckInvariants(int index) const {
  const Node& node = cluster_.nodes()[index];
  const ResourceRegistry& registry = cluster_.resources();
  for (ResourceId id = 0; id < registry.size(); ++id) {
    if (registry.IgnoredByScheduler(id)) continue;
    // Against capacity: pods holding a device that went unhealthy stay.
    GS_CHECK(node.Requested(id) <= node.Capacity(id),
             "node resources over-allocated");
  }
  GS_CHECK(node.pod_count() <= node.max_pods(), "too many pods on a node");
  if (node.devices() != nullptr) node.devices()->CheckInvariants();
  if (index < static_cast<int>(hami_summaries_.size())) {
    GS_CHECK(hami_summaries_[index] == HamiSummaryOf(index),
             "scheduler's HAMi fit summary out of sync");
  }
  if (index < static_cast<int>(node_versions_.size())) {
    GS_CHECK(node_versions_[index] == node.version(),
             "scheduler's copy of a node version out of sync");
  }
}

}  // namespace gpushare
