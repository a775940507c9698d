// The scenario's queues section (Kueue) and the classes' queue key.

#include "gpushare/scenario/queue_reader.h"

#include <gtest/gtest.h>

#include "gpushare/io/input_error.h"
#include "gpushare/scenario/scenario_reader.h"

namespace gpushare {
namespace queue_reader_test {
namespace {

constexpr const char* kCluster = R"(cluster:
  pools:
    - {name: train, gpu: H100-80GB, nodes: 2}
    - {name: dev, gpu: L4, nodes: 1}
workload:
  classes:
    - {name: job, class: training, count: 1, tenants: [team-a], queue: lq}
)";

Scenario Read(const std::string& text) {
  static const Catalog catalog = Catalog::Builtin();
  return ReadScenarioYaml(std::string(kCluster) + text, "s.yaml", catalog);
}

std::string Error(const std::string& text) {
  try {
    Read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kQueues = R"(queues:
  cluster_queues:
    - name: team-a
      cohort: org
      queueing_strategy: StrictFIFO
      preemption:
        within_cluster_queue: LowerOrNewerEqualPriority
        reclaim_within_cohort: Any
        borrow_within_cohort: {policy: LowerPriority, max_priority_threshold: 50}
      resource_groups:
        - flavors:
            - name: train
              resources:
                - {name: cpu, nominal_quota: 500m}
                - {name: memory, nominal_quota: 2Gi}
                - name: nvidia.com/gpu
                  nominal_quota: 8
                  borrowing_limit: 4
                  lending_limit: "2"
            - name: dev
              resources:
                - {name: cpu, nominal_quota: 1}
                - {name: memory, nominal_quota: 1Gi}
                - {name: nvidia.com/gpu, nominal_quota: 0}
  local_queues:
    - {name: lq, namespace: team-a, cluster_queue: team-a}
)";

TEST(QueueReaderTest, ReadsFlavorsQueuesAndLocalQueues) {
  const Scenario s = Read(kQueues);
  const KueueConfig& q = s.queues;
  ASSERT_TRUE(q.enabled());
  // No resource_flavors: one per pool.
  ASSERT_EQ(q.resource_flavors.size(), 2u);
  EXPECT_EQ(q.resource_flavors[0].name, "train");
  EXPECT_EQ(q.resource_flavors[0].node_labels.at("gpushare.io/node-pool"),
            "train");
  const ClusterQueueSpec& cq = q.cluster_queues[0];
  EXPECT_EQ(cq.cohort, "org");
  EXPECT_EQ(cq.queueing_strategy, QueueingStrategy::kStrictFifo);
  EXPECT_EQ(cq.within_cluster_queue,
            KueuePreemptionPolicy::kLowerOrNewerEqualPriority);
  EXPECT_EQ(cq.reclaim_within_cohort, KueuePreemptionPolicy::kAny);
  EXPECT_EQ(cq.borrow_within_cohort, KueuePreemptionPolicy::kLowerPriority);
  EXPECT_EQ(cq.borrow_max_priority_threshold, 50);
  const ResourceGroupSpec& g = cq.resource_groups[0];
  EXPECT_EQ(g.covered_resources,
            (std::vector<std::string>{"cpu", "memory", "nvidia.com/gpu"}));
  const ResourceQuotaSpec& cpu = g.flavors[0].resources[0];
  EXPECT_EQ(cpu.nominal_quota, 500);                         // millicores
  EXPECT_EQ(g.flavors[0].resources[1].nominal_quota, 2048);  // MiB
  const ResourceQuotaSpec& gpu = g.flavors[0].resources[2];
  EXPECT_EQ(gpu.nominal_quota, 8);
  EXPECT_EQ(gpu.borrowing_limit, 4);
  EXPECT_EQ(gpu.lending_limit, 2);
  EXPECT_FALSE(g.flavors[1].resources[2].borrowing_limit.has_value());
  EXPECT_EQ(q.local_queues[0].namespace_name, "team-a");
  EXPECT_EQ(s.workload.classes[0].queue_name, "lq");
}

std::string With(const std::string& from, const std::string& to) {
  std::string text = kQueues;
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(QueueReaderTest, RefusesWhatKueueRejects) {
  EXPECT_EQ(Error(With("name: train\n", "name: trian\n")),
            "s.yaml:19:21: flavor quota: no resource flavor is named 'trian'; "
            "did you mean train? (flavors: train, dev)");
  EXPECT_EQ(Error(With("lending_limit: \"2\"", "lending_limit: 9")),
            "s.yaml:26:34: resource quota: lending_limit: must not exceed "
            "nominal_quota");
  EXPECT_EQ(Error(With("nominal_quota: 500m", "nominal_quota: -1")),
            "s.yaml:21:46: resource quota: nominal_quota: -1 must not be "
            "negative");
  EXPECT_EQ(Error(With("nominal_quota: 500m", "nominal_quota: lots")),
            "s.yaml:21:46: resource quota: nominal_quota: 'lots' is not a "
            "Kubernetes quantity (no digits; e.g. 500m, 2, 1.5, 16Gi, 1e3, "
            "2k)");
  EXPECT_NE(Error(With("{name: memory, nominal_quota: 1Gi}",
                       "{name: mem, nominal_quota: 1Gi}"))
                .find("resources: must list the group's covered resources in "
                      "order (cpu, memory, nvidia.com/gpu), got cpu, mem, "
                      "nvidia.com/gpu"),
            std::string::npos);
  EXPECT_NE(
      Error(With("cohort: org\n      ", ""))
          .find("borrowing_limit: only a ClusterQueue in a cohort may borrow "
                "or lend"),
      std::string::npos);
  EXPECT_NE(Error(With("reclaim_within_cohort: Any",
                       "reclaim_within_cohort: "
                       "Never"))
                .find("needs reclaim_within_cohort other than Never"),
            std::string::npos);
  EXPECT_NE(Error(With("within_cluster_queue: LowerOrNewerEqualPriority",
                       "within_cluster_queue: Any"))
                .find("unknown policy 'Any'; did you mean Never? (allowed: "
                      "Never, LowerPriority, LowerOrNewerEqualPriority)"),
            std::string::npos);
  EXPECT_NE(Error(With("cluster_queue: team-a}", "cluster_queue: team-b}"))
                .find("no ClusterQueue is named 'team-b'; did you mean "
                      "team-a?"),
            std::string::npos);
  EXPECT_NE(Error(With("namespace: team-a,", "namespace: other,"))
                .find("s.yaml:7:72: class 'job' queue: namespace 'team-a' has "
                      "no LocalQueue 'lq'"),
            std::string::npos);
  EXPECT_NE(Error(With("queueing_strategy: StrictFIFO",
                       "queueing_strategy: StrictFifo"))
                .find("unknown strategy 'StrictFifo'; did you mean "
                      "StrictFIFO?"),
            std::string::npos);
}

TEST(QueueReaderTest, AClassQueueNeedsAQueuesSection) {
  EXPECT_NE(Error("").find("namespace 'team-a' has no LocalQueue 'lq'"),
            std::string::npos);
}

}  // namespace
}  // namespace queue_reader_test
}  // namespace gpushare
