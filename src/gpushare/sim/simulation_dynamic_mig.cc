// Dynamic MIG in Simulation (simulation.h; docs/model.md §11.2): a pod
// bound to a dynamic-MIG node starts when the NVIDIA DRA driver has made
// its MIG instances (the node's MIG operation queue, MigInstanceLifecycle),
// its instances are destroyed when it releases its claim, the utilisation
// weights of a GPU's domains follow its live instances, and pending pods
// whose profile is stranded by fragmentation are counted at each sample.

#include <algorithm>

#include "gpushare/cluster/dra/dra_dynamic_mig_devices.h"
#include "gpushare/io/check.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {

double Simulation::CreateMigInstances(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  MigInstanceLifecycle& queue = *mig_lifecycles_[run.node];
  double ready = now;
  for (const DeviceGrant& g : scheduler_->AllocationOf(p).grants) {
    ready = std::max(ready, g.instance > 0 ? queue.Create(now, g.gpu)
                                           : queue.WholeReady(now, g.gpu));
  }
  run.mig_created = true;
  return ready;
}

void Simulation::ReleaseDevices(double now, PodIndex p) {
  PodRun& run = RunOf(p);
  for (int d : run.domains) --domains_[d].holders;
  const int node = run.node;
  const bool dynamic = has_dynamic_mig_ && node >= 0 && mig_lifecycles_[node];
  std::vector<int> gpus;
  if (dynamic) {
    for (const DeviceGrant& g : scheduler_->AllocationOf(p).grants) {
      // NodeUnprepareResources destroys the instances it made.
      if (run.mig_created && g.instance > 0) {
        mig_lifecycles_[node]->Destroy(now, g.gpu);
      }
      gpus.push_back(g.gpu);
    }
    run.mig_created = false;
  }
  scheduler_->Release(p);
  for (int g : gpus) RefreshDynamicMigWeights(node, g);
}

void Simulation::RefreshDynamicMigWeights(int node, int gpu) {
  const int first = gpu_domain_[node][gpu];
  const int count = static_cast<int>(
      cluster_->pools()[cluster_->nodes()[node].pool()]
          .dynamic_mig_domains.size());
  double used = 0;
  for (int i = first + 1; i < first + count; ++i) {
    DomainRun& d = domains_[i];
    d.info.gpu_equivalents = d.holders > 0 ? d.spec.sm_fraction : 0;
    domain_info_[i].gpu_equivalents = d.info.gpu_equivalents;
    used += d.info.gpu_equivalents;
  }
  // The whole-GPU domain: the GPU when a claim holds it whole, else the
  // part of the GPU no live instance holds.
  DomainRun& whole = domains_[first];
  whole.info.gpu_equivalents =
      whole.holders > 0 ? 1.0 : std::max(0.0, 1.0 - used);
  domain_info_[first].gpu_equivalents = whole.info.gpu_equivalents;
}

void Simulation::SampleMigFragmentation() {
  std::vector<int64_t> stranded(mig_fragmentation_.size(), 0);
  live_.ForEachLive([&](int64_t p) {
    if (live_[p].run.phase != Phase::kPending) return;
    const int pool = live_[p].target_pool;
    if (pool < 0 || static_cast<size_t>(pool) >= mig_fragmentation_.size() ||
        cluster_->pools()[pool].dynamic_mig_domains.empty()) {
      return;
    }
    const NodePool& np = cluster_->pools()[pool];
    for (int n = np.first_node; n < np.first_node + np.node_count; ++n) {
      const DevicePlugin* devices = cluster_->nodes()[n].devices();
      const DraDynamicMigDevices* mig =
          devices != nullptr ? devices->AsDynamicMig() : nullptr;
      if (mig == nullptr) continue;
      int64_t count = 0;
      const int profile = mig->ProfileOf(live_[p].pod.requests, &count);
      if (profile >= 0 && mig->StrandedAnywhere(profile)) {
        ++stranded[static_cast<size_t>(pool)];
        break;
      }
    }
  });
  for (size_t pool = 0; pool < mig_fragmentation_.size(); ++pool) {
    if (cluster_->pools()[pool].dynamic_mig_domains.empty()) continue;
    DynamicMigStats& s = mig_fragmentation_[pool];
    ++s.samples;
    s.stranded_pod_samples += stranded[pool];
    s.stranded_max = std::max(s.stranded_max, stranded[pool]);
  }
}

Simulation::DynamicMigStats Simulation::dynamic_mig_stats(int pool) const {
  DynamicMigStats out;
  if (static_cast<size_t>(pool) < mig_fragmentation_.size()) {
    out = mig_fragmentation_[static_cast<size_t>(pool)];
  }
  const NodePool& np = cluster_->pools()[pool];
  for (int n = np.first_node; n < np.first_node + np.node_count; ++n) {
    if (static_cast<size_t>(n) >= mig_lifecycles_.size() ||
        !mig_lifecycles_[n]) {
      continue;
    }
    const MigLifecycleCounts& c = mig_lifecycles_[n]->counts();
    out.lifecycle.created += c.created;
    out.lifecycle.destroyed += c.destroyed;
    out.lifecycle.mode_enables += c.mode_enables;
    out.lifecycle.mode_disables += c.mode_disables;
    out.lifecycle.creation_wait_s += c.creation_wait_s;
  }
  return out;
}

}  // namespace gpushare
