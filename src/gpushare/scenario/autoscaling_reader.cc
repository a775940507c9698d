// A pool's `autoscaling:` key: the provider (cluster-autoscaler or
// Karpenter), the node-count range and the provider's settings, into
// NodePoolSpec::autoscaling (cluster/node_group_autoscaling.h). Every
// error is at the key or value it is about (file:line:col).

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpushare/cluster/cluster.h"
#include "gpushare/cluster/dra/quantity.h"
#include "gpushare/io/input_error.h"
#include "gpushare/io/yaml_input.h"
#include "gpushare/scenario/scenario_fields.h"
#include "gpushare/scenario/scenario_sections.h"

namespace gpushare {
namespace scenario_internal {

namespace {

constexpr int64_t kMaxResourceCount = 1000000000;

double Seconds(const YamlMap& m, std::string_view key, bool above_zero) {
  return Number(m, key, 0, kMaxSeconds, above_zero);
}

// A resource name as Kubernetes writes it (`nvidia.com/gpu`, `cpu`).
std::string ResourceName(const YamlMap& m, const YAML::Node& key) {
  const std::string name = ScalarString(m.file(), key, m.what() + " key");
  bool ok = !name.empty() && name.size() <= 253;
  for (char c : name) {
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                c == '-' || c == '_' || c == '/');
  }
  if (!ok) {
    FailAt(m.file(), key,
           fmt::format("{}: '{}' is not a resource name (such as "
                       "nvidia.com/gpu or cpu)",
                       m.what(), name));
  }
  return name;
}

void ReadClusterAutoscaler(const YamlMap& a, ClusterAutoscalerSettings* ca) {
  const YamlMap m = a.Map("cluster_autoscaler", a.what() + " cluster_autoscaler");
  m.AllowOnly({"scan_interval_s", "scale_down_unneeded_time_s",
               "scale_down_delay_after_add_s",
               "scale_down_utilization_threshold",
               "scale_down_gpu_utilization_threshold",
               "max_node_provision_time_s", "max_graceful_termination_s",
               "new_pod_scale_up_delay_s", "ignore_daemonsets_utilization",
               "expander", "priority", "template_resources",
               "template_resource_slices"});
  if (m.Has("scan_interval_s")) {
    ca->scan_interval_s = Seconds(m, "scan_interval_s", true);
  }
  if (m.Has("scale_down_unneeded_time_s")) {
    ca->scale_down_unneeded_time_s =
        Seconds(m, "scale_down_unneeded_time_s", false);
  }
  if (m.Has("scale_down_delay_after_add_s")) {
    ca->scale_down_delay_after_add_s =
        Seconds(m, "scale_down_delay_after_add_s", false);
  }
  if (m.Has("scale_down_utilization_threshold")) {
    ca->scale_down_utilization_threshold =
        m.Double("scale_down_utilization_threshold", 0, 1);
  }
  if (m.Has("scale_down_gpu_utilization_threshold")) {
    ca->scale_down_gpu_utilization_threshold =
        m.Double("scale_down_gpu_utilization_threshold", 0, 1);
  }
  if (m.Has("max_node_provision_time_s")) {
    ca->max_node_provision_time_s =
        Seconds(m, "max_node_provision_time_s", true);
  }
  if (m.Has("max_graceful_termination_s")) {
    ca->max_graceful_termination_s =
        Seconds(m, "max_graceful_termination_s", false);
  }
  if (m.Has("new_pod_scale_up_delay_s")) {
    ca->new_pod_scale_up_delay_s =
        Seconds(m, "new_pod_scale_up_delay_s", false);
  }
  if (m.Has("ignore_daemonsets_utilization")) {
    ca->ignore_daemonsets_utilization = m.Bool("ignore_daemonsets_utilization");
  }
  if (m.Has("expander")) {
    const std::string e =
        Choice(m, "expander", "expander",
               {"random", "least-waste", "most-pods", "price", "priority"});
    ca->expander = e == "random"        ? CaExpander::kRandom
                   : e == "least-waste" ? CaExpander::kLeastWaste
                   : e == "most-pods"   ? CaExpander::kMostPods
                   : e == "price"       ? CaExpander::kPrice
                                        : CaExpander::kPriority;
  }
  if (m.Has("priority")) {
    ca->priority = static_cast<int>(m.Int("priority", -1000000, 1000000));
  }
  if (m.Has("template_resources")) {
    const YamlMap t =
        m.Map("template_resources", m.what() + " template_resources");
    for (const auto& kv : t.node()) {
      const std::string name = ResourceName(t, kv.first);
      ca->template_resources[name] = ScalarInt(
          t.file(), kv.second, t.what() + "." + name, 0, kMaxResourceCount);
    }
  }
  if (m.Has("template_resource_slices")) {
    ca->template_resource_slices = m.Bool("template_resource_slices");
  }
}

void ReadKarpenter(const YamlMap& a, const NodePoolSpec& spec,
                   KarpenterSettings* k) {
  const YamlMap m = a.Map("karpenter", a.what() + " karpenter");
  m.AllowOnly({"consolidation_policy", "consolidate_after_s", "limits",
               "instance_types", "spot", "spot_interruptions_per_node_hour",
               "batch_idle_duration_s", "batch_max_duration_s",
               "disruption_budget_fraction"});
  if (m.Has("consolidation_policy")) {
    k->consolidate_when_underutilized =
        Choice(m, "consolidation_policy", "consolidation policy",
               {"WhenEmptyOrUnderutilized", "WhenEmpty"}) ==
        "WhenEmptyOrUnderutilized";
  }
  if (m.Has("consolidate_after_s")) {
    k->consolidate_after_s = Seconds(m, "consolidate_after_s", false);
  }
  if (m.Has("limits")) {
    // spec.limits: cpu in cores, memory a quantity (bytes), any other
    // resource a count; held as the simulator's units (millicores, MiB).
    const YamlMap l = m.Map("limits", m.what() + " limits");
    for (const auto& kv : l.node()) {
      const std::string name = ResourceName(l, kv.first);
      const std::string what = l.what() + "." + name;
      if (name == "memory") {
        const std::string text = ScalarString(l.file(), kv.second, what);
        std::string why;
        const std::optional<int64_t> bytes = ParseQuantity(text, &why);
        if (!bytes) {
          FailAt(l.file(), kv.second,
                 fmt::format("{}: '{}' is not a quantity such as 1000Gi{}",
                             what, text, why.empty() ? "" : ": " + why));
        }
        k->limits[name] = *bytes / (int64_t{1} << 20);
      } else if (name == "cpu") {
        k->limits[name] =
            1000 * ScalarInt(l.file(), kv.second, what, 0, 100000000);
      } else {
        k->limits[name] =
            ScalarInt(l.file(), kv.second, what, 0, kMaxResourceCount);
      }
    }
  }
  if (m.Has("instance_types")) {
    for (const auto& node : List(m, "instance_types", true)) {
      const YamlMap t(m.file(), node, NamedWhat(m.file(), node, "instance type"));
      t.AllowOnly({"name", "gpus", "price_per_hour", "spot_price_per_hour"});
      KarpenterInstanceType type;
      type.name = t.String("name");
      for (const KarpenterInstanceType& other : k->instance_types) {
        if (other.name == type.name) {
          FailKey(t, "name", fmt::format("instance type '{}' is given twice",
                                         type.name));
        }
      }
      type.gpus = static_cast<int>(t.Int("gpus", 0, kMaxGpusPerNode));
      if (type.gpus != spec.gpus_per_node) {
        FailKey(t, "gpus",
                fmt::format("{} GPUs, the pool's nodes have {}: a pool holds "
                            "nodes of one shape (give each shape its own "
                            "pool and NodePool)",
                            type.gpus, spec.gpus_per_node));
      }
      type.price_per_hour = t.Double("price_per_hour", 0, 1000000);
      if (t.Has("spot_price_per_hour")) {
        type.spot_price_per_hour = t.Double("spot_price_per_hour", 0, 1000000);
      }
      k->instance_types.push_back(type);
    }
  }
  if (m.Has("spot")) k->spot = m.Bool("spot");
  if (m.Has("spot_interruptions_per_node_hour")) {
    k->spot_interruptions_per_node_hour =
        m.Double("spot_interruptions_per_node_hour", 0, 100);
  }
  if (k->spot) {
    bool offered = false;
    for (const KarpenterInstanceType& t : k->instance_types) {
      offered |= t.spot_price_per_hour > 0;
    }
    if (!offered) {
      FailKey(m, "spot",
              "no instance type offers spot: give instance_types with a "
              "spot_price_per_hour");
    }
  } else if (k->spot_interruptions_per_node_hour > 0) {
    FailKey(m, "spot_interruptions_per_node_hour",
            "applies to spot nodes (spot: true)");
  }
  if (m.Has("batch_idle_duration_s")) {
    k->batch_idle_duration_s = Seconds(m, "batch_idle_duration_s", true);
  }
  if (m.Has("batch_max_duration_s")) {
    k->batch_max_duration_s = Seconds(m, "batch_max_duration_s", true);
  }
  if (k->batch_idle_duration_s > k->batch_max_duration_s) {
    FailKey(m, m.Has("batch_idle_duration_s") ? "batch_idle_duration_s"
                                               : "batch_max_duration_s",
            fmt::format("batch_idle_duration_s {} is over "
                        "batch_max_duration_s {}",
                        MessageNum(k->batch_idle_duration_s),
                        MessageNum(k->batch_max_duration_s)));
  }
  if (m.Has("disruption_budget_fraction")) {
    k->disruption_budget_fraction =
        m.Double("disruption_budget_fraction", 0, 1);
  }
}

}  // namespace

void ReadAutoscaling(const YamlMap& pool, NodePoolSpec* spec) {
  const YamlMap a = pool.Map("autoscaling", pool.what() + " autoscaling");
  a.AllowOnly({"provider", "min", "max", "cluster_autoscaler", "karpenter"});
  NodeGroupAutoscaling& as = spec->autoscaling;
  as.provider = Choice(a, "provider", "provider",
                       {"cluster-autoscaler", "karpenter"}) == "karpenter"
                    ? AutoscalerProvider::kKarpenter
                    : AutoscalerProvider::kClusterAutoscaler;
  as.min_nodes = static_cast<int>(a.Int("min", 0, kMaxNodesPerPool));
  as.max_nodes = static_cast<int>(a.Int("max", 1, kMaxNodesPerPool));
  if (as.min_nodes > as.max_nodes) {
    FailKey(a, "min",
            fmt::format("min {} is over max {}", as.min_nodes, as.max_nodes));
  }
  if (spec->nodes < as.min_nodes || spec->nodes > as.max_nodes) {
    FailKey(pool, "nodes",
            fmt::format("{} nodes at the start, outside autoscaling's range "
                        "min {} .. max {}",
                        spec->nodes, as.min_nodes, as.max_nodes));
  }
  const bool karpenter = as.provider == AutoscalerProvider::kKarpenter;
  if (a.Has("cluster_autoscaler")) {
    if (karpenter) {
      FailKey(a, "cluster_autoscaler",
              "applies to provider cluster-autoscaler (this pool's is "
              "karpenter)");
    }
    ReadClusterAutoscaler(a, &as.cluster_autoscaler);
  }
  if (a.Has("karpenter")) {
    if (!karpenter) {
      FailKey(a, "karpenter",
              "applies to provider karpenter (this pool's is "
              "cluster-autoscaler)");
    }
    ReadKarpenter(a, *spec, &as.karpenter);
  }
}

}  // namespace scenario_internal
}  // namespace gpushare
