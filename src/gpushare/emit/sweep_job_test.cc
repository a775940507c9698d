#include "gpushare/emit/sweep_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "gpushare/io/input_error.h"

namespace gpushare {
namespace sweep_job_test {
namespace {

using ::testing::HasSubstr;

SweepJobSpec Spec(const std::string& scenario) {
  SweepJobSpec spec;
  spec.image = "registry.example.com/gpushare-sim:0.1.0";
  spec.shards = 5;
  spec.scenario_text = scenario;
  spec.grid_text = "cross:\n  seed: [1, 2]\n";
  return spec;
}

TEST(SweepJobTest, ConfigMapHoldsTheFilesByteForByte) {
  for (const std::string& text :
       {std::string("name: a\nseed: 1\n"), std::string("name: a"),
        std::string("name: a\n\n\n"), std::string("  name: a\n"),
        std::string("name: a\r\nseed: 1\r\n"), std::string("a:\n\tb\n"),
        std::string("\nname: a\n"), std::string("k: \"q\\\\\" # ü\n")}) {
    const std::vector<YAML::Node> docs =
        YAML::LoadAll(SweepJobYaml(Spec(text)));
    ASSERT_EQ(docs.size(), 3u);
    EXPECT_EQ(docs[0]["kind"].as<std::string>(), "ConfigMap");
    EXPECT_EQ(docs[0]["data"]["scenario.yaml"].as<std::string>(), text);
    EXPECT_EQ(docs[0]["data"]["grid.yaml"].as<std::string>(),
              "cross:\n  seed: [1, 2]\n");
  }
}

TEST(SweepJobTest, IndexedJobShape) {
  SweepJobSpec spec = Spec("name: a\n");
  spec.parallelism = 2;
  spec.threads = 3;
  spec.namespace_name = "sim";
  const std::vector<YAML::Node> docs = YAML::LoadAll(SweepJobYaml(spec));
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_EQ(docs[1]["kind"].as<std::string>(), "PersistentVolumeClaim");
  EXPECT_EQ(docs[1]["metadata"]["name"].as<std::string>(),
            "gpushare-sweep-results");
  const YAML::Node job = docs[2];
  EXPECT_EQ(job["apiVersion"].as<std::string>(), "batch/v1");
  EXPECT_EQ(job["metadata"]["namespace"].as<std::string>(), "sim");
  EXPECT_EQ(job["spec"]["completionMode"].as<std::string>(), "Indexed");
  EXPECT_EQ(job["spec"]["completions"].as<int>(), 5);
  EXPECT_EQ(job["spec"]["parallelism"].as<int>(), 2);
  const YAML::Node pod = job["spec"]["template"]["spec"];
  EXPECT_EQ(pod["restartPolicy"].as<std::string>(), "Never");
  const YAML::Node c = pod["containers"][0];
  EXPECT_EQ(c["image"].as<std::string>(), spec.image);
  std::vector<std::string> args;
  for (const YAML::Node& a : c["args"]) args.push_back(a.as<std::string>());
  EXPECT_EQ(args,
            (std::vector<std::string>{"sweep", "/input/scenario.yaml", "--grid",
                                      "/input/grid.yaml", "--shard",
                                      "$(JOB_COMPLETION_INDEX)/5", "--out",
                                      "/results/shard-$(JOB_COMPLETION_INDEX)",
                                      "--threads", "3", "--quiet"}));
  EXPECT_EQ(c["resources"]["requests"]["cpu"].as<std::string>(), "3");
  EXPECT_EQ(pod["volumes"][0]["configMap"]["name"].as<std::string>(),
            "gpushare-sweep-input");
  const std::vector<YAML::Node> merge = YAML::LoadAll(SweepMergeJobYaml(spec));
  ASSERT_EQ(merge.size(), 1u);
  EXPECT_EQ(merge[0]["metadata"]["name"].as<std::string>(),
            "gpushare-sweep-merge");
  EXPECT_THAT(merge[0]["spec"]["template"]["spec"]["containers"][0]["args"][0]
                  .as<std::string>(),
              HasSubstr("gpushare-sim merge /results/shard-* --out "
                        "/results/merged"));
}

TEST(SweepJobTest, RefusesWhatTheClusterWould) {
  const auto error = [](SweepJobSpec spec) -> std::string {
    try {
      SweepJobYaml(spec);
    } catch (const InputError& e) {
      return e.what();
    }
    return "no error";
  };
  SweepJobSpec s = Spec("name: a\n");
  s.name = std::string(61, 'a');  // 61 + "-4" is 63
  EXPECT_EQ(error(s), "no error");
  s.shards = 11;  // "-10": 64
  EXPECT_THAT(error(s), HasSubstr("at most 60 characters"));
  s = Spec("name: a\n");
  s.image = "a b";
  EXPECT_THAT(error(s), HasSubstr("--image 'a b'"));
  s = Spec("name: a\n");
  s.results_size = "-1Gi";
  EXPECT_THAT(error(s), HasSubstr("--results-size '-1Gi'"));
  s = Spec("workload:\n  trace: {format: openb, file: pods.csv}\n");
  EXPECT_THAT(error(s), HasSubstr("reads other files (workload.trace)"));
  s = Spec("name: a\n");
  s.grid_text = "set:\n  cluster.import.file: n.json\ncross: {seed: [1]}\n";
  EXPECT_THAT(error(s), HasSubstr("reads other files (cluster.import)"));
  s = Spec(std::string(1 << 20, '#') + "\n");
  EXPECT_THAT(error(s), HasSubstr("a ConfigMap holds at most 1 MiB"));
  s = Spec("name: a\n");
  s.shards = 100001;
  EXPECT_THAT(error(s), HasSubstr("--shards 100001"));
}

}  // namespace
}  // namespace sweep_job_test
}  // namespace gpushare
