// The `autoscaling:` key of a pool (autoscaling_reader.cc): every setting
// read into NodeGroupAutoscaling, the defaults kept, and bad values refused
// at their line.

#include <gtest/gtest.h>

#include <string>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace {

const char* kWorkload =
    "workload:\n"
    "  classes:\n"
    "    - {name: a, class: batch, count: 2, gpus: 1, work_s: 60}\n";

Scenario Read(const std::string& pool) {
  return ReadScenarioYaml("cluster:\n  pools:\n" + pool + kWorkload,
                          "s.yaml", Catalog::Builtin());
}

std::string ErrorOf(const std::string& pool) {
  try {
    Read(pool);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(AutoscalingReaderTest, ClusterAutoscalerSettings) {
  const Scenario s = Read(
      "    - name: g\n"
      "      gpu: L4\n"
      "      nodes: 0\n"
      "      autoscaling:\n"
      "        provider: cluster-autoscaler\n"
      "        min: 0\n"
      "        max: 5\n"
      "        cluster_autoscaler:\n"
      "          scan_interval_s: 20\n"
      "          scale_down_unneeded_time_s: 300\n"
      "          scale_down_gpu_utilization_threshold: 0.3\n"
      "          max_node_provision_time_s: 1200\n"
      "          expander: least-waste\n"
      "          template_resources: {nvidia.com/gpu: 32}\n"
      "          template_resource_slices: true\n");
  const NodeGroupAutoscaling& a = s.pools[0].autoscaling;
  EXPECT_EQ(s.pools[0].nodes, 0);
  EXPECT_EQ(a.provider, AutoscalerProvider::kClusterAutoscaler);
  EXPECT_EQ(a.min_nodes, 0);
  EXPECT_EQ(a.max_nodes, 5);
  EXPECT_EQ(a.cluster_autoscaler.scan_interval_s, 20);
  EXPECT_EQ(a.cluster_autoscaler.scale_down_unneeded_time_s, 300);
  EXPECT_EQ(a.cluster_autoscaler.scale_down_gpu_utilization_threshold, 0.3);
  EXPECT_EQ(a.cluster_autoscaler.scale_down_utilization_threshold, 0.5);
  EXPECT_EQ(a.cluster_autoscaler.max_node_provision_time_s, 1200);
  EXPECT_EQ(a.cluster_autoscaler.max_graceful_termination_s, 600);
  EXPECT_EQ(a.cluster_autoscaler.expander, CaExpander::kLeastWaste);
  EXPECT_EQ(a.cluster_autoscaler.template_resources.at("nvidia.com/gpu"), 32);
  EXPECT_TRUE(a.cluster_autoscaler.template_resource_slices);
}

TEST(AutoscalingReaderTest, KarpenterSettings) {
  const Scenario s = Read(
      "    - name: g\n"
      "      gpu: L4\n"
      "      gpus_per_node: 4\n"
      "      nodes: 1\n"
      "      autoscaling:\n"
      "        provider: karpenter\n"
      "        min: 0\n"
      "        max: 8\n"
      "        karpenter:\n"
      "          consolidation_policy: WhenEmpty\n"
      "          consolidate_after_s: 120\n"
      "          limits: {cpu: 1000, memory: 1000Gi, nvidia.com/gpu: 16}\n"
      "          instance_types:\n"
      "            - {name: g6.12xlarge, gpus: 4, price_per_hour: 4.6,\n"
      "               spot_price_per_hour: 2.1}\n"
      "          spot: true\n"
      "          spot_interruptions_per_node_hour: 0.05\n");
  const KarpenterSettings& k = s.pools[0].autoscaling.karpenter;
  EXPECT_EQ(s.pools[0].autoscaling.provider, AutoscalerProvider::kKarpenter);
  EXPECT_FALSE(k.consolidate_when_underutilized);
  EXPECT_EQ(k.consolidate_after_s, 120);
  EXPECT_EQ(k.limits.at("cpu"), 1000000);          // millicores
  EXPECT_EQ(k.limits.at("memory"), 1000 * 1024);   // MiB
  EXPECT_EQ(k.limits.at("nvidia.com/gpu"), 16);
  ASSERT_EQ(k.instance_types.size(), 1u);
  EXPECT_EQ(k.instance_types[0].gpus, 4);
  EXPECT_EQ(k.instance_types[0].spot_price_per_hour, 2.1);
  EXPECT_TRUE(k.spot);
  EXPECT_EQ(k.spot_interruptions_per_node_hour, 0.05);
  EXPECT_EQ(k.batch_idle_duration_s, 1);
  EXPECT_EQ(k.batch_max_duration_s, 10);
}

TEST(AutoscalingReaderTest, BadValuesAtTheirLine) {
  EXPECT_EQ(ErrorOf("    - name: g\n"
                    "      gpu: L4\n"
                    "      nodes: 3\n"
                    "      autoscaling: {provider: karpenter, min: 0, max: 2}\n"),
            "s.yaml:5:7: pool 'g' nodes: 3 nodes at the start, outside "
            "autoscaling's range min 0 .. max 2");
  EXPECT_EQ(ErrorOf("    - name: g\n"
                    "      gpu: L4\n"
                    "      nodes: 0\n"),
            "s.yaml:5:14: pool 'g' nodes: 0 is out of range (expected "
            "1..1000000)");
}

}  // namespace
}  // namespace gpushare
