// NodeGroupAutoscaling: how a node pool grows and shrinks with the pods — a
// cluster-autoscaler node group or a Karpenter NodePool — as the scenario's
// `autoscaling:` key of a pool says it (docs/scenario.md; the model of their
// decisions: docs/model.md, "Elastic node pools").
//
// Contract: plain values with the upstream defaults. A pool whose provider
// is kNone has a fixed node count (NodePoolSpec::nodes). Otherwise the pool
// starts with NodePoolSpec::nodes nodes (min <= nodes <= max) and its
// autoscaler adds nodes up to `max` and removes them down to `min`. Each
// setting names the flag or field it stands for and where its default comes
// from; the reader (scenario/) checks ranges, the emitters (emit/) write
// them back in the consumer's own format.

#ifndef GPUSHARE_CLUSTER_NODE_GROUP_AUTOSCALING_H_
#define GPUSHARE_CLUSTER_NODE_GROUP_AUTOSCALING_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpushare {

enum class AutoscalerProvider { kNone, kClusterAutoscaler, kKarpenter };

// cluster-autoscaler's expanders (--expander): which node group a scale-up
// grows when several could hold the pending pods.
enum class CaExpander { kRandom, kLeastWaste, kMostPods, kPrice, kPriority };

// cluster-autoscaler's flags that shape one node group's behaviour
// (kubernetes/autoscaler cluster-autoscaler/FAQ.md, "What are the parameters
// to CA?"; defaults as of cluster-autoscaler 1.32).
struct ClusterAutoscalerSettings {
  double scan_interval_s = 10;                  // --scan-interval
  double scale_down_unneeded_time_s = 600;      // --scale-down-unneeded-time
  double scale_down_delay_after_add_s = 600;    // --scale-down-delay-after-add
  double scale_down_utilization_threshold = 0.5;  // cpu/memory nodes
  // --scale-down-gpu-utilization-threshold: on a node with GPUs only the
  // GPU's requested share counts.
  double scale_down_gpu_utilization_threshold = 0.5;
  double max_node_provision_time_s = 900;       // --max-node-provision-time
  double max_graceful_termination_s = 600;      // --max-graceful-termination-sec
  double new_pod_scale_up_delay_s = 0;          // --new-pod-scale-up-delay
  bool ignore_daemonsets_utilization = false;   // --ignore-daemonsets-utilization
  // --expander: "least-waste" by default (cluster-autoscaler/FAQ.md).
  CaExpander expander = CaExpander::kLeastWaste;
  int priority = 0;  // this group's priority under the priority expander
  // The node group's template as its cloud provider describes it when the
  // group has no ready node to copy (scale from zero): extended resources
  // the provider declares (AWS ASG tag
  // `k8s.io/cluster-autoscaler/node-template/resources/<name>`, Cluster API
  // `capacity.cluster-autoscaler.kubernetes.io/...` annotations), by
  // resource name. Empty: the provider knows only the instance's physical
  // GPUs (nvidia.com/gpu = gpus_per_node).
  std::map<std::string, int64_t> template_resources;
  // DRA pools: the provider gives template ResourceSlices for the group
  // (without them a DRA pod cannot trigger a scale-up from zero).
  bool template_resource_slices = false;
};

// One instance type a Karpenter NodePool may launch.
struct KarpenterInstanceType {
  std::string name;          // e.g. p5.48xlarge
  int gpus = 0;              // physical GPUs (the pool's GPU model)
  double price_per_hour = 0;  // on-demand
  double spot_price_per_hour = 0;  // 0: not offered as spot
};

// A Karpenter NodePool's settings (karpenter.sh/v1 NodePool; defaults from
// kubernetes-sigs/karpenter's API and docs).
struct KarpenterSettings {
  // spec.disruption.consolidationPolicy: WhenEmptyOrUnderutilized or
  // WhenEmpty; spec.disruption.consolidateAfter.
  bool consolidate_when_underutilized = true;
  double consolidate_after_s = 0;
  // spec.limits by resource name (cpu, memory, nvidia.com/gpu); absent: none.
  std::map<std::string, int64_t> limits;
  // Instance types it may choose from; empty: one type, the pool's node
  // shape (gpus_per_node of its GPU model at the catalog's price).
  std::vector<KarpenterInstanceType> instance_types;
  // karpenter.sh/capacity-type: launch spot where offered.
  bool spot = false;
  double spot_interruptions_per_node_hour = 0;
  // The provisioner's batching window (--batch-idle-duration,
  // --batch-max-duration).
  double batch_idle_duration_s = 1;
  double batch_max_duration_s = 10;
  // spec.disruption.budgets[].nodes as a fraction of the pool's nodes.
  double disruption_budget_fraction = 0.1;
};

struct NodeGroupAutoscaling {
  AutoscalerProvider provider = AutoscalerProvider::kNone;
  int min_nodes = 0;
  int max_nodes = 0;
  ClusterAutoscalerSettings cluster_autoscaler;
  KarpenterSettings karpenter;
};

}  // namespace gpushare

#endif  // GPUSHARE_CLUSTER_NODE_GROUP_AUTOSCALING_H_
