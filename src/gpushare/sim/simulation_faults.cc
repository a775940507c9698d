// Faults and recovery in Simulation (simulation.h): the execution domains
// (GPUs and MIG instances) and their fault domains, GPU faults with their
// blast radius (a reset takes the whole GPU and, under MIG, its instances
// until mig-manager recreates the layout), device health as the device
// plugin reports it, stalled device plugins, and the next fault's time.

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "gpushare/cluster/dra/nvidia_partitionable_slice.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/check.h"
#include "gpushare/sim/pool_model_params.h"
#include "gpushare/sim/simulation.h"

namespace gpushare {

void Simulation::BuildDomains() {
  const auto& nodes = cluster_->nodes();
  pool_params_.clear();
  for (const NodePool& pool : cluster_->pools()) {
    pool_params_.push_back(PoolModelParams(scenario_.model, pool.spec));
  }
  gpu_domain_.assign(nodes.size(), {});
  for (size_t n = 0; n < nodes.size(); ++n) {
    const Node& node = nodes[n];
    if (node.model() == nullptr) continue;
    const NodePool& pool = cluster_->pools()[node.pool()];
    // Several pods on one shared claim's GPU: the NVIDIA DRA driver's
    // default GpuConfig sharing, TimeSlicing (docs/model.md §11.1).
    const bool shared_claims =
        static_cast<size_t>(node.pool()) < shared_claim_pools_.size() &&
        shared_claim_pools_[static_cast<size_t>(node.pool())] != 0;
    const SharingScheme scheme =
        shared_claims && pool.spec.sharing.scheme() == SharingScheme::kExclusive
            ? SharingScheme::kTimeSlicing
            : pool.spec.sharing.scheme();
    const ShareModel* model = share_models_[static_cast<int>(scheme)].get();
    const bool dynamic = !pool.dynamic_mig_domains.empty();
    if (dynamic) {
      // The driver's MIG operation queue of the node (docs/model.md §11.2).
      has_dynamic_mig_ = true;
      mig_lifecycles_.resize(nodes.size());
      mig_fragmentation_.resize(cluster_->pools().size());
      const ModelParams& m = scenario_.model;
      mig_lifecycles_[n] = std::make_unique<MigInstanceLifecycle>(
          node.gpus(), NvidiaMigModeToggles(*node.model()),
          MigLifecycleTimes{m.mig_instance_create_s, m.mig_instance_destroy_s,
                            m.mig_mode_enable_s});
    }
    for (int g = 0; g < node.gpus(); ++g) {
      gpu_domain_[n].push_back(static_cast<int>(domains_.size()));
      const bool mig = !pool.mig_layouts.empty();
      const int count =
          dynamic ? static_cast<int>(pool.dynamic_mig_domains.size())
          : mig   ? static_cast<int>(pool.mig_layouts[g].size())
                  : 1;
      for (int i = 0; i < count; ++i) {
        DomainRun d;
        d.info.node = static_cast<int>(n);
        d.info.gpu = g;
        d.model = model;
        d.params = &pool_params_[static_cast<size_t>(node.pool())];
        d.spec.speed = node.model()->relative_speed;
        d.bandwidth_gb_s = node.model()->memory_bandwidth_gb_s;
        d.info.memory_mib = node.model()->memory_mib;
        d.info.time_shared =
            scheme == SharingScheme::kHami || shared_claims ||
            pool.spec.sharing.sharing == DeviceSharing::kTimeSlicing;
        if (mig) {
          const MigProfile& p =
              node.model()->mig->profiles[pool.mig_layouts[g][i].profile];
          d.info.mig_instance = i;
          d.info.profile = p.name;
          d.info.memory_mib = p.memory_mib;
          d.spec.sm_fraction = static_cast<double>(p.sms) /
                               static_cast<double>(node.model()->sms);
          d.bandwidth_gb_s = node.model()->InstanceBandwidthGbS(p);
          d.info.gpu_equivalents = d.spec.sm_fraction;
        }
        if (dynamic && i > 0) {
          // A MIG placement: no instance until a claim makes it (weight 0
          // until then; RefreshDynamicMigWeights).
          const MigProfile& p =
              node.model()->mig->profiles[pool.dynamic_mig_domains[i]];
          d.info.mig_instance = i;
          d.info.profile = p.name;
          d.info.memory_mib = p.memory_mib;
          d.spec.sm_fraction = static_cast<double>(p.sms) /
                               static_cast<double>(node.model()->sms);
          d.bandwidth_gb_s = node.model()->InstanceBandwidthGbS(p);
          d.info.gpu_equivalents = 0;
        }
        domains_.push_back(d);
        domain_info_.push_back(d.info);
      }
    }
  }
}

void Simulation::Fault(double now, int domain, int spec_index) {
  const FaultSpec& spec = scenario_.faults[spec_index];
  // The process goes on while there is work this fault did not create: its
  // own recovery must not keep it alive, or pods that can never fit (a gang
  // larger than its pool) would see faults for ever.
  const bool more_faults = spec.at_s < 0 && WorkLeft();
  if (domain < 0) {
    // Candidate domains: the pool's (and node's, GPU's) domains, less those
    // without an instance to fail (a reset took their MIG layout).
    const std::vector<int>& targeted = FaultDomains(spec_index);
    const std::vector<int>* candidates = &targeted;
    std::vector<int> standing;
    if (layout_lost_domains_ > 0) {
      for (int i : targeted) {
        if (!domains_[i].layout_lost) standing.push_back(i);
      }
      candidates = &standing;
    }
    if (!candidates->empty()) {
      domain = (*candidates)[rng_.Below(candidates->size())];
    }
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

const std::vector<int>& Simulation::FaultDomains(int spec_index) {
  const size_t k = static_cast<size_t>(spec_index);
  if (fault_domains_.size() <= k) {
    fault_domains_.resize(scenario_.faults.size());
    fault_domains_built_.resize(scenario_.faults.size(), 0);
  }
  std::vector<int>& out = fault_domains_[k];
  if (fault_domains_built_[k]) return out;
  fault_domains_built_[k] = 1;
  const FaultSpec& spec = scenario_.faults[k];
  for (size_t i = 0; i < domains_.size(); ++i) {
    const DomainInfo& info = domains_[i].info;
    const Node& node = cluster_->nodes()[info.node];
    const NodePool& pool = cluster_->pools()[node.pool()];
    if (!spec.pool.empty() && pool.spec.name != spec.pool) continue;
    if (spec.node >= 0 && info.node != pool.first_node + spec.node) continue;
    if (spec.gpu >= 0 && info.gpu != spec.gpu) continue;
    // GPU faults on dynamic-MIG pools are not modelled yet.
    if (!pool.dynamic_mig_domains.empty()) continue;
    out.push_back(static_cast<int>(i));
  }
  return out;
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
      if (!d.layout_lost) ++layout_lost_domains_;
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
    --layout_lost_domains_;
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

}  // namespace gpushare
