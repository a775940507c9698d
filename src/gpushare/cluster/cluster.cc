#include "gpushare/cluster/cluster.h"

#include <regex>

#include <fmt/format.h>

#include "gpushare/cluster/dra/dra_dynamic_mig_devices.h"
#include "gpushare/cluster/dra/dra_gpu_devices.h"
#include "gpushare/cluster/hami_device_plugin.h"
#include "gpushare/cluster/nvidia_device_plugin.h"
#include "gpushare/io/input_error.h"

namespace gpushare {
std::string PoolDevicesProblem(PoolDevices devices, SharingScheme scheme) {
  if (devices != PoolDevices::kDra) return "";
  switch (scheme) {
    case SharingScheme::kExclusive:
    case SharingScheme::kTimeSlicing:
    case SharingScheme::kMig:
    case SharingScheme::kMps:  // "DRA MPS": an MPS daemon per claim
      return "";
    case SharingScheme::kHami:
      return "devices: dra does not serve sharing 'hami': HAMi vGPUs are "
             "handed out by HAMi's own device plugin and scheduler extender, "
             "not by NVIDIA's DRA driver; DRA serves 'exclusive', "
             "'time-slicing' (consumable shares), 'mps' and 'mig'";
  }
  return "";
}

std::string PoolSharingLabel(const NodePoolSpec& spec, const GpuModel* model) {
  if (spec.devices != PoolDevices::kDra) {
    return SharingLabel(spec.sharing, model);
  }
  return DraPoolSharingLabel(spec.dra, spec.sharing, model);
}

namespace {

void ValidateSpec(const NodePoolSpec& spec) {
  static const std::regex kName(R"([a-z0-9]([-a-z0-9]*[a-z0-9])?)");
  if (!std::regex_match(spec.name, kName) || spec.name.size() > 40) {
    throw InputError(
        "node pool name '" + spec.name +
        "' must be lowercase letters, digits and '-' (at most 40, starting "
        "and ending with a letter or digit)");
  }
  auto fail = [&](const std::string& message) {
    throw InputError("node pool '" + spec.name + "': " + message);
  };
  const std::string devices_problem =
      PoolDevicesProblem(spec.devices, spec.sharing.scheme());
  if (!devices_problem.empty()) fail(devices_problem);
  if (spec.devices == PoolDevices::kDra && spec.sharing.mig_enabled &&
      spec.sharing.sharing == DeviceSharing::kTimeSlicing) {
    fail(DraPoolSettingsProblem(DraPoolSettings(), spec.sharing));
  }
  const NodeGroupAutoscaling& as = spec.autoscaling;
  const bool elastic = as.provider != AutoscalerProvider::kNone;
  if (spec.nodes < (elastic ? 0 : 1) || spec.nodes > kMaxNodesPerPool) {
    fail(fmt::format("nodes must be {}..{}, got {}", elastic ? 0 : 1,
                     kMaxNodesPerPool, spec.nodes));
  }
  if (elastic) {
    if (as.min_nodes < 0 || as.max_nodes < 1 ||
        as.max_nodes > kMaxNodesPerPool || as.min_nodes > as.max_nodes) {
      fail(fmt::format("autoscaling min {} and max {}: expected 0 <= min <= "
                       "max, 1 <= max <= {}",
                       as.min_nodes, as.max_nodes, kMaxNodesPerPool));
    }
    if (!spec.members.empty()) {
      fail("an imported pool cannot autoscale (its nodes are real nodes)");
    }
  }
  if (spec.gpus_per_node < 0 || spec.gpus_per_node > kMaxGpusPerNode) {
    fail(fmt::format("gpus_per_node must be 0..{}, got {}", kMaxGpusPerNode,
                     spec.gpus_per_node));
  }
  if (spec.cpu_milli < 1) fail("cpu must be positive");
  if (spec.memory_mib < 1) fail("memory must be positive");
  if (spec.max_pods < 1 || spec.max_pods > 10000) {
    fail(fmt::format("max_pods must be 1..10000, got {}", spec.max_pods));
  }
  if (static_cast<int>(spec.members.size()) > spec.nodes) {
    fail(fmt::format("{} imported nodes for {} nodes (ResizePool drops the "
                     "last)",
                     spec.members.size(), spec.nodes));
  }
}

}  // namespace

void ResizePool(NodePoolSpec* pool, int nodes) {
  pool->nodes = nodes;
  if (nodes >= 0 && static_cast<int>(pool->members.size()) > nodes) {
    pool->members.resize(static_cast<size_t>(nodes));
  }
}

Cluster::Cluster(Catalog catalog) : catalog_(std::move(catalog)) {}

int Cluster::AddPool(const NodePoolSpec& spec) {
  ValidateSpec(spec);
  for (const NodePool& p : pools_) {
    if (p.spec.name == spec.name) {
      throw InputError("node pool '" + spec.name + "' is defined twice");
    }
  }
  NodePool pool;
  pool.spec = spec;
  try {
    if (spec.gpus_per_node > 0) {
      pool.model = &catalog_.Get(spec.gpu_model);
      pool.mig_layouts =
          spec.sharing.Validate(*pool.model, spec.gpus_per_node);
      if (spec.sharing.mig_enabled && spec.sharing.mig.dynamic) {
        if (spec.devices != PoolDevices::kDra) {
          throw InputError("dynamic MIG needs devices: dra");
        }
        for (const NvidiaPartition& p : DynamicMigGpuDomains(*pool.model)) {
          pool.dynamic_mig_domains.push_back(p.profile);
        }
      }
    } else if (spec.sharing.mig_enabled ||
               spec.sharing.sharing != DeviceSharing::kNone) {
      throw InputError("a pool without GPUs cannot share GPUs");
    }
  } catch (const InputError& e) {
    throw InputError("node pool '" + spec.name + "': " + e.message());
  }
  pool.first_node = static_cast<int>(nodes_.size());
  // An autoscaled pool has a slot per node it may grow to; those past
  // `nodes` do not exist at the start.
  const int slots = spec.autoscaling.provider != AutoscalerProvider::kNone
                        ? std::max(spec.nodes, spec.autoscaling.max_nodes)
                        : spec.nodes;
  pool.node_count = slots;
  const int index = static_cast<int>(pools_.size());
  const int members = static_cast<int>(spec.members.size());
  const int generated = slots - members;  // written, or new nodes
  const int width =
      static_cast<int>(std::to_string(std::max(0, generated - 1)).size());
  // A grown imported pool's new nodes: named apart from its real ones, with
  // the labels and taints the real ones share.
  const NodeIdentity new_node{"", spec.new_node_labels, spec.new_node_taints};
  nodes_.reserve(nodes_.size() + slots);
  for (int i = 0; i < slots; ++i) {
    const NodeIdentity* member = i < members   ? &spec.members[i]
                                 : members > 0 ? &new_node
                                               : nullptr;
    std::string name =
        i < members ? member->name
        : members > 0
            ? fmt::format("{}-new-{:0{}}", spec.name, i - members, width)
            : fmt::format("{}-{:0{}}", spec.name, i, width);
    if (!node_names_.insert(name).second) {
      throw InputError("node pool '" + spec.name + "': node '" + name +
                       "' is defined twice");
    }
    std::unique_ptr<DevicePlugin> devices;
    if (pool.model != nullptr) {
      if (!pool.dynamic_mig_domains.empty()) {
        devices = std::make_unique<DraDynamicMigDevices>(
            *pool.model, spec.gpus_per_node, resources_);
      } else if (spec.devices == PoolDevices::kDra) {
        devices = std::make_unique<DraGpuDevices>(
            name, *pool.model, spec.gpus_per_node, pool.mig_layouts,
            resources_, EffectiveDraPoolSettings(spec.dra, spec.sharing));
      } else if (spec.sharing.sharing == DeviceSharing::kHami) {
        devices = std::make_unique<HamiDevicePlugin>(
            *pool.model, spec.gpus_per_node, spec.sharing.hami, resources_);
      } else {
        devices = std::make_unique<NvidiaDevicePlugin>(
            *pool.model, spec.gpus_per_node, spec.sharing, pool.mig_layouts,
            resources_);
      }
    }
    Labels labels = spec.labels;
    labels["kubernetes.io/hostname"] = name;
    labels[kNodePoolLabel] = spec.name;
    if (devices) devices->AddNodeLabels(&labels);
    std::vector<Taint> taints = spec.taints;
    if (member != nullptr) {
      for (const auto& [key, value] : member->labels) labels[key] = value;
      labels[kNodePoolLabel] = spec.name;
      taints.insert(taints.end(), member->taints.begin(), member->taints.end());
    }
    nodes_.emplace_back(std::move(name), index, std::move(labels), taints,
                        pool.model, spec.gpus_per_node, spec.cpu_milli,
                        spec.memory_mib, spec.max_pods, std::move(devices));
    if (i >= spec.nodes) nodes_.back().SetExists(false);
  }
  pools_.push_back(std::move(pool));
  return index;
}

}  // namespace gpushare
